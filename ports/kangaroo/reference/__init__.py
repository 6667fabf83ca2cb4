"""Kangaroo's ground truth on the emulator: the RAM map, signals, pokes and the ALE halves of its
mods (:mod:`.ram`), each address re-checked by tests/ports/test_kangaroo_ram.py; a clone/restore
player (:mod:`.players`). When the JAX game exists, this package moves to
``alignment/reference/games/kangaroo/`` and builds its ``ENTRY`` from ram.py."""
