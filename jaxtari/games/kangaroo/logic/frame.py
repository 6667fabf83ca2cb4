"""Kangaroo's frame outside the mother, the monkeys and the ape, in the cartridge's order: the
vertical blank (the walk phase, the frame counter, the waits between lives and rounds, a new life,
the next round), the music as far as the game waits on it, the bell's clock and the fruit growing
back, the overscan (the bonus timer, then the monkeys, apples, punches and the mother) and the
pickups."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic.ape import punched_coconut
from jaxtari.games.kangaroo.logic.cpu import BYTE, at, bcd_decrement, down_slots, minus, put, table, where
from jaxtari.games.kangaroo.logic.events import add_points, die, start_tune, touches
from jaxtari.games.kangaroo.logic.monkeys import fly_apples, punched_apple, think_all
from jaxtari.games.kangaroo.logic.mother import dying, glove_over_apple, glove_over_coconut, mother


# ---- vertical blank ------------------------------------------------------------------------------
# rule: lives.new-life-restart, termination.last-life-lost, timing.start-wait
def new_life(c, s):
    """A life starts (or the game ends when none is left)."""
    lives = (s.lives - 1) & BYTE
    over = lives == BYTE
    fresh = s.replace(lives=lives, frame_count=jnp.int32(0), mother_state=jnp.int32(k.PLAYING),
                      timer=jnp.int32(c.start_timer), mother_x=jnp.int32(c.start_x),
                      pose=jnp.int32(k.START_POSE), mother_row=jnp.int32(c.start_row),
                      coconut_row=jnp.int32(k.COCONUT_NONE), coconut_state=jnp.int32(k.COCONUT_NONE),
                      monkeys=jnp.int32(0), apples=jnp.int32(0),
                      monkey_state=jnp.full(k.MONKEY_SLOTS, k.MONKEY_EMPTY, jnp.int32),
                      monkey_row=jnp.full(k.MONKEY_SLOTS, k.MONKEY_EMPTY, jnp.int32),
                      monkey_x=jnp.full(k.MONKEY_SLOTS, k.MONKEY_IDLE_X, jnp.int32),
                      apple_flags=jnp.full(k.MONKEY_SLOTS, k.APPLE_FLAGS_START, jnp.int32),
                      apple_row=jnp.full(k.APPLE_SLOTS, k.MONKEY_EMPTY, jnp.int32),
                      apple_x=put(s.apple_x, 0, k.MONKEY_EMPTY, True))
    # the game over: the attract mode's frame counts on from 0 within the same frame
    ended = s.replace(lives=lives, frame_count=jnp.int32(1), attract=s.attract | k.SIGN)
    return where(over, ended, fresh)


def attract_frame(s):
    """The frame of the game over runs bank 0's attract mode instead of the rest of the game: its
    select-switch timer (ram[21]) set and its copyright loop's line count (ram[25]) run down."""
    return s.replace(apple_flags=put(s.apple_flags, 0, k.ATTRACT_TIMER, True),
                     apple_row=put(s.apple_row, 0, 0, True))


# rule: progression.reach-baby-next-layout, scoring.time-bonus, progression.layouts-cycle
def next_round(c, s):
    """The round-won tune is over: the fruit and bell back, the next layout, the time bonus."""
    wrap = s.level + 1 == c.layouts
    difficulty = jnp.where(wrap, jnp.minimum(s.difficulty + 1, c.difficulty_max), s.difficulty)
    s = s.replace(bell=jnp.int32(0), fruit=jnp.zeros(3, jnp.int32), frame_count=jnp.int32(0),
                  level=jnp.where(wrap, 0, s.level + 1), difficulty=difficulty,
                  monkey_pace=difficulty, lives=(s.lives + 1) & BYTE)
    bonus = jnp.where(minus(s.timer, 0), s.timer & 0xF, s.timer)
    return add_points(s, bonus)


def vertical_blank(c, s):
    phase = s.walk_phase + 1
    s = s.replace(walk_phase=jnp.where(phase >= c.walk_phases, 0, phase),
                  frame_count=(s.frame_count + 1) & BYTE)
    waiting = (s.mother_state & k.SIGN) != 0
    won = (s.mother_state & k.ROUND_WON_BIT) != 0
    counter = jnp.where(waiting, (s.counter - 1) & BYTE, s.counter)
    s = s.replace(counter=counter)
    held = s.replace(pose=jnp.where(waiting & won, 0, s.pose),
                     mother_x=jnp.where(waiting & won, c.round_won_x, s.mother_x))
    s = where(waiting & won & (counter == 0), next_round(c, held), held)
    return where(waiting & (counter == 0), new_life(c, s), s)


def music(c, s):
    """Bank 0's music player, as far as the game waits on it: the start and round-won tunes hold
    the mother while they play (each note restarts the wait), and their end starts play."""
    index = s.music
    silent = (s.attract & k.SIGN) != 0
    note = table(k.MUSIC, index & BYTE)
    due = (table(k.NOTE_MASKS, note >> k.NOTE_LENGTH_SHIFT) & s.frame_count) == 0
    playing = ~silent & (index != k.SILENT) & due
    ended = playing & (note == k.TUNE_END)
    both = (s.music_flags & k.BOTH_VOICES) != 0
    won = (s.mother_state & k.ROUND_WON_BIT) != 0
    hold = playing & ~ended & both & ~won
    start = ended & both
    to_silence = silent | ended
    index = jnp.where(playing & ~ended, index + jnp.where(both, 2, 1), index)
    return s.replace(
        music=jnp.where(to_silence, k.SILENT, index),
        music_flags=jnp.where(to_silence, s.music_flags & ~k.BOTH_VOICES & BYTE, s.music_flags),
        counter=jnp.where(hold, k.START_COUNTER, jnp.where(start & ~won, 0, s.counter)),
        mother_state=jnp.where(hold, k.WAITING, jnp.where(start & ~won, k.PLAYING, s.mother_state)),
        frame_count=jnp.where(start, 1, s.frame_count))


# rule: progression.bell-refreshes-fruit, progression.fruit-grows-back
def bell_clock(c, s):
    """After the bell rings its clock runs (every 32 frames); at 6 the eaten fruit grow back as the
    next kind; at 9 it stops, and after the third ring the bell is gone."""
    bell = s.bell
    active = ((bell & k.SIGN) == 0) & ((bell & k.BELL_RUNG) != 0)
    done = ((bell & 0x70) == k.BELL_DONE) & ((bell & k.SIGN) == 0)
    stop = active & ~done & ((bell & k.BELL_CLOCK) == c.bell_clock_end)
    tick = active & ~done & ~stop & ((s.frame_count & c.bell_period_mask) == 0)
    bell = jnp.where(done, k.BELL_GONE, bell)
    bell = jnp.where(stop, bell & 0x30, bell)
    bell = jnp.where(tick, bell + 1, bell)
    regrow = ((bell & k.BELL_CLOCK) == c.bell_refresh_at) & ((s.frame_count & c.bell_period_mask) == 0)
    eaten = (s.fruit & k.SIGN) != 0
    fruit = jnp.where(regrow & eaten, (s.fruit + k.FRUIT_REGROW) & BYTE, s.fruit)
    return s.replace(bell=bell, fruit=fruit)


# ---- overscan ------------------------------------------------------------------------------------
# rule: timing.bonus-timer, lives.timer-runs-out
def bonus_timer(c, s):
    """Every 256 frames the timer loses 100; at 10 the monkeys speed up, at 0 the mother dies."""
    t = s.timer
    value = jnp.where(t == k.TIMER_OUT, 0,
                      jnp.where((t & 0xF0) == k.BLANK_TENS, t & 0xF, jnp.where(minus(t, 0), 0, t)))
    value = bcd_decrement(value)
    tick = s.frame_count == c.timer_tick_frame
    wrapped = minus(value, 0)
    out = ~wrapped & (value == 0)
    new = jnp.where(wrapped, c.start_timer,
                    jnp.where(out, k.TIMER_OUT,
                              jnp.where(minus(value, c.timer_pace), value | k.BLANK_TENS, value)))
    s = s.replace(timer=jnp.where(tick, new, t),
                  monkey_pace=jnp.where(tick & (value == c.timer_pace), s.monkey_pace + 1,
                                        s.monkey_pace))
    return die(c, s, tick & out & ~wrapped)


def overscan(c, s, joy, glove_on):
    """The overscan's game logic, not while the mother waits: the timer, the monkeys' AI, the
    apples, the punches the picture latched (``glove_on``: the kernel enabled the glove on its
    row this frame), then the mother."""
    waiting = (s.mother_state & k.SIGN) != 0
    # the collisions the picture latched, before the overscan moves anything
    on_apple, on_coconut = glove_over_apple(c, s, glove_on), glove_over_coconut(c, s, glove_on)
    played = fly_apples(c, think_all(c, bonus_timer(c, s)))
    played, _ = punched_apple(c, played, on_apple)
    played = punched_coconut(c, played, on_coconut)
    played = where(played.mother_state == k.DYING, dying(c, played), mother(c, played, joy))
    return where(waiting, s, played)


# rule: scoring.fruit-points, progression.bell-refreshes-fruit
def pickups(c, s):
    """On odd frames the fruit the mother touches is eaten (its points, the pickup tune) and the
    bell she touches rings (once per refresh); while she dies the bell is checked every frame."""
    alive = s.mother_state != k.DYING
    odd = (s.frame_count & 1) != 0

    def one(s, i):  # fruit 2, 1, 0 in turn
        place = s.level + k.FRUIT_STRIDE * i
        fruit = at(s.fruit, i)
        eat = alive & odd & ((fruit & k.SIGN) == 0) & touches(c, s, table(c.fruit_row, place), table(c.fruit_x, place))
        s = s.replace(fruit=put(s.fruit, i, fruit | k.FRUIT_GONE, eat))
        s = add_points(s, table(c.fruit_points, fruit & k.FRUIT_KIND), eat)
        return start_tune(s, eat)

    s = down_slots(3, one, s, ("fruit", "score_low", "score_high", "lives", "music"))
    ring = (odd | ~alive) & touches(c, s, jnp.int32(c.bell_row), table(c.bell_x, s.level))
    ring = ring & ((s.bell & (k.SIGN | k.BELL_RUNG)) == 0)
    return s.replace(bell=jnp.where(ring, ((s.bell | k.BELL_RUNG) + k.BELL_STEP) & BYTE, s.bell),
                     music=jnp.where(ring, k.BELL_TUNE, s.music))
