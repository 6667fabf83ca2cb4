"""Seaquest (Activision, 1983) in pure JAX, frame for frame with ALE's emulation of the cartridge.

Work in progress: see the module docstrings for what is measured.
"""

from .game import Seaquest
from .state import SeaquestState

__all__ = ["Seaquest", "SeaquestState"]
