"""Asteroids' JAX side, being ported, laid out as jaxtari/games/<game>/ (tests/test_game_layout.py):
:mod:`.constants` (the cartridge's numbers, each with its source), :mod:`.state`, :mod:`.game` (one
emulator frame a step, every mirrored RAM byte equal to ALE's on every frame of whole games),
:mod:`.logic` (ship, field, collisions, splitting and waves, hyperspace and deaths, the ROM's move
tables), :mod:`.draw` and :mod:`.art` (the picture, exact on every frame of whole games, flicker
included), :mod:`.objects` (objects and signals, asteroid edge pairs merged). Not yet: the ``Game``
subclass and its Constants dataclass, README.md (ports/asteroids/NOTES.md for now), mods.py.
Relative imports only: this package moves to ``jaxtari/games/asteroids/``."""
