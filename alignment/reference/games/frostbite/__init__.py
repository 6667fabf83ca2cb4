"""Frostbite's ground truth: everything the pipeline knows of the game on the emulator's side.

entry.py: the RAM map (each address with its public source), the signal extractors, the pokes and
``ENTRY``, the game's :class:`~alignment.signals.GameEntry`.
"""

from alignment.reference.games.frostbite.entry import ENTRY

__all__ = ["ENTRY"]
