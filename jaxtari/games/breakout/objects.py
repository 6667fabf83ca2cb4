"""What Breakout shows a player: its objects (drawn boxes, screen px) and its signals (the RAM view
the ground truth reads, in screen px), computed from the state; ``Breakout.objects`` and
``.signals`` call these."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from jaxtari.env import ObjectGroup
from jaxtari.games.breakout import constants as k
from jaxtari.games.breakout.logic import geometry as g


def objects(game, state):
    c = game.consts
    size = game.paddle_size(state.shrunk)
    bx = (state.ball_x >> 8) - g.BALL_X_OFFSET
    # the drawn box: the ball's lines shift by a line at each kernel section's border
    lift = game.held_lift(state)
    lines = (state.ball_y >> 8) + g.BALL_SECTIONS[0][1] - lift + jnp.arange(g.BALL_H + 2)
    drawn = g.ball_mask(lines, bx[None], state.ball_y >> 8, state.ball_x >> 8,
                        lift).any(axis=1)
    by = lines[jnp.argmax(drawn)]
    bh = jnp.sum(drawn)
    in_play = ((state.ball_y >> 8) != 0) & (bh > 0)
    grid = game.bricks_grid(state)
    rr, cc = np.meshgrid(np.arange(k.NUM_ROWS), np.arange(k.NUM_COLUMNS), indexing="ij")
    return {
        "paddle": ObjectGroup.make(state.paddle_x - g.PADDLE_X_OFFSET, g.PADDLE_TOP,
                                   jnp.asarray(c.paddle_widths)[size], g.PADDLE_H),
        "ball": ObjectGroup.make(bx, by, g.BALL_W, bh, in_play),
        "bricks": ObjectGroup.make(
            8 + 8 * cc.reshape(-1), g.BRICK_TOP + k.ROW_LINES * rr.reshape(-1), 8,
            k.ROW_LINES, grid.reshape(-1), points=jnp.asarray(c.row_points)[rr.reshape(-1)]),
    }


def signals(game, state):
    grid = game.bricks_grid(state)
    return {
        "paddle_x": state.paddle_x - g.PADDLE_X_OFFSET,
        "ball_x": (state.ball_x >> 8) - g.BALL_X_OFFSET,
        "ball_y": (state.ball_y >> 8) + g.BALL_SECTIONS[-1][1],
        "bricks_per_row": grid.sum(axis=-1).astype(jnp.int32),
        "hit_count": state.hits & k.HIT_COUNT,
        "paddle_shrunk": state.shrunk,
    }
