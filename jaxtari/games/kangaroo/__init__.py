"""Kangaroo (Atari, 1983) in pure JAX, frame for frame with ALE's emulation of the cartridge.

The state mirrors the cartridge's RAM bytes of the game's logic and one step runs the cartridge's
frame in its order; the 210x160 picture is the kernel's object model, the 84x84 grey picture drawn
directly at that size. Every mirrored byte, the score, reward, lives, end and picture agree with
ALE on every frame of the lockstep tests (tests/games/test_kangaroo_*.py). Every tunable number is
a field of ``KangarooConstants`` (constants.py). README.md has the long description: how the real
game works, how close the port is, where it differs.
"""

from jaxtari.games.kangaroo.constants import KangarooConstants
from jaxtari.games.kangaroo.game import Kangaroo
from jaxtari.games.kangaroo.state import KangarooState

__all__ = ["Kangaroo", "KangarooConstants", "KangarooState"]
