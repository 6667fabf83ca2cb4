"""What :meth:`Seaquest.objects` and :meth:`Seaquest.signals` compute: the objects as boxes in screen
pixels and the catalog's signals (alignment/reference/games/seaquest/ram.py), lanes top first."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.env import ObjectGroup
from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest.logic.common import BYTE
from jaxtari.games.seaquest.logic.latches import LOOP_LINES, SECTION_LINES, TOP_SECTION_LOOP_END


def objects(game, state):
    return groups(game.consts, state)


def groups(c, state):
    """Every object as boxes in screen pixels (the lanes' loop lines as the groups' and balls'
    height; lanes top first): the sub (with oxygen and divers carried), its torpedo, the 12
    enemy slots (4 lanes x 3 copies: +0, +16, +32 from the lane's x), the divers, the enemy
    missiles, the patrol sub; ``c``: the game's consts. The rectangles mod's picture draws these
    boxes (draw.py)."""
    top_first = slice(None, None, -1)  # a reversal: an index array would be a gather
    lane_y = TOP_SECTION_LOOP_END - (LOOP_LINES - 1) + SECTION_LINES * jnp.arange(k.NUM_LANES)
    alive = state.game_over == 0
    attrs = state.attributes[..., top_first]
    shown = state.nusiz_index[..., top_first]
    base = state.obstacle_x[..., top_first]
    sub_lane = (attrs & k.ATTR_SUB) != 0
    copies_x, copies_on, copies_y, copies_sub = [], [], [], []
    for bit, offset in ((4, 0), (2, 16), (1, 32)):
        copies_x.append((base + offset) & BYTE)
        copies_on.append(((shown & bit) != 0) & alive)
        copies_y.append(lane_y)
        copies_sub.append(sub_lane)
    ex = jnp.stack(copies_x, -1).reshape(copies_x[0].shape[:-1] + (-1,))
    eon = jnp.stack(copies_on, -1).reshape(ex.shape)
    ey = jnp.stack(copies_y, -1).reshape(ex.shape)
    esub = jnp.stack(copies_sub, -1).reshape(ex.shape)
    mx = state.missile_x[..., top_first]
    swimming = (state.diver_state[..., top_first] == k.DIVER_SWIMMING) & ~sub_lane
    return {
        "player": ObjectGroup.make(state.sub_x, state.sub_y + c.sub_top_offset, c.sub_width,
                                   c.sub_rows_shown, alive & (state.death == 0),
                                   oxygen=state.oxygen, divers=state.divers,
                                   facing_left=(state.sub_direction != 0)),
        "torpedo": ObjectGroup.make(state.torpedo_x, state.sub_y + c.torpedo_line_offset,
                                    c.torpedo_width, 1, alive & (state.torpedo_x != 0)),
        "enemies": ObjectGroup.make(ex, ey, c.enemy_width, LOOP_LINES, eon, sub=esub),
        "divers": ObjectGroup.make(mx + c.ball_x_offset, lane_y, c.enemy_width, LOOP_LINES,
                                   alive & swimming & (mx != 0)),
        "enemy_missiles": ObjectGroup.make(mx + c.ball_x_offset, lane_y, c.enemy_width,
                                           LOOP_LINES, alive & sub_lane & (mx != 0)),
        "patrol": ObjectGroup.make(state.patrol_x, c.sub_top_offset + c.sub_y_min,
                                   c.enemy_width, c.patrol_rows, alive & (state.patrol_x != 0)),
    }



def signals(game, state):
    """The catalog signals (see alignment/reference/games/seaquest/ram.py), lanes top first."""
    c = game.consts
    top_first = slice(None, None, -1)
    sub = (state.attributes & k.ATTR_SUB) != 0
    copies = sum(((state.pattern >> b) & 1) for b in range(3))
    swimming = state.diver_state == k.DIVER_SWIMMING
    return {
        "player_x": state.sub_x, "player_y": state.sub_y + c.sub_top_offset,
        "player_facing_left": (state.sub_direction == k.REFLECT).astype(jnp.int32),
        "oxygen": state.oxygen, "divers_carried": state.divers, "torpedo_x": state.torpedo_x,
        "enemy_x": state.obstacle_x[..., top_first],
        "enemy_is_sub": sub[..., top_first].astype(jnp.int32),
        "enemy_copies": copies[..., top_first],
        "diver_x": jnp.where(~sub & swimming, state.missile_x, 0)[..., top_first],
        "enemy_missile_x": jnp.where(sub, state.missile_x, 0)[..., top_first],
        "patrol_x": state.patrol_x, "level": state.level,
    }
