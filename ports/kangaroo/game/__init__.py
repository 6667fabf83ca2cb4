"""Kangaroo (Atari, 1983) in pure JAX, frame for frame with ALE's emulation of the cartridge.

Work in progress: see the module docstrings for what is measured.
"""

from .game import Kangaroo
from .state import KangarooState

__all__ = ["Kangaroo", "KangarooState"]
