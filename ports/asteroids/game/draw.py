"""Asteroids' picture at 210x160 RGB (``render``, as ALE's ``getScreenRGB()``) or 84x84 grey
(``render_gray84``, drawn directly: every target pixel samples the screen pixel
``jaxtari.render.SMALL_GRAY`` names, no resize), from one drawing routine.

The cartridge alternates pictures (measured, NOTES.md): after a frame whose counter is odd the
screen shows the asteroids, after an even one the ship and its shots; the score and lives digits
are on every frame. The kernel draws with the bytes as they were before the frame's overscan
(``GameState.screen``). Exact so far: the digits on every frame and the ship frames' ship and shots
(tests/ports/test_asteroids_draw.py); the asteroid frames' asteroids are not drawn yet (open)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import render as raster_lib

from . import art
from . import constants as c

NIBBLE = 4
NIBBLE_MASK = 0x0F
BYTE = 256
SIGNED_FROM = 128
MAX_DIGIT = 9

_FONT = raster_lib.art_mask(art.DIGIT_FONT)          # (10, 5, 3)
_SHIP = raster_lib.art_mask(art.SHIP)                # (16, 5, 8)
_EXPLOSION = raster_lib.art_mask(art.EXPLOSION)      # (3, 5, 8)
# one table: the 16 headings, then the explosion's steps
_SHIP_TABLE = np.concatenate([_SHIP, _EXPLOSION])
_FINE = np.asarray(c.FINE_PIXELS, np.int32)
_COARSE = np.asarray(c.COARSE_PIXELS, np.int32)


def pixel(code):
    """The screen column of a horizontal position code (the collision code's reading)."""
    code = jnp.asarray(code, jnp.int32)
    return (jnp.asarray(_FINE)[code >> NIBBLE] + jnp.asarray(_COARSE)[code & NIBBLE_MASK]) \
        % c.SCREEN_WIDTH


def _signed(byte):
    return jnp.where(byte >= SIGNED_FROM, byte - BYTE, byte)


def _digits_mask(raster, values, xs0, blank):
    """(H, W) bool: digits ``values`` (n,) at columns ``xs0`` (n,), those in ``blank`` hidden."""
    ys, xs = jnp.asarray(raster.ys), jnp.asarray(raster.xs)          # (H, 1), (1, W)
    row = (ys - art.DIGIT_TOP) // art.DIGIT_CELL_H
    row_in = (row >= 0) & (row < _FONT.shape[1])
    font = jnp.asarray(_FONT)
    mask = jnp.zeros((raster.height, raster.width), bool)
    for i in range(len(xs0)):
        col = (xs - xs0[i]) // art.DIGIT_CELL_W
        col_in = (xs >= xs0[i]) & (col < _FONT.shape[2])
        lit = font[values[i], jnp.clip(row, 0, _FONT.shape[1] - 1),
                   jnp.clip(col, 0, _FONT.shape[2] - 1)]
        mask = mask | (lit & row_in & col_in & ~blank[i])
    return mask


def _score_mask(raster, state):
    thousands, tens = state.screen.score[0], state.screen.score[1]
    digits = jnp.stack([thousands >> NIBBLE, thousands & NIBBLE_MASK, tens >> NIBBLE,
                        tens & NIBBLE_MASK, jnp.int32(0)])
    # leading zeros are blank; the last (tens of points, always drawn) is the RAM's zero unit
    shown = jnp.cumsum(digits != 0) > 0
    blank = ~shown.at[-1].set(True)
    values = jnp.concatenate([digits, jnp.minimum(state.screen.lives, MAX_DIGIT)[None]])
    blank = jnp.concatenate([blank, jnp.zeros((1,), bool)])
    return _digits_mask(raster, values, art.SCORE_DIGIT_X + (art.LIVES_DIGIT_X,), blank)


def _play_line(raster, top):
    """(H, 1) the line of each raster row counted from ``top`` inside the wrapping play area,
    and whether the row is in the play area at all."""
    ys = jnp.asarray(raster.ys)
    line = (ys - top) % art.PLAY_LINES
    # a 2-line row that starts above the play area is not drawn at all
    row_start = ys - line % art.SHIP_LINES_PER_ROW
    inside = (ys >= art.PLAY_TOP) & (ys < art.PLAY_BOTTOM) & (row_start >= art.PLAY_TOP)
    return line, inside


def _ship_mask(raster, state):
    s = state.ship
    y = state.screen.ship_y
    top = art.SHIP_TOP + 2 * _signed(y) + (s.subpixel[1] >= art.SUBPIXEL_HALF)
    line, inside = _play_line(raster, top)
    edge = jnp.where((s.x_code & NIBBLE_MASK) == art.EDGE_COARSE, art.EDGE_SHOT_DX, 0)
    dx = (jnp.asarray(raster.xs) - pixel(s.x_code) - art.SHIP_DX - edge) % c.SCREEN_WIDTH
    row = line // art.SHIP_LINES_PER_ROW
    timer = state.player.feature_timer
    # the timer is set to 128 in the overscan, after the picture: the ship is still whole then
    exploding = timer > c.EXPLODING
    step = (timer >> art.EXPLOSION_STEP_SHIFT) & art.EXPLOSION_STEP_MASK
    which = jnp.where(exploding, c.ROTATIONS + step, s.rotation)
    lit = jnp.asarray(_SHIP_TABLE)[which, jnp.clip(row, 0, _SHIP.shape[1] - 1),
                                   jnp.clip(dx, 0, _SHIP.shape[2] - 1)]
    drawn = y != c.OFF_SCREEN_Y
    return lit & inside & (row < _SHIP.shape[1]) & (dx < _SHIP.shape[2]) & drawn


def _shot_mask(raster, state, i):
    s = state.ship
    y = s.shot_y[i]
    line = jnp.asarray(raster.ys) - (art.SHOT_TOP + 2 * y)
    code = s.shot_x[i]
    dx = art.SHOT_DX + jnp.where((code & NIBBLE_MASK) == art.EDGE_COARSE, art.EDGE_SHOT_DX, 0)
    x = pixel(code) + dx
    if i == 0:
        wrapped = (x >= c.SCREEN_WIDTH) & (x < c.SCREEN_WIDTH + art.EDGE_LOWER_COLUMNS)
        line = line - wrapped
    col = jnp.asarray(raster.xs) == x % c.SCREEN_WIDTH
    return (line >= 0) & (line < art.SHOT_LINES) & col & (y != c.OFF_SCREEN_Y)


def draw(raster, state):
    """The screen of ``state`` (the state after the frame) on ``raster``."""
    canvas = raster.blank(art.BACKGROUND)
    ship_frame = state.ship.count % c.LOGIC_PERIOD != c.ASTEROID_FRAME_PARITY
    canvas = raster_lib.paint(canvas, _shot_mask(raster, state, 1) & ship_frame, art.SECOND_SHOT_RGB)
    canvas = raster_lib.paint(canvas, (_shot_mask(raster, state, 0) | _ship_mask(raster, state))
                          & ship_frame, art.SHIP_RGB)
    return raster_lib.paint(canvas, _score_mask(raster, state), art.SCORE_RGB)


@jax.jit
def render_rgb(state):
    return draw(raster_lib.FULL, state)


def render(state):
    """(210, 160, 3) uint8: ALE's ``getScreenRGB()`` after the frame that led to ``state``."""
    return render_rgb(state)


@jax.jit
def render_gray84(state):
    """(84, 84) uint8: the same picture drawn directly at 84x84 in ALE's grey levels."""
    return draw(raster_lib.SMALL_GRAY, state)
