"""Seeded faults of Kangaroo: each mod breaks one reviewed rule of specs/kangaroo.yaml (loaded by
the audit by path), and is a mistake a port could make (a table off, a branch left out, a pace
wrong, a test on the wrong bit). Each is flagged by the probe of the rule it names (the JAX game
against ALE's runs of the spec's probes); the stored games catch the first nine too
(tests/games/test_kangaroo_faults.py: each changes a mirrored byte, the reward or the lives of the
JAX game on the floor-2 deep game or the scripted climb)."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.mods import PostStepMod
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic.cpu import where
from jaxtari.games.kangaroo.logic.events import add_points
from jaxtari.games.kangaroo.logic.frame import bonus_timer

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
    flew = (state.apple_x == prev.apple_x - game.consts.apple_step) & (state.apple_row == prev.apple_row)
    return state.replace(apple_x=jnp.where(flew, prev.apple_x - 1, state.apple_x)), reward


def _fruit_pays_double(game, prev, state, reward):
    eaten = (state.fruit & k.FRUIT_GONE) & ~prev.fruit & k.FRUIT_GONE
    kind = prev.fruit & k.FRUIT_KIND
    extra = jnp.sum(jnp.where(eaten != 0, jnp.asarray(game.consts.fruit_points, jnp.int32)[kind], 0))
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


TEN_THOUSANDS = 0x0F  # score_high's low nibble: the ten-thousands digit
TIMER_HALF_TICK = 0x7F  # a frame-counter value half-way between two timer ticks
FIRST_APE_FRAME = 415  # the big ape sets out on this frame of a game (measured, ALE 0.12.1)
APE_DELAY = 8  # frames the late-ape fault holds the big ape back


def _bonus_every_10000(game, prev, state, reward):
    # the bonus-life test made on every carry into the ten-thousands: a life at 10,000 and 30,000
    passed = (state.score_high & TEN_THOUSANDS) != (prev.score_high & TEN_THOUSANDS)
    odd = (state.score_high & k.BONUS_LIFE_BIT) != 0
    lives = jnp.where(passed & odd, (state.lives + 1) & k.BYTE, state.lives)
    return state.replace(lives=lives), reward


def _no_bonus_life(game, prev, state, reward):
    # the bonus-life branch left out: passing 20,000 gives nothing
    bonus = (state.lives == ((prev.lives + 1) & k.BYTE)) & (prev.frame > 0)
    return state.replace(lives=jnp.where(bonus, prev.lives, state.lives)), reward


def _timer_twice_as_fast(game, prev, state, reward):
    # the timer stepped on two frame-counter values instead of one: 100 points every 128 frames
    half = (state.frame_count == TIMER_HALF_TICK) & (state.mother_state == k.PLAYING)
    tick = jnp.full_like(state.frame_count, game.consts.timer_tick_frame)
    ticked = bonus_timer(game.consts, state.replace(frame_count=tick))
    return where(half, ticked.replace(frame_count=state.frame_count), state), reward


def _ape_starts_late(game, prev, state, reward):
    # the big ape's first walk timed from the wrong frame: it sets out a few frames late
    early = (state.frame <= FIRST_APE_FRAME + APE_DELAY) & (prev.coconut_row == k.COCONUT_NONE)
    held = state.replace(coconut_row=jnp.where(early, k.COCONUT_NONE, state.coconut_row),
                         coconut_x=jnp.where(early, prev.coconut_x, state.coconut_x),
                         coconut_state=jnp.where(early, k.COCONUT_NONE, state.coconut_state))
    return held, reward


def _coconut_punch_pays_100(game, prev, state, reward):
    # the punched coconut paid from the apple's table entry: 100 points instead of 200
    knocked = (prev.coconut_row != k.COCONUT_NONE) & (state.coconut_row == k.COCONUT_NONE) \
        & (reward > 0)
    unpaid = state.replace(score_high=prev.score_high, score_low=prev.score_low)
    out = add_points(unpaid, game.consts.apple_points)
    new = state.replace(score_low=jnp.where(knocked, out.score_low, state.score_low),
                        score_high=jnp.where(knocked, out.score_high, state.score_high))
    return new, reward + (game_score(new) - game_score(state)).astype(reward.dtype)


def _walk_two_pixels(game, prev, state, reward):
    # the walk's step doubled: two pixels every third frame
    step = state.mother_x - prev.mother_x
    walked = ((step == 1) | (step == -1)) & (state.mother_row == prev.mother_row) \
        & (state.mother_state == k.PLAYING)
    return state.replace(mother_x=jnp.where(walked, state.mother_x + step, state.mother_x)), reward


def _layouts_wrap_late(game, prev, state, reward):
    # the layout count compared with four instead of three: after layout 2 comes a layout 3
    wrapped = (prev.level == game.consts.layouts - 1) & (state.level == 0)
    return state.replace(level=jnp.where(wrapped, game.consts.layouts, state.level)), reward


FAULTS = [
    Fault(PostStepMod("three_in_reserve", "a game starts with three lives in reserve",
                      _three_in_reserve), "lives.start-game-lives"),
    Fault(PostStepMod("slow_apples", "apples fly one pixel every other frame", _slow_apples),
          "spawning.apple-flight"),
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
          "spawning.monkeys-throw-apples"),
    Fault(PostStepMod("punch_pays_300", "a punched monkey pays 300", _punch_pays_300),
          "scoring.punch-monkey"),
    Fault(PostStepMod("bonus_every_10000", "a bonus life at every 10,000 points",
                      _bonus_every_10000), "lives.no-bonus-life-odd-ten-thousands"),
    Fault(PostStepMod("no_bonus_life", "passing 20,000 points gives no life", _no_bonus_life),
          "lives.bonus-life-20000"),
    Fault(PostStepMod("timer_twice_as_fast", "the bonus timer loses 100 every 128 frames",
                      _timer_twice_as_fast), "timing.bonus-timer"),
    Fault(PostStepMod("ape_starts_late", "the big ape sets out a few frames late",
                      _ape_starts_late), "spawning.ape-first-coconut"),
    Fault(PostStepMod("coconut_punch_pays_100", "a punched coconut pays 100",
                      _coconut_punch_pays_100), "scoring.punch-coconut"),
    Fault(PostStepMod("walk_two_pixels", "the mother walks two pixels a step", _walk_two_pixels),
          "action.walk"),
    Fault(PostStepMod("layouts_wrap_late", "a fourth layout index after the third",
                      _layouts_wrap_late), "progression.layouts-cycle"),
]
