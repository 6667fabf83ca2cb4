"""Mods of Pong (see :mod:`jaxtari.mods`).

- ``lazy_enemy`` (InternalMod, swaps ``enemy_tracking``): the computer's paddle only moves while
  the ball travels towards it (ROM dx > 0, i.e. leftwards); while the ball heads to the agent it
  stays where it is. Everything else (its speed, its rest frames) is the original's.
- ``no_enemy_points`` (PostStepMod): points the computer wins are not counted: its score stays
  where it was and the step's -1 reward becomes 0. The rally still ends and the ball is served
  again exactly as in the original game; only the computer's score and the reward change.
- ``slow_enemy`` (InternalMod, constants): the computer's paddle moves 1 px per frame instead of 2.
"""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.mods import InternalMod, PostStepMod


def _lazy_enemy_tracking(self, state, enemy_y, ball_x, ball_y, ball_dx):
    tracked = type(self).enemy_tracking(self, state, enemy_y, ball_x, ball_y, ball_dx)
    return jnp.where(ball_dx > 0, tracked, enemy_y)


def _no_enemy_points(game, prev_state, state, reward):
    # the computer's score byte never changes (RAM 13 held at 0 on ALE) and its points pay
    # nothing; the game number the select display writes there when the timer stops play is no
    # point: ALE pays it, and so does this (the byte is held, the digits show it, as on ALE)
    change = jnp.where(state.stopped, 0, state.enemy_score - prev_state.enemy_score)
    return state.replace(enemy_score=prev_state.enemy_score), reward + change.astype(reward.dtype)


MODS = [
    InternalMod(
        "lazy_enemy",
        "the computer's paddle only moves while the ball comes towards it",
        mechanics={"enemy_tracking": _lazy_enemy_tracking},
        rules=(),  # the computer's tracking is no rule of the spec
    ),
    PostStepMod(
        "no_enemy_points",
        "points won by the computer are not counted (score and -1 reward dropped)",
        fn=_no_enemy_points,
        # physics.auto-serve: the serve itself is untouched, but the rule is measured (and probed)
        # as the computer's points arriving every 150 frames, which this mod no longer counts
        rules=("physics.auto-serve", "scoring.point-against", "termination.first-to-21"),
    ),
    InternalMod(
        "slow_enemy",
        "the computer's paddle moves 1 px per frame instead of 2",
        constants={"enemy_speed": 1},
        rules=(),
    ),
]
