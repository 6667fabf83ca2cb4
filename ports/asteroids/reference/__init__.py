"""Asteroids' ground truth on the emulator: the RAM map and its decoders (:mod:`.ram`), each address
re-checked by tests/ports/test_asteroids_ram.py. When the JAX game exists, this package moves to
``alignment/reference/games/asteroids/`` and builds its ``ENTRY`` from ram.py."""
