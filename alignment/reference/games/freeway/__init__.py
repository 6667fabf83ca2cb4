"""Freeway's ground truth: everything the pipeline knows of the game on the emulator's side.

entry.py: the RAM map (each address with its public source), the signal extractors, the pokes and
``ENTRY``, the game's :class:`~alignment.signals.GameEntry`.
"""

from alignment.reference.games.freeway.entry import ENTRY, features, observation_fields

__all__ = ["ENTRY", "features", "observation_fields"]
