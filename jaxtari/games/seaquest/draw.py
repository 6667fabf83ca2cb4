"""Seaquest's 210x160 picture, as TIA colour bytes line by line, then ALE's palette.

- lines 0..56 (:func:`top_indices`): black, the sky with the score (six digits, leading zeros
  blank) and the reserve subs, the horizon, the surface (the sea's colour with a bit flipped by the
  random byte rotating line by line) with the sub's rows and the patrol sub, a black line;
- lines 57..152 (:func:`colour_indices`): the lanes, from the same object model as the collision
  latches (kernel.py): the sea, the divers and enemy missiles (the ball, colour 0x86), the lanes'
  groups (player 1, the lane's colour byte), the sub (player 0, its colour, or the death
  animation's) and its torpedo (missile 0), in the TIA's priority (players over the ball);
- lines 153..209 (:func:`bottom_indices`): seaweed, reef, the sea floor with the oxygen bar
  (blinking black when low) and the rescued divers, the logo.
The HMOVE bar (columns 0..7) is black. The picture reads the values the cartridge's kernel read,
before the frame's overscan changed them (the state's ``shown_*`` fields). Not modelled: the
logo's scroll after the game is over.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from jaxtari.games.seaquest import art
from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest import kernel
from jaxtari.games.seaquest.logic import BYTE, colour_mods, pick
from jaxtari.atari.palette import PALETTE

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
    picture = picture.at[:LANES_TOP].set(top_indices(s))
    picture = picture.at[LANES_END:].set(bottom_indices(s))
    return picture.at[LANES_TOP:LANES_END].set(band)


def render(s):
    """The 210x160x3 picture (uint8 RGB)."""
    return jnp.asarray(PALETTE)[colour_indices(s) >> 1]


def render_gray84(s):
    """The 84x84 grey picture: the colour bytes at the pixels :data:`jaxtari.render.SMALL_GRAY`
    samples, through ALE's grey levels. Not yet drawn directly at 84x84: the full picture's
    colour bytes are built first (cheap next to the frame), then sampled."""
    from jaxtari import render as r

    grey = jnp.asarray(r.gray(PALETTE))
    raster = r.SMALL_GRAY
    return grey[colour_indices(s)[raster.ys, raster.xs] >> 1]


# ---- above the lanes ---------------------------------------------------------------------------
TOP_BLACK = 7  # lines 0..6: black (the HMOVE bar and the sky start on line 7)
SKY = 0x84
SCORE_COLOUR = 0x1A
DIGITS_TOP, DIGIT_X, DIGIT_STEP, DIGIT_COUNT = 9, 58, 8, 6
RESERVE_TOP = 22
RESERVE_X = (58, 66, 74, 82, 90, 98)  # the n-th reserve sub's x (players 0/1 alternating)
HORIZON_TOP = 33
HORIZON = (0x74, 0x74, 0x64, 0x64, 0x54, 0x54, 0x44, 0x44, 0x34, 0x34, 0x24, 0x14)  # lines 33..44
SURFACE_TOP, SURFACE_LINES = 45, 10
PATROL_COLOUR = 0x09
SURFACE_FLICKER = 0x02  # the bit of the sea's colour the random byte flips, line by line
BLACK_LINE = 55  # between the surface and the lanes


def _byte_pixels(byte, rel, reflect=False, scale=1):
    inside = (rel >= 0) & (rel < 8 * scale)
    bit = jnp.where(reflect, rel // scale, 7 - rel // scale)
    return inside & (((byte >> jnp.clip(bit, 0, 7)) & 1) == 1)


def top_indices(s):
    """Lines 0..56 as colour bytes (the score and reserve subs on the sky, the horizon, the
    surface with the sub and the patrol sub, the black line, the sea line above the lanes)."""
    eor, mask = colour_mods(s.color_cycle)
    tint = lambda c: (c ^ eor) & mask  # noqa: E731
    cols = jnp.arange(SCREEN_W)
    out = jnp.zeros((LANES_TOP, SCREEN_W), jnp.int32)
    out = out.at[TOP_BLACK:HORIZON_TOP].set(tint(SKY))
    # the score: six digits, leading zeros blank (the last always shown)
    digits = [(s.score // 10 ** (DIGIT_COUNT - 1 - i)) % 10 for i in range(DIGIT_COUNT)]
    leading = jnp.bool_(True)
    for i, d in enumerate(digits):
        blank = leading & (d == 0) & (i < DIGIT_COUNT - 1)
        leading = blank
        for r in range(8):
            byte = jnp.where(blank, 0, pick([rows[r] for rows in art.DIGITS], d))
            lit = _byte_pixels(byte, cols - (DIGIT_X + DIGIT_STEP * i))
            out = out.at[DIGITS_TOP + r].set(jnp.where(lit, tint(SCORE_COLOUR), out[DIGITS_TOP + r]))
    for r, byte in enumerate(art.RESERVE_SUB):
        line = out[RESERVE_TOP + r]
        for n, x in enumerate(RESERVE_X):
            lit = (s.reserve_subs > n) & _byte_pixels(jnp.int32(byte), cols - x)
            line = jnp.where(lit, tint(SCORE_COLOUR), line)
        out = out.at[RESERVE_TOP + r].set(line)
    for i, c in enumerate(HORIZON):
        out = out.at[HORIZON_TOP + i].set(tint(c))
    # the surface: the sea's colour with one bit flipped by the random byte rotating line by line
    sea = tint(SEA)
    tmp = s.shown_random
    shown = s.replace(sub_animation=s.shown_sub_animation)
    sub_colour = jnp.where(s.death != 0, pick(k.DEATH_COLOURS, jnp.maximum(s.death, 1) - 1),
                           SUB_COLOUR)
    px = jnp.where(s.patrol_x < SCREEN_W, s.patrol_x, 0)
    for i in range(SURFACE_LINES):
        x = SURFACE_LINES - 1 - i
        tmp = ((tmp << 1) | (tmp >> 7)) & BYTE
        line = jnp.full(SCREEN_W, sea ^ (tmp & SURFACE_FLICKER), jnp.int32)
        if x >= 2:
            row = (s.sub_y - (SURFACE_LINES - x)) & BYTE
            sub_byte = jnp.where(row < kernel.SUB_ROWS_DRAWN,
                                 kernel._page(kernel._sub_rows(shown) + row), 0)
            patrol_byte = kernel._page(kernel.patrol_rows(s, s.shown_sub_animation) + x)
            line = jnp.where(_byte_pixels(patrol_byte, cols - px, True), tint(PATROL_COLOUR),
                             line)
            line = jnp.where(_byte_pixels(sub_byte, (cols - s.sub_x) % SCREEN_W,
                                          s.sub_direction != 0, 2), tint(sub_colour), line)
        out = out.at[SURFACE_TOP + i].set(line)
    out = out.at[BLACK_LINE].set(0)
    out = out.at[BLACK_LINE + 1].set(sea)
    return jnp.where((cols[None, :] < HMOVE_BAR) | (jnp.arange(LANES_TOP)[:, None] < TOP_BLACK),
                     0, out)


# ---- below the lanes ---------------------------------------------------------------------------
SEAWEED = (0xA0, 0xA0, 0xB0, 0xB0, 0xC0, 0xC0, 0xC0, 0xC0)  # lines 153..160
REEF_TOP, FLOOR_END = 161, 188
SEA_FLOOR = 0x06
OXYGEN_TOP, OXYGEN_LINES = 170, 5
OXYGEN_LEFT, OXYGEN_RIGHT = 49, 112  # the bar's columns
OXYGEN_BAR, OXYGEN_EMPTY = 0x0C, 0x32
DIVERS_TOP = 178
DIVERS_COLOUR = 0x82
DIVERS_BLINK = 0x08  # frame counter bit
LOGO_TOP, LOGO_COLOUR = 191, 0x86
BLINK = 0x10  # the low-oxygen bar is black while the frame counter's bit 4 is clear


def _mask(text):
    return np.asarray([c == "#" for c in text.ljust(SCREEN_W, ".")], bool)


def bottom_indices(s):
    """Lines 153..209 as colour bytes: seaweed, reef, sea floor with the oxygen bar and the rescued
    divers, the logo."""
    eor, mask = colour_mods(s.color_cycle)
    tint = lambda c: (c ^ eor) & mask  # noqa: E731
    cols = jnp.arange(SCREEN_W)
    out = jnp.zeros((SCREEN_H - LANES_END, SCREEN_W), jnp.int32)
    at = lambda line: line - LANES_END  # noqa: E731
    for i, c in enumerate(SEAWEED):
        out = out.at[at(LANES_END + i)].set(tint(c))
    floor = tint(SEA_FLOOR)
    out = out.at[at(REEF_TOP):at(FLOOR_END)].set(floor)
    for i, text in enumerate(art.REEF):
        out = out.at[at(REEF_TOP + i)].set(jnp.where(jnp.asarray(_mask(text)), floor,
                                                     tint(SEAWEED[-1])))
    low = ((s.sub_y != k.SUB_Y_MIN) & (s.oxygen != 0) & (s.death == 0)
           & (s.oxygen <= k.OXYGEN_WARNING_LEVEL) & ((s.frame_count & BLINK) == 0))
    bar = jnp.where(low, 0, tint(OXYGEN_BAR))
    # measured: with no oxygen the empty bar starts one column further left
    in_bar = (cols >= OXYGEN_LEFT - (s.oxygen == 0)) & (cols < OXYGEN_RIGHT)
    full = (cols >= OXYGEN_LEFT) & (cols < OXYGEN_LEFT + s.oxygen)
    for i, text in enumerate(art.OXYGEN_LABEL):
        line = jnp.where(in_bar, jnp.where(full, bar, tint(OXYGEN_EMPTY)), floor)
        out = out.at[at(OXYGEN_TOP + i)].set(jnp.where(jnp.asarray(_mask(text)), 0, line))
    # six divers carried under water: the indicator blinks (drawn in the floor's colour)
    blink = ((s.divers == k.MAX_DIVERS) & (s.sub_y != k.SUB_Y_MIN)
             & ((s.frame_count & DIVERS_BLINK) == 0))
    divers_colour = tint(jnp.where(blink, SEA_FLOOR, DIVERS_COLOUR))
    for r, byte in enumerate(art.RESCUED_DIVER):
        line = out[at(DIVERS_TOP + r)]
        for n, x in enumerate(RESERVE_X):
            lit = (s.divers > n) & _byte_pixels(jnp.int32(byte), cols - x)
            line = jnp.where(lit, divers_colour, line)
        out = out.at[at(DIVERS_TOP + r)].set(line)
    for i, text in enumerate(art.LOGO):
        lit = jnp.asarray(np.roll(_mask(text), art.LOGO_LEFT))
        out = out.at[at(LOGO_TOP + i)].set(jnp.where(lit, tint(LOGO_COLOUR), 0))
    lines = jnp.arange(LANES_END, SCREEN_H)[:, None]
    return jnp.where((cols[None, :] < HMOVE_BAR) & (lines < FLOOR_END), 0, out)
