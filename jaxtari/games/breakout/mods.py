"""Mods of Breakout (see :mod:`jaxtari.mods`), each changing one thing and nothing else.

- ``no_shrink`` (InternalMod, constants): the paddle keeps its size when the ball reaches the top
  wall: the top wall no longer sets the cartridge's shrink flag (ram[97] bit 7), which is all the
  paddle's width (drawn, and the half-width of the bounce rule) reads; so the flag and the
  observation's ``shrunk`` say the paddle is not shrunk, as on ALE with the flag's bit cleared.
- ``constant_speed`` (InternalMod, swaps ``speed``): the ball never speeds up: whatever the hit
  count (paddle hits, or a brick of the top three rows), the speed is the one of hit counts 0..3 for
  the same angle. The hit count itself still counts, as the original's does.
- ``grey_bricks`` (InternalMod, constants, visual only): every brick row is drawn in the walls'
  grey, like the JAXtari paper's sprite-swap experiments; the game plays exactly as the original.
"""

from __future__ import annotations

from jaxtari.games.breakout import constants as k
from jaxtari.mods import InternalMod


def _constant_speed(self, hits, angle):
    return type(self).speed(self, hits & ~0x3C, angle)


MODS = [
    InternalMod(
        "no_shrink",
        "the paddle keeps its size when the ball reaches the top wall",
        constants={"shrink_on_top_wall": False},
        rules=(),  # the shrink is no rule of the spec
    ),
    InternalMod(
        "constant_speed",
        "the ball never speeds up (the speed of the first hits, whatever the hit count)",
        mechanics={"speed": _constant_speed},
        rules=("physics.ball-speed-after-twelfth",),
    ),
    InternalMod(
        "grey_bricks",
        "every brick row is drawn grey (visual only)",
        constants={"row_colours": (k.BreakoutConstants().wall_colour,) * k.NUM_ROWS},
        rules=(),
    ),
]
