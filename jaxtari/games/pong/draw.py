"""Pong's picture, at 210x160 RGB or 84x84 grey from the same drawing (see :mod:`jaxtari.render`).

From top to bottom: the scores (and the HMOVE bar), the top wall, the court with the paddles and the
ball, the bottom wall; measured on getScreenRGB frames.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.atari.fonts import DIGITS_3X5
from jaxtari.atari.palette import PALETTE
from jaxtari.atari.screen import HMOVE_BAR_W


def _digit_masks() -> np.ndarray:
    """(10, 20, 12) bool: the 3x5 font with each cell 4x4 screen pixels."""
    cells = render.art_mask(DIGITS_3X5)
    return cells.repeat(4, axis=1).repeat(4, axis=2)


def _colours(c, attract):
    """(4, 3) RGB of the background, the walls (and ball), the agent's and the computer's colour
    with the attract cycle at RAM 10 = ``attract``: each colour byte plus RAM 10 with its nibbles
    swapped (0 in play: the colours as they are)."""
    cycle = ((attract & 15) << 4) | (attract >> 4)
    byte = jnp.asarray([c.background, c.wall_colour, c.player_colour, c.enemy_colour]) + cycle
    return jnp.asarray(PALETTE, jnp.int32)[(byte & 255) >> 1]  # the TIA ignores bit 0


def draw(game, raster, state):
    """The screen of ``state`` on ``raster``."""
    c = game.consts
    attract = jnp.where(state.frame <= c.attract_frames, c.start_attract,
                        state.shown_attract)
    bg_rgb, wall, player_colour, enemy_colour = _colours(c, attract)
    bg = bg_rgb.astype(jnp.uint8)

    def fill(colour):
        return lambda sub: jnp.broadcast_to(render.colour_for(sub, colour.astype(jnp.uint8)),
                                            sub.blank((0, 0, 0)).shape).astype(jnp.uint8)

    def scores(sub):
        def digits(value, x):  # two digits, the tens hidden below 10
            return render.digits_mask(sub, _digit_masks(), value, x[0], c.digit_rows[0], 2,
                                      x[1] - x[0])
        canvas = fill(bg)(sub)
        # the select display shows the game number in the computer's digits and no others
        canvas = render.paint(canvas, digits(state.shown_player, c.player_digits_x)
                              & ~state.stopped, player_colour)
        canvas = render.paint(canvas, digits(state.shown_enemy, c.enemy_digits_x), enemy_colour)
        return render.draw_rect(canvas, sub, 0, 0, HMOVE_BAR_W, 1, c.hmove_bar)

    def court(sub):
        o = game.objects(state)
        cols, tops, bottoms = game._ball_columns(state)
        # the reset frame: the TIA's ball is still where power-on left it (RAM 49 stays 0 until
        # the first serve), so it shows at a fixed spot that no state field gives
        reset = state.frame == 0
        cols = jnp.where(reset, c.reset_ball_x + jnp.arange(c.ball_w), cols)
        tops = jnp.where(reset, c.reset_ball_top, tops)
        bottoms = jnp.where(reset, c.reset_ball_top + c.ball_h, bottoms)
        xs = jnp.concatenate([o["enemy"].x, o["player"].x, cols])
        ys = jnp.concatenate([o["enemy"].y, o["player"].y, tops])
        ws = jnp.array([c.paddle_w, c.paddle_w, 1, 1])
        hs = jnp.concatenate([jnp.array([c.paddle_h, c.paddle_h]), bottoms - tops])
        act = jnp.concatenate([o["enemy"].active, o["player"].active,
                               jnp.broadcast_to(o["ball"].active | reset, (2,))])
        # objects are only visible inside the court (the walls hide them)
        top = jnp.maximum(ys, c.top_wall[1])
        bottom = jnp.minimum(ys + hs, c.bottom_wall[0])
        colours = jnp.stack([enemy_colour, player_colour, wall, wall])
        return render.draw_rects(fill(bg)(sub), sub, xs, top, ws, bottom - top, colours,
                                 act & (bottom > top))

    # The screen from top to bottom: scores (and the HMOVE bar), top wall, court, bottom wall.
    return render.draw_bands(raster, [
        (c.top_wall[0], scores), (c.top_wall[1], fill(wall)),
        (c.bottom_wall[0], court), (c.bottom_wall[1], fill(wall)),
    ])
