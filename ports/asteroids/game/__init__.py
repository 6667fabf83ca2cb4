"""Asteroids' JAX side, being ported: only :mod:`.constants` so far (the cartridge's numbers, each
with its source). Relative imports only: this package moves to ``jaxtari/games/asteroids/``."""
