"""Frostbite Bailey, one mechanic per function, in the order the cartridge runs them each frame:
drown, land, reverse a row, meet an enemy, ride a floe, jump, enter the igloo, walk, animate.

``Footing`` is where he stood when the frame began (the collisions of the last picture), which every
rule of the frame reads.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

from jaxtari.games.frostbite.logic.cartridge import add_points, wrap_x
from jaxtari.games.frostbite.constants import (
    ANIM_JUMP, ANIM_STAND, BEAR_WALKS_RIGHT, CARRY_MAX_X, CARRY_MIN_X, DOOR_X, F_SINK, F_TALLY,
    FACE_LEFT, FISH_EATEN_MASK, FISH_TRICKLE, FULL_IGLOO, HOLD_FISH, HOLD_IGLOO, IGLOO_ENTER_Y,
    IGLOO_JUMP_X, JUMP_DOWN_START, JUMP_DY, JUMP_PICTURE_FROM, JUMP_UP_END, JUMP_UP_START, KIND_FISH,
    LOWEST_JUMP_Y, PLAYER_MAX_X, PLAYER_MIN_X_ROW, PLAYER_MIN_X_SHORE, PLAYER_W, ROW_ENEMY_LEFT,
    ROW_FLOES_LEFT, ROW_KIND, ROW_LOW_BITS, SHORE_Y, SOUND_CHIRP, WHITE_HOLD,
)
from jaxtari.games.frostbite.logic.status import level_points

ROWS = jnp.arange(4)


class Footing(NamedTuple):
    standing: jax.Array      # not in the air
    jumping: jax.Array
    on_shore: jax.Array
    on_floe: jax.Array       # standing on a floe of row ``row``
    row: jax.Array           # the floe row under him (clipped to 0..3)


def footing(s, go) -> Footing:
    standing = go & (s.jump == 0)
    return Footing(standing, go & (s.jump != 0), s.y == SHORE_Y, standing & (s.floe_row >= 0),
                   jnp.clip(s.floe_row, 0, 3))


def drown(s, at: Footing):
    """Standing off the shore with no floe under him, Bailey sinks (and the rest of the frame's
    logic is skipped): returns the state and whether he drowned."""
    drowned = at.standing & (s.floe_row < 0) & ~at.on_shore  # rule: lives.ways-to-lose
    return s.replace(flags=jnp.where(drowned, F_SINK, s.flags)), drowned


# rule: progression.block-per-white-row, scoring.ice-block, scoring.blue-row-nothing
def land(consts, s, at: Footing):
    """Landing on a white floe turns its row blue, pays 10 x level and builds a block (the igloo
    done, no more blocks): returns the state and whether a block was built."""
    touch = at.on_floe & s.landed & s.floe_white[at.row]
    score, lives = add_points(s.score, s.lives, level_points(s.level_index), consts.max_lives)
    built = touch & (s.blocks != FULL_IGLOO)
    s = s.replace(
        sound=jnp.where(touch & (s.sound == 0), SOUND_CHIRP, s.sound),
        floe_white=s.floe_white & ~(touch & (ROWS == at.row)),
        white_hold=jnp.where(touch, WHITE_HOLD, s.white_hold), landed=s.landed & ~touch,
        score=jnp.where(touch, score, s.score), lives=jnp.where(touch, lives, s.lives),
        blocks=jnp.where(built, s.blocks + 1, s.blocks))
    return s, built


# rule: action.fire-reverses-floe, action.fire-keeps-complete-igloo
def reverse_row(s, at: Footing, built):
    """FIRE (pressed last frame) reverses the floes of his row, costing a block unless the igloo is
    complete (then it costs nothing)."""
    rev = at.on_floe & ~built & (s.blocks >= 0) & (s.pushed_row < 0) & s.reverse
    return s.replace(
        row_byte=jnp.where(rev & (ROWS == at.row), s.row_byte ^ ROW_FLOES_LEFT, s.row_byte),
        blocks=jnp.where(rev & (s.blocks != FULL_IGLOO), s.blocks - 1, s.blocks),
        sound=jnp.where(rev, SOUND_CHIRP, s.sound))


# rule: scoring.fish, physics.hazards-push
def meet_enemy(s, at: Footing):
    """Touching an enemy while standing: a fish is eaten (its copy goes, 200 points trickle in),
    anything else pushes him along and turns his row's floes against it."""
    hit = at.on_floe & (s.enemy_row >= 0)  # rule: physics.safe-in-air
    e = jnp.clip(s.enemy_row, 0, 3)
    fish = hit & ((s.row_byte[e] & ROW_KIND) == KIND_FISH)
    push = hit & ~fish
    copy = ((s.x + PLAYER_W - s.enemy_x[e]) & 0xFF) >> 4
    eaten = jnp.asarray(FISH_EATEN_MASK, jnp.int32)[copy]
    rb = s.row_byte[e]
    floes_away = (~rb >> 1) & ROW_FLOES_LEFT            # the floes turn against the enemy
    pushed_byte = (rb & (ROW_ENEMY_LEFT | ROW_LOW_BITS)) | floes_away
    return s.replace(
        fish_eaten=jnp.where(fish, s.fish_eaten + 1, s.fish_eaten),
        enemy_copies=jnp.where(fish & (ROWS == e), s.enemy_copies & eaten, s.enemy_copies),
        sound=jnp.where(fish, FISH_TRICKLE, s.sound), hold=jnp.where(fish, HOLD_FISH, s.hold),
        pushed_row=jnp.where(push, e, s.pushed_row),
        row_byte=jnp.where(push & (ROWS == e), pushed_byte, s.row_byte))


def ride_floe(s, at: Footing):
    """The floe under him carries him (not while an enemy pushes him): returns the state and
    whether he rode."""
    row = jnp.where(s.enemy_row >= 0, jnp.clip(s.enemy_row, 0, 3), at.row)
    rides = at.on_floe & (s.pushed_row < 0)
    left = (s.row_byte[row] & ROW_FLOES_LEFT) != 0
    cx = wrap_x(jnp.where(left, s.x - s.speed[0], s.x + s.speed[0]) & 0xFF)
    return s.replace(x=jnp.where(rides, jnp.clip(cx, CARRY_MIN_X, CARRY_MAX_X), s.x)), rides


# rule: action.jump-up-down, progression.igloo-door
def jump(s, at: Footing, rode, joy):
    """UP/DOWN starts a jump from a floe, or from the shore down to the rows (up only at the door
    of the complete igloo, which starts the jump into it); a jump takes a step every other frame."""
    may_jump = (at.standing & (s.floe_row < 0) & at.on_shore) | rode
    door = (s.x >= DOOR_X[0]) & (s.x <= DOOR_X[1]) & (s.blocks == FULL_IGLOO)
    up = may_jump & joy.up
    down = may_jump & ~joy.up & joy.down
    start_up = up & (~at.on_shore | door)
    start_down = down & (s.y < LOWEST_JUMP_Y)
    s = s.replace(igloo_jump=s.igloo_jump | (up & at.on_shore & door),
                  jump=jnp.select([start_up, start_down], [JUMP_UP_START, JUMP_DOWN_START], s.jump))
    step = (at.jumping | start_up | start_down) & ((s.fc & 1) == 0)
    idx = jnp.clip(s.jump - 1, 0, len(JUMP_DY) - 1)
    next_jump = jnp.where(idx == JUMP_UP_END, 0, idx)
    s = s.replace(y=jnp.where(step, (s.y + jnp.asarray(JUMP_DY, jnp.int32)[idx]) & 0xFF, s.y),
                  jump=jnp.where(step, next_jump, s.jump))
    landed = step & (next_jump == 0)
    return s.replace(bear_hit=s.bear_hit & ~landed, landed=s.landed | landed)


def enter_igloo(s, live):
    """A jump that takes him above IGLOO_ENTER_Y enters the igloo: the tally begins."""
    enter = live & (s.y < IGLOO_ENTER_Y)  # rule: scoring.igloo-entry
    return s.replace(y=jnp.where(enter, 0, s.y), igloo_jump=s.igloo_jump & ~enter,
                     flags=jnp.where(enter, F_TALLY, s.flags), hold=jnp.where(enter, HOLD_IGLOO, s.hold))


# rule: action.walk-left-right, physics.steer-in-air
def walk(s, live, joy):
    """LEFT/RIGHT: 1 px every other frame on foot, the air speed while jumping; held at the door
    during the igloo jump; not while an enemy pushes him."""
    steer = live & (s.pushed_row < 0)
    held = steer & s.igloo_jump
    walking = steer & ~s.igloo_jump
    step = jnp.where(s.jump != 0, s.speed[2], s.fc & 1)
    min_x = jnp.where(s.y == SHORE_Y, PLAYER_MIN_X_SHORE, PLAYER_MIN_X_ROW)
    go_left = walking & joy.left
    go_right = walking & ~joy.left & joy.right
    x = jnp.where(go_left & (s.x >= min_x), s.x - step, s.x)
    x = jnp.where(go_right & (s.x < PLAYER_MAX_X), s.x + step, x)
    bear_bit = s.facing & BEAR_WALKS_RIGHT
    facing = jnp.where(go_left, bear_bit | FACE_LEFT, jnp.where(go_right, bear_bit, s.facing))
    return s.replace(x=jnp.where(held, IGLOO_JUMP_X, jnp.where(walking, x, s.x)), facing=facing)


def animate(s, live, joy):
    """His picture: jumping, or walking (two frames alternating every 4 frames), or standing."""
    walking = (s.fc & 4) >> 2
    anim = jnp.where((s.jump & 15) >= JUMP_PICTURE_FROM, ANIM_JUMP,
                     jnp.where(joy.left | joy.right, walking, ANIM_STAND))
    return s.replace(anim=jnp.where(live, anim, s.anim))
