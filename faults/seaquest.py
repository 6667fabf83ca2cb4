"""Seeded faults of Seaquest: each mod breaks one rule of specs/seaquest.yaml (loaded by the audit by
path). Each is a mistake a port could make: an off-by-one in a cap or a table, a branch of the
surfacing rules left out, a counter stepped at the wrong rate."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest.logic import add_points
from jaxtari.mods import InternalMod, PostStepMod

FIRST_WAVE_POINTS = 0x20  # BCD: what an enemy (and a unit of oxygen) pays in the first wave
DIVER_POINTS = 50  # what a rescued diver pays in the first wave


def _rescore(state, prev, reward, score):
    """``state`` with its score replaced, the frame's reward following it."""
    return state.replace(score=score), reward + (score - state.score).astype(reward.dtype)


def _no_diagonals(game, prev, state, reward):
    # the joystick decoded one axis at a time: a diagonal moves the sub sideways only
    both = (state.sub_x != prev.sub_x) & (state.sub_y != prev.sub_y)
    return state.replace(sub_y=jnp.where(both, prev.sub_y, state.sub_y)), reward


def _no_bonus_sub(self, s, points_bcd, cond=True):
    out, carry = add_points(s, points_bcd, cond)
    return out.replace(reserve_subs=s.reserve_subs), carry


def _no_reserve_cap(self, s, points_bcd, cond=True):
    # the cap tested before the increment instead of after it: a seventh reserve sub
    full = s.reserve_subs >= k.MAX_RESERVE_SUBS
    out, carry = add_points(s.replace(reserve_subs=jnp.where(full, s.reserve_subs - 1, s.reserve_subs)),
                            points_bcd, cond)
    return out.replace(reserve_subs=jnp.where(full, out.reserve_subs + 1, out.reserve_subs)), carry


def _sharks_worth_10(self, s, points_bcd, cond=True):
    return add_points(s, jnp.where(points_bcd == FIRST_WAVE_POINTS, 0x10, points_bcd), cond)


def _enemy_cap_80(game, prev, state, reward):
    return state.replace(point_value=jnp.minimum(state.point_value, 0x80)), reward


def _flat_diver_value(game, prev, state, reward):
    # a diver of the six-diver bonus pays the first wave's 50 whatever the wave
    paid = ((prev.game_state & k.GS_OXYGEN_BONUS) != 0) & (state.divers == prev.divers - 1)
    return _rescore(state, prev, reward, jnp.where(paid, prev.score + DIVER_POINTS, state.score))


def _fast_oxygen(game, prev, state, reward):
    # the drain's frame mask one bit short: two units every 32 frames
    drained = (prev.game_state == 0) & (state.oxygen == prev.oxygen - 1) & (state.oxygen > 0)
    return state.replace(oxygen=jnp.where(drained, state.oxygen - 1, state.oxygen)), reward


def _surface_death_skipped(game, prev, state, reward):
    lost = ((prev.death == 0) & (state.death != 0) & (state.sub_y == k.SUB_Y_MIN)
            & (prev.divers == 0))
    return state.replace(death=jnp.where(lost, 0, state.death)), reward


def _keep_divers(game, prev, state, reward):
    # surfacing with one to five divers refills the oxygen but gives none up
    given_up = ((state.divers == prev.divers - 1) & (prev.divers < k.MAX_DIVERS)
                & (prev.death == 0) & (state.sub_y == k.SUB_Y_MIN))
    return state.replace(divers=jnp.where(given_up, prev.divers, state.divers)), reward


def _patrol_from_wave_3(game, prev, state, reward):
    return state.replace(patrol_x=jnp.where(state.level < 3, 0, state.patrol_x)), reward


def _never_ends(game, prev, state, reward):
    return state.replace(game_over=prev.game_over), reward


def _divers_ignored(game, prev, state, reward):
    picked = (state.divers == prev.divers + 1) & (prev.death == 0)
    return state.replace(divers=jnp.where(picked, prev.divers, state.divers)), reward


def _two_in_reserve(game, prev, state, reward):
    first = prev.frame == 0
    return state.replace(reserve_subs=jnp.where(first, state.reserve_subs - 1,
                                                state.reserve_subs)), reward


FAULTS = [
    Fault(PostStepMod("no_diagonals", "a diagonal moves the sub sideways only", _no_diagonals),
          "action.control-sub-able-move"),
    Fault(InternalMod("no_bonus_sub", "10,000 points bring no reserve sub",
                      mechanics={"add_points": _no_bonus_sub}), "scoring.time-increase-score-10000"),
    Fault(InternalMod("no_reserve_cap", "a bonus sub beyond six is given",
                      mechanics={"add_points": _no_reserve_cap}), "lives.reserve-subs-screen-time"),
    Fault(InternalMod("sharks_worth_10", "an enemy of the first wave scores 10",
                      mechanics={"add_points": _sharks_worth_10}), "scoring.blasting-enemy-sub-killer"),
    Fault(PostStepMod("enemy_cap_80", "enemies are worth 80 at most", _enemy_cap_80),
          "scoring.enemy-value-cap"),
    Fault(PostStepMod("flat_diver_value", "a rescued diver pays 50 in every wave", _flat_diver_value),
          "scoring.point-value-increases-50"),
    Fault(PostStepMod("fast_oxygen", "the oxygen drains two units every 32 frames", _fast_oxygen),
          "timing.oxygen-decreases"),
    Fault(PostStepMod("surface_death_skipped", "surfacing with no diver costs nothing",
                      _surface_death_skipped), "lives.surface-without-divers"),
    Fault(PostStepMod("keep_divers", "surfacing with one to five divers gives none up", _keep_divers),
          "progression.surface-gives-up-diver"),
    Fault(PostStepMod("patrol_from_wave_3", "the patrol sub comes one wave late", _patrol_from_wave_3),
          "spawning.patrol-sub-from-wave-2"),
    Fault(InternalMod("no_missiles", "enemy subs never fire", constants={"enemy_missiles": False}),
          "spawning.enemy-sub-missiles"),
    Fault(PostStepMod("never_ends", "losing the last sub does not end the game", _never_ends),
          "termination.last-sub-lost"),
    Fault(PostStepMod("divers_ignored", "a touched diver is not picked up", _divers_ignored),
          "scoring.goal-retrieve-many-divers"),
    Fault(PostStepMod("two_in_reserve", "a game starts with two subs in reserve", _two_in_reserve),
          "lives.begins-with-four-subs"),
]
