"""The asteroid field on an asteroid frame (the frames after which the counter is odd), as the
cartridge keeps it: three 18-byte arrays in a row (y, position code, attributes), slots 0-8 the
up-drifting list and 9-17 the down-drifting one, each sorted by height and ended by a y of 224.
The routines follow the public disassembly (DNSDEBRO/Disassemblies @ a74a6312bac5,
Atari2600/Asteroids/asteroids.asm: ProcessAsteroidCalculations, MoveAsteroidHorizontally,
InsertNewAsteroidIntoList, BubbleUpAsteroidList, FindOutOfRangeAsteroids, NextRandom);
tests/games/test_asteroids_field.py holds every byte against ALE frame by frame.

The arrays are one flat memory because the cartridge indexes it as one: a list shifted down one
slot past its end writes into the next array, and so does this port.

Edge copies: an asteroid crossing the top or bottom edge is listed twice, once at each edge, so
the kernel draws both halves: an up-drifting asteroid reaching y 0 gets a copy appended at y 89
(the list's end); a down-drifting one reaching its lower bound gets a copy inserted at the top of
its list at y - 89. The original is dropped when it has left the screen."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .. import constants as c
from .positions import ASTEROID_MOVES, one_pixel
from .onehot import put, take

BYTE = 0xFF
SIGN_BIT = 0x80
NIBBLE, NIBBLE_MASK = 4, 0xF
OFF = c.OFF_SCREEN_Y
SLOTS = c.FIELD_SLOTS
Y0, X0, A0 = 0, SLOTS, 2 * SLOTS  # where each array starts in the flat memory
PAD = 4  # room for the writes a full list makes one slot past its end
MEMORY = 3 * SLOTS + PAD
# the up list's walk visits each slot once, plus one restart per asteroid dropped at the top
MAX_UP_STEPS = 3 * c.LIST_SLOTS

_INDEX = jnp.arange(MEMORY)


def _table(values):
    return jnp.asarray(np.asarray(values, np.int32))


def upper_bounds(k):
    """AsteroidUpperBound by size: an up-drifting asteroid above the top is dropped at minus its
    height (as a byte)."""
    return _table([(-h) & BYTE for h in k.asteroid_heights])


def lower_bounds(k):
    """AsteroidLowerBound by size: a down-drifting asteroid gets its copy above the top at the
    kernel height + 1 minus its height."""
    return _table([c.PLAY_HEIGHT + 1 - h for h in k.asteroid_heights])


def start_memory(k=c.DEFAULTS) -> jax.Array:
    """The field's bytes at reset (measured, Constants.start_field_*), then the padding."""
    flat = tuple(k.start_field_y) + tuple(k.start_field_x) + tuple(k.start_field_attributes) + (0,) * PAD
    return jnp.asarray(np.asarray(flat, np.int32))


def next_random(random):
    """NextRandom: the 16-bit shift register (low byte ram[1], high ram[2]) steps once; the new
    high byte is what a caller reads."""
    low, high = random[0], random[1]
    feedback = ((((low << 1) ^ low) & BYTE) >> 6) & 1
    new_high = ((high << 1) | feedback) & BYTE
    new_low = ((low << 1) | (high >> 7)) & BYTE
    return jnp.stack([new_low, new_high])


def speed_tick(k, speed):
    """The speed byte's two counters lowered by one each; returns the byte and this frame's
    delay bits (DELAY_SLOW when the slow counter ran out, DELAY_MEDIUM when the medium one did)."""
    a = (speed - c.SPEED_TICK) & BYTE
    slow = a < c.SPEED_SLOW_DONE_BELOW
    a = jnp.where(slow, a | k.speed_slow_reload, a)
    medium = (a & c.SPEED_MEDIUM_MASK) == 0
    a = jnp.where(medium, a | k.speed_medium_reload, a)
    bits = jnp.where(slow, c.DELAY_SLOW, 0) | jnp.where(medium, c.DELAY_MEDIUM, 0)
    return a, bits


def _sideways(k, code, attributes, bits):
    """MoveAsteroidHorizontally on one code: one pixel when the delay table's entry for the
    asteroid's size and hit bit is raised in this frame's bits (or is 0), west if it drifts left."""
    delay = take(_table(k.horizontal_delay), (attributes >> c.ATTR_TYPE_SHIFT) & c.ATTR_TYPE_MASK)
    due = (delay == 0) | ((delay & bits) != 0)
    moved = one_pixel(code, (attributes & c.ATTR_LEFT) != 0, ASTEROID_MOVES)
    return jnp.where(due, moved, code)


def _move_slot(k, mem, slot, bits):
    code = _sideways(k, take(mem, X0 + slot), take(mem, A0 + slot), bits)
    return put(mem, X0 + slot, code)


def _first_end(mem, start):
    """The first slot from ``start`` whose y is 224 (the walk runs on through the flat memory,
    which the y array begins: Y0 is 0)."""
    hit = (_INDEX >= start) & (mem[Y0:] == OFF)
    return jnp.argmax(hit)


def _shift(mem, first, last, step):
    """Every array's slots first..last take the values of the slot ``step`` away (+1: the one
    below, bubbling the list up; -1: the one above, opening a slot); the memory's two ends read
    themselves."""
    if step == 1:
        neighbour = jnp.concatenate([mem[1:], mem[-1:]])
    elif step == -1:
        neighbour = jnp.concatenate([mem[:1], mem[:-1]])
    else:
        raise ValueError(f"a list shifts by one slot (step +1 or -1), got {step}")
    shifted = jnp.zeros(MEMORY, bool)
    for base in (Y0, X0, A0):
        slot = _INDEX - base
        shifted = shifted | ((slot >= first) & (slot <= last))
    return jnp.where(shifted, neighbour, mem)


def bubble_up(mem, slot):
    """BubbleUpAsteroidList: the slots from ``slot`` take the one below each, up to and including
    the list's 224 (the slot after it keeps its stale bytes)."""
    end = _first_end(mem, slot + 1)
    return _shift(mem, slot, end - 1, 1)


def insert(mem, moved, start, boundary):
    """InsertNewAsteroidIntoList: slots boundary..start+1 move one slot down, and ``boundary``
    takes the position code and attributes now in slot moved + 1 (the caller sets its y).
    Returns the memory and that source slot."""
    mem = _shift(mem, boundary + 1, start + 2, -1)
    source = moved + 1
    mem = put(mem, X0 + boundary, take(mem, X0 + source))
    mem = put(mem, A0 + boundary, take(mem, A0 + source))
    return mem, source


def _size(attributes):
    return (attributes >> c.ATTR_TYPE_SHIFT) & c.ATTR_SIZE_MASK


def _with_slots(mem, first, values):
    """The memory with its slots from ``first`` (a fixed one) replaced by ``values``."""
    return jnp.concatenate([mem[:first], values, mem[first + values.shape[0]:]])


def _move_down_list(k, mem, down_end, bits):
    """Every listed down-drifting asteroid one line down and maybe one pixel sideways; the bottom
    one dropped once it is past the kernel, or copied above the top at its lower bound."""
    ys = mem[Y0 + c.DOWN_FIRST:Y0 + SLOTS]
    listed = jnp.cumprod((ys != OFF).astype(jnp.int32)) == 1
    mem = _with_slots(mem, Y0 + c.DOWN_FIRST, jnp.where(listed, (ys + 1) & BYTE, ys))
    codes = mem[X0 + c.DOWN_FIRST:X0 + SLOTS]
    moved = _sideways(k, codes, mem[A0 + c.DOWN_FIRST:A0 + SLOTS], bits)
    mem = _with_slots(mem, X0 + c.DOWN_FIRST, jnp.where(listed, moved, codes))

    def past_bottom(carry):
        m, end = carry
        y = take(m, Y0 + end)
        return (y != OFF) & (y >= c.PLAY_HEIGHT)

    def drop(carry):
        m, end = carry
        return put(m, Y0 + end, OFF), end - 1

    mem, end = jax.lax.while_loop(past_bottom, drop, (mem, down_end))
    y = take(mem, Y0 + end)
    at_bound = (y != OFF) & (y == take(lower_bounds(k), _size(take(mem, A0 + end))))
    copied, source = insert(mem, end, end, c.DOWN_FIRST)
    copied = put(copied, Y0 + c.DOWN_FIRST, (take(copied, Y0 + source) - c.PLAY_HEIGHT) & BYTE)
    return jnp.where(at_bound, copied, mem)


def _move_up_list(k, mem, up_end, bits):
    """The up-drifting list walked from the top as the cartridge walks it: each asteroid one line
    up and maybe one pixel sideways; one at y 0 gets its copy appended at y 89; the top one above
    the screen is dropped at its upper bound (and the walk restarts). Also returns the top
    slot's position code before its sideways step (the kernel positions the up list's first
    asteroid by it: disassembly .setTopUpAsteroidMotionValues copies it before the walk)."""

    def walking(carry):
        m, slot, end, steps, top = carry
        return (take(m, Y0 + slot) != OFF) & (steps < MAX_UP_STEPS)

    def step(carry):
        m, slot, end, steps, top = carry
        # the kernel positions the top asteroid by the code it had when the walk (re)started
        top = jnp.where(slot == c.UP_FIRST, m[X0 + c.UP_FIRST], top)
        y = take(m, Y0 + slot)
        at_top = y == 0
        inside = (y > 0) & (y < SIGN_BIT)

        # an asteroid reaching the top: its copy (the top slot's bytes) goes after the list
        last = end + (take(m, Y0 + end) != OFF)
        copy = put(put(put(m, Y0 + last, c.PLAY_HEIGHT), X0 + last, m[X0]), A0 + last, m[A0])
        copy = put(copy, Y0 + last + 1, OFF)
        copy = _move_slot(k, put(copy, Y0, (copy[Y0] - 1) & BYTE), 0, bits)

        moved = _move_slot(k, put(m, Y0 + slot, (y - 1) & BYTE), slot, bits)

        # above the top: the top slot rises; at its bound it is dropped and the walk restarts
        rose = put(m, Y0, (m[Y0] - 1) & BYTE)
        gone = rose[Y0] == take(upper_bounds(k), _size(rose[A0]))
        above = jnp.where(gone, bubble_up(rose, slot), _move_slot(k, rose, slot, bits))

        m = jnp.where(at_top, copy, jnp.where(inside, moved, above))
        slot = jnp.where(at_top, 1, jnp.where(inside | ~gone, slot + 1, 0))
        end = jnp.where(at_top, end + 1, end)
        return m, slot, end, steps + 1, top

    mem, _, end, _, top = jax.lax.while_loop(
        walking, step, (mem, jnp.int32(c.UP_FIRST), up_end, jnp.int32(0), mem[X0 + c.UP_FIRST]))
    return mem, end, top


def asteroid_frame(k, mem, speed, list_end):
    """ProcessAsteroidCalculations' moves: the speed counters, the down list, then the up list.
    Returns the memory, the speed byte, the list ends (the up one raised by each copy) and the
    code the kernel positions the up list's first asteroid by (its code before this frame's
    sideways step)."""
    speed, bits = speed_tick(k, speed)
    mem = _move_down_list(k, mem, list_end[1], bits)
    mem, up_end, top = _move_up_list(k, mem, list_end[0], bits)
    return mem, speed, jnp.stack([up_end, list_end[1]]), top


def list_ends(mem):
    """FindOutOfRangeAsteroids: each list's last listed slot (its first slot when empty)."""
    up = _first_end(mem, c.UP_FIRST)
    down = _first_end(mem, c.DOWN_FIRST)
    return jnp.stack([jnp.where(up == c.UP_FIRST, up, up - 1),
                      jnp.where(down == c.DOWN_FIRST, down, down - 1)]).astype(jnp.int32)


def both_lists_empty(mem):
    return (mem[Y0 + c.UP_FIRST] == OFF) & (mem[Y0 + c.DOWN_FIRST] == OFF)
