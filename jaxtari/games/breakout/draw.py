"""Breakout's picture, drawn straight at the raster's size (210x160 RGB or 84x84 grey).

The screen is the kernel of the frame just run: bricks, ball and paddle as the state holds them, the
digits as the previous frame left them (the cartridge builds them after the kernel). Layers follow
the TIA's priorities: the paddle (player 0) over the side walls (missiles) over the ball and the
playfield (bricks, top wall, digits) over the black background. The ball takes the playfield's
colour of its line, so it cannot be seen over a brick or a wall.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.games.breakout import constants as k
from jaxtari.games.breakout import geometry as g

# 3x5 digit glyphs (ALE: read off the screen; a cell is 4 px wide and 2 lines tall)
DIGIT_ART = (
    ("###", "#.#", "#.#", "#.#", "###"), (".#.", ".#.", ".#.", ".#.", ".#."),
    ("###", "..#", "###", "#..", "###"), ("###", "..#", ".##", "..#", "###"),
    ("#.#", "#.#", "###", "..#", "..#"), ("###", "#..", "###", "..#", "###"),
    ("#..", "#..", "###", "#.#", "###"), ("###", "..#", "..#", "..#", "..#"),
    ("###", "#.#", "###", "#.#", "###"), ("###", "#.#", "###", "..#", "..#"),
)


def digit_masks() -> np.ndarray:
    cells = render.art_mask(DIGIT_ART)  # (10, 5, 3)
    return cells.repeat(g.DIGIT_CELL_H, axis=1).repeat(g.DIGIT_CELL_W, axis=2)  # (10, 10, 12)


_STATIC: dict = {}


def _static(raster: render.Raster):
    """Per-raster tables in numpy (built once per raster): the brick row of each line, the
    playfield pixel of each column, the top wall, the side walls above and from the paddle's lines,
    the lines the ball can be drawn on."""
    if raster.key not in _STATIC:
        _STATIC[raster.key] = _build_static(raster)
    return _STATIC[raster.key]


def _build_static(raster: render.Raster):
    ys, xs = raster.ys[:, 0], raster.xs[0]
    brick_row = np.where((ys >= g.BRICK_TOP) & (ys < g.BRICK_TOP + k.NUM_ROWS * k.ROW_LINES),
                         (ys - g.BRICK_TOP) // k.ROW_LINES, -1)
    pf = np.clip(xs // g.PF_PIXEL, 0, 39)
    top_wall = ((ys >= g.TOP_WALL[0]) & (ys < g.TOP_WALL[1]))[:, None] & np.ones_like(xs, bool)[None]
    left = ((ys >= g.TOP_WALL[0]) & (ys < g.LEFT_WALL_END))[:, None] & (xs < g.WALL_W)[None]
    right = ((ys >= g.TOP_WALL[0]) & (ys < g.RIGHT_WALL_END))[:, None] & (
        xs >= g.SCREEN_W - g.WALL_W)[None]
    low = (ys >= g.LOW_COLOUR_TOP)[:, None]
    return brick_row, pf, top_wall, left & ~low, left & low, right & ~low, right & low


def draw(game, raster: render.Raster, state):
    c = game.consts
    brick_row, pf, top_wall, left_hi, left_lo, right_hi, right_lo = _static(raster)
    ys = jnp.asarray(raster.ys[:, 0])
    xs = jnp.asarray(raster.xs[0])

    canvas = raster.blank(c.background)

    # digits: score (three digits, leading zeros shown) and balls left, then the player number
    masks = digit_masks()
    score = state.shown_score
    digits = render.digits_mask(raster, masks, score, g.DIGIT_X[0], g.DIGIT_TOP, 3,
                                g.DIGIT_X[1] - g.DIGIT_X[0], leading_zeros=True)
    digits = digits | render.digits_mask(raster, masks, state.shown_lives % 10, g.DIGIT_X[3],
                                         g.DIGIT_TOP, 1, 0)
    digits = digits | render.digits_mask(raster, masks, 1, g.DIGIT_X[4], g.DIGIT_TOP, 1, 0)
    canvas = render.paint(canvas, digits | jnp.asarray(top_wall), c.wall_colour)

    # the playfield colour of each line: grey above the bricks, the row's colour, then the paddle's
    rows = jnp.asarray(brick_row)
    invisible = bool(c.flags & k.INVISIBLE)
    row_rgb = jnp.asarray(c.row_colours, jnp.int32)
    row_rgb = jnp.where(invisible & ~state.wall_lit, jnp.asarray(c.background, jnp.int32), row_rgb)
    line_rgb = jnp.where((rows >= 0)[:, None], row_rgb[jnp.clip(rows, 0, 5)],
                         jnp.where((ys < g.BRICK_TOP)[:, None], jnp.asarray(c.wall_colour),
                                   jnp.asarray(c.paddle_colour)))
    line_col = render.colour_for(raster, line_rgb)  # (H, 3) or (H,)

    # bricks
    lit = (state.bricks[jnp.asarray(g.BRICK_BYTE)] >> jnp.asarray(g.BRICK_BIT)) & 1  # (6, 40)
    brick = (lit[jnp.clip(rows, 0, 5)][:, jnp.asarray(pf)] == 1) & (rows >= 0)[:, None]
    # the ball
    ball = g.ball_mask(ys, xs, state.ball_y >> 8, state.ball_x >> 8)
    pfm = brick | ball
    if raster.channels == 3:
        canvas = jnp.where(pfm[..., None], line_col[:, None, :], canvas)
    else:
        canvas = jnp.where(pfm, line_col[:, None], canvas)

    # side walls (their colour changes from the paddle's lines on), then the paddle
    canvas = render.paint(canvas, jnp.asarray(left_hi | right_hi), c.wall_colour)
    canvas = render.paint(canvas, jnp.asarray(left_lo), c.left_wall_low_colour)
    canvas = render.paint(canvas, jnp.asarray(right_lo), c.paddle_colour)
    size = game.paddle_size(state.shrunk)
    px = state.paddle_x - g.PADDLE_X_OFFSET
    pw = jnp.asarray(c.paddle_widths)[size]
    paddle = (((ys >= g.PADDLE_TOP) & (ys < g.PADDLE_TOP + g.PADDLE_H))[:, None]
              & ((xs >= px) & (xs < px + pw))[None, :])
    return render.paint(canvas, paddle, c.paddle_colour)
