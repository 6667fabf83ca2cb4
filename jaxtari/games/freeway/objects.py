"""What Freeway shows a player: its objects (screen boxes) and their feature vector, and its
signals (the RAM view the ground truth reads), computed from the state; ``Freeway.objects``,
``.observation`` and ``.signals`` call these."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import ObjectGroup
from jaxtari.games.freeway import art
from jaxtari.games.freeway.constants import CAR_SCREEN_X_OFFSET, NUM_LANES
from jaxtari.games.freeway.logic.sprites import CAR_H, CAR_W, CH_H, CH_W, LANE_TOP


def objects(game, state):
    pose = game._pose(state)
    return {
        "chicken": ObjectGroup.make(art.CHICKEN_X, game.chicken_y(state), CH_W, CH_H,
                                    state.frame > 0, pose=pose),
        "other_chicken": ObjectGroup.make(art.OTHER_CHICKEN_X, game._other_chicken_y, CH_W,
                                          CH_H, state.frame > 0, pose=art.POSE_WALK_A),
        "cars": ObjectGroup.make(game._car_screen_x(state), jnp.asarray(LANE_TOP), CAR_W,
                                 CAR_H, lane=jnp.arange(NUM_LANES),
                                 direction=jnp.asarray(game._dirs)),
        "score": ObjectGroup.make(art.PLAYER_SCORE_X, art.SCORE_Y, 2 * art.DIGIT_SPACING, 8,
                                  value=state.shown_score),
    }


def signals(game, state):
    return {
        "chicken_y": game.chicken_y(state),
        "car_x": state.car_x - CAR_SCREEN_X_OFFSET,
        "player_score": state.score,
        "timer": jnp.maximum(game.consts.game_frames - state.frame, 0),
    }


def observation(game, state):
    """:meth:`Game.observation` bit for bit (each group's features, in name order), as a table
    of the features that never change with the changing ones selected into their columns.
    The generic version stacks every column, constants included, per env and step, and was the
    costliest part of an object-centric step (benchmarks/README.md)."""
    # Evaluated now, what does not depend on the state stays a concrete array (not a tracer).
    # Making those constants moves them between host and device once, while tracing: allowed
    # here, so that a program run under jax.transfer_guard("disallow") (no transfer per step,
    # tests/stress/test_device_ready.py) can still be traced.
    with jax.ensure_compile_time_eval(), jax.transfer_guard("allow"):
        groups = game.objects(state)
        features = [_group_features(g) for _, g in sorted(groups.items())]
    return jnp.concatenate(features)


def _group_features(group):
    """``group.features()``, equal bit for bit: the columns known when tracing (a constant, the
    same for every env) go into a numpy table, and each traced one is selected into its column."""
    cols = [group.x, group.y, group.w, group.h, group.active]
    cols += [group.attrs[k] for k in sorted(group.attrs)]
    table = np.zeros((group.size, len(cols)), np.float32)
    traced = []
    for j, col in enumerate(cols):
        if isinstance(col, jax.core.Tracer):
            traced.append((j, col))
        else:
            table[:, j] = np.asarray(col).astype(np.float32)
    out = jnp.asarray(table)
    for j, col in traced:
        out = jnp.where(np.arange(len(cols)) == j, col.astype(jnp.float32)[:, None], out)
    return out.reshape(-1)
