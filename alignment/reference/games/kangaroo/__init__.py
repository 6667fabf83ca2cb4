"""Kangaroo's ground truth, a port in progress: the RAM map, signals, pokes and the ALE halves of
its mods (ram.py), each address re-checked on the emulator by
tests/reference/test_kangaroo_ground_truth.py.

Not in the catalog yet: there is no JAX game (``jaxtari/games/kangaroo/``) to hold it against, so
this package defines ``IN_PROGRESS`` (why) instead of an ``ENTRY``; :mod:`alignment.catalog` lists it
under :func:`alignment.catalog.in_progress` and keeps it out of every game's code hash. When the JAX
game lands, this package builds its ``ENTRY`` from ram.py (signals, pokes with their JAX halves,
the mods' counterparts measured with ``python -m alignment.counterparts``) and drops
``IN_PROGRESS``, in the same change.
"""

from alignment.reference.games.kangaroo import ram  # noqa: F401

IN_PROGRESS = ("the JAX game (jaxtari/games/kangaroo/) is not written yet; the RAM map, signals, "
               "pokes and the ALE halves of no_monkey, no_coconut and frozen_timer are measured on "
               "ALE (tests/reference/test_kangaroo_ground_truth.py)")
