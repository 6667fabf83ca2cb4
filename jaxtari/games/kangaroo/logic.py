"""Kangaroo's frame, in the cartridge's order (read off the public disassembly, measured on ALE).

One ALE frame runs: the vertical blank (the walk phase, the frame counter, the waits between lives
and rounds, a new life), the music (bank 0, before the picture), the bell's clock and the fruit
growing back, then the overscan: the bonus timer, the mother (dying, or her joystick: walking,
ducking, jumping, climbing, punching), and the fruit and bell she touches. Every value is a byte as
on the cartridge (``& BYTE``); a comparison the cartridge branches on with ``bmi``/``bpl`` reads
the sign bit of the 8-bit difference (:func:`minus`), as the 6502 does.

The monkeys and their apples are in :mod:`.monkeys`, the big ape's coconut in :mod:`.ape`.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from jaxtari.games.kangaroo import constants as k

BYTE = k.BYTE


def where(cond, a, b):
    """``a`` where ``cond`` else ``b``, field by field of two states (a field both branches left
    as it was is passed through: fewer selects to compile)."""
    return jax.tree_util.tree_map(lambda x, y: x if x is y else jnp.where(cond, x, y), a, b)


def down_slots(n, body, s, fields, extra=None):
    """``body(s, i)`` for slots i = n-1 down to 0, in the cartridge's order, as one loop (not
    unrolled: the step then compiles one body per loop instead of one per slot). Only ``fields``
    (the state's fields the body changes) are carried through the loop, and ``extra`` beside them
    where given (``body(s, i, extra)`` then returns ``(s, extra)``); the rest stay outside it."""
    def step(j, carry):
        fields_now, more = carry
        t = s.replace(**fields_now)
        if extra is None:
            out = body(t, n - 1 - j)
        else:
            out, more = body(t, n - 1 - j, more)
        changed = {path[0].name for (path, a), (_, b) in zip(jax.tree_util.tree_leaves_with_path(t),
                                                             jax.tree_util.tree_leaves_with_path(out))
                   if a is not b}
        if not changed <= set(fields):  # a change the loop would drop
            raise ValueError(f"the slot loop changes {sorted(changed - set(fields))}, not carried")
        return {f: getattr(out, f) for f in fields}, more

    out, more = jax.lax.fori_loop(0, n, step, ({f: getattr(s, f) for f in fields}, extra))
    s = s.replace(**out)
    return s if extra is None else (s, more)


def table(values, index):
    """``values[index]`` for a constant table and a traced index."""
    return jnp.asarray(values, jnp.int32)[index]


def minus(a, b):
    """The 6502's N flag after ``cmp``/``sbc``: the sign bit of ``(a - b) & 0xFF``."""
    return ((a - b) & k.SIGN) != 0


def bcd_add(a, b):
    """``a + b`` of two BCD bytes in decimal mode: (sum byte, carry)."""
    lo = (a & 0xF) + (b & 0xF)
    lo_carry = lo > 9
    lo = jnp.where(lo_carry, lo - 10, lo)
    hi = (a >> 4) + (b >> 4) + lo_carry.astype(jnp.int32)
    carry = hi > 9
    hi = jnp.where(carry, hi - 10, hi)
    return (hi << 4) | lo, carry


def bcd_decrement(a):
    """``a - 1`` of a BCD byte in decimal mode (0 gives 0x99, with the sign bit set)."""
    return jnp.where(a == 0, 0x99, jnp.where((a & 0xF) == 0, a - 7, a - 1))


# rule: lives.bonus-life-20000, lives.no-bonus-life-odd-ten-thousands
def add_points(s, hundreds, cond=True):
    """The cartridge's score routine: BCD hundreds into the low byte, the carry into the high
    byte, and a bonus life when that carry leaves an odd ten-thousands digit (every 20,000)."""
    low, carry = bcd_add(s.score_low, hundreds)
    high, _ = bcd_add(s.score_high, carry.astype(jnp.int32))
    bonus = carry & ((s.score_high & k.BONUS_LIFE_BIT) != 0)
    cond = jnp.asarray(cond) & ((s.attract & k.SIGN) == 0)
    return s.replace(score_low=jnp.where(cond, low, s.score_low),
                     score_high=jnp.where(cond, high, s.score_high),
                     lives=jnp.where(cond & bonus, (s.lives + 1) & BYTE, s.lives))


def start_tune(s, cond):
    """The pickup tune starts unless a tune with a lower index is playing."""
    return s.replace(music=jnp.where(cond & (s.music > k.PICKUP_TUNE), k.PICKUP_TUNE, s.music))


def die(s, cond):
    return s.replace(pose=jnp.where(cond, k.DEATH_POSE, s.pose),
                     mother_state=jnp.where(cond, k.DYING, s.mother_state),
                     counter=jnp.where(cond, k.DEATH_FRAMES, s.counter))


def row_index(s, row):
    return table(k.LAYOUT_ROW_BASE, s.level) + row


def at_ladder(s, below):
    """Whether a ladder starts within reach at the mother's row (``below``: the row under her)."""
    gap = (table(k.LADDER_X, row_index(s, s.mother_row + below.astype(jnp.int32))) - s.mother_x) & BYTE
    return ~minus(gap, 0) & minus(gap, k.LADDER_REACH)


def on_segment(s, index):
    x = s.mother_x
    return ~minus(x, table(k.SEGMENT_LOW, index)) & minus(x, table(k.SEGMENT_HIGH, index))


def has_floor(s):
    """Whether there is floor under the mother at her row and x (a fall where not)."""
    index = row_index(s, s.mother_row)
    x = s.mother_x
    outside = minus(x, table(k.FLOORLESS_LOW, index)) | ~minus(x, table(k.FLOORLESS_HIGH, index))
    return outside | on_segment(s, index)


def touches(s, row, x):
    """The cartridge's touch test of the mother against a thing at (row, x)."""
    height = table(k.POSE_HEIGHT, s.pose & k.POSE_FRAME)
    dy = (row - s.mother_row) & BYTE
    rows = ~minus(dy, 0) & minus(dy, height)
    dx = (x - s.mother_x) & BYTE
    return rows & ((dx < k.FRUIT_REACH) | (dx >= k.FRUIT_REACH_LEFT))


# ---- vertical blank ------------------------------------------------------------------------------
# rule: lives.new-life-restart, termination.last-life-lost, timing.start-wait
def new_life(s):
    """A life starts (or the game ends when none is left)."""
    lives = (s.lives - 1) & BYTE
    over = lives == BYTE
    fresh = s.replace(lives=lives, frame_count=jnp.int32(0), mother_state=jnp.int32(k.PLAYING),
                      timer=jnp.int32(k.START_TIMER), mother_x=jnp.int32(k.START_X),
                      pose=jnp.int32(k.START_POSE), mother_row=jnp.int32(k.START_ROW),
                      coconut_row=jnp.int32(k.COCONUT_NONE), coconut_state=jnp.int32(k.COCONUT_NONE),
                      monkeys=jnp.int32(0), apples=jnp.int32(0),
                      monkey_state=jnp.full(k.MONKEY_SLOTS, k.MONKEY_EMPTY, jnp.int32),
                      monkey_row=jnp.full(k.MONKEY_SLOTS, k.MONKEY_EMPTY, jnp.int32),
                      monkey_x=jnp.full(k.MONKEY_SLOTS, k.MONKEY_IDLE_X, jnp.int32),
                      apple_flags=jnp.full(k.MONKEY_SLOTS, k.APPLE_FLAGS_START, jnp.int32),
                      apple_row=jnp.full(k.APPLE_SLOTS, k.MONKEY_EMPTY, jnp.int32),
                      apple_x=s.apple_x.at[0].set(k.MONKEY_EMPTY))
    # the game over: the attract mode's frame counts on from 0 within the same frame
    ended = s.replace(lives=lives, frame_count=jnp.int32(1), attract=s.attract | k.SIGN)
    return where(over, ended, fresh)


def attract_frame(s):
    """The frame of the game over runs bank 0's attract mode instead of the rest of the game: its
    select-switch timer (ram[21]) set and its copyright loop's line count (ram[25]) run down."""
    return s.replace(apple_flags=s.apple_flags.at[0].set(k.ATTRACT_TIMER),
                     apple_row=s.apple_row.at[0].set(0))


# rule: progression.reach-baby-next-layout, scoring.time-bonus, progression.layouts-cycle
def next_round(s):
    """The round-won tune is over: the fruit and bell back, the next layout, the time bonus."""
    wrap = s.level + 1 == k.LAYOUTS
    difficulty = jnp.where(wrap, jnp.minimum(s.difficulty + 1, k.DIFFICULTY_MAX), s.difficulty)
    s = s.replace(bell=jnp.int32(0), fruit=jnp.zeros(3, jnp.int32), frame_count=jnp.int32(0),
                  level=jnp.where(wrap, 0, s.level + 1), difficulty=difficulty,
                  monkey_pace=difficulty, lives=(s.lives + 1) & BYTE)
    bonus = jnp.where(minus(s.timer, 0), s.timer & 0xF, s.timer)
    return add_points(s, bonus)


def vertical_blank(s):
    phase = s.walk_phase + 1
    s = s.replace(walk_phase=jnp.where(phase >= k.WALK_PHASES, 0, phase),
                  frame_count=(s.frame_count + 1) & BYTE)
    waiting = (s.mother_state & k.SIGN) != 0
    won = (s.mother_state & k.ROUND_WON_BIT) != 0
    counter = jnp.where(waiting, (s.counter - 1) & BYTE, s.counter)
    s = s.replace(counter=counter)
    held = s.replace(pose=jnp.where(waiting & won, 0, s.pose),
                     mother_x=jnp.where(waiting & won, k.ROUND_WON_X, s.mother_x))
    s = where(waiting & won & (counter == 0), next_round(held), held)
    return where(waiting & (counter == 0), new_life(s), s)


def music(s):
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
def bell_clock(s):
    """After the bell rings its clock runs (every 32 frames); at 6 the eaten fruit grow back as the
    next kind; at 9 it stops, and after the third ring the bell is gone."""
    bell = s.bell
    active = ((bell & k.SIGN) == 0) & ((bell & k.BELL_RUNG) != 0)
    done = ((bell & 0x70) == k.BELL_DONE) & ((bell & k.SIGN) == 0)
    stop = active & ~done & ((bell & k.BELL_CLOCK) == k.BELL_CLOCK_END)
    tick = active & ~done & ~stop & ((s.frame_count & k.BELL_PERIOD_MASK) == 0)
    bell = jnp.where(done, k.BELL_GONE, bell)
    bell = jnp.where(stop, bell & 0x30, bell)
    bell = jnp.where(tick, bell + 1, bell)
    regrow = ((bell & k.BELL_CLOCK) == k.BELL_REFRESH_AT) & ((s.frame_count & k.BELL_PERIOD_MASK) == 0)
    eaten = (s.fruit & k.SIGN) != 0
    fruit = jnp.where(regrow & eaten, (s.fruit + k.FRUIT_REGROW) & BYTE, s.fruit)
    return s.replace(bell=bell, fruit=fruit)


# ---- overscan ------------------------------------------------------------------------------------
# rule: timing.bonus-timer, lives.timer-runs-out
def bonus_timer(s):
    """Every 256 frames the timer loses 100; at 10 the monkeys speed up, at 0 the mother dies."""
    t = s.timer
    value = jnp.where(t == k.TIMER_OUT, 0,
                      jnp.where((t & 0xF0) == k.BLANK_TENS, t & 0xF, jnp.where(minus(t, 0), 0, t)))
    value = bcd_decrement(value)
    tick = s.frame_count == k.TIMER_TICK_FRAME
    wrapped = minus(value, 0)
    out = ~wrapped & (value == 0)
    new = jnp.where(wrapped, k.START_TIMER,
                    jnp.where(out, k.TIMER_OUT,
                              jnp.where(minus(value, k.TIMER_PACE), value | k.BLANK_TENS, value)))
    s = s.replace(timer=jnp.where(tick, new, t),
                  monkey_pace=jnp.where(tick & (value == k.TIMER_PACE), s.monkey_pace + 1,
                                        s.monkey_pace))
    return die(s, tick & out & ~wrapped)


def dying(s):
    """The dead mother sinks a row every four frames (turning each time), then the wait."""
    counter = (s.counter - 1) & BYTE
    step = counter == 0
    bottom = step & (s.mother_row == k.DEATH_ROW)
    sink = step & ~bottom
    return s.replace(
        counter=jnp.where(bottom, k.WAIT_AFTER_DEATH, jnp.where(sink, k.SINK_FRAMES, counter)),
        mother_state=jnp.where(bottom, k.WAITING, s.mother_state),
        mother_row=jnp.where(sink, s.mother_row + 1, s.mother_row),
        pose=jnp.where(sink, s.pose ^ k.FACING_RIGHT, s.pose))


# rule: action.climb-ladder
def climb(s, up, down):
    """On a ladder: holding up or down moves a row every ``CLIMB_STEP_FRAMES`` frames."""
    moving = up | down
    counter = jnp.where(moving, s.counter + 1, s.counter)
    step = moving & (counter == k.CLIMB_STEP_FRAMES)
    row = jnp.where(step, jnp.where(up, s.mother_row - 1, s.mother_row + 1), s.mother_row)
    pose = jnp.where(step, s.pose ^ k.FACING_RIGHT, s.pose) | k.CLIMB_POSE
    return s.replace(counter=jnp.where(step, 0, counter), mother_row=row, pose=pose)


# rule: progression.reach-baby-next-layout
def round_won(s, cond):
    """The mother reached the baby's row: the round-won tune starts."""
    return s.replace(music=jnp.where(cond, 0, s.music),
                     counter=jnp.where(cond, BYTE, s.counter),
                     music_flags=jnp.where(cond, s.music_flags | k.BOTH_VOICES, s.music_flags),
                     mother_state=jnp.where(cond, k.ROUND_WON, s.mother_state))


def leave_ladder(s):
    """Off the ladder's reach while climbing: standing again (at the top row: the round is won)."""
    s = s.replace(pose=s.pose & k.FACING_RIGHT, counter=jnp.int32(k.OFF_LADDER_FRAMES))
    return round_won(s, s.mother_row == 0)


def on_ladder_moves(s, up, down):
    """Climbing (the pose's climb bits set): on within reach, else off the ladder."""
    return where(at_ladder(s, down), climb(s, up, down), leave_ladder(s))


# rule: action.walk, physics.left-limit, physics.right-limit
def walk(s, left, right, frame_count):
    """Left/right on the floor: a pixel on walk phase 0; a step off the floor is a fall."""
    moving = left | right
    go_left = moving & ~right
    can = moving & (s.walk_phase == 0)
    stepped_left = can & go_left & (s.mother_x != k.LEFT_LIMIT)
    stepped_right = can & ~go_left & minus(s.mother_x, k.RIGHT_LIMIT)
    x = jnp.where(stepped_left, s.mother_x - 1, jnp.where(stepped_right, s.mother_x + 1, s.mother_x))
    s = s.replace(mother_x=x)
    fall = (stepped_left | stepped_right) & ~has_floor(s)
    flip = moving & ~fall & ((frame_count & k.WALK_ANIMATION_MASK) == 0)
    pose = jnp.where(moving, jnp.where(flip, s.pose ^ k.WALK_FRAME, s.pose), s.pose & k.FACING_RIGHT)
    s = s.replace(pose=pose)
    return die(s, fall)


# rule: action.jump
def jump(s, left, right):
    """A jump: 48 frames, up a row at 8, the top pose at 16 and 24, down at 32 (landing on a
    floor segment there), 40 and 48 (landing where there is floor; none at 48 is a fall)."""
    moves = s.walk_phase == 0
    right_facing = (s.pose & k.FACING_RIGHT) != 0
    x = s.mother_x
    x = jnp.where(moves & right_facing & right & minus(x, k.JUMP_RIGHT_LIMIT), x + 1, x)
    x = jnp.where(moves & ~right_facing & left & (x != k.LEFT_LIMIT), x - 1, x)
    counter = s.counter + 1
    row, pose = s.mother_row, s.pose
    row = jnp.where((counter == k.JUMP_UP) | (counter == k.JUMP_TOP), row - 1, row)
    pose = jnp.where(counter == k.JUMP_POSE_UP, pose + 1, jnp.where(counter == k.JUMP_TOP, pose - 1, pose))
    down = (counter == k.JUMP_LEDGE) | (counter == k.JUMP_DOWN) | (counter == k.JUMP_FALL)
    row = jnp.where(down, row + 1, row)
    s = s.replace(mother_x=x, counter=counter, mother_row=row, pose=pose)
    index = row_index(s, row)
    landed = jnp.where(counter == k.JUMP_LEDGE, on_segment(s, index),
                       ((counter == k.JUMP_DOWN) | (counter == k.JUMP_FALL)) & has_floor(s))
    stand = s.replace(pose=s.pose & k.FACING_RIGHT, counter=jnp.int32(0))
    stand = round_won(stand, stand.mother_row == 0)
    s = where(landed, stand, s)
    return die(s, ~landed & (counter == k.JUMP_FALL))


# rule: action.punch
def mother(s, joy):
    """The mother's joystick (not while she dies): the branches of the cartridge's control code."""
    up, down, left, right, fire = joy.up, joy.down, joy.left, joy.right, joy.fire
    pose = s.pose
    busy = ~minus(pose, k.CLIMBING)  # climbing, jumping or punching: 0x20..0x9F
    # standing, walking, ducking (or a punch asked for): facing, the fire button
    facing = jnp.where(left, pose & ~k.FACING_RIGHT & BYTE, jnp.where(right, pose | k.FACING_RIGHT, pose))
    punch = fire & (s.mother_state == 0)
    skip_fire = fire & (s.mother_state != 0)
    free = s.replace(pose=jnp.where(punch, facing | k.PUNCH_REQUEST, facing),
                     mother_state=jnp.where(skip_fire, s.mother_state, 0))
    up_f, down_f = up & ~punch, down & ~punch
    left_f, right_f = left & ~punch, right & ~punch
    free, jump_start, starts = ground(free, up_f, down_f, left_f, right_f)
    # punching: counted down on odd frames
    odd = (s.frame_count & 1) != 0
    pc = jnp.where(odd, (s.counter - 1) & BYTE, s.counter)
    punching = s.replace(counter=pc, pose=jnp.where(odd & (pc == 0), s.pose & k.FACING_RIGHT, s.pose))
    climbing = on_ladder_moves(s, up, down)
    # one jump frame serves both a jump going on and one starting (one copy to compile)
    jumping = jump(where(busy, s, jump_start), jnp.where(busy, left, left_f),
                   jnp.where(busy, right, right_f))
    busy_s = where(minus(pose, 0), punching, where(minus(pose, k.JUMPING), climbing, jumping))
    return where(busy, busy_s, where(starts, jumping, free))


# rule: action.duck, action.climb-ladder, action.jump, action.punch
def ground(s, up, down, left, right):
    """On the floor: down ducks (or climbs down a ladder below), up climbs a ladder within reach or
    jumps, a punch asked for starts, left/right walk. Returns the state, the state a jump starts
    from and whether one starts (:func:`mother` runs the jump's first frame)."""
    # down
    ladder_below = at_ladder(s, jnp.bool_(True))
    down_ladder = climb(s.replace(mother_row=s.mother_row + 1), jnp.bool_(False), jnp.bool_(True))
    not_ducked = (s.pose & k.DUCKING) == 0
    ducked = s.replace(mother_row=jnp.where(not_ducked, s.mother_row + 1, s.mother_row),
                       pose=jnp.where(not_ducked, (s.pose & k.FACING_RIGHT) | k.DUCK_POSE, s.pose))
    ducked = ducked.replace(counter=jnp.where(ducked.counter == k.DUCK_FRAMES, ducked.counter,
                                              ducked.counter + 1))
    ducking = where(ladder_below, down_ladder, ducked)
    # not down: stand up from a duck first
    was_ducked = (s.pose & k.DUCKING) != 0
    st = s.replace(pose=jnp.where(was_ducked, s.pose & k.FACING_RIGHT, s.pose),
                   counter=jnp.where(was_ducked, 0, s.counter),
                   mother_row=jnp.where(was_ducked, s.mother_row - 1, s.mother_row))
    punch = st.replace(pose=(st.pose & k.FACING_RIGHT) | k.PUNCH_POSE,
                       counter=jnp.int32(k.PUNCH_FRAMES), mother_state=jnp.int32(k.PUNCH_HELD))
    ladder_here = at_ladder(st, jnp.bool_(False))
    up_ladder = climb(st.replace(mother_row=st.mother_row - 1), jnp.bool_(True), jnp.bool_(False))
    cooling = st.counter != 0
    cooled = st.replace(counter=jnp.where(cooling, st.counter - 1, st.counter))
    walked = walk(cooled, left, right, st.frame_count)
    jump_start = st.replace(pose=(st.pose & k.FACING_RIGHT) | k.JUMP_POSE)
    starts = ~down & ~minus(st.pose, 0) & up & ~ladder_here & ~cooling
    upward = where(ladder_here, up_ladder, walked)
    standing = where(up, upward, walk(st, left, right, st.frame_count))
    standing = where(minus(st.pose, 0), punch, standing)
    return where(down, ducking, standing), jump_start, starts


# rule: timing.punch-lands-when-drawn
def glove_over_apple(s, glove_on):
    """Whether the picture drew the glove over an apple in flight: at the mother's row + 2, x the
    glove's +-1 (measured on ALE by sweeping an apple's row and x during a punch, both facings);
    ``glove_on``: the kernel enabled the glove on its row (render.glove_enabled)."""
    flying = (s.apple_flags[:k.APPLE_SLOTS] & k.SIGN) == 0
    row = s.apple_row == ((s.mother_row + k.GLOVE_APPLE_ROW) & BYTE)
    near = jnp.abs(s.apple_x - glove_x(s)) <= k.GLOVE_REACH
    return glove_on & minus(s.pose, 0) & (flying & row & near).any()


def glove_x(s):
    return s.mother_x + jnp.where((s.pose & k.FACING_RIGHT) != 0, k.GLOVE_RIGHT, k.GLOVE_LEFT)


# rule: scoring.punch-coconut, timing.punch-lands-when-drawn
def glove_over_coconut(s, glove_on):
    """Whether the picture drew the glove over the coconut (see GLOVE_ROW; ``glove_on`` as for
    :func:`glove_over_apple`)."""
    row = row_index(s, s.mother_row + k.GLOVE_ROW) & BYTE
    return (glove_on & minus(s.pose, 0) & (s.coconut_row == row)
            & (jnp.abs(s.coconut_x - glove_x(s)) <= k.GLOVE_REACH))


# rule: scoring.punch-coconut
def punched_coconut(s, hit):
    """The picture drew the glove over the coconut: it is gone, 200 points and the pickup tune."""
    s = s.replace(coconut_row=jnp.where(hit, k.COCONUT_NONE, s.coconut_row),
                  coconut_state=jnp.where(hit, k.COCONUT_NONE, s.coconut_state))
    s = start_tune(s, hit)
    return add_points(s, jnp.int32(k.COCONUT_PUNCH_POINTS), hit)


def overscan(s, joy, think, fly_apples, punched_apple, glove_on):
    """The overscan's game logic, not while the mother waits: the timer, the monkeys' AI, the
    apples, the punches the picture latched (``glove_on``: the kernel enabled the glove on its
    row this frame), then the mother."""
    waiting = (s.mother_state & k.SIGN) != 0
    # the collisions the picture latched, before the overscan moves anything
    on_apple, on_coconut = glove_over_apple(s, glove_on), glove_over_coconut(s, glove_on)
    played = fly_apples(think(bonus_timer(s)))
    played, _ = punched_apple(played, on_apple)
    played = punched_coconut(played, on_coconut)
    played = where(played.mother_state == k.DYING, dying(played), mother(played, joy))
    return where(waiting, s, played)


# rule: scoring.fruit-points, progression.bell-refreshes-fruit
def pickups(s):
    """On odd frames the fruit the mother touches is eaten (its points, the pickup tune) and the
    bell she touches rings (once per refresh); while she dies the bell is checked every frame."""
    alive = s.mother_state != k.DYING
    odd = (s.frame_count & 1) != 0

    def one(s, i):  # fruit 2, 1, 0 in turn
        at = s.level + k.FRUIT_STRIDE * i
        fruit = s.fruit[i]
        eat = alive & odd & ((fruit & k.SIGN) == 0) & touches(s, table(k.FRUIT_ROW, at), table(k.FRUIT_X, at))
        s = s.replace(fruit=s.fruit.at[i].set(jnp.where(eat, fruit | k.FRUIT_GONE, fruit)))
        s = add_points(s, table(k.FRUIT_POINTS, fruit & k.FRUIT_KIND), eat)
        return start_tune(s, eat)

    s = down_slots(3, one, s, ("fruit", "score_low", "score_high", "lives", "music"))
    ring = (odd | ~alive) & touches(s, jnp.int32(k.BELL_ROW), table(k.BELL_X, s.level))
    ring = ring & ((s.bell & (k.SIGN | k.BELL_RUNG)) == 0)
    return s.replace(bell=jnp.where(ring, ((s.bell | k.BELL_RUNG) + k.BELL_STEP) & BYTE, s.bell),
                     music=jnp.where(ring, k.BELL_TUNE, s.music))
