"""Seaquest's picture, as TIA colour bytes at any lines and columns, then ALE's palette: all
210x160 pixels for :func:`render`, and only the 84x84 that :data:`jaxtari.render.SMALL_GRAY`
samples for :func:`render_gray84` (drawn directly at that size: every pixel is the same function
of its line and column, so the small picture is the full one's samples, bit for bit).

- lines 0..56 (:func:`top_indices`): black, the sky with the score (six digits, leading zeros
  blank) and the reserve subs, the horizon, the surface (the sea's colour with a bit flipped by the
  random byte rotating line by line) with the sub's rows and the patrol sub, a black line;
- lines 57..152 (:func:`lane_indices`): the lanes, from the same object model as the collision
  latches (logic/latches.py): the sea, the divers and enemy missiles (the ball, colour 0x86), the lanes'
  groups (player 1, the lane's colour byte), the sub (player 0, its colour, or the death
  animation's) and its torpedo (missile 0), in the TIA's priority (players over the ball);
- lines 153..209 (:func:`bottom_indices`): seaweed, reef, the sea floor with the oxygen bar
  (blinking black when low) and the rescued divers, the logo (or, once the game is over, the
  copyright line scrolling in over it: :func:`logo_pointer`).
The HMOVE bar (columns 0..7) is black. The picture reads the values the cartridge's kernel read,
before the frame's overscan changed them (the state's ``shown_*`` fields, and
:func:`shown_scroll`).

Under the consts' ``sprites_as_boxes`` switch (the rectangles mod) the moving objects (the sub, its
torpedo, the lanes' groups, the divers and missiles, the patrol sub) are not drawn, and each box
:func:`jaxtari.games.seaquest.objects.groups` reports is painted solid in :data:`BOX_COLOUR`
instead (:func:`boxed`); the reserve subs, the rescued divers and everything else are as before.

:func:`render_gray84` has two forms with the same pixels, picked by the platform it is compiled
for: on the CPU the colour bytes with the tables read by index, then each pixel's grey level
read from ALE's table (:func:`gray84_indexed`); on an accelerator every table read by masks
(logic/reads.py says why) and each colour turned grey before it is painted, so that no pixel
reads a table (:func:`gray84_masked`, :func:`shaded`). Measured on the CPU, the masked form is
several times slower there.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.games.seaquest import art
from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest import objects
from jaxtari.games.seaquest.logic import latches
from jaxtari.games.seaquest.logic.common import BYTE, DEFAULTS, colour_mods
from jaxtari.games.seaquest.logic.reads import INDEXED, MASKED
from jaxtari.atari.palette import PALETTE
from jaxtari.render import SMALL_GRAY, gray

SCREEN_H, SCREEN_W = 210, 160
LANES_TOP, LANES_END = 57, 153  # the four 24-line lane sections
HMOVE_BAR = 8
SEA = 0x90
BALL_COLOUR = 0x86  # measured: the divers' and missiles' colour (the ball uses COLUPF)
SUB_COLOUR = 0x18
ALL_LINES, ALL_COLUMNS = np.arange(SCREEN_H), np.arange(SCREEN_W)
# The rectangles mod's one colour for every moving object: white, the brightest grey level, which
# no sea, sky or lane shows (the sub flashes it only while exploding).
BOX_COLOUR = 0x0E


def sprites_shown(c):
    """Whether the moving objects' sprites are drawn: True, unless the ``sprites_as_boxes`` switch
    is on (a Python True, or an array when the switch is data: jaxtari.variants)."""
    return True if c.sprites_as_boxes is False else jnp.logical_not(c.sprites_as_boxes)


def boxed(s, lines, columns, c, band, tint):
    """``band`` (colour values at ``lines`` x ``columns``) with the objects' boxes painted in the
    ``tint`` of :data:`BOX_COLOUR` where the ``sprites_as_boxes`` switch is on; as it is when the
    switch is a Python False (nothing traced)."""
    if c.sprites_as_boxes is False:
        return band
    ys = jnp.asarray(np.asarray(lines).ravel())[None, :]
    xs = jnp.asarray(np.asarray(columns).ravel())[None, :]
    boxes = objects.groups(c, s).values()
    top, left, height, width, active = (jnp.concatenate([jnp.ravel(getattr(g, f)) for g in boxes])
                                        [:, None] for f in ("y", "x", "h", "w", "active"))
    rows = (ys >= top) & (ys < top + height) & active  # (box, line)
    cols = (xs >= left) & (xs < left + width)  # (box, column)
    # a pixel is inside a box where its line is in the box's rows and its column in its columns:
    # the count of such boxes is a contraction over the boxes (exact: a few ones summed)
    count = jnp.einsum("bl,bc->lc", rows.astype(jnp.float32), cols.astype(jnp.float32))
    return jnp.where(jnp.logical_and(c.sprites_as_boxes, count > 0), tint(BOX_COLOUR), band)


def colour_bytes(colour):
    """The shade of :func:`colour_indices`: the TIA colour byte itself."""
    return colour


def colour_indices(s, lines=ALL_LINES, columns=ALL_COLUMNS, swap=None, c=DEFAULTS):
    """TIA colour bytes of the picture of state ``s`` at ``lines`` x ``columns`` (static, lines
    ascending): (210, 160) by default. ``swap``: see :func:`lane_indices`; ``c``: the game's
    consts."""
    return shaded(s, lines, columns, swap, c)


def shaded(s, lines, columns, swap=None, c=DEFAULTS, reads=INDEXED, shade=colour_bytes):
    """The picture of state ``s`` at ``lines`` x ``columns`` (static, lines ascending), each pixel
    ``shade`` of its colour byte (an elementwise function; applied to each colour before it is
    painted, so a per-pixel table lookup after the picture is drawn is not needed), its tables
    read in the form ``reads`` (logic/reads.py)."""
    lines, columns = np.asarray(lines).ravel(), np.asarray(columns).ravel()
    if np.any(np.diff(lines) <= 0):
        raise ValueError(f"Seaquest's picture: the lines must be ascending, each once; got "
                         f"{lines.tolist()}: pass them sorted")
    top, bottom = lines[lines < LANES_TOP], lines[lines >= LANES_END]
    lanes = lines[(lines >= LANES_TOP) & (lines < LANES_END)]
    parts = ([top_indices(s, top, columns, c, reads, shade)] if top.size else []) + (
        [lane_indices(s, lanes, columns, swap, c, reads, shade)] if lanes.size else []) + (
        [bottom_indices(s, bottom, columns, c, reads, shade)] if bottom.size else [])
    return jnp.concatenate(parts)


def lane_indices(s, lines, columns, swap=None, c=DEFAULTS, reads=INDEXED, shade=colour_bytes):
    """The lane sections' lines (57..152) as colour bytes at ``columns`` (``shade`` and ``reads``:
    see :func:`shaded`). ``swap`` (a visual
    mod's; None: the cartridge's picture): ``(sub colour, shark colours by difficulty & 7)``, each
    lane's group drawn as the other kind, in that kind's colour byte (a shark as an enemy sub in
    the subs' colour, an enemy sub as a shark in the wave's shark colour); the positions, copies,
    facing and animation frame are the lane's own, and the latches (logic/latches.py) never see it."""
    eor, mask = colour_mods(s.color_cycle)
    cols = jnp.asarray(columns)
    lane = (k.NUM_LANES - 1) - (lines - LANES_TOP) // latches.SECTION_LINES
    section_line = (lines - LANES_TOP) % latches.SECTION_LINES + 1  # 1..24
    loop = (section_line >= 9) & (section_line <= 23)
    loop_index = np.clip(section_line - 9, 0, latches.LOOP_LINES - 1)  # 0: row 14
    lane_row = lane * latches.LOOP_LINES + loop_index  # the line's entry of a (lane, row) table
    shown = s.replace(sub_animation=s.shown_sub_animation)
    graphic, pos, n, reflect, ball_x, size = latches._lane_geometry(
        shown, swapped=swap is not None, c=c, reads=reads)
    g = reads.spread(graphic.reshape(-1), lane_row)
    p = reads.spread(pos, lane)
    nn = reads.spread(n, lane)
    r = reads.spread(reflect, lane)
    group = jnp.asarray(loop)[:, None] & latches._group_lit(
        g[:, None], p[:, None], nn[:, None], r[:, None], cols[None, :])
    bx, bs = reads.spread(ball_x.reshape(-1), lane_row), reads.spread(size.reshape(-1), lane_row)
    ball = jnp.asarray(loop)[:, None] & (((cols[None, :] - bx[:, None]) % SCREEN_W) < bs[:, None])
    row = (s.sub_y + latches.SUB_ROW_LINE - jnp.asarray(lines)) & BYTE
    sub_graphic = jnp.where(row < latches.SUB_ROWS_DRAWN,
                            latches._page(latches._sub_rows(shown, c, reads) + row, reads), 0)
    sub = latches._bits(sub_graphic[:, None], (cols[None, :] - s.sub_x) % SCREEN_W,
                       s.sub_direction != 0, scale=2)
    torpedo = (row == latches.TORPEDO_ROW)[:, None] & (
        ((cols[None, :] - s.torpedo_x) % SCREEN_W) < c.torpedo_width)
    drawn = sprites_shown(c)
    group, ball, sub, torpedo = (m & drawn for m in (group, ball, sub, torpedo))
    tint = lambda c: shade((c ^ eor) & mask)  # noqa: E731
    band = jnp.full((len(lines), len(columns)), tint(SEA), jnp.int32)
    band = jnp.where(ball, tint(BALL_COLOUR), band)
    colours = s.shown_colours
    if swap is not None:
        sub_colour_byte, shark_colours = swap
        is_sub = (s.attributes & k.ATTR_SUB) != 0
        colours = (jnp.where(is_sub, reads.pick(shark_colours, s.difficulty & 7), sub_colour_byte)
                   ^ eor) & mask
    band = jnp.where(group, reads.spread(shade(colours), lane)[:, None], band)
    band = jnp.where(sub | torpedo, tint(sub_colour(s, c, reads)), band)
    band = boxed(s, lines, columns, c, band, tint)
    return jnp.where(cols[None, :] < HMOVE_BAR, shade(jnp.int32(0)), band)


def sub_colour(s, c, reads):
    """The player's sub's colour byte (before the attract mode's tint): its own, or the death
    animation's."""
    return jnp.where(s.death != 0, reads.pick(c.death_colours, jnp.maximum(s.death, 1) - 1),
                     SUB_COLOUR)


def render(s, swap=None, c=DEFAULTS):
    """The 210x160x3 picture (uint8 RGB); ``swap``: see :func:`lane_indices`."""
    return jnp.asarray(PALETTE)[colour_indices(s, swap=swap, c=c) >> 1]


GREY_LEVELS = gray(PALETTE)  # ALE's grey level of each colour byte >> 1


def grey_level(colour):
    """ALE's grey level of colour bytes, read by masks (the shade of the accelerator's form)."""
    return MASKED.pick(GREY_LEVELS, colour >> 1)


def render_gray84(s, swap=None, c=DEFAULTS):
    """The 84x84 grey picture: the colour bytes of only the lines and columns
    :data:`jaxtari.render.SMALL_GRAY` samples, through ALE's grey levels. Two forms with equal
    pixels (tests/games/test_seaquest_render.py): on the CPU the colour bytes by indexed reads,
    then each pixel's grey level read from the table; elsewhere (an accelerator) every table read
    by masks and each colour turned grey before it is painted (logic/reads.py says why)."""
    return jax.lax.platform_dependent(s, cpu=lambda s: gray84_indexed(s, swap, c),
                                      default=lambda s: gray84_masked(s, swap, c))


def gray84_indexed(s, swap=None, c=DEFAULTS):
    """:func:`render_gray84`'s CPU form."""
    return jnp.asarray(GREY_LEVELS)[colour_indices(s, SMALL_GRAY.ys, SMALL_GRAY.xs, swap, c) >> 1]


def gray84_masked(s, swap=None, c=DEFAULTS):
    """:func:`render_gray84`'s accelerator form."""
    return shaded(s, SMALL_GRAY.ys, SMALL_GRAY.xs, swap, c, MASKED,
                  grey_level).astype(GREY_LEVELS.dtype)


# ---- the 8-pixel slots of the score's digits, the reserve subs and the rescued divers ----------
SLOTS_X, SLOT_COUNT, SLOT_WIDTH = 58, 6, 8  # six adjacent 8-column slots from column 58


def _slots(columns):
    """Per column: its slot (0..5; 0 outside), whether it is in one, and its bit (7: left)."""
    rel = np.asarray(columns) - SLOTS_X
    inside = (rel >= 0) & (rel < SLOT_COUNT * SLOT_WIDTH)
    return (np.where(inside, rel // SLOT_WIDTH, 0), inside,
            np.where(inside, SLOT_WIDTH - 1 - rel % SLOT_WIDTH, 0))


def _slot_pixels(byte_per_slot, columns, reads):
    """Whether each column shows a lit bit of its slot's byte (``byte_per_slot``: (..., 6))."""
    slot, inside, bit = _slots(columns)
    byte = reads.spread(byte_per_slot, slot)
    return jnp.asarray(inside) & (((byte >> jnp.asarray(bit)) & 1) == 1)


def _shape_pixels(byte, columns, count):
    """Columns lit by a static byte drawn in the first ``count`` (traced) slots."""
    slot, inside, bit = _slots(columns)
    lit = inside & (((byte >> bit) & 1) == 1)
    return jnp.asarray(lit) & (count > jnp.asarray(slot))


# ---- above the lanes ---------------------------------------------------------------------------
TOP_BLACK = 7  # lines 0..6: black (the HMOVE bar and the sky start on line 7)
SKY = 0x84
SCORE_COLOUR = 0x1A
DIGITS_TOP, DIGIT_COUNT = 9, SLOT_COUNT
DIGIT_ROWS = np.asarray(art.DIGITS, np.int32)  # (digit, row)
RESERVE_TOP = 22
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


def top_indices(s, lines, columns, c=DEFAULTS, reads=INDEXED, shade=colour_bytes):
    """Lines 0..56 at ``lines`` x ``columns`` as colour bytes (the score and reserve subs on the
    sky, the horizon, the surface with the sub and the patrol sub, the black line, the sea line
    above the lanes); ``reads``, ``shade``: see :func:`shaded`."""
    eor, mask = colour_mods(s.color_cycle)
    tint = lambda c: shade((c ^ eor) & mask)  # noqa: E731
    black = shade(jnp.int32(0))
    cols = jnp.asarray(columns)
    width = len(columns)
    # the score: six digits, leading zeros blank (the last always shown)
    digits = jnp.stack([(s.score // 10 ** (DIGIT_COUNT - 1 - i)) % 10 for i in range(DIGIT_COUNT)])
    leading = jnp.cumprod(digits == 0) == 1
    blank = leading & (jnp.arange(DIGIT_COUNT) < DIGIT_COUNT - 1)
    sea = (SEA ^ eor) & mask
    shown = s.replace(sub_animation=s.shown_sub_animation)
    sub_shade = tint(sub_colour(s, c, reads))
    px = jnp.where(s.patrol_x < SCREEN_W, s.patrol_x, 0)
    drawn = sprites_shown(c)
    rows = []
    for y in lines:
        y = int(y)
        line = jnp.full(width, black, jnp.int32)
        if TOP_BLACK <= y < HORIZON_TOP:
            line = jnp.full(width, tint(SKY), jnp.int32)
            if DIGITS_TOP <= y < DIGITS_TOP + DIGIT_ROWS.shape[1]:
                byte = jnp.where(blank, 0, reads.pick(DIGIT_ROWS[:, y - DIGITS_TOP], digits))
                line = jnp.where(_slot_pixels(byte, columns, reads), tint(SCORE_COLOUR), line)
            if RESERVE_TOP <= y < RESERVE_TOP + len(art.RESERVE_SUB):
                lit = _shape_pixels(art.RESERVE_SUB[y - RESERVE_TOP], columns, s.reserve_subs)
                line = jnp.where(lit, tint(SCORE_COLOUR), line)
        elif HORIZON_TOP <= y < SURFACE_TOP:
            line = jnp.full(width, tint(HORIZON[y - HORIZON_TOP]), jnp.int32)
        elif SURFACE_TOP <= y < BLACK_LINE:
            # the sea's colour with one bit flipped by the random byte rotating line by line
            i = y - SURFACE_TOP
            turn = (i + 1) % 8
            tmp = ((s.shown_random << turn) | (s.shown_random >> (8 - turn))) & BYTE
            line = jnp.full(width, shade(sea ^ (tmp & SURFACE_FLICKER)), jnp.int32)
            x = SURFACE_LINES - 1 - i
            if x >= 2:
                row = (s.sub_y - (SURFACE_LINES - x)) & BYTE
                sub_byte = jnp.where(row < latches.SUB_ROWS_DRAWN, latches._page(
                    latches._sub_rows(shown, c, reads) + row, reads), 0)
                patrol_byte = latches._page(
                    latches.patrol_rows(s, s.shown_sub_animation, reads) + x, reads)
                line = jnp.where(_byte_pixels(patrol_byte, cols - px, True) & drawn,
                                 tint(PATROL_COLOUR), line)
                line = jnp.where(_byte_pixels(sub_byte, (cols - s.sub_x) % SCREEN_W,
                                              s.sub_direction != 0, 2) & drawn,
                                 sub_shade, line)
        elif y == BLACK_LINE + 1:
            line = jnp.full(width, shade(sea), jnp.int32)
        rows.append(line)
    out = boxed(s, lines, columns, c, jnp.stack(rows), tint)
    return jnp.where(jnp.asarray(np.asarray(columns) < HMOVE_BAR)[None, :], black, out)


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
LOGO_TOP, LOGO_LINES, LOGO_COLOUR = 190, 8, 0x86
# The copyright kernel's line pointer (the table row of its top line; each line one row down) from
# the scroll byte (ram[35], 0 while a game is on): the logo's rows below SCROLL_START, the
# copyright line's rows from SCROLL_END, and between them one row of the scroll every 8 frames
# (the byte counts down one a frame after the game's end).
LOGO_POINTER, TEXT_POINTER = 7, 15
SCROLL_START, SCROLL_END, SCROLL_RATE = 96, 160, 8
SCROLL_POINTER_OFFSET = 4  # the pointer is the byte / 8 - 4 while it scrolls
BLINK = 0x10  # the low-oxygen bar is black while the frame counter's bit 4 is clear


def _mask(text, columns):
    return np.asarray([c == "#" for c in text.ljust(SCREEN_W, ".")], bool)[np.asarray(columns)]


COPYRIGHT = np.asarray(art.COPYRIGHT, np.int32)  # (slot, row)


def shown_scroll(game_over):
    """The scroll byte the picture read: the state's is the overscan's, which counts a non-zero
    byte down one (from 1 on to 255, skipping 0), so the picture's is one more (1 for 255)."""
    return jnp.where(game_over == 0, 0, jnp.where(game_over == BYTE, 1, game_over + 1))


def logo_pointer(scroll):
    """The copyright kernel's line pointer for the scroll byte (see LOGO_POINTER)."""
    step = scroll // SCROLL_RATE
    return jnp.where(scroll >= SCROLL_END, TEXT_POINTER,
                     jnp.where(scroll < SCROLL_START, LOGO_POINTER,
                               step - SCROLL_POINTER_OFFSET))


def bottom_indices(s, lines, columns, c=DEFAULTS, reads=INDEXED, shade=colour_bytes):
    """Lines 153..209 at ``lines`` x ``columns`` as colour bytes: seaweed, reef, sea floor with
    the oxygen bar and the rescued divers, the logo or the copyright line (lines 190..197);
    ``reads``, ``shade``: see :func:`shaded`."""
    eor, mask = colour_mods(s.color_cycle)
    tint = lambda c: shade((c ^ eor) & mask)  # noqa: E731
    black = shade(jnp.int32(0))
    cols = jnp.asarray(columns)
    width = len(columns)
    floor = tint(SEA_FLOOR)
    low = latches.oxygen_low(s, c) & ((s.frame_count & BLINK) == 0)
    bar = jnp.where(low, black, tint(OXYGEN_BAR))
    # measured: with no oxygen the empty bar starts one column further left
    in_bar = (cols >= OXYGEN_LEFT - (s.oxygen == 0)) & (cols < OXYGEN_RIGHT)
    full = (cols >= OXYGEN_LEFT) & (cols < OXYGEN_LEFT + s.oxygen)
    # six divers carried under water: the indicator blinks (drawn in the floor's colour)
    blink = ((s.divers == c.max_divers) & (s.sub_y != c.sub_y_min)
             & ((s.frame_count & DIVERS_BLINK) == 0))
    divers_colour = tint(jnp.where(blink, SEA_FLOOR, DIVERS_COLOUR))
    pointer = logo_pointer(shown_scroll(s.game_over))
    rows = []
    for y in lines:
        y = int(y)
        line = jnp.full(width, black, jnp.int32)
        if y < REEF_TOP:
            line = jnp.full(width, tint(SEAWEED[y - LANES_END]), jnp.int32)
        elif y < REEF_TOP + len(art.REEF):
            line = jnp.where(jnp.asarray(_mask(art.REEF[y - REEF_TOP], columns)), floor,
                             tint(SEAWEED[-1]))
        elif OXYGEN_TOP <= y < OXYGEN_TOP + len(art.OXYGEN_LABEL):
            line = jnp.where(in_bar, jnp.where(full, bar, tint(OXYGEN_EMPTY)), floor)
            line = jnp.where(jnp.asarray(_mask(art.OXYGEN_LABEL[y - OXYGEN_TOP], columns)),
                             black, line)
        elif DIVERS_TOP <= y < DIVERS_TOP + len(art.RESCUED_DIVER):
            lit = _shape_pixels(art.RESCUED_DIVER[y - DIVERS_TOP], columns, s.divers)
            line = jnp.where(lit, divers_colour, jnp.full(width, floor, jnp.int32))
        elif y < FLOOR_END:
            line = jnp.full(width, floor, jnp.int32)
        elif LOGO_TOP <= y < LOGO_TOP + LOGO_LINES:
            rows_byte = reads.pick(COPYRIGHT.T, pointer - (y - LOGO_TOP))
            line = jnp.where(_slot_pixels(rows_byte, columns, reads), tint(LOGO_COLOUR), black)
        if y < FLOOR_END:
            line = jnp.where(jnp.asarray(np.asarray(columns) < HMOVE_BAR), black, line)
        rows.append(line)
    return jnp.stack(rows)
