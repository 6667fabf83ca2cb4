"""Pong (ALE's ``pong.bin``, Atari's "Video Olympics" in its one-player Pong game) in pure JAX.

One ``step`` is one emulator frame; the state keeps the ROM's own byte conventions, so each field
compares 1:1 with a RAM byte. Every RAM byte the state mirrors, the reward and the screen agree with
ALE 0.12.1 on every frame tested (README.md: how the real game works, how close this is, the
measurements behind each number).

Files: constants.py (every number), state.py (which RAM byte each field mirrors), game.py (the
frame), objects.py (objects and signals), draw.py (the picture), mods.py.
"""

from jaxtari.games.pong.constants import PongConstants
from jaxtari.games.pong.game import Pong
from jaxtari.games.pong.state import PongState

__all__ = ["Pong", "PongConstants", "PongState"]
