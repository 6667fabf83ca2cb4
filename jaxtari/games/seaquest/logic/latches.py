"""What the picture latches for the next frame: the TIA's collisions per lane, the patrol sub's
collision with the player's sub, the oxygen warning.

The cartridge draws each lane in a 24-line section (lane 3 from screen line 57 down): the
obstacle group (player 1) and the diver or enemy missile (the ball) appear only on the section's
15 loop lines 9..23, where the collision latches are cleared just before (line 8) and read just
after (line 24), so the collisions are those of the loop lines: every line the sub (player 0, its
row from a counter, ram[97] + 44 - screen line) or its torpedo (missile 0, only on the sub's row 4)
overlaps the group or the ball, and every line the group overlaps the ball. A lane latches its own
index; over the sections (top lane first) the last, lowest lane wins. Positions measured on ALE's
screen: the sub and the torpedo at their RAM x, a group copy at its kernel position, the ball at
the lane's x + 2, moved each loop line by the row's HMOVE value. Collisions count in the 8 columns
the HMOVE bar blanks as well (measured: an empty lane draws one copy at 0 and latches the ball
parked at 0 + 2).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.games.seaquest import art
from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest.logic.common import BYTE, DEFAULTS, NIBBLE, NONE, lane_of, pick
from jaxtari.games.seaquest.logic.reads import INDEXED

WIDTH = k.SCREEN_RIGHT
LOOP_LINES = 15  # rows 14..0
TOP_SECTION_LOOP_END = 79  # screen line of the top lane's loop row 0
SECTION_LINES = 24
SUB_ROW_LINE = 44  # the sub's row counter on screen line L is ram[97] + 44 - L
SUB_ROWS_DRAWN = 12  # rows 0..11
TORPEDO_ROW = 4
POSITION_OFFSETS = (0, 32, 16, 16, 0, 0, 0, 0)  # the first copy shown, by NUSIZ index
POSITION_WRAP = 96  # a kernel position >= 160 is taken 96 to the left
PATROL_LINES = range(9, 1, -1)  # the surface kernel draws the patrol sub on its lines 9..2
PATROL_ROW_SKIP = 2  # ... with the sub's rows from 2 up
SURFACE_LINES = 10

_PAGE = np.frombuffer(art.PAGE, np.uint8).astype(np.int32)


def _page(index, reads=INDEXED):
    """PAGE[index] for traced indices, read in the form ``reads`` (logic/reads.py)."""
    return reads.pick(_PAGE, index & BYTE)


def _signed_motion(value):
    """The TIA's HMxx: the upper nibble, signed; positive moves left."""
    n = (value >> 4) & NIBBLE
    return jnp.where(n >= 8, n - 16, n)


def _bits(byte, rel, reflect, scale=1):
    """Whether column ``rel`` (0..8*scale-1 from the object's left) of a player byte is lit."""
    inside = (rel >= 0) & (rel < 8 * scale)
    bit = jnp.where(reflect, rel // scale, 7 - rel // scale)
    return inside & (((byte >> jnp.clip(bit, 0, 7)) & 1) == 1)


def _lane_geometry(s, swapped=False, c=DEFAULTS, reads=INDEXED):
    """Per lane and loop line (4, 15), row 14 first: the group's graphic byte, its first copy's
    position, copy offsets and reflection; the ball's left x and width (0: not drawn).
    ``swapped`` (the picture of a visual mod only; never the latches): each group's rows are the
    other kind's (a shark's for an enemy sub, an enemy sub's for a shark, same animation frame).
    ``reads``: the form of the table reads (logic/reads.py)."""
    rows = 14 - jnp.arange(LOOP_LINES)
    attrs = s.attributes
    kind = (attrs ^ k.ATTR_SUB if swapped else attrs) & 7
    pointer = (reads.pick(art.OBSTACLE_ROWS, kind)
               + jnp.where(kind < art.SHARK_KINDS, s.shark_float, 0))
    graphic = _page(pointer[:, None] + rows[None, :], reads)
    n = s.nusiz_index
    pos = (reads.pick(POSITION_OFFSETS, n) + s.obstacle_x) & BYTE
    pos = jnp.where(n == 0, 0, pos)
    pos = jnp.where(pos >= WIDTH, pos - POSITION_WRAP, pos)
    reflect = (attrs & k.ATTR_LEFT) != 0
    # the ball: placed at x + 2, then each loop line moved by its row's HMOVE value
    low = attrs & k.ATTR_LOW
    motion = _signed_motion(_page(reads.pick(art.BALL_MOTION, low)[:, None] + rows[None, :],
                                  reads))
    left = jnp.where(s.missile_x < WIDTH, s.missile_x, 0) + c.ball_x_offset
    ball_x = (left[:, None] - jnp.cumsum(motion, axis=1)) % WIDTH
    shape = _page(reads.pick(art.BALL_SHAPE, low)[:, None] + rows[None, :], reads)
    size = jnp.where((shape & art.ENABLE_BIT) != 0, 1 << ((shape >> art.SIZE_SHIFT) & 3), 0)
    return graphic, pos, n, reflect, ball_x, size


def _group_lit(graphic, pos, n, reflect, x):
    """Whether column(s) ``x`` show a pixel of the lane's group (copies by NUSIZ index ``n``)."""
    lit = jnp.zeros(jnp.broadcast_shapes(jnp.shape(x), jnp.shape(pos)), bool)
    for offset, shown_by in ((0, (0, 1, 2, 3, 4, 5, 6, 7)), (16, (3, 6, 7)), (32, (5, 7))):
        on = jnp.zeros(jnp.shape(n), bool)
        for value in shown_by:
            on = on | (n == value)
        rel = (x - pos - offset) % WIDTH
        lit = lit | (on & _bits(graphic, rel, reflect))
    return lit


def _sub_rows(s, c=DEFAULTS, reads=INDEXED):
    """The sub's row pointer: its animation frame, or the explosion while dying."""
    return reads.pick(SUB_POINTERS, _sub_picture(s, c))


SUB_POINTERS = art.SUB_ROWS + art.EXPLOSION_ROWS


def _sub_picture(s, c=DEFAULTS):
    """Which of SUB_POINTERS the sub shows: its animation frame, or the explosion's while dying
    (a table's first entry for an index outside it, as ``pick``)."""
    def inside(index, table):
        return jnp.where((index >= 0) & (index < len(table)), index, 0)
    normal = inside(s.sub_animation, art.SUB_ROWS)
    dying = (s.death != 0) & (s.death < c.death_oxygen_empty)
    explosion = inside(jnp.maximum(s.death, 10) - 10, art.EXPLOSION_ROWS)
    return jnp.where(dying, len(art.SUB_ROWS) + explosion, normal)


def patrol_rows(s, animation, reads=INDEXED):
    """The patrol sub's row pointer: the sub's picture 2 rows on, plus the 6502 carry the
    cartridge's ``adc #2`` picks up from the code before it: the death animation's tests
    (death >= 10) while the sub is dying, else the reserve-sub display's ``cpy #2`` (two or more
    reserve subs). Measured: without the carry the patrol sub is one row off on every frame of a
    pass with fewer than two reserve subs."""
    carry = jnp.where(s.death != 0, s.death >= 10, s.reserve_subs >= 2).astype(jnp.int32)
    return reads.pick(art.SUB_ROWS, animation) + PATROL_ROW_SKIP + carry


# ---- the latches by bit masks -------------------------------------------------------------------
# Each object's lit columns on a line as a bit mask (bit i: i columns right of its left edge), so
# two objects meet on a line when one's mask, shifted by their distance, shares a bit with the
# other's: a few integer operations per pair instead of a test per column. The wider object (at
# most 16 columns) sits at bit WINDOW of a 32-bit word; the other (at most 8 columns) at bit
# (its x - the wider's x + WINDOW) mod 160, which is below REACH whenever the two can overlap.
WINDOW = 8
REACH = 24
COPY_SPACING = 16  # a group's copies at +0, +16, +32
LOOP_TOP_LINE = TOP_SECTION_LOOP_END - (LOOP_LINES - 1)  # the top lane's loop row 14


def _reverse(byte):
    """A byte's bits in the opposite order (a player drawn unreflected shows bit 7 leftmost)."""
    return sum(((byte >> bit) & 1) << (7 - bit) for bit in range(8))


def _double(mask):
    """An 8-column mask at double width (each column twice)."""
    return sum(((mask >> bit) & 1) * (3 << (2 * bit)) for bit in range(8))


def _oriented(byte, reflect):
    return np.where(reflect, byte, _reverse(byte))


# Constant tables, so that a lane's 15 loop lines are one row gathered, not 15 bytes: the group's
# masks by pointer (reflected, unreflected), the ball's motion so far and its mask by attributes.
_ROWS = np.arange(LOOP_LINES - 1, -1, -1)  # row 14 first
_WINDOWS = _PAGE[(np.arange(256)[:, None] + _ROWS[None, :]) & BYTE]
_GROUP_MASKS = np.stack([_oriented(_WINDOWS, True), _oriented(_WINDOWS, False)]).astype(np.int32)
_SUB_BYTES = _PAGE[(np.asarray(SUB_POINTERS)[:, None] + np.arange(SUB_ROWS_DRAWN)[None, :]) & BYTE]
_SUB_MASKS = np.stack([_double(_oriented(_SUB_BYTES, True)),
                       _double(_oriented(_SUB_BYTES, False))]).astype(np.int32)
# The sub on a lane's 15 loop lines: its row on line i is the lane's base - i (base: the sub's y
# less the lane's top line, plus SUB_ROW_LINE), drawn for rows 0..11, so bases 0..25 show rows of
# it; SUB_BASES (any larger base) shows none.
SUB_BASES = SUB_ROWS_DRAWN + LOOP_LINES - 1
_SUB_ROW_OF_LINE = np.arange(SUB_BASES + 1)[:, None] - np.arange(LOOP_LINES)[None, :]
_SUB_LINES = np.where(
    (_SUB_ROW_OF_LINE >= 0) & (_SUB_ROW_OF_LINE < SUB_ROWS_DRAWN),
    _SUB_MASKS[:, :, np.clip(_SUB_ROW_OF_LINE, 0, SUB_ROWS_DRAWN - 1)], 0).astype(np.int32)


def _ball_tables():
    low = np.arange(16)
    motion = np.asarray(_signed_motion(
        _PAGE[(np.asarray(art.BALL_MOTION)[low][:, None] + _ROWS[None, :]) & BYTE]))
    shape = _PAGE[(np.asarray(art.BALL_SHAPE)[low][:, None] + _ROWS[None, :]) & BYTE]
    size = np.where((shape & art.ENABLE_BIT) != 0, 1 << ((shape >> art.SIZE_SHIFT) & 3), 0)
    return np.cumsum(motion, axis=1).astype(np.int32), ((1 << size) - 1).astype(np.int32)


_BALL_MOVED, _BALL_MASKS = _ball_tables()


def _meet(wide, narrow, distance):
    """Whether a mask ``wide`` and a mask ``narrow`` ``distance`` columns right of it (mod 160)
    share a column (``wide`` at most 16 columns, ``narrow`` at most 8)."""
    p = (distance + WINDOW) % WIDTH
    return (p < REACH) & (((narrow << jnp.minimum(p, REACH)) & (wide << WINDOW)) != 0)


def _copies_shown(n):
    """The group's copies shown (bit c: the copy at +16c) by NUSIZ index."""
    def any_of(values):
        out = jnp.zeros(jnp.shape(n), bool)
        for value in values:
            out = out | (n == value)
        return out.astype(jnp.int32)
    return any_of(range(8)) | (any_of((3, 6, 7)) << 1) | (any_of((5, 7)) << 2)


def _lane(s, lane, c):
    """One lane's (a traced index) first copy's position and copies shown, and per loop line
    (15,), row 14 first: the group's mask (8 columns), the ball's x and mask."""
    attrs = lane_of(s.attributes, lane)
    kind = attrs & 7
    pointer = pick(art.OBSTACLE_ROWS, kind) + jnp.where(kind < art.SHARK_KINDS, s.shark_float, 0)
    reflect = (attrs & k.ATTR_LEFT) != 0
    group = jnp.asarray(_GROUP_MASKS)[jnp.where(reflect, 0, 1), pointer & BYTE]
    n = lane_of(s.nusiz_index, lane)
    pos = (pick(POSITION_OFFSETS, n) + lane_of(s.obstacle_x, lane)) & BYTE
    pos = jnp.where(n == 0, 0, pos)
    pos = jnp.where(pos >= WIDTH, pos - POSITION_WRAP, pos)
    low = attrs & k.ATTR_LOW
    missile_x = lane_of(s.missile_x, lane)
    left = jnp.where(missile_x < WIDTH, missile_x, 0) + c.ball_x_offset
    ball_x = (left - jnp.asarray(_BALL_MOVED)[low]) % WIDTH
    ball = jnp.asarray(_BALL_MASKS)[low]
    return pos, _copies_shown(n), group, ball_x, ball


def _group_meets(mask, pos, shown, other, other_x):
    """Whether ``other`` (a mask of at most 16 columns at ``other_x``) meets a shown copy of a
    group (``mask`` at ``pos`` + 16c). Counted from 16 columns left of the first copy, ``other``
    starts at u, so it can meet only the copy starting at u rounded down to a multiple of 16 and
    the next one: those two copies as one 24-column pattern, and ``other`` shifted by u mod 16
    against it."""
    u = (other_x - pos + COPY_SPACING) % WIDTH
    c = u // COPY_SPACING  # the copies c - 1 (starting at 16c) and c
    shown = shown << 1  # bit c + 1: the copy at +16c
    earlier = jnp.where(((shown >> c) & 1) != 0, mask, 0)
    later = jnp.where(((shown >> (c + 1)) & 1) != 0, mask, 0)
    return ((other << (u % COPY_SPACING)) & (earlier | (later << COPY_SPACING))) != 0


def _sub_masks(s, c):
    """The sub's 12 rows' masks (16 columns), row 0 first."""
    return jnp.asarray(_SUB_MASKS)[jnp.where(s.sub_direction != 0, 0, 1), _sub_picture(s, c)]


def _patrol_hit(s, sub):
    """Players 0 and 1 on the surface kernel's lines: the patrol sub (the sub's rows 2 up,
    reflected, at its x) against the player's sub (``sub``: its rows' masks)."""
    xs = np.asarray(PATROL_LINES)
    sub_row = (s.sub_y - (SURFACE_LINES - xs)) & BYTE
    sub_mask = jnp.where(sub_row < SUB_ROWS_DRAWN,
                         sub[jnp.minimum(sub_row, SUB_ROWS_DRAWN - 1)], 0)
    patrol = _page(patrol_rows(s, s.sub_animation) + xs)  # reflected: the byte is the mask
    px = jnp.where(s.patrol_x < WIDTH, s.patrol_x, 0)
    return jnp.any(_meet(sub_mask, patrol, px - s.sub_x))


def _first_lane(hits):
    """The latch after the sections ran top lane first: the lowest lane that hit, else NONE."""
    out = jnp.int32(NONE)
    for lane in range(k.NUM_LANES - 1, -1, -1):
        out = jnp.where(hits[lane], lane, out)
    return out


def _lane_latches(s, lane, c):
    """One lane section's latches (lane: a traced index 0..3), from its 15 loop lines: whether the
    group meets the ball, the sub meets the group, the sub meets the ball, the torpedo (on the
    sub's row 4) meets the group."""
    pos, shown, group, ball_x, ball = _lane(s, lane, c)
    base = (s.sub_y + SUB_ROW_LINE
            - (LOOP_TOP_LINE + SECTION_LINES * (k.NUM_LANES - 1 - lane))) & BYTE
    base = jnp.minimum(base, SUB_BASES)
    sub = jnp.asarray(_SUB_LINES)[jnp.where(s.sub_direction != 0, 0, 1), _sub_picture(s, c), base]
    torpedo = jnp.where(base - jnp.arange(LOOP_LINES) == TORPEDO_ROW,
                        (1 << c.torpedo_width) - 1, 0)
    return jnp.stack([
        jnp.any(_group_meets(group, pos, shown, ball, ball_x)),
        jnp.any(_group_meets(group, pos, shown, sub, s.sub_x)),
        jnp.any(_meet(sub, ball, ball_x - s.sub_x)),
        jnp.any(_group_meets(group, pos, shown, torpedo, s.torpedo_x))])


def latch(s, c=DEFAULTS):
    """The frame's latches, by bit masks (see WINDOW), lane section by lane section as the kernel
    draws them: on the lane's loop lines the group against the ball; on those of the sub's 12 rows
    that fall on them the sub against the group and the ball, and on its row 4 the torpedo against
    the group; then on the surface lines the patrol sub against the sub. The sections run in a
    loop: it reads the frame's state once, where XLA otherwise recomputed the frame's logic inside
    every table lookup of the latches (one per lane, line and row). ``c``: the game's consts."""
    warn = oxygen_low(s, c)
    hits = jax.lax.fori_loop(
        0, k.NUM_LANES, lambda lane, h: h.at[lane].set(_lane_latches(s, lane, c)),
        jnp.zeros((k.NUM_LANES, 4), bool))
    group_ball, sub_group, sub_ball, torpedo_group = hits.T
    return s.replace(
        oxygen_warning=jnp.where(warn, c.oxygen_warning_on, 0),
        hit_lanes=jnp.where(group_ball, jnp.arange(k.NUM_LANES), NONE),
        torpedo_lane=_first_lane(torpedo_group),
        sub_lane=_first_lane(sub_group),
        ball_lane=_first_lane(sub_ball),
        patrol_hit=_patrol_hit(s, _sub_masks(s, c)))


def oxygen_low(s, c=DEFAULTS):
    """The oxygen warning (ram[121]) and the bar's blinking: under water, alive, oxygen left at or
    below the warning level."""
    return ((s.sub_y != c.sub_y_min) & (s.oxygen != 0) & (s.death == 0)
            & (s.oxygen <= c.oxygen_warning_level))
