"""Seaquest's picture, as far as it is drawn yet: the sea's lanes (screen lines 57..152), built
line by line from the same object model as the collision latches (kernel.py): the sea, the
divers and enemy missiles (the ball, colour 0x86), the lanes' groups (player 1, the lane's colour
byte), the sub (player 0, its colour, or the death animation's) and its torpedo (missile 0), in the
TIA's priority (players over the ball over the sea), the HMOVE bar black. Every other line is
black for now (not drawn yet): see ports/seaquest/README.md.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from . import constants as k
from . import kernel
from .logic import BYTE, colour_mods, pick
from .palette import PALETTE

SCREEN_H, SCREEN_W = 210, 160
LANES_TOP, LANES_END = 57, 153  # the four 24-line lane sections
HMOVE_BAR = 8
SEA = 0x90
BALL_COLOUR = 0x86  # measured: the divers' and missiles' colour (the ball uses COLUPF)
SUB_COLOUR = 0x18


def colour_indices(s):
    """(210, 160) TIA colour bytes of the picture of state ``s``."""
    eor, mask = colour_mods(s.color_cycle)
    lines = np.arange(LANES_TOP, LANES_END)
    cols = jnp.arange(SCREEN_W)
    n_lines = len(lines)
    lane = kernel_lane = (k.NUM_LANES - 1) - (lines - LANES_TOP) // kernel.SECTION_LINES
    section_line = (lines - LANES_TOP) % kernel.SECTION_LINES + 1  # 1..24
    loop = (section_line >= 9) & (section_line <= 23)
    loop_index = np.clip(section_line - 9, 0, kernel.LOOP_LINES - 1)  # 0: row 14
    graphic, pos, n, reflect, ball_x, size = kernel._lane_geometry(
        s.replace(sub_animation=s.shown_sub_animation))
    g = graphic[kernel_lane, loop_index]
    p = pos[lane]
    nn = n[lane]
    r = reflect[lane]
    group = jnp.asarray(loop)[:, None] & kernel._group_lit(
        g[:, None], p[:, None], nn[:, None], r[:, None], cols[None, :])
    bx, bs = ball_x[kernel_lane, loop_index], size[kernel_lane, loop_index]
    ball = jnp.asarray(loop)[:, None] & (((cols[None, :] - bx[:, None]) % SCREEN_W) < bs[:, None])
    row = (s.sub_y + kernel.SUB_ROW_LINE - jnp.asarray(lines)) & BYTE
    shown = s.replace(sub_animation=s.shown_sub_animation)
    sub_graphic = jnp.where(row < kernel.SUB_ROWS_DRAWN,
                            kernel._page(kernel._sub_rows(shown) + row), 0)
    sub = kernel._bits(sub_graphic[:, None], (cols[None, :] - s.sub_x) % SCREEN_W,
                       s.sub_direction != 0, scale=2)
    torpedo = (row == kernel.TORPEDO_ROW)[:, None] & (
        ((cols[None, :] - s.torpedo_x) % SCREEN_W) < k.TORPEDO_WIDTH)
    sub_colour = jnp.where(s.death != 0, pick(k.DEATH_COLOURS, jnp.maximum(s.death, 1) - 1),
                           SUB_COLOUR)
    tint = lambda c: (c ^ eor) & mask  # noqa: E731
    band = jnp.full((n_lines, SCREEN_W), tint(SEA), jnp.int32)
    band = jnp.where(ball, tint(BALL_COLOUR), band)
    band = jnp.where(group, s.shown_colours[lane][:, None], band)
    band = jnp.where(sub | torpedo, tint(sub_colour), band)
    band = jnp.where(cols[None, :] < HMOVE_BAR, 0, band)
    picture = jnp.zeros((SCREEN_H, SCREEN_W), jnp.int32)
    return picture.at[LANES_TOP:LANES_END].set(band)


def render(s):
    """The 210x160x3 picture (uint8 RGB)."""
    return jnp.asarray(PALETTE)[colour_indices(s) >> 1]
