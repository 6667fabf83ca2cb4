"""Splitting hit asteroids and starting a wave, as the cartridge does it in the overscan after a
hit (public disassembly DNSDEBRO/Disassemblies @ a74a6312bac5, Atari2600/Asteroids/asteroids.asm:
CheckToSpawnNewAsteroids, InitAsteroidObjects, NewPseudoRandomHorizPosition).

A hit large asteroid becomes a medium one with random fast/direction/colour bits, and a second
medium (the first one's direction reversed) is opened in the slot after it, 10 lines lower, while
its list has room; a hit medium becomes one small; a hit small, and a hit asteroid above the top
(an edge copy), leaves its list. A new piece low enough to cross the bottom edge gets its copy
above the top at once. Each new piece draws one step of the random number.
tests/games/test_asteroids_collisions.py holds the result against ALE byte for byte."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .. import constants as c
from .field import A0, OFF, SIGN_BIT, X0, Y0, BYTE, _shift, bubble_up, insert, next_random
from .onehot import put, take

MAX_VISITS = 4 * c.FIELD_SLOTS  # slots visited by one list's pass, revisits after a removal included


def _copy_above(mem, moved, last, start):
    """A piece crossing the bottom edge: its copy inserted at the list's top at y - 89."""
    mem, source = insert(mem, moved, last, start)
    return put(mem, Y0 + start, (take(mem, Y0 + source) - c.PLAY_HEIGHT) & BYTE)


def _split_large(k, mem, slot, last, start, random):
    random = next_random(random)
    mem = put(mem, A0 + slot, (random[1] & c.PIECE_RANDOM_MASK) | c.SIZE_BITS_MEDIUM)
    low = take(mem, Y0 + slot) >= c.MEDIUM_WRAP_FROM
    mem = jnp.where(low, _copy_above(mem, slot, last, start), mem)
    slot = jnp.where(low, start, slot)
    last = jnp.where(low, last + 1, last)

    room = jnp.where(last >= c.DOWN_FIRST, last < k.room_down, last < k.room_up)
    y = take(mem, Y0 + slot)
    after = ((y & SIGN_BIT) != 0) | (y < c.SECOND_BELOW_FROM)

    # the second piece opened in the slot after the first, 10 lines lower
    m1 = _shift(mem, slot + 1, last + 2, -1)
    s1 = slot + 1
    r1 = next_random(random)
    direction = take(m1, A0 + s1) & c.ATTR_LEFT
    m1 = put(m1, A0 + s1, ((r1[1] & c.SECOND_PIECE_RANDOM_MASK) | c.SIZE_BITS_MEDIUM | direction)
             ^ c.ATTR_LEFT)
    m1 = put(m1, X0 + s1, take(m1, X0 + s1 - 1))
    y1 = (take(m1, Y0 + s1 - 1) + k.second_piece_drop) & BYTE
    m1 = put(m1, Y0 + s1, y1)
    wraps = y1 >= c.SECOND_WRAP_FROM
    m1 = jnp.where(wraps, _copy_above(m1, s1, last + 1, start), m1)
    next1 = jnp.where(wraps, start, s1) + 1
    last1 = last + 1 + wraps

    # the first piece at the bottom edge: the second goes straight above the top
    m2, source = insert(mem, slot, last, start)
    r2 = next_random(random)
    direction2 = take(m2, A0 + start) & c.ATTR_LEFT
    m2 = put(m2, A0 + start, ((r2[1] & c.SECOND_PIECE_RANDOM_MASK) | c.SIZE_BITS_MEDIUM
                              | direction2) ^ c.ATTR_LEFT)
    m2 = put(m2, X0 + start, take(m2, X0 + source))
    m2 = put(m2, Y0 + start, (take(m2, Y0 + source) + k.second_piece_drop - c.PLAY_HEIGHT) & BYTE)

    mem = jnp.where(room, jnp.where(after, m1, m2), mem)
    random = jnp.where(room, r1, random)  # r1 and r2 are the same step
    slot = jnp.where(room, jnp.where(after, next1, start + 1), slot + 1)
    last = jnp.where(room, jnp.where(after, last1, last + 1), last)
    return mem, slot, last, random


def _split_medium(mem, slot, last, start, random):
    random = next_random(random)
    mem = put(mem, A0 + slot, (random[1] & c.PIECE_RANDOM_MASK) | c.SIZE_BITS_SMALL)
    low = take(mem, Y0 + slot) >= c.SMALL_WRAP_FROM
    mem = jnp.where(low, _copy_above(mem, slot, last, start), mem)
    return mem, jnp.where(low, start, slot) + 1, jnp.where(low, last + 1, last), random


def split_lists(k, mem, list_end, random):
    """Both lists' passes, the up list first (one compiled pass run twice). Returns the memory,
    the new list ends (a list emptied by its pass leaves its end one below its first slot, as a
    byte: 255) and the random number."""

    def one(carry, start_and_end):
        m, r = carry
        m, last, r = split_list(k, m, start_and_end[0], start_and_end[1], r)
        return (m, r), last & BYTE

    starts = jnp.asarray([c.UP_FIRST, c.DOWN_FIRST], jnp.int32)
    (mem, random), ends = jax.lax.scan(one, (mem, random), jnp.stack([starts, list_end], axis=1))
    return mem, ends.astype(jnp.int32), random


def split_list(k, mem, start, last, random):
    """CheckToSpawnNewAsteroids over one list (``start`` its first slot, ``last`` its last listed
    slot): every hit asteroid split or removed. Returns the memory, the list's new last slot and
    the random number."""

    def visiting(carry):
        m, slot, end, r, visits = carry
        return (take(m, Y0 + slot) != OFF) & (visits < MAX_VISITS)

    def visit(carry):
        m, slot, end, r, visits = carry
        attributes = take(m, A0 + slot)
        hit = (attributes & c.ATTR_HIT) != 0
        above = (take(m, Y0 + slot) & SIGN_BIT) != 0
        size = attributes & c.SIZE_BITS_MASK
        removed = hit & (above | (size == c.SIZE_BITS_SMALL))
        medium = hit & ~removed & (size == c.SIZE_BITS_MEDIUM)
        large = hit & ~removed & ~medium

        lm, ls, le, lr = _split_large(k, m, slot, end, start, r)
        mm, ms, me, mr = _split_medium(m, slot, end, start, r)
        gone = bubble_up(m, slot)

        def pick(a_large, a_medium, a_gone, a_pass):
            return jnp.where(large, a_large, jnp.where(medium, a_medium,
                             jnp.where(removed, a_gone, a_pass)))

        return (pick(lm, mm, gone, m), pick(ls, ms, slot, slot + 1), pick(le, me, end - 1, end),
                pick(lr, mr, r, r), visits + 1)

    mem, _, last, random, _ = jax.lax.while_loop(
        visiting, visit, (mem, jnp.asarray(start, jnp.int32), last, random, jnp.int32(0)))
    return mem, last, random


def random_code(k, random):
    """NewPseudoRandomHorizPosition: a position code from the random number's high byte (not
    stepped): its high nibble the fine value (7, which no position has, read as 8), its low 3
    bits choosing a coarse value."""
    high = random[1]
    fine = high & c.FINE_MASK
    fine = jnp.where(fine == c.UNUSED_FINE, c.UNUSED_FINE_REPLACEMENT, fine)
    coarse = jnp.asarray(np.asarray(k.random_coarse, np.int32))
    return fine | take(coarse, high & (len(k.random_coarse) - 1))


def _new_asteroid(mem, slot, y, code, random):
    random = next_random(random)
    mem = put(put(mem, Y0 + slot, y), X0 + slot, code)
    return put(mem, A0 + slot, random[1] & c.WAVE_ATTRIBUTE_MASK), random


def new_wave(k, mem, random, thousands):
    """InitAsteroidObjects: each list refilled with large asteroids, 2 below 1,000 points, 3 from
    1,000, 4 from 15,000 (the up list's middle one at 42, the down list's at 21, both at 21 and 42
    with four). Returns the memory, the list ends and the random number."""
    more = thousands >= k.wave_more_from
    most = thousands >= k.wave_most_from
    ends = []
    for start in (c.UP_FIRST, c.DOWN_FIRST):
        slot = jnp.int32(start)
        first, second, third, last = k.wave_ys
        mem, random = _new_asteroid(mem, slot, first, random_code(k, random), random)
        slot = slot + 1
        for y, wanted in ((second, most | (more & (start == c.DOWN_FIRST))),
                          (third, most | (more & (start == c.UP_FIRST)))):
            code = (next_random(random)[1] & c.WAVE_MIDDLE_X_MASK) | c.WAVE_MIDDLE_X
            m2, r2 = _new_asteroid(mem, slot, y, code, next_random(random))
            mem = jnp.where(wanted, m2, mem)
            random = jnp.where(wanted, r2, random)
            slot = jnp.where(wanted, slot + 1, slot)
        mem, random = _new_asteroid(mem, slot, last, random_code(k, random), random)
        mem = put(mem, Y0 + slot + 1, OFF)
        ends.append(slot)
    return mem, jnp.stack(ends).astype(jnp.int32), random
