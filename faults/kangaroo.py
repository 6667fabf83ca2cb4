"""Seeded faults of Kangaroo, staged for its registration: each mod breaks one rule, and is a mistake
a port could make (a table off, a branch left out, a pace wrong). The rule ids are provisional:
Kangaroo has no reviewed spec yet (specs/kangaroo.yaml), so each names the rule it breaks in the
spec's style, to be matched to the reviewed rule's id when the spec is written. Every fault is
caught by the stored games (tests/games/test_kangaroo_faults.py: each changes a mirrored byte, the
reward or the lives of the JAX game on the floor-2 deep game or the scripted climb)."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.mods import PostStepMod
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic import add_points

HUNDRED = 100


def _points(state, reward, bcd, cond):
    """``state`` with ``bcd`` (hundreds, BCD) more points where ``cond``, as the cartridge adds
    them, the reward following the score."""
    out = add_points(state, bcd, cond)
    return out, reward + (game_score(out) - game_score(state)).astype(reward.dtype)


def game_score(state):
    def number(b):
        return (b >> 4) * 10 + (b & 0xF)

    return (number(state.score_high) * 100 + number(state.score_low)) * HUNDRED


def _three_in_reserve(game, prev, state, reward):
    return state.replace(lives=jnp.where(prev.frame == 0, state.lives + 1, state.lives)), reward


def _slow_apples(game, prev, state, reward):
    # the apples' step one pixel short: an apple flies 1 pixel every odd frame
    flew = (state.apple_x == prev.apple_x - k.APPLE_STEP) & (state.apple_row == prev.apple_row)
    return state.replace(apple_x=jnp.where(flew, prev.apple_x - 1, state.apple_x)), reward


def _fruit_pays_double(game, prev, state, reward):
    eaten = (state.fruit & k.FRUIT_GONE) & ~prev.fruit & k.FRUIT_GONE
    kind = prev.fruit & k.FRUIT_KIND
    extra = jnp.sum(jnp.where(eaten != 0, jnp.asarray(k.FRUIT_POINTS, jnp.int32)[kind], 0))
    return _points(state, reward, extra, extra > 0)


def _bell_never_rings(game, prev, state, reward):
    rung = ((prev.bell & k.BELL_RUNG) == 0) & ((state.bell & k.BELL_RUNG) != 0)
    return state.replace(bell=jnp.where(rung, prev.bell, state.bell)), reward


def _fruit_never_regrows(game, prev, state, reward):
    regrown = ((prev.fruit & k.FRUIT_GONE) != 0) & ((state.fruit & k.FRUIT_GONE) == 0) \
        & (state.level == prev.level)
    return state.replace(fruit=jnp.where(regrown, prev.fruit, state.fruit)), reward


def _time_bonus_twice(game, prev, state, reward):
    won = state.level != prev.level
    bonus = jnp.where((prev.timer & k.SIGN) != 0, prev.timer & 0xF, prev.timer)
    return _points(state, reward, bonus, won & (bonus > 0))


def _never_ends(game, prev, state, reward):
    over = state.lives == k.BYTE
    return state.replace(lives=jnp.where(over, prev.lives, state.lives),
                         attract=jnp.where(over, prev.attract, state.attract)), reward


def _monkeys_never_throw(game, prev, state, reward):
    thrown = (prev.apple_row == k.MONKEY_EMPTY) & (state.apple_row != k.MONKEY_EMPTY)
    return state.replace(apple_row=jnp.where(thrown, k.MONKEY_EMPTY, state.apple_row)), reward


def _punch_pays_300(game, prev, state, reward):
    hit = (((state.monkey_state & 0x0F) == k.MONKEY_HIT) & ((prev.monkey_state & 0x0F) != k.MONKEY_HIT)
           & (state.mother_state != k.DYING))
    return _points(state, reward, jnp.sum(hit.astype(jnp.int32)), hit.any())

FAULTS = [
    Fault(PostStepMod("three_in_reserve", "a game starts with three lives in reserve",
                      _three_in_reserve), "lives.begins-with-two-in-reserve"),
    Fault(PostStepMod("slow_apples", "apples fly one pixel every other frame", _slow_apples),
          "hazards.apple-flight"),
    Fault(PostStepMod("fruit_pays_double", "a fruit pays twice its points", _fruit_pays_double),
          "scoring.fruit-points"),
    Fault(PostStepMod("bell_never_rings", "touching the bell does nothing", _bell_never_rings),
          "progression.bell-refreshes-fruit"),
    Fault(PostStepMod("fruit_never_regrows", "eaten fruit stays eaten after the bell",
                      _fruit_never_regrows), "progression.fruit-grows-back"),
    Fault(PostStepMod("time_bonus_twice", "a round won pays the timer's bonus twice",
                      _time_bonus_twice), "scoring.time-bonus"),
    Fault(PostStepMod("never_ends", "losing the last life does not end the game", _never_ends),
          "termination.last-life-lost"),
    Fault(PostStepMod("monkeys_never_throw", "monkeys throw no apples", _monkeys_never_throw),
          "hazards.monkeys-throw-apples"),
    Fault(PostStepMod("punch_pays_300", "a punched monkey pays 300", _punch_pays_300),
          "scoring.punch-monkey"),
]
