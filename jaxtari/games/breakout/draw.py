"""Breakout's picture, drawn straight at the raster's size (210x160 RGB or 84x84 grey).

The screen is the kernel of the frame just run: bricks, ball and paddle as the state holds them, the
digits as the previous frame left them (the cartridge builds them after the kernel). Layers follow
the TIA's priorities: the paddle (player 0) over the side walls (missiles) over the ball and the
playfield (bricks, top wall, digits) over the black background. The ball takes the playfield's
colour of its line, so it cannot be seen over a brick or a wall.

How it is computed (fast on a CPU: no per-pixel gathers, the per-pixel work a few elementwise
selects that XLA vectorises): everything that depends on the state is worked out per raster *line*
first, as the 2600 itself holds it.

* The playfield (digits, top wall, bricks) is 40 pixels of 4 screen columns, the same 40 bits on
  every line of a band: per line it is one 40-bit register, kept as two uint32 words. Each line
  takes its words from a small per-state table (empty, the top wall, the five glyph rows of the
  digits, the six brick rows) by a static index, and each raster column tests a static bit.
* The ball and the paddle are one span [from, to) of screen columns per line (empty off their
  lines), compared against each raster column's screen x.
* The side walls do not move: a static mask per pixel, their colours per line.
* The colours are the ROM's colour bytes, each a role (background, walls, paddle, a brick row, ...):
  a game stopped by the frame counter cycles them (``constants.ATTRACT_SETS``), so each frame
  takes its roles' colours from one of 256 small tables, then lines and pixels from the roles.
"""

from __future__ import annotations

import functools

import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.atari.fonts import DIGITS_3X5
from jaxtari.atari.palette import PALETTE
from jaxtari.games.breakout import constants as k
from jaxtari.games.breakout import geometry as g

_U32 = jnp.uint32

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

# where each line finds its playfield words in the per-state table (see _pf_table)
_EMPTY, _TOP_WALL, _GLYPH0 = 0, 1, 2
_BRICK0 = _GLYPH0 + GLYPH_ROWS


def _fmt(raster, rgb) -> np.ndarray:
    """RGB colour(s) (..., 3) in the raster's format: (..., 3) RGB or (...) grey, int32."""
    rgb = np.asarray(rgb, np.uint8)
    return (rgb if raster.channels == 3 else render.gray(rgb)).astype(np.int32)


# the colour roles: what a pixel's colour byte is, whatever the cycle does to it
_BG, _WALL, _PADDLE, _LEFT_LOW, _ROW0 = 0, 1, 2, 3, 4


def _colour_byte(rgb) -> int:
    """The TIA colour byte ALE shows as ``rgb`` (a game's colours are measured as RGB)."""
    hits = np.nonzero((PALETTE == np.asarray(rgb)).all(axis=1))[0]
    if not len(hits):
        raise ValueError(f"breakout: colour {tuple(rgb)} is not in ALE's NTSC palette")
    return int(hits[0]) << 1


def _role_colours(raster, consts) -> np.ndarray:
    """(256, roles, C) int32: every role's colour under each of the cycle's sets (set 0: as in
    play)."""
    base = np.asarray([_colour_byte(c) for c in (consts.background, consts.wall_colour,
                                                 consts.paddle_colour, consts.left_wall_low_colour,
                                                 *consts.row_colours)])
    h = np.arange(k.ATTRACT_SETS)[:, None]
    byte = base[None, :] ^ (((h << 4) | (h >> 4)) & 0xFF)
    byte &= k.ATTRACT_MASK
    return _fmt(raster, PALETTE[byte >> 1])


@functools.lru_cache(maxsize=8)
def _static(height, width, channels, ys_bytes, xs_bytes, consts):
    """Per-raster tables (numpy), everything about the picture that does not depend on the state."""
    ys = np.frombuffer(ys_bytes, np.int32)
    xs = np.frombuffer(xs_bytes, np.int32)
    raster = render.Raster(height, width, ys[:, None], xs[None, :], channels)
    t = {"ys": ys, "xs": xs[None, :]}
    # lines: which playfield words each shows
    src = np.full(ys.shape, _EMPTY, np.int32)
    digits = (ys >= g.DIGIT_TOP) & (ys < g.DIGIT_TOP + GLYPH_ROWS * g.DIGIT_CELL_H)
    src[digits] = _GLYPH0 + (ys[digits] - g.DIGIT_TOP) // g.DIGIT_CELL_H
    src[(ys >= g.TOP_WALL[0]) & (ys < g.TOP_WALL[1])] = _TOP_WALL
    brick_row = np.where((ys >= g.BRICK_TOP) & (ys < g.BRICK_TOP + k.NUM_ROWS * k.ROW_LINES),
                         (ys - g.BRICK_TOP) // k.ROW_LINES, -1)
    src[brick_row >= 0] = _BRICK0 + brick_row[brick_row >= 0]
    t["pf_src"] = src
    # columns: the playfield pixel each samples, as (which word, which bit)
    pf = np.clip(xs // g.PF_PIXEL, 0, 39)
    t["pf_hi"] = (pf >= 32)[None, :]
    t["pf_bit"] = (pf % 32).astype(np.uint32)[None, :]
    # the playfield's colour role of each line: grey above the bricks, the row's, then the paddle's
    line_role = np.where(ys < g.BRICK_TOP, _WALL, _PADDLE)
    line_role = np.where(brick_row >= 0, _ROW0 + np.clip(brick_row, 0, 5), line_role)
    t["line_role"] = line_role
    # invisible games: the brick rows in the background's colour while the wall is not lit
    t["line_role_dark"] = np.where(brick_row >= 0, _BG, line_role)
    # side walls (their colour changes from the paddle's lines on)
    left = ((ys >= g.TOP_WALL[0]) & (ys < g.LEFT_WALL_END))[:, None] & (xs < g.WALL_W)[None]
    right = ((ys >= g.TOP_WALL[0]) & (ys < g.RIGHT_WALL_END))[:, None] & (
        xs >= g.SCREEN_W - g.WALL_W)[None]
    low = ys >= g.LOW_COLOUR_TOP
    t["side"] = left | right
    t["side_left"] = (xs < g.WALL_W)[None]
    t["left_role"] = np.where(low, _LEFT_LOW, _WALL)
    t["right_role"] = np.where(low, _PADDLE, _WALL)
    t["colours"] = _role_colours(raster, consts)
    t["late_lines"] = ys > g.COLOUR_SET_LINE
    split = np.nonzero(ys == g.COLOUR_SET_LINE)[0]
    t["split_row"] = int(split[0]) if len(split) else None
    t["split_right"] = xs >= k.COLOUR_SET_X[consts.mode // k.GAMES_PER_MODE_STEP]
    t["hmove_blank"] = ((ys == g.HMOVE_LINE)[:, None] & (xs < g.HMOVE_BLANK_W)[None])
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


def _brick_words(bricks):
    """(6,) lo and hi uint32 words of each brick row's 40 playfield pixels (bit p = pixel p)."""
    lit = (bricks[jnp.asarray(g.BRICK_BYTE)] >> jnp.asarray(g.BRICK_BIT)) & 1  # (6, 40)
    bits = lit.astype(_U32) << jnp.asarray(np.arange(40) % 32, _U32)
    return bits[:, :32].sum(axis=1, dtype=_U32), bits[:, 32:].sum(axis=1, dtype=_U32)


def _glyph_words(shown_score, shown_lives, selecting, shown_select, game_number):
    """(5,) lo and hi uint32 words of the digits' glyph rows: the score's three digits (leading
    zeros shown), the balls left and the player number; in the select display (see
    constants.ATTRACT_SETS) the hundreds and the balls blank from its first frame and the game
    number in the tens and units from the next (the digits are set up a frame ahead)."""
    tens = jnp.where(shown_select, game_number // 10, (shown_score // 10) % 10)
    units = jnp.where(shown_select, game_number % 10, shown_score % 10)
    digits = [(shown_score // 100) % 10, tens, units, shown_lives % 10]
    blank = [selecting, shown_select & (game_number < 10), jnp.bool_(False), selecting]
    glyphs = jnp.asarray(GLYPH_BITS)
    lo = jnp.zeros((GLYPH_ROWS,), _U32)
    for d, off, pf in zip(digits, blank, _DIGIT_PF):
        assert pf + 3 <= 32
        lo = lo | jnp.where(off, _U32(0), glyphs[d].astype(_U32) << _U32(pf))
    assert _DIGIT_PF[4] >= 32
    hi = jnp.asarray(GLYPH_BITS[PLAYER_NUMBER].astype(np.uint32) << np.uint32(_DIGIT_PF[4] - 32))
    return lo, hi


def _span(on, x0, x1):
    """Per line [from, to) screen columns: (x0, x1) where ``on``, else empty."""
    return jnp.where(on, x0, 0), jnp.where(on, x1, 0)


def draw(game, raster: render.Raster, state):
    c = game.consts
    t = _tables(raster, c)
    ys = jnp.asarray(t["ys"])
    xs = jnp.asarray(t["xs"])  # (1, W)

    # playfield words of each line
    brick_lo, brick_hi = _brick_words(state.bricks)
    selecting = game.selecting(state)
    glyph_lo, glyph_hi = _glyph_words(state.shown_score, state.shown_lives, selecting,
                                      state.shown_select, c.mode // k.GAMES_PER_MODE_STEP + 1)
    table_lo = jnp.concatenate([jnp.asarray([0, 0xFFFFFFFF], _U32), glyph_lo, brick_lo])
    table_hi = jnp.concatenate([jnp.asarray([0, 0xFF], _U32), jnp.broadcast_to(glyph_hi, (GLYPH_ROWS,)),
                                brick_hi])
    src = jnp.asarray(t["pf_src"])
    pf_lo, pf_hi = table_lo[src], table_hi[src]

    # the ball: 4 lines from its kernel section's offset, 2 columns; cut short on the last line
    by, bx = state.ball_y >> 8, state.ball_x >> 8
    top = by + jnp.asarray(t["ball_offset"]) - game.held_lift(state)
    on = (ys >= top) & (ys < top + g.BALL_H) & jnp.asarray(t["ball_lines"])
    x0 = bx - g.BALL_X_OFFSET
    cut = jnp.where((by & 1) == 0, g.LAST_LINE_CUT_EVEN, g.LAST_LINE_CUT_ODD)
    x1 = jnp.where(jnp.asarray(t["ball_last"]), jnp.minimum(x0 + g.BALL_W, cut), x0 + g.BALL_W)
    ball_from, ball_to = _span(on, x0, x1)
    # the paddle
    px = state.paddle_x - g.PADDLE_X_OFFSET
    pw = jnp.asarray(c.paddle_widths)[game.paddle_size(state.shrunk)]
    pad_from, pad_to = _span(jnp.asarray(t["paddle_lines"]), px, px + pw)

    # each line's colours. The colour bytes are rewritten mid-line (geometry.COLOUR_SET_LINE):
    # the lines above show the previous frame's set, the lines below this frame's.
    previous = (state.clock - 1) & 0xFFFF
    set_above = jnp.where(state.shown_select,
                          (previous >> k.ATTRACT_PERIOD_BITS) % k.ATTRACT_SETS, 0)
    set_below = jnp.where(selecting, (state.clock >> k.ATTRACT_PERIOD_BITS) % k.ATTRACT_SETS, 0)
    table = jnp.asarray(t["colours"])
    above, below = table[set_above], table[set_below]  # (roles, C)
    late = jnp.asarray(t["late_lines"]).reshape((-1,) + (1,) * (table.ndim - 1))
    colours = jnp.where(late, below[None], above[None])  # (H, roles, C)
    line_role = jnp.asarray(t["line_role"])
    if c.flags & k.INVISIBLE:  # the select display shows the wall (measured on ALE)
        line_role = jnp.where(state.wall_lit | state.shown_select, line_role,
                              jnp.asarray(t["line_role_dark"]))
    left_role, right_role = jnp.asarray(t["left_role"]), jnp.asarray(t["right_role"])

    # The per-line values are computed once per line, not once per pixel: XLA fuses cheap
    # elementwise chains into their consumer (jaxtari.xla.materialize).
    pf_lo, pf_hi, ball_from, ball_to, pad_from, pad_to = (
        render.materialize(v) for v in (pf_lo, pf_hi, ball_from, ball_to, pad_from, pad_to))
    col = lambda v: v[:, None]  # noqa: E731  (H,) per line -> (H, 1)
    word = jnp.where(jnp.asarray(t["pf_hi"]), col(pf_hi), col(pf_lo))
    pf = ((word >> jnp.asarray(t["pf_bit"])) & _U32(1)) != 0
    ball = (xs >= col(ball_from)) & (xs < col(ball_to))
    paddle = (xs >= col(pad_from)) & (xs < col(pad_to))

    rgb = raster.channels == 3
    px_ = (lambda m: m[..., None]) if rgb else (lambda m: m)
    lines = (lambda a: a[:, None, :]) if rgb else col
    side_left = px_(jnp.asarray(t["side_left"]))
    side = jnp.asarray(t["side"])

    def compose(rows, colours):
        """The pixels of raster rows ``rows`` with each row's colour of each role (rows, roles, C)."""
        each = jnp.arange(colours.shape[0])
        colour = lambda role: lines(colours[each, role])  # noqa: E731  a role per row
        img = jnp.where(px_((pf | ball)[rows]), colour(line_role[rows]), colour(_BG))
        img = jnp.where(px_(side[rows]), jnp.where(side_left, colour(left_role[rows]),
                                                   colour(right_role[rows])), img)
        return jnp.where(px_(paddle[rows]), colour(_PADDLE), img)

    img = compose(slice(None), colours)
    # the first line's HMOVE blank: black whatever the colours (seen once they cycle)
    img = jnp.where(px_(jnp.asarray(t["hmove_blank"])), 0, img)
    r = t["split_row"]
    if r is not None:  # the line the colours change on: this frame's set right of the write
        new = compose(slice(r, r + 1), below[None])[0]
        img = img.at[r].set(jnp.where(px_(jnp.asarray(t["split_right"])), new, img[r]))
    return img.astype(jnp.uint8)
