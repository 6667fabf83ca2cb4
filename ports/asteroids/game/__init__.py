"""Asteroids' JAX side, being ported: :mod:`.constants` (the cartridge's numbers, each with its
source), :mod:`.positions` (the ROM's one-pixel move tables), the state (:mod:`.state`), the
ship (:mod:`.ship`), the asteroid field (:mod:`.field`), collisions and scoring
(:mod:`.collisions`), splitting and waves (:mod:`.spawn`), hyperspace, deaths and the game's end
(:mod:`.player`), and :mod:`.game` (one emulator frame a step, every mirrored RAM byte equal to
ALE's on every frame of whole games), :mod:`.draw` and :mod:`.art` (the picture, exact on every
frame of whole games, flicker included), :mod:`.objects` (objects and signals, asteroid edge pairs
merged). No ``Game`` subclass yet. Relative imports only: this package moves to ``jaxtari/games/asteroids/``."""
