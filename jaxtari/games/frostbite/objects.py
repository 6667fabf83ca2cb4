"""What Frostbite shows a player: its objects (screen boxes, ALE pixels) and its signals (the RAM
view the ground truth reads), computed from the state; ``Frostbite.objects`` and ``.signals`` call
these."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.env import ObjectGroup
from jaxtari.games.frostbite import art
from jaxtari.games.frostbite.constants import (
    BEAR_LEVEL_INDEX, BEAR_MAX_X, BEAR_X_OFFSET, PLAYER_H, PLAYER_W, PLAYER_Y_OFFSET, ROW_KIND,
)
from jaxtari.games.frostbite.logic.geometry import bear_left, enemy_screen_x, window_mask
from jaxtari.games.frostbite.logic.sprites import FLOE_PIECE_START, FLOE_PIECE_W


def signals(game, state):
    return {
        "player_x": state.x,
        "player_y": state.y + PLAYER_Y_OFFSET,
        "row": jnp.where(state.floe_row < 0, 255, state.floe_row),
        "level": state.level_index + 1,
        "igloo_blocks": state.blocks + 1,
        "temperature": state.temperature,
        "floe_x": state.floe_x,
        "floe_white": state.floe_white,
        "enemy_x": enemy_screen_x(state),
        # the ground truth's convention: -1 when ram[104] == 140 (no bear)
        "bear_x": jnp.where(state.bear_x == BEAR_MAX_X, -1, state.bear_x + BEAR_X_OFFSET),
    }


def objects(game, state):
    s = state
    # floes: 4 rows x 3 floes (x of the leftmost piece of each floe, line 0)
    shape = s.shown_shape
    start = jnp.asarray(FLOE_PIECE_START)[shape]
    width = jnp.asarray(FLOE_PIECE_W)[shape]
    left_off = jnp.min(start)
    extent = jnp.max(start + width) - left_off
    fx = (s.floe_x[:, None] + left_off + art.FLOE_COPY_SPACING * jnp.arange(3)) % 160
    fy = jnp.broadcast_to(jnp.asarray(art.FLOE_TOP_Y, jnp.int32)[:, None], (4, 3))
    floes = ObjectGroup.make(fx.reshape(-1), fy.reshape(-1), extent, art.FLOE_LINES, True,
                             row=jnp.repeat(jnp.arange(4), 3),
                             white=jnp.repeat(s.floe_white, 3).astype(jnp.int32))
    eff = s.enemy_copies & window_mask(s.enemy_x)
    ex = (s.enemy_x[:, None] + 16 * jnp.arange(3)) & 0xFF
    vis = ((eff[:, None] >> (2 - jnp.arange(3))) & 1) == 1
    ey = jnp.broadcast_to(jnp.asarray(art.ENEMY_TOP_Y, jnp.int32)[:, None] + s.enemy_bob[:, None], (4, 3))
    enemies = ObjectGroup.make(jnp.where(vis, ex, 0).reshape(-1), ey.reshape(-1), 8,
                               art.ENEMY_LINES, vis.reshape(-1),
                               kind=jnp.repeat(s.row_byte & ROW_KIND, 3), row=jnp.repeat(jnp.arange(4), 3))
    visible = s.y > 0
    player = ObjectGroup.make(s.x, s.y + PLAYER_Y_OFFSET + s.sink, PLAYER_W,
                              PLAYER_H - jnp.minimum(s.sink, PLAYER_H), visible,
                              row=jnp.where(s.floe_row < 0, -1, s.floe_row),
                              frozen=s.frozen)
    bear = ObjectGroup.make(bear_left(s), art.BEAR_Y, art.BEAR_W, art.BEAR_H,
                            (s.level_index >= BEAR_LEVEL_INDEX) & game.consts.bear)
    blocks = s.blocks + 1
    igloo = ObjectGroup.make(112, jnp.where(blocks > 0, 35, 51), 32, jnp.where(blocks > 0, 20, 4),
                             blocks > 0, blocks=blocks)
    return {"player": player, "floes": floes, "enemies": enemies, "bear": bear, "igloo": igloo}
