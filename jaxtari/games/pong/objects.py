"""What Pong shows a player: its objects (drawn boxes, screen px) and its signals (the RAM view the
ground truth reads, in screen px), computed from the state; ``Pong.objects`` and ``.signals`` call
these."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari import render
from jaxtari.env import ObjectGroup


def objects(game, state):
    """Drawn bounding boxes (screen px; paddles unclipped, the walls hide what overlaps them)."""
    c = game.consts
    cols, tops, bottoms = game._ball_columns(state)
    bx, by = cols[0], jnp.min(tops)
    ball_h = jnp.max(bottoms) - by  # 3-5: the columns' edges can be a line apart
    ball_visible = ((bx + c.ball_w > 0) & (bx < render.SCREEN_W)
                    & (by + ball_h > c.top_wall[1]) & (by < c.bottom_wall[0]))
    return {
        "player": ObjectGroup.make(c.player_x, game._player_top(state.player_y), c.paddle_w,
                                   c.paddle_h),
        "enemy": ObjectGroup.make(c.enemy_x, game._enemy_top(state.enemy_y), c.paddle_w,
                                  c.paddle_h),
        "ball": ObjectGroup.make(bx, by, c.ball_w, ball_h, ball_visible),
    }


def signals(game, state):
    c = game.consts
    return {
        "player_y": state.player_y - c.player_y_offset,
        "enemy_y": state.enemy_y - c.enemy_y_offset,
        "ball_x": state.ball_x - c.ball_x_offset,
        "ball_y": state.ball_y - c.ball_y_offset,
        "player_score": state.player_score,
        "enemy_score": state.enemy_score,
    }
