"""The ship's mechanics on a logic frame, as named phases: turn, fire, thrust or drag, move, wrap,
move the shots. Byte arithmetic as the cartridge does it (velocities are 16-bit words, positions
bytes and position codes); each phase names the disassembly routine it follows (public
disassembly DNSDEBRO/Disassemblies @ a74a6312bac5, Atari2600/Asteroids/asteroids.asm) and
tests/games/test_asteroids_ship.py holds the result against ALE frame by frame.

Hyperspace, the explosion and the respawn are player.py's; shots ending on an asteroid are
collisions.py's."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .. import constants as c
from .positions import SHIP_MOVES, one_pixel_by_rule
from .onehot import by_platform, take

BYTE, WORD = 0xFF, 0xFFFF
SIGN_BIT, OVERFLOW_BIT = 0x80, 0x40
NIBBLE = 4
MAX_PIXELS_PER_MOVE = 8  # a velocity's whole part is at most 7 (clamped), plus a carry

_ROTATION_MASK = c.ROTATIONS - 1
_RANGE_INDEX_MASK = len(c.SHOT_RANGE) - 1  # the range table is read by the low 3 heading bits
_THRUST_X_OFFSET = c.ROTATIONS // 4        # the x component is the entry a quarter turn on


def _walks(table: np.ndarray) -> np.ndarray:
    """walks[n, code]: the code after n one-pixel moves through ``table`` (n = 0..8), so a move
    of several pixels is one lookup rather than a chain of them."""
    out = [np.arange(len(table), dtype=np.int32)]
    for _ in range(MAX_PIXELS_PER_MOVE):
        out.append(table[out[-1]])
    return np.stack(out).astype(np.int32)


_EAST_WALKS = _walks(SHIP_MOVES.east)
_WEST_WALKS = _walks(SHIP_MOVES.west)


def move_code_by_table(code, pixels, west):
    """:func:`move_code` as one lookup in the tables of walks (the CPU's form)."""
    n = jnp.clip(pixels, 0, MAX_PIXELS_PER_MOVE)
    return jnp.where(west, jnp.asarray(_WEST_WALKS)[n, code], jnp.asarray(_EAST_WALKS)[n, code])


def move_code_by_rule(code, pixels, west):
    """:func:`move_code` as up to 8 one-pixel moves by the rule (the accelerator's form: no
    lookup, so no gather per env under ``vmap``)."""
    n = jnp.clip(pixels, 0, MAX_PIXELS_PER_MOVE)
    for i in range(MAX_PIXELS_PER_MOVE):
        code = jnp.where(i < n, one_pixel_by_rule(code, west, SHIP_MOVES), code)
    return code


def move_code(code, pixels, west):
    """A position code moved ``pixels`` (0..8) one at a time through the ROM's move tables, in the
    form the platform runs well."""
    return by_platform(move_code_by_table, move_code_by_rule, code, pixels, west)


def table(values):
    """A Constants table (a tuple) as an int32 array (a constant of the compiled step)."""
    return jnp.asarray(np.asarray(values, np.int32))


def turn(k, rotation, count, left, right):
    """CheckPlayerShipRotation: one step on every other logic frame, wrapping in the nibble."""
    now = count % k.rotation_period == k.rotation_phase
    delta = k.left_turn * left.astype(jnp.int32) + k.right_turn * right.astype(jnp.int32)
    return jnp.where(now, (rotation + delta) & _ROTATION_MASK, rotation)


def fire(k, state, pressed, rotation):
    """CheckToFirePlayerMissile: a press after a release launches from the ship into the second
    slot if it is free, else the first; with both busy the press is spent."""
    fresh = pressed & ~state.fire_held
    slot = jnp.where(state.shot_direction[1] == 0, 1, 0)
    free = take(state.shot_direction, slot) == 0
    launch = (jnp.arange(c.MAX_SHOTS) == slot) & fresh & free
    direction = rotation | (take(table(k.shot_range), rotation & _RANGE_INDEX_MASK) << NIBBLE)
    return state.replace(
        fire_held=pressed,
        shot_x=jnp.where(launch, state.x_code, state.shot_x),
        shot_y=jnp.where(launch, (state.y + k.shot_launch_dy) & BYTE, state.shot_y),
        shot_direction=jnp.where(launch, direction, state.shot_direction))


def thrust_or_drag(k, velocity, rotation, up):
    """Thrust adds the heading's table entries (sign-extended) to both words; without it each
    non-zero word is pulled towards 0 by about 1/128 of itself (PlayerShipThrustDamping: the
    one's complement of the doubled high byte, plus one when that is positive)."""
    push = take(table(k.thrust), jnp.stack([(rotation + _THRUST_X_OFFSET) & _ROTATION_MASK, rotation]))
    pushed = (velocity + push) & WORD
    doubled = (~((velocity >> 8) << 1)) & BYTE
    pull = jnp.where(doubled & SIGN_BIT, doubled - 0x100, doubled + 1)
    dragged = jnp.where(velocity != 0, (velocity + pull) & WORD, velocity)
    return jnp.where(up, pushed, dragged)


def _clamped_high(velocity):
    """AdjustPlayerShipPositions keeps the high byte within -64..63: bits 7 and 6 differing
    flip the low 7 bits (the stored velocity keeps the result)."""
    high = velocity >> 8
    over = ((high >> 7) ^ (high >> 6)) & 1
    return jnp.where(over == 1, high ^ 0x7F, high), high


def move(state, velocity):
    """AdjustPlayerShipPositions: per axis a whole part (the clamped high byte's high nibble,
    signed) and an 8-bit fraction (the unclamped high byte's low nibble over the low byte's
    high nibble) added to the subpixel; the carry joins the whole part."""
    high, raw_high = _clamped_high(velocity)
    whole = jnp.where(raw_high & SIGN_BIT, (high >> NIBBLE) - 0x10, high >> NIBBLE)
    fraction = ((raw_high << NIBBLE) & 0xF0) | ((velocity & BYTE) >> NIBBLE)
    total = state.subpixel + fraction
    carry = total >> 8
    steps = whole + carry  # x: positive moves west, negative east
    y = (state.y + steps[1]) & BYTE
    x_code = move_code(state.x_code, jnp.abs(steps[0]), steps[0] > 0)
    return state.replace(velocity=(high << 8) | (velocity & BYTE), subpixel=total & BYTE,
                         y=y, x_code=x_code)


def wrap(y):
    """The ship's vertical wrap: from 84 down it reappears 89 higher; up to 5 above the top it
    stays (drawn cut), beyond that it reappears 89 lower."""
    signed = jnp.where(y & SIGN_BIT, y - 0x100, y)
    signed = jnp.where(signed < -c.SHIP_HEIGHT, signed + c.PLAY_HEIGHT, signed)
    signed = jnp.where(signed >= c.PLAY_HEIGHT - c.SHIP_HEIGHT, signed - c.PLAY_HEIGHT, signed)
    return signed & BYTE


def _shot_push(high):
    """A shot inherits its ship's velocity: the high byte over 16, rounded towards zero."""
    nibble = high >> NIBBLE
    return jnp.where(high & SIGN_BIT, nibble - 0x10 + 1, nibble)


def move_shots(k, state):
    """MoveMissiles: a range step lost on every fourth frame, a free slot parked (224, two pixels
    east of the ship), a flying shot moved by its heading's step plus the ship's push, wrapping;
    a negative horizontal step moves one pixel further east than its size (the cartridge's
    two's complement adds one more)."""
    direction = state.shot_direction
    tick = (state.count % k.shot_range_period == k.shot_range_phase) & (direction != 0)
    direction = jnp.where(tick, direction - (1 << NIBBLE), direction)
    direction = jnp.where((direction >> NIBBLE) == 0, 0, direction)
    flying = direction != 0
    heading = direction & _ROTATION_MASK

    high = state.velocity >> 8
    dy = _shot_push(high[1]) + take(table(k.shot_step_dy), heading)
    y = (state.shot_y + dy) & BYTE
    y = jnp.where(y & SIGN_BIT, (y + c.PLAY_HEIGHT) & BYTE,
                  jnp.where(y >= c.PLAY_HEIGHT, y - c.PLAY_HEIGHT, y))
    dx = _shot_push(high[0]) + take(table(k.shot_step_dx), heading)
    pixels = jnp.where(dx >= 0, dx, 1 - dx)
    x = move_code(state.shot_x, pixels, dx >= 0)

    parked = move_code(state.x_code, k.parked_shot_dx, False)
    return state.replace(
        shot_direction=direction,
        shot_y=jnp.where(flying, y, c.OFF_SCREEN_Y),
        shot_x=jnp.where(flying, x, parked))
