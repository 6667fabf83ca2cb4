"""Breakout's picture, drawn straight at the raster's size (210x160 RGB or 84x84 grey).

The screen is the kernel of the frame just run: bricks, ball and paddle as the state holds them, the
digits as the previous frame left them (the cartridge builds them after the kernel). Layers follow
the TIA's priorities: the paddle (player 0) over the side walls (missiles) over the ball and the
playfield (bricks, top wall, digits) over the black background. The ball takes the playfield's
colour of its line, so it cannot be seen over a brick or a wall.

How it is computed (fast on a CPU: one elementwise loop over the picture's bytes, byte-wide, no
per-pixel gathers): everything that depends on the state is worked out per raster *line* first, as
the 2600 itself holds it, and what a byte's *column* is (its screen x, playfield bit, channel) is
arithmetic on its index, which the compiler folds into constants once it unrolls a line's loop (an
84x84 grey line), or a byte-wide table where it does not (a 210x160 RGB line, 480 bytes): a pixel
costs a few selects of bytes.

* The playfield (digits, top wall, bricks) is 40 pixels of 4 screen columns, the same 40 bits on
  every line of a band: per line it is five bytes (playfield pixel 8 j + i in bit i of byte j).
  Each line takes its bytes from a small per-state table (empty, the top wall, the five glyph rows
  of the digits, the six brick rows, the latter straight from the RAM's playfield registers) by a
  static index, and each raster column picks its byte and tests its bit.
* The ball and the paddle are one span [from, to) of screen columns (the ball's on its lines, cut
  short on the last; the paddle's on its lines), compared against each raster column's screen x.
* The side walls do not move: a column range on a band of lines, their colours per line.
* The colours are the ROM's colour bytes, each a role (background, walls, paddle, a brick row, ...):
  a game stopped by the frame counter cycles them (``constants.ATTRACT_SETS``), so each frame
  takes its roles' colours from one of 256 small tables, then each line its colours from the roles.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.atari.fonts import DIGITS_3X5
from jaxtari.atari.palette import PALETTE
from jaxtari.games.breakout import constants as k
from jaxtari.games.breakout.logic import geometry as g
from jaxtari.xla import opaque_zero

_U32, _U8 = jnp.uint32, jnp.uint8

# The 3x5 font of Atari's cartridges (jaxtari.atari.fonts); a cell is 4 px wide and 2 lines tall
DIGIT_ART = DIGITS_3X5
GLYPH_ROWS = len(DIGIT_ART[0])
# the digits are playfield glyphs: a cell is one playfield pixel, each digit starts on one
assert g.DIGIT_CELL_W == g.PF_PIXEL and all(x % g.PF_PIXEL == 0 for x in g.DIGIT_X)
_DIGIT_PF = tuple(x // g.PF_PIXEL for x in g.DIGIT_X)  # the playfield pixel of each digit's left cell
PLAYER_NUMBER = 1


def _glyph_bits() -> np.ndarray:
    """(10, 5) int32: each glyph row as bits, its left cell in bit 0."""
    cells = render.art_mask(DIGIT_ART)  # (10, 5, 3)
    return (cells.astype(np.int32) << np.arange(cells.shape[-1], dtype=np.int32)).sum(-1).astype(np.int32)


GLYPH_BITS = _glyph_bits()
GLYPH_W = len(DIGIT_ART[0][0])
# (5,) uint32: each glyph row of the ten digits, digit d's cells in bits GLYPH_W * d on
GLYPH_ROWS_PACKED = (GLYPH_BITS.T.astype(np.uint32)
                     << (GLYPH_W * np.arange(10, dtype=np.uint32))).sum(-1, dtype=np.uint32)
assert GLYPH_W * 10 <= 32 and (GLYPH_BITS < (1 << GLYPH_W)).all()

# a line's 40 playfield pixels as bytes: pixel 8 j + i in bit i of byte j
PF_BYTES = 5
_BYTE = (1 << 8) - 1
# each digit's cells in one byte
assert all(pf % 8 + GLYPH_W <= 8 for pf in _DIGIT_PF)
# RAM bases of the playfield registers PF0, PF1, PF2 of the bricks, left and right half
# (geometry.brick_bits)
_PF_BASES = ((30, 24, 18), (12, 6, 0))

# the longest line (bytes) whose columns are computed from its index rather than read from a
# table (see _columns)
_UNROLLED_LINE = 128
# the shifts _floor_map tries (its products stay inside int32 for lines of _UNROLLED_LINE bytes)
_FLOOR_MAP_BITS = 20

# where each line finds its playfield bytes in the per-state table
_EMPTY, _TOP_WALL, _GLYPH0 = 0, 1, 2
_BRICK0 = _GLYPH0 + GLYPH_ROWS


def _fmt(raster, rgb) -> np.ndarray:
    """RGB colour(s) (..., 3) in the raster's format, (..., channels) uint8: RGB or grey."""
    rgb = np.asarray(rgb, np.uint8)
    return rgb if raster.channels == 3 else render.gray(rgb)[..., None]


# the colour roles: what a pixel's colour byte is, whatever the cycle does to it
_BG, _WALL, _PADDLE, _LEFT_LOW, _ROW0 = 0, 1, 2, 3, 4


def _colour_byte(rgb) -> int:
    """The TIA colour byte ALE shows as ``rgb`` (a game's colours are measured as RGB)."""
    hits = np.nonzero((PALETTE == np.asarray(rgb)).all(axis=1))[0]
    if not len(hits):
        raise ValueError(f"breakout: colour {tuple(rgb)} is not in ALE's NTSC palette")
    return int(hits[0]) << 1


def _role_colours(raster, consts) -> np.ndarray:
    """(256, roles, C) uint8: every role's colour under each of the cycle's sets (set 0: as in
    play)."""
    base = np.asarray([_colour_byte(c) for c in (consts.background, consts.wall_colour,
                                                 consts.paddle_colour, consts.left_wall_low_colour,
                                                 *consts.row_colours)])
    h = np.arange(k.ATTRACT_SETS)[:, None]
    byte = base[None, :] ^ (((h << 4) | (h >> 4)) & 0xFF)
    byte &= k.ATTRACT_MASK
    return _fmt(raster, PALETTE[byte >> 1])


def _floor_map(values) -> tuple[int, int, int]:
    """(m, b, s) with ``values[i] == (i * m + b) >> s`` for every index i (values rising with i, as
    a raster's columns do), the smallest s that has one.

    Why: a pixel's column properties written as arithmetic on the column's index are constants to
    the compiler once it unrolls a line's loop (see _columns), where a table of them is memory
    loaded for every pixel.
    """
    v = np.asarray(values, np.int64)
    i = np.arange(len(v), dtype=np.int64)
    if len(v) == 1:
        return 0, int(v[0]), 0
    slope = (v[-1] - v[0]) / (len(v) - 1)
    for s in range(_FLOOR_MAP_BITS):
        one = 1 << s
        spread = 2.0 * one / (len(v) - 1) + 1
        for m in range(max(0, int(slope * one - spread)), int(np.ceil(slope * one + spread)) + 1):
            lo, hi = (v * one - i * m).max(), ((v + 1) * one - i * m).min() - 1
            if lo <= hi:
                return m, int(lo), s
    raise ValueError("breakout: the raster's columns are not a floor of an affine map of the index")


@functools.lru_cache(maxsize=8)
def _static(height, width, channels, ys_bytes, xs_bytes, consts):
    """Per-raster tables (numpy), everything about the picture that does not depend on the state."""
    ys = np.frombuffer(ys_bytes, np.int32)
    xs = np.frombuffer(xs_bytes, np.int32)
    raster = render.Raster(height, width, ys[:, None], xs[None, :], channels)
    t = {"ys": ys}
    # lines: which playfield bytes each shows
    src = np.full(ys.shape, _EMPTY, np.int32)
    digits = (ys >= g.DIGIT_TOP) & (ys < g.DIGIT_TOP + GLYPH_ROWS * g.DIGIT_CELL_H)
    src[digits] = _GLYPH0 + (ys[digits] - g.DIGIT_TOP) // g.DIGIT_CELL_H
    src[(ys >= g.TOP_WALL[0]) & (ys < g.TOP_WALL[1])] = _TOP_WALL
    brick_row = np.where((ys >= g.BRICK_TOP) & (ys < g.BRICK_TOP + k.NUM_ROWS * k.ROW_LINES),
                         (ys - g.BRICK_TOP) // k.ROW_LINES, -1)
    src[brick_row >= 0] = _BRICK0 + brick_row[brick_row >= 0]
    t["pf_src"] = src
    # columns: for each byte of a line (channels inner) its screen x, playfield pixel and channel
    assert xs.min() >= 0 and xs.max() < g.SCREEN_W and g.SCREEN_W <= 256
    each = np.repeat(np.arange(width), channels)  # the raster column of each byte of a line
    t["channels"] = channels
    t["byte_x"], t["byte_pf"] = xs[each], xs[each] // g.PF_PIXEL
    t["byte_channel"] = np.arange(len(each)) % channels
    if len(each) <= _UNROLLED_LINE:  # see _columns
        t["column_map"] = _floor_map(each)
        t["x_map"], t["pf_map"] = _floor_map(t["byte_x"]), _floor_map(t["byte_pf"])
    # lines: each line's colour roles (the playfield's, the left and right walls'), and the set
    # its colours come from: the lines above the one the colour bytes are rewritten on
    # (geometry.COLOUR_SET_LINE) show the previous frame's set, the lines below this frame's
    line_role = np.where(ys < g.BRICK_TOP, _WALL, _PADDLE)
    line_role = np.where(brick_row >= 0, _ROW0 + np.clip(brick_row, 0, 5), line_role)
    t["line_role"] = line_role
    # invisible games: the brick rows in the background's colour while the wall is not lit
    t["line_role_dark"] = np.where(brick_row >= 0, _BG, line_role)
    low = ys >= g.LOW_COLOUR_TOP
    t["left_role"] = np.where(low, _LEFT_LOW, _WALL)
    t["right_role"] = np.where(low, _PADDLE, _WALL)
    t["late"] = (ys > g.COLOUR_SET_LINE).astype(np.int32)
    t["colours"] = _role_colours(raster, consts)
    # side walls (their colour changes from the paddle's lines on)
    t["left_lines"] = (ys >= g.TOP_WALL[0]) & (ys < g.LEFT_WALL_END)
    t["right_lines"] = (ys >= g.TOP_WALL[0]) & (ys < g.RIGHT_WALL_END)
    # the line the colour bytes are rewritten on: this frame's set from a screen x on. Nothing but
    # the background is drawn on it (checked here), so only the background's colour changes there
    t["split_line"] = ys == g.COLOUR_SET_LINE
    t["split_x"] = k.COLOUR_SET_X[consts.mode // k.GAMES_PER_MODE_STEP]
    assert g.COLOUR_SET_LINE >= max(g.LEFT_WALL_END, g.RIGHT_WALL_END, g.BALL_LAST_LINE + 1,
                                    g.PADDLE_TOP + g.PADDLE_H)
    assert not (t["split_line"] & (src != _EMPTY)).any()
    t["hmove_line"] = ys == g.HMOVE_LINE
    # the ball's top line offset of each line's kernel section, and the lines it may be drawn on
    offset = np.full(ys.shape, g.BALL_SECTIONS[0][1], np.int32)
    for first, off in g.BALL_SECTIONS[1:]:
        offset[ys >= first] = off
    t["ball_offset"] = offset
    t["ball_lines"] = (ys >= g.BALL_FIRST_LINE) & (ys <= g.BALL_LAST_LINE)
    t["ball_last"] = ys == g.BALL_LAST_LINE
    t["paddle_lines"] = (ys >= g.PADDLE_TOP) & (ys < g.PADDLE_TOP + g.PADDLE_H)
    return t


def _tables(raster, consts):
    return _static(raster.height, raster.width, raster.channels,
                   np.ascontiguousarray(raster.ys[:, 0], np.int32).tobytes(),
                   np.ascontiguousarray(raster.xs[0], np.int32).tobytes(), consts)


def _reverse_bits(b):
    """A byte's bits in reverse order (bit 7 to bit 0)."""
    return functools.reduce(lambda acc, i: acc | (((b >> i) & 1) << (7 - i)), range(8),
                            jnp.zeros_like(b))


def _brick_bytes(bricks):
    """(6, PF_BYTES) uint8: each brick row's playfield pixels (top row first), from its six
    playfield register bytes in RAM (geometry.brick_bits: of either half of the screen, PF0's
    high nibble, then PF1 from bit 7 down, then PF2 from bit 0 up). Static slices and shifts, no
    gather."""
    bricks = bricks & _BYTE

    def register(base):  # the register's byte of each row, top row first: ram[base + 5 - row]
        return bricks[..., base:base + k.NUM_ROWS][..., ::-1]

    (pf0l, pf1l, pf2l), (pf0r, pf1r, pf2r) = [[register(b) for b in half] for half in _PF_BASES]
    r1l, r1r = _reverse_bits(pf1l), _reverse_bits(pf1r)
    rows = [(pf0l >> 4) | ((r1l << 4) & _BYTE),  # pixels 0-3: PF0 bits 4-7; 4-7: PF1 bits 7-4
            (r1l >> 4) | ((pf2l << 4) & _BYTE),  # 8-11: PF1 bits 3-0; 12-15: PF2 bits 0-3
            (pf2l >> 4) | ((pf0r >> 4) << 4),    # 16-19: PF2 bits 4-7; 20-23: right PF0 bits 4-7
            r1r,                                 # 24-31: right PF1 bits 7-0
            pf2r]                                # 32-39: right PF2 bits 0-7
    return jnp.stack(rows, axis=-1).astype(_U8)


def _glyph_bytes(shown_score, shown_lives, selecting, shown_select, game_number):
    """(5, PF_BYTES) uint8: the digits' glyph rows: the score's three digits (leading zeros shown),
    the balls left and the player number; in the select display (see constants.ATTRACT_SETS) the
    hundreds and the balls blank from its first frame and the game number in the tens and units
    from the next (the digits are set up a frame ahead). A digit's row is a shift of
    ``GLYPH_ROWS_PACKED``, not a table lookup."""
    tens = jnp.where(shown_select, game_number // 10, (shown_score // 10) % 10)
    units = jnp.where(shown_select, game_number % 10, shown_score % 10)
    digits = [(shown_score // 100) % 10, tens, units, shown_lives % 10]
    blank = [selecting, shown_select & (game_number < 10), jnp.bool_(False), selecting]
    packed = jnp.asarray(GLYPH_ROWS_PACKED)
    out = [jnp.zeros((GLYPH_ROWS,), _U32) for _ in range(PF_BYTES)]
    for d, off, pf in zip(digits, blank, _DIGIT_PF):
        row = (packed >> (_U32(GLYPH_W) * d.astype(_U32))) & _U32((1 << GLYPH_W) - 1)
        out[pf // 8] = out[pf // 8] | jnp.where(off, _U32(0), row << _U32(pf % 8))
    player = GLYPH_BITS[PLAYER_NUMBER].astype(np.uint32) << np.uint32(_DIGIT_PF[4] % 8)
    out[_DIGIT_PF[4] // 8] = out[_DIGIT_PF[4] // 8] | jnp.asarray(player)
    return jnp.stack(out, axis=-1).astype(_U8)


def _columns(t, n, zero):
    """(1, n) each: the screen x, the playfield byte and the bit in it, and the channel of each
    byte of a line (a line of an RGB raster is its pixels' bytes in a row).

    Why two ways: a short line's loop is unrolled by the compiler, and then its columns' values,
    written as arithmetic on the byte's index, are constants; a longer line's loop is not, and then
    a table of them, one byte each, is cheaper to load than the arithmetic is to compute (an 84-byte
    grey line and a 480-byte RGB line, benchmarks/README.md). ``zero`` is
    :func:`jaxtari.xla.opaque_zero`."""
    if n <= _UNROLLED_LINE:
        index = jax.lax.broadcasted_iota(jnp.int32, (1, n), 1) + zero
        x, pf, column = ((index * m + b) >> s for m, b, s in (t["x_map"], t["pf_map"],
                                                              t["column_map"]))
        channel = index - t["channels"] * column
    else:
        x, pf, channel = (jnp.asarray(t[name].astype(np.uint8))[None]
                          for name in ("byte_x", "byte_pf", "byte_channel"))
    return x.astype(_U8), pf >> 3, (1 << (pf & 7)).astype(_U8), channel


def _u8(v):
    """A screen column bound as a byte: the raster's columns are 0..159, so clipping to 0..255
    keeps every comparison with them."""
    return jnp.clip(v, 0, 255).astype(_U8)


def draw(game, raster: render.Raster, state):
    c = game.consts
    t = _tables(raster, c)
    ys = jnp.asarray(t["ys"])
    rows = lambda a: jnp.asarray(a)[:, None]  # noqa: E731  (H,) per line -> (H, 1)

    x8, pf_byte, pf_mask, channel = _columns(t, raster.width * raster.channels,
                                             opaque_zero(state.frame))

    # playfield bytes of each line
    selecting = game.selecting(state)
    glyphs = _glyph_bytes(state.shown_score, state.shown_lives, selecting, state.shown_select,
                          c.mode // k.GAMES_PER_MODE_STEP + 1)
    table = jnp.concatenate([jnp.zeros((1, PF_BYTES), _U8), jnp.full((1, PF_BYTES), _BYTE, _U8),
                             glyphs, _brick_bytes(state.bricks)])
    line_bytes = table[t["pf_src"]]  # (H, PF_BYTES)
    byte = rows(line_bytes[:, 0])
    for j in range(1, PF_BYTES):
        byte = jnp.where(pf_byte == j, rows(line_bytes[:, j]), byte)
    pf = (byte & pf_mask) != 0

    # the ball: 4 lines from its kernel section's offset, 2 columns; cut short on the last line
    by, bx = state.ball_y >> 8, state.ball_x >> 8
    top = by + jnp.asarray(t["ball_offset"]) - game.held_lift(state)
    on = (ys >= top) & (ys < top + g.BALL_H) & jnp.asarray(t["ball_lines"])
    x0 = bx - g.BALL_X_OFFSET
    cut = jnp.where((by & 1) == 0, g.LAST_LINE_CUT_EVEN, g.LAST_LINE_CUT_ODD)
    ball = rows(on) & (x8 >= _u8(x0)) & (x8 < _u8(x0 + g.BALL_W)) & (
        ~rows(t["ball_last"]) | (x8 < _u8(cut)))
    # the paddle
    px = state.paddle_x - g.PADDLE_X_OFFSET
    pw = jnp.asarray(c.paddle_widths)[game.paddle_size(state.shrunk)]
    paddle = rows(t["paddle_lines"]) & (x8 >= _u8(px)) & (x8 < _u8(px + pw))

    # the colours: the roles' colours of the previous frame's set and of this one's
    previous = (state.clock - 1) & 0xFFFF
    set_above = jnp.where(state.shown_select,
                          (previous >> k.ATTRACT_PERIOD_BITS) % k.ATTRACT_SETS, 0)
    set_below = jnp.where(selecting, (state.clock >> k.ATTRACT_PERIOD_BITS) % k.ATTRACT_SETS, 0)
    sets = jnp.asarray(t["colours"])
    both = jnp.stack([sets[set_above], sets[set_below]])  # (2, roles, C)
    late = t["late"]
    line_colour = both[late, t["line_role"]]  # (H, C)
    if c.flags & k.INVISIBLE:  # the select display shows the wall (measured on ALE)
        line_colour = jnp.where(state.wall_lit | state.shown_select, line_colour,
                                both[late, t["line_role_dark"]])
    bg = both[late, np.full_like(late, _BG)]
    left, right = both[late, t["left_role"]], both[late, t["right_role"]]
    paddle_colour = both[late, np.full_like(late, _PADDLE)]

    def lines(colours):  # (H, C) per line -> (H, W * C): each byte its channel's
        out = colours[:, :1]
        for ch in range(1, raster.channels):
            out = jnp.where(channel == ch, colours[:, ch:ch + 1], out)
        return out

    img = jnp.where(rows(t["split_line"]) & (x8 >= t["split_x"]), lines(both[1, _BG][None]),
                    lines(bg))
    img = jnp.where(pf | ball, lines(line_colour), img)
    img = jnp.where(rows(t["left_lines"]) & (x8 < g.WALL_W), lines(left), img)
    img = jnp.where(rows(t["right_lines"]) & (x8 >= g.SCREEN_W - g.WALL_W), lines(right), img)
    img = jnp.where(paddle, lines(paddle_colour), img)
    hmove = np.nonzero(t["hmove_line"])[0]
    if len(hmove):  # the first line's HMOVE blank: black whatever the colours (seen when cycled)
        blank = int((raster.xs[0] < g.HMOVE_BLANK_W).sum()) * raster.channels
        img = jax.lax.dynamic_update_slice(img, jnp.zeros((len(hmove), blank), _U8),
                                           (int(hmove[0]), 0))
    return img.reshape(raster.height, raster.width, 3) if raster.channels == 3 else img
