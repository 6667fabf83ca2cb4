"""Asteroids' JAX side, being ported: :mod:`.constants` (the cartridge's numbers, each with its
source), :mod:`.positions` (the ROM's one-pixel move tables), and the ship (:mod:`.state`,
:mod:`.ship`, :mod:`.game`: one emulator frame a step, in lockstep with ALE's RAM where nothing
collides). Relative imports only: this package moves to ``jaxtari/games/asteroids/``."""
