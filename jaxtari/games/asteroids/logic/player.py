"""The player's side of a frame beyond flying: hyperspace, the explosion, lives, the respawn and
the game's end (public disassembly DNSDEBRO/Disassemblies @ a74a6312bac5,
Atari2600/Asteroids/asteroids.asm: ProcessShipCalculations, CheckActivePlayerShipFeatures,
CheckToActivatePlayerShipFeatures, .checkToReduceNumberOfLives, CheckToSpawnNewPlayerShip,
CheckForFreeCenterSpace).

On a logic frame the controls are read only while the ship is on the screen and not exploding.
DOWN alone arms hyperspace on one logic frame and warps on the next: the ship leaves the screen
for 31 logic frames and comes back at a random place. A hit ship explodes for 6 logic frames, is
taken off with a life and its heading, and waits 63 logic frames; then it comes back at the
start as soon as no asteroid is near the middle."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from jaxtari.env import joystick

from .. import constants as c
from . import ship
from .field import BYTE, OFF, SIGN_BIT, Y0, X0
from .spawn import random_code

EXPLODING = c.EXPLODING
LIVES_FIELD_SHIFT = 4


def ship_frame(k, s, p, random, ale_action):
    """One logic frame of the ship and the player (s: ShipState, p: PlayerState)."""
    joy = joystick(ale_action)
    off = s.y == OFF
    timer = p.feature_timer
    over = ((p.lives << LIVES_FIELD_SHIFT) | p.reserved) & c.LIVES_FIELD == 0
    newly_over = over & ((p.flags & c.GAME_OVER_FLAG) == 0)
    flags = jnp.where(newly_over, p.flags | c.GAME_OVER_FLAG, p.flags)
    count = jnp.where(newly_over, k.game_over_count, s.count)

    exploding = (timer & SIGN_BIT) != 0
    timer = jnp.where(~over & (timer != 0) & ~exploding, timer - 1, timer)
    controls = ~over & ~off & ~exploding

    down_alone = joy.down & ~joy.up & ~joy.left & ~joy.right
    armed = (flags & c.HYPERSPACE) != 0
    warp = controls & down_alone & armed
    flags = jnp.where(controls & down_alone & ~armed, flags | c.HYPERSPACE, flags)
    flags = jnp.where(controls & ~down_alone, flags & ~c.FEATURE_FLAGS & BYTE, flags)

    flown = fly(k, s, joy)
    s = jax.tree.map(lambda a, b: jnp.where(controls & ~warp, a, b), flown, s)

    half = random[0] >> 1
    zero2 = jnp.zeros_like(s.subpixel)
    s = jax.tree.map(lambda a, b: jnp.where(warp, a, b), s.replace(
        y=jnp.int32(OFF), x_code=random_code(k, random), subpixel=zero2, velocity=zero2), s)
    flags = jnp.where(warp, flags & ~(c.HYPERSPACE | c.KILLED) & BYTE, flags)
    respawn_y = jnp.where(warp, jnp.where(half >= c.HYPERSPACE_Y_SPAN, half - c.HYPERSPACE_Y_SPAN,
                                          half), p.respawn_y)
    timer = jnp.where(warp, k.hyperspace_time, timer)

    # the explosion: the timer counts up from 128; at its end the ship is taken off
    exploding = (timer & SIGN_BIT) != 0
    timer = jnp.where(exploding, (timer + 1) & BYTE, timer)
    ends = exploding & (((timer >> 1) & c.EXPLOSION_STEP_MASK) == k.explosion_end_step)
    lives = jnp.where(ends, p.lives - 1, p.lives)
    s = jax.tree.map(lambda a, b: jnp.where(ends, a, b), s.replace(
        y=jnp.int32(OFF), x_code=jnp.int32(k.start_x_code), rotation=jnp.int32(0)), s)
    timer = jnp.where(ends, k.respawn_wait, timer)
    respawn_y = jnp.where(ends, k.start_y, respawn_y)

    s = s.replace(y=jnp.where(s.y == OFF, s.y, ship.wrap(s.y)), count=count)
    s = ship.move_shots(k, s)
    return s, p.replace(lives=lives, flags=flags, feature_timer=timer, respawn_y=respawn_y)


def fly(k, s, joy):
    """The controls on a logic frame: turn, fire, thrust or drag, move (ship.py's phases)."""
    rotation = ship.turn(k, s.rotation, s.count, joy.left, joy.right)
    s = ship.fire(k, s.replace(rotation=rotation), joy.fire, rotation)
    velocity = ship.thrust_or_drag(k, s.velocity, rotation, joy.up)
    return ship.move(s, velocity)


def _centre_free(k, mem, first):
    """CheckForFreeCenterSpace over one list: no asteroid near the middle of the screen."""
    ys = mem[Y0 + first:Y0 + first + c.LIST_SLOTS]
    listed = jnp.cumprod((ys != OFF).astype(jnp.int32)) == 1
    coarse = mem[X0 + first:X0 + first + c.LIST_SLOTS] & c.CENTRE_COARSE_MASK
    centre = (coarse == k.centre_coarse) & (ys < SIGN_BIT) & (ys >= k.centre_rows[0]) & (ys < k.centre_rows[1])
    beside = ((coarse == k.beside_coarse[0]) | (coarse == k.beside_coarse[1])) \
        & (ys >= k.beside_rows[0]) & (ys < k.beside_rows[1])
    return ~(listed & (centre | beside)).any()


def respawn(k, s, p, mem):
    """CheckToSpawnNewPlayerShip, when the ship is off the screen and its wait is over: back at
    its respawn height (a killed one only once the middle is clear), velocities cleared."""
    killed = (p.flags & c.KILLED) != 0
    back = ~killed | (_centre_free(k, mem, c.UP_FIRST) & _centre_free(k, mem, c.DOWN_FIRST))
    zero2 = jnp.zeros_like(s.subpixel)
    s = jax.tree.map(lambda a, b: jnp.where(back, a, b),
                     s.replace(y=p.respawn_y, subpixel=zero2, velocity=zero2), s)
    return s, p.replace(reserved=jnp.where(back, 0, p.reserved))
