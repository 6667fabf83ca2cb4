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
from jaxtari.games.seaquest.logic import BYTE, NONE, pick

WIDTH = k.SCREEN_RIGHT
COLUMNS = np.arange(WIDTH)
LOOP_LINES = 15  # rows 14..0
TOP_SECTION_LOOP_END = 79  # screen line of the top lane's loop row 0
SECTION_LINES = 24
SUB_ROW_LINE = 44  # the sub's row counter on screen line L is ram[97] + 44 - L
SUB_ROWS_DRAWN = 12  # rows 0..11
TORPEDO_ROW = 4
BALL_OFFSET = k.BALL_X_OFFSET
POSITION_OFFSETS = (0, 32, 16, 16, 0, 0, 0, 0)  # the first copy shown, by NUSIZ index
POSITION_WRAP = 96  # a kernel position >= 160 is taken 96 to the left
PATROL_LINES = range(9, 1, -1)  # the surface kernel draws the patrol sub on its lines 9..2
PATROL_ROW_SKIP = 2  # ... with the sub's rows from 2 up
SURFACE_LINES = 10

_PAGE = np.frombuffer(art.PAGE, np.uint8).astype(np.int32)


def _page(index):
    """PAGE[index] for traced indices (a gather from a 256-byte constant)."""
    return jnp.asarray(_PAGE)[index & BYTE]


def _signed_motion(value):
    """The TIA's HMxx: the upper nibble, signed; positive moves left."""
    n = (value >> 4) & 0xF
    return jnp.where(n >= 8, n - 16, n)


def _bits(byte, rel, reflect, scale=1):
    """Whether column ``rel`` (0..8*scale-1 from the object's left) of a player byte is lit."""
    inside = (rel >= 0) & (rel < 8 * scale)
    bit = jnp.where(reflect, rel // scale, 7 - rel // scale)
    return inside & (((byte >> jnp.clip(bit, 0, 7)) & 1) == 1)


def _lane_geometry(s, swapped=False):
    """Per lane and loop line (4, 15), row 14 first: the group's graphic byte, its first copy's
    position, copy offsets and reflection; the ball's left x and width (0: not drawn).
    ``swapped`` (the picture of a visual mod only; never the latches): each group's rows are the
    other kind's (a shark's for an enemy sub, an enemy sub's for a shark, same animation frame)."""
    rows = 14 - jnp.arange(LOOP_LINES)
    attrs = s.attributes
    kind = (attrs ^ k.ATTR_SUB if swapped else attrs) & 7
    pointer = pick(art.OBSTACLE_ROWS, kind) + jnp.where(kind < art.SHARK_KINDS, s.shark_float, 0)
    graphic = _page(pointer[:, None] + rows[None, :])
    n = s.nusiz_index
    pos = (pick(POSITION_OFFSETS, n) + s.obstacle_x) & BYTE
    pos = jnp.where(n == 0, 0, pos)
    pos = jnp.where(pos >= WIDTH, pos - POSITION_WRAP, pos)
    reflect = (attrs & k.ATTR_LEFT) != 0
    # the ball: placed at x + 2, then each loop line moved by its row's HMOVE value
    low = attrs & k.ATTR_LOW
    motion = _signed_motion(_page(pick(art.BALL_MOTION, low)[:, None] + rows[None, :]))
    left = jnp.where(s.missile_x < WIDTH, s.missile_x, 0) + BALL_OFFSET
    ball_x = (left[:, None] - jnp.cumsum(motion, axis=1)) % WIDTH
    shape = _page(pick(art.BALL_SHAPE, low)[:, None] + rows[None, :])
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


def _sub_rows(s):
    """The sub's row pointer: its animation frame, or the explosion while dying."""
    normal = pick(art.SUB_ROWS, s.sub_animation)
    dying = (s.death != 0) & (s.death < k.DEATH_OXYGEN_EMPTY)
    explosion = pick(art.EXPLOSION_ROWS, jnp.maximum(s.death, 10) - 10)
    return jnp.where(dying, explosion, normal)


def _first_lane(hits):
    """The latch after the sections ran top lane first: the lowest lane that hit, else NONE."""
    out = jnp.int32(NONE)
    for lane in range(k.NUM_LANES - 1, -1, -1):
        out = jnp.where(hits[lane], lane, out)
    return out


def patrol_rows(s, animation):
    """The patrol sub's row pointer: the sub's picture 2 rows on, plus the 6502 carry the
    cartridge's ``adc #2`` picks up from the code before it: the death animation's tests
    (death >= 10) while the sub is dying, else the reserve-sub display's ``cpy #2`` (two or more
    reserve subs). Measured: without the carry the patrol sub is one row off on every frame of a
    pass with fewer than two reserve subs."""
    carry = jnp.where(s.death != 0, s.death >= 10, s.reserve_subs >= 2).astype(jnp.int32)
    return pick(art.SUB_ROWS, animation) + PATROL_ROW_SKIP + carry


def _patrol_hit(s):
    """Players 0 and 1 on the surface kernel's lines: the patrol sub (the sub's rows 2 up,
    reflected, at its x) against the player's sub."""
    xs = jnp.asarray(np.asarray(PATROL_LINES))
    sub_row = (s.sub_y - (SURFACE_LINES - xs)) & BYTE
    sub_graphic = jnp.where(sub_row < SUB_ROWS_DRAWN, _page(_sub_rows(s) + sub_row), 0)
    patrol_graphic = _page(patrol_rows(s, s.sub_animation) + xs)
    cols = jnp.asarray(COLUMNS)[None, :]
    px = jnp.where(s.patrol_x < WIDTH, s.patrol_x, 0)
    sub = _bits(sub_graphic[:, None], (cols - s.sub_x) % WIDTH, s.sub_direction != 0, scale=2)
    patrol = _bits(patrol_graphic[:, None], (cols - px) % WIDTH, True)
    return jnp.any(sub & patrol)


def _lane_latches(s, lane):
    """One lane section's latches (lane: a traced index 0..3): whether its group meets its ball,
    the sub meets its group, the sub meets its ball, the torpedo meets its group. Checked column
    by column only where two objects can meet: the ball's (at most 8) columns, the torpedo's 8 and
    the sub's 16, against the lane's group (each copy's pixels read from its byte), rather than
    whole 160-column lines."""
    one = lambda a: jax.lax.dynamic_slice_in_dim(a, lane, 1)  # noqa: E731  the lane's own byte
    graphic, pos, n, reflect, ball_x, size = _lane_geometry(
        s.replace(attributes=one(s.attributes), nusiz_index=one(s.nusiz_index),
                  obstacle_x=one(s.obstacle_x), missile_x=one(s.missile_x)))
    expand = lambda a: a[:, :, None]  # noqa: E731  (lane, line) -> (lane, line, column)
    g, p, nn, r = expand(graphic), pos[:, None, None], n[:, None, None], reflect[:, None, None]
    # the ball's columns against the group
    j = jnp.arange(8)[None, None, :]
    ball_cols = (expand(ball_x) + j) % WIDTH
    ball_on = j < expand(size)
    group_ball = jnp.any(ball_on & _group_lit(g, p, nn, r, ball_cols))
    # the sub's rows on the lane's loop lines
    lines = TOP_SECTION_LOOP_END - 14 + SECTION_LINES * (k.NUM_LANES - 1 - lane) \
        + jnp.arange(LOOP_LINES)[None, :]
    row = (s.sub_y + SUB_ROW_LINE - lines) & BYTE
    sub_graphic = jnp.where(row < SUB_ROWS_DRAWN, _page(_sub_rows(s) + row), 0)
    sub_reflect = s.sub_direction != 0
    c16 = jnp.arange(2 * 8)[None, None, :]
    sub_cols = (s.sub_x + c16) % WIDTH
    sub_on = _bits(expand(sub_graphic), c16, sub_reflect, scale=2)
    sub_group = jnp.any(sub_on & _group_lit(g, p, nn, r, sub_cols))
    # the ball's columns against the sub
    sub_ball = jnp.any(ball_on & _bits(expand(sub_graphic), (ball_cols - s.sub_x) % WIDTH,
                                       sub_reflect, scale=2))
    # the torpedo: 8 columns on the sub's row-4 line
    t8 = jnp.arange(k.TORPEDO_WIDTH)[None, None, :]
    torpedo_line = expand(row == TORPEDO_ROW)
    torpedo_group = jnp.any(torpedo_line & _group_lit(g, p, nn, r, (s.torpedo_x + t8) % WIDTH))
    return jnp.stack([group_ball, sub_group, sub_ball, torpedo_group])


def latch(s):
    """The frame's latches, lane section by lane section as the kernel draws them. The sections
    run in a loop rather than side by side: the loop reads the frame's state once, where four
    sections' worth of inlined code made XLA recompute that state inside each of them (the frame's
    program twice the size and twice the compile time in the wrappers' frame loop)."""
    warn = ((s.sub_y != k.SUB_Y_MIN) & (s.oxygen != 0) & (s.death == 0)
            & (s.oxygen <= k.OXYGEN_WARNING_LEVEL))
    hits = jax.lax.fori_loop(
        0, k.NUM_LANES, lambda lane, h: h.at[lane].set(_lane_latches(s, lane)),
        jnp.zeros((k.NUM_LANES, 4), bool))
    group_ball, sub_group, sub_ball, torpedo_group = hits.T
    return s.replace(
        oxygen_warning=jnp.where(warn, k.WARNING_ON, 0),
        hit_lanes=jnp.where(group_ball, jnp.arange(k.NUM_LANES), NONE),
        torpedo_lane=_first_lane(torpedo_group),
        sub_lane=_first_lane(sub_group),
        ball_lane=_first_lane(sub_ball),
        patrol_hit=_patrol_hit(s))
