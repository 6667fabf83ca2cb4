"""Freeway's picture, at 210x160 RGB or 84x84 grey from the same drawing (see :mod:`jaxtari.render`):
the static road (drawn once per raster), the scores, the chickens, then the cars over them; under
the ``sprites_as_boxes`` switch (the ``rectangles`` mod) the chicken and the cars as their boxes."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.games.freeway import art
from jaxtari.games.freeway.logic import sprites
from jaxtari.games.freeway.constants import NUM_LANES
from jaxtari.xla import opaque_zero


def background(game, raster):
    """The static picture on ``raster``, drawn once per raster and kept by the game."""
    key = (raster.height, raster.width, raster.channels)
    if key not in game._backgrounds:
        with jax.ensure_compile_time_eval():
            game._backgrounds[key] = np.asarray(static_picture(raster))
    return jnp.asarray(game._backgrounds[key])


def draw(game, raster, state):
    """The screen of ``state`` on ``raster``."""
    canvas = background(game, raster)
    canvas = render.paint(canvas, score_mask(raster, state), score_colour(game, state))
    shown = state.frame > 0  # ALE's first frame after reset shows no chickens
    # The switch is a Python bool when baked (off: the sprites alone, nothing else traced) or an
    # array when it is data (jaxtari.variants): then both are traced and it picks per frame.
    boxes = game.consts.sprites_as_boxes
    sprites_on = True if boxes is False else jnp.logical_not(boxes)
    canvas = render.draw_sprites(canvas, raster, sprites.CHICKENS, game._pose(state), art.CHICKEN_X,
                                 game.chicken_y(state), shown & sprites_on)
    # The second player's chicken never moves or changes pose: a fixed mask.
    other = render.glyph_table(raster, sprites.CHICKENS.mask, [art.OTHER_CHICKEN_X],
                               game._other_chicken_y)[0, art.POSE_WALK_A]
    canvas = render.paint(canvas, jnp.asarray(other) & shown, art.CHICKEN_RGB)
    # Cars are drawn over the chicken (the car's pixels win where they overlap). x wraps at
    # 160: a car at x < 0 shows its left columns at the right edge (x 157..159) and the rest
    # under the HMOVE bar. (Wrapping every car also sends the right end of one at x > 152 to
    # columns 0..3, which the HMOVE bar covers, so the picture is the same.)
    x = game._car_screen_x(state)
    lanes = jnp.arange(NUM_LANES)
    # One lane per row band: all ten cars in one pass per layer.
    canvas = render.draw_sprite_rows(canvas, raster, game._car_sheet, lanes, x,
                                     jnp.asarray(sprites.LANE_TOP), sprites_on, wrap=render.SCREEN_W)
    if boxes is not False:
        canvas = render.paint(canvas, jnp.logical_and(boxes, box_mask(game, raster, state)),
                              art.BOX_RGB)
    return hmove_bar(raster, canvas, state)


def box_mask(game, raster, state):
    """(H, W) bool: the raster pixels inside the boxes :meth:`Freeway.objects` reports for the
    moving objects (the chicken and the cars; the second player's chicken never moves). Columns
    wrap at 160 as the car sprites do: a car at x < 0 shows at the right edge too."""
    objs = game.objects(state)
    ys, xs = jnp.asarray(raster.ys[:, 0]), jnp.asarray(raster.xs[0])
    mask = jnp.zeros((raster.height, raster.width), bool)
    for group in (objs["chicken"], objs["cars"]):
        x, y, w, h = group.x[:, None], group.y[:, None], group.w[:, None], group.h[:, None]
        rows = group.active[:, None] & (ys >= y) & (ys < y + h)
        cols = (xs - x) % render.SCREEN_W < w
        mask = mask | jnp.any(rows[:, :, None] & cols[:, None, :], axis=0)
    return mask


def hmove_bar(raster, canvas, state):
    """``canvas`` with the HMOVE bar (black, x 0..7 on every line) over it.

    Why not :func:`render.draw_rect`: inside an agent's ``lax.scan`` XLA moved its mask, computed
    from the raster's columns alone, out of the scan as an (H, W) table that the picture's loop then
    loaded per pixel. The bar is the raster's first columns (its x are sorted), found from the column
    index plus :func:`jaxtari.xla.opaque_zero`, so the comparison stays in the loop as a constant."""
    assert (np.diff(raster.xs[0]) >= 0).all() and not render.gray(np.asarray(art.BLACK)).any()
    bar = int(np.searchsorted(raster.xs[0], art.HMOVE_BAR_W))
    column = jax.lax.broadcasted_iota(jnp.int32, (1, raster.width), 1) + opaque_zero(state.frame)
    under = column < bar
    return jnp.where(under[..., None] if canvas.ndim == 3 else under, jnp.uint8(0), canvas)


def score_mask(raster, state):
    """(H, W) bool: the lit pixels of both players' score digits."""
    def digits(value, x):
        return render.digits_mask(raster, sprites.DIGIT_MASKS.mask, value, x, art.SCORE_Y, 2,
                                  art.DIGIT_SPACING)
    return digits(state.shown_score, art.PLAYER_SCORE_X) | digits(0, art.OTHER_SCORE_X)


def score_colour(game, state):
    """The digits' colour: fixed, then the palette cycle of the last frames."""
    flashing = state.frame >= game.consts.game_frames - art.SCORE_FLASH_FRAMES
    flash = jnp.asarray(art.SCORE_FLASH_RGB, jnp.uint8)[(state.frame % 256) // 2]
    return jnp.where(flashing, flash, jnp.asarray(art.SCORE_RGB, jnp.uint8))


def static_picture(raster):
    """The picture that never changes: road, kerbs, lane lines, the logo."""
    c = raster.blank(art.ROAD_RGB)
    for (y, h), col in ((art.SCORE_BAND, art.ROAD_RGB), (art.TOP_KERB, art.KERB_RGB),
                        (art.BOTTOM_KERB, art.KERB_RGB)):
        c = render.draw_rect(c, raster, 0, y, render.SCREEN_W, h, col)
    for y, h in art.BLACK_ROWS:
        c = render.draw_rect(c, raster, 0, y, render.SCREEN_W, h, art.BLACK)
    dash = ((raster.xs >= art.DASH_X0) & ((raster.xs - art.DASH_X0) % art.DASH_PERIOD < art.DASH_LEN))
    for ys, col in ((art.LANE_LINE_YS, art.LANE_LINE_RGB), (art.MEDIAN_YS, art.MEDIAN_RGB)):
        for y in ys:
            c = render.paint(c, (raster.ys == y) & dash, col)
    c = render.draw_sprites(c, raster, sprites.LOGO, 0, art.LOGO_XY[0], art.LOGO_XY[1], True)
    return c
