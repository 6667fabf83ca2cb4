"""The mother: dying, and her joystick (walking, ducking, jumping, climbing, punching) with the
floor, ladder and segment tables of the layout; the glove's reach the picture latches."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.kangaroo import art
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic.cpu import BYTE, minus, table, where
from jaxtari.games.kangaroo.logic.events import die, row_index


def at_ladder(c, s, below):
    """Whether a ladder starts within reach at the mother's row (``below``: the row under her)."""
    gap = (table(art.LADDER_X, row_index(c, s, s.mother_row + below.astype(jnp.int32))) - s.mother_x) & BYTE
    return ~minus(gap, 0) & minus(gap, c.ladder_reach)


def on_segment(c, s, index):
    x = s.mother_x
    return ~minus(x, table(art.SEGMENT_LOW, index)) & minus(x, table(art.SEGMENT_HIGH, index))


def has_floor(c, s):
    """Whether there is floor under the mother at her row and x (a fall where not)."""
    index = row_index(c, s, s.mother_row)
    x = s.mother_x
    outside = minus(x, table(art.FLOORLESS_LOW, index)) | ~minus(x, table(art.FLOORLESS_HIGH, index))
    return outside | on_segment(c, s, index)


def dying(c, s):
    """The dead mother sinks a row every four frames (turning each time), then the wait."""
    counter = (s.counter - 1) & BYTE
    step = counter == 0
    bottom = step & (s.mother_row == c.death_row)
    sink = step & ~bottom
    return s.replace(
        counter=jnp.where(bottom, c.wait_after_death, jnp.where(sink, c.sink_frames, counter)),
        mother_state=jnp.where(bottom, k.WAITING, s.mother_state),
        mother_row=jnp.where(sink, s.mother_row + 1, s.mother_row),
        pose=jnp.where(sink, s.pose ^ k.FACING_RIGHT, s.pose))


# rule: action.climb-ladder
def climb(c, s, up, down):
    """On a ladder: holding up or down moves a row every ``CLIMB_STEP_FRAMES`` frames."""
    moving = up | down
    counter = jnp.where(moving, s.counter + 1, s.counter)
    step = moving & (counter == c.climb_step_frames)
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


def leave_ladder(c, s):
    """Off the ladder's reach while climbing: standing again (at the top row: the round is won)."""
    s = s.replace(pose=s.pose & k.FACING_RIGHT, counter=jnp.int32(c.off_ladder_frames))
    return round_won(s, s.mother_row == 0)


def on_ladder_moves(c, s, up, down):
    """Climbing (the pose's climb bits set): on within reach, else off the ladder."""
    return where(at_ladder(c, s, down), climb(c, s, up, down), leave_ladder(c, s))


# rule: action.walk, physics.left-limit, physics.right-limit
def walk(c, s, left, right, frame_count):
    """Left/right on the floor: a pixel on walk phase 0; a step off the floor is a fall."""
    moving = left | right
    go_left = moving & ~right
    can = moving & (s.walk_phase == 0)
    stepped_left = can & go_left & (s.mother_x != c.left_limit)
    stepped_right = can & ~go_left & minus(s.mother_x, c.right_limit)
    x = jnp.where(stepped_left, s.mother_x - 1, jnp.where(stepped_right, s.mother_x + 1, s.mother_x))
    s = s.replace(mother_x=x)
    fall = (stepped_left | stepped_right) & ~has_floor(c, s)
    flip = moving & ~fall & ((frame_count & c.walk_animation_mask) == 0)
    pose = jnp.where(moving, jnp.where(flip, s.pose ^ k.WALK_FRAME, s.pose), s.pose & k.FACING_RIGHT)
    s = s.replace(pose=pose)
    return die(c, s, fall)


# rule: action.jump
def jump(c, s, left, right):
    """A jump: 48 frames, up a row at 8, the top pose at 16 and 24, down at 32 (landing on a
    floor segment there), 40 and 48 (landing where there is floor; none at 48 is a fall)."""
    moves = s.walk_phase == 0
    right_facing = (s.pose & k.FACING_RIGHT) != 0
    x = s.mother_x
    x = jnp.where(moves & right_facing & right & minus(x, c.jump_right_limit), x + 1, x)
    x = jnp.where(moves & ~right_facing & left & (x != c.left_limit), x - 1, x)
    counter = s.counter + 1
    row, pose = s.mother_row, s.pose
    row = jnp.where((counter == c.jump_up) | (counter == c.jump_top), row - 1, row)
    pose = jnp.where(counter == c.jump_pose_up, pose + 1, jnp.where(counter == c.jump_top, pose - 1, pose))
    down = (counter == c.jump_ledge) | (counter == c.jump_down) | (counter == c.jump_fall)
    row = jnp.where(down, row + 1, row)
    s = s.replace(mother_x=x, counter=counter, mother_row=row, pose=pose)
    index = row_index(c, s, row)
    landed = jnp.where(counter == c.jump_ledge, on_segment(c, s, index),
                       ((counter == c.jump_down) | (counter == c.jump_fall)) & has_floor(c, s))
    stand = s.replace(pose=s.pose & k.FACING_RIGHT, counter=jnp.int32(0))
    stand = round_won(stand, stand.mother_row == 0)
    s = where(landed, stand, s)
    return die(c, s, ~landed & (counter == c.jump_fall))


# rule: action.punch
def mother(c, s, joy):
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
    free, jump_start, starts = ground(c, free, up_f, down_f, left_f, right_f)
    # punching: counted down on odd frames
    odd = (s.frame_count & 1) != 0
    pc = jnp.where(odd, (s.counter - 1) & BYTE, s.counter)
    punching = s.replace(counter=pc, pose=jnp.where(odd & (pc == 0), s.pose & k.FACING_RIGHT, s.pose))
    climbing = on_ladder_moves(c, s, up, down)
    # one jump frame serves both a jump going on and one starting (one copy to compile)
    jumping = jump(c, where(busy, s, jump_start), jnp.where(busy, left, left_f),
                   jnp.where(busy, right, right_f))
    busy_s = where(minus(pose, 0), punching, where(minus(pose, k.JUMPING), climbing, jumping))
    return where(busy, busy_s, where(starts, jumping, free))


# rule: action.duck, action.climb-ladder, action.jump, action.punch
def ground(c, s, up, down, left, right):
    """On the floor: down ducks (or climbs down a ladder below), up climbs a ladder within reach or
    jumps, a punch asked for starts, left/right walk. Returns the state, the state a jump starts
    from and whether one starts (:func:`mother` runs the jump's first frame)."""
    # down
    ladder_below = at_ladder(c, s, jnp.bool_(True))
    down_ladder = climb(c, s.replace(mother_row=s.mother_row + 1), jnp.bool_(False), jnp.bool_(True))
    not_ducked = (s.pose & k.DUCKING) == 0
    ducked = s.replace(mother_row=jnp.where(not_ducked, s.mother_row + 1, s.mother_row),
                       pose=jnp.where(not_ducked, (s.pose & k.FACING_RIGHT) | k.DUCK_POSE, s.pose))
    ducked = ducked.replace(counter=jnp.where(ducked.counter == c.duck_frames, ducked.counter,
                                              ducked.counter + 1))
    ducking = where(ladder_below, down_ladder, ducked)
    # not down: stand up from a duck first
    was_ducked = (s.pose & k.DUCKING) != 0
    st = s.replace(pose=jnp.where(was_ducked, s.pose & k.FACING_RIGHT, s.pose),
                   counter=jnp.where(was_ducked, 0, s.counter),
                   mother_row=jnp.where(was_ducked, s.mother_row - 1, s.mother_row))
    punch = st.replace(pose=(st.pose & k.FACING_RIGHT) | k.PUNCH_POSE,
                       counter=jnp.int32(c.punch_frames), mother_state=jnp.int32(k.PUNCH_HELD))
    ladder_here = at_ladder(c, st, jnp.bool_(False))
    up_ladder = climb(c, st.replace(mother_row=st.mother_row - 1), jnp.bool_(True), jnp.bool_(False))
    cooling = st.counter != 0
    cooled = st.replace(counter=jnp.where(cooling, st.counter - 1, st.counter))
    walked = walk(c, cooled, left, right, st.frame_count)
    jump_start = st.replace(pose=(st.pose & k.FACING_RIGHT) | k.JUMP_POSE)
    starts = ~down & ~minus(st.pose, 0) & up & ~ladder_here & ~cooling
    upward = where(ladder_here, up_ladder, walked)
    standing = where(up, upward, walk(c, st, left, right, st.frame_count))
    standing = where(minus(st.pose, 0), punch, standing)
    return where(down, ducking, standing), jump_start, starts


# rule: timing.punch-lands-when-drawn
def glove_over_apple(c, s, glove_on):
    """Whether the picture drew the glove over an apple in flight: at the mother's row + 2, x the
    glove's +-1 (measured on ALE by sweeping an apple's row and x during a punch, both facings);
    ``glove_on``: the kernel enabled the glove on its row (draw.glove_enabled)."""
    flying = (s.apple_flags[:k.APPLE_SLOTS] & k.SIGN) == 0
    row = s.apple_row == ((s.mother_row + c.glove_apple_row) & BYTE)
    near = jnp.abs(s.apple_x - glove_x(c, s)) <= c.glove_reach
    return glove_on & minus(s.pose, 0) & (flying & row & near).any()


def glove_x(c, s):
    return s.mother_x + jnp.where((s.pose & k.FACING_RIGHT) != 0, c.glove_right, c.glove_left)


# rule: scoring.punch-coconut, timing.punch-lands-when-drawn
def glove_over_coconut(c, s, glove_on):
    """Whether the picture drew the glove over the coconut (see GLOVE_ROW; ``glove_on`` as for
    :func:`glove_over_apple`)."""
    row = row_index(c, s, s.mother_row + c.glove_row) & BYTE
    return (glove_on & minus(s.pose, 0) & (s.coconut_row == row)
            & (jnp.abs(s.coconut_x - glove_x(c, s)) <= c.glove_reach))
