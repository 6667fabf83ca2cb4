"""The monkeys and their apples (read off the public disassembly, measured on ALE).

A monkey comes on at the top right every 256 frames (128 on layouts 1 and 2), climbs down the
right side, and on the mother's floor walks left (or throws when she is far right); it throws its
apples (1-4 by pace), walks back and climbs on down, leaving at the bottom. Each monkey thinks every
16 frames (one climbing down also 8 frames later): :func:`think` is the cartridge's BRK handler,
one branch per state bit. Apples fly left 2 pixels every odd frame and kill the mother they meet; a
monkey touching her kills her too (and pays 200); a punch (the glove's box) takes a monkey off for
200, and the glove drawn over an apple takes the apple for 100.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic import BYTE, add_points, die, minus, start_tune, table, where


def down_slots(n, body, carry):
    """``body(carry, i)`` for slots i = n-1 down to 0, in the cartridge's order, as one loop (not
    unrolled: the step then compiles one body per loop instead of one per slot)."""
    return jax.lax.fori_loop(0, n, lambda j, c: body(c, n - 1 - j), carry)


def put(values, i, value, cond):
    """``values`` with ``values[i] = value`` where ``cond``."""
    return values.at[i].set(jnp.where(cond, value, values[i]))


# rule: spawning.monkeys-come-down
def spawn(s):
    """A monkey comes on (vertical blank, not while the mother waits) in the highest empty slot."""
    due = (table(k.SPAWN_MASK, s.level) & s.frame_count) == 1
    free = (s.monkey_state & k.SIGN) != 0
    supply = table(k.APPLES_PER_MONKEY, s.monkey_pace)

    def slot(carry, i):
        s, taken = carry
        here = due & free[i] & ~taken
        s = s.replace(monkey_state=put(s.monkey_state, i, k.MONKEY_SPAWN_STATE, here),
                      monkey_row=put(s.monkey_row, i, k.MONKEY_START_ROW, here),
                      monkey_x=put(s.monkey_x, i, k.MONKEY_START_X, here),
                      apple_flags=put(s.apple_flags, i, (s.apple_flags[i] & k.APPLE_FREE) | supply, here))
        return s, taken | here

    s, taken = down_slots(k.MONKEY_SLOTS, slot, (s, jnp.bool_(False)))
    return s.replace(monkeys=jnp.where(taken, (s.monkeys + 1) & BYTE, s.monkeys))


def cap_pace(s):
    return s.replace(monkey_pace=jnp.where(s.monkey_pace == k.PACE_OVERFLOW, k.PACE_MAX, s.monkey_pace))


def touch_mother(s):
    """Bank 0, odd frames, the mother neither waiting nor dying: a monkey meeting her box."""
    odd = (s.frame_count & 1) != 0
    on = odd & ~minus(s.mother_state, 0) & (s.mother_state != k.DYING)
    height = table(k.POSE_HEIGHT, s.pose & k.POSE_FRAME)

    st = s.monkey_state
    dy = (s.monkey_row - s.mother_row) & BYTE
    rows = ((~minus(dy, 0)) | (dy == BYTE)) & minus(dy, height)
    dx = (s.monkey_x - s.mother_x) & BYTE
    near = rows & ((dx < 6) | (dx >= 0xFA))
    hit = on & ((st & 0x0F) != k.MONKEY_HIT) & near & ((st & k.MONKEY_HIT) == 0)
    return _monkeys_hit(s.replace(monkey_state=jnp.where(hit, k.MONKEY_HIT, st)), hit, die)


def _monkeys_hit(s, hit, then):
    """The monkeys ``hit`` (a flag per slot): ``then`` and the pickup tune where any is, 200
    points each. A slot's test reads only its own bytes and what no hit changes, so the four are
    tested at once. The points are one add: 200 per hit, at most 800, carries into the high byte
    once at most, as the cartridge's add per slot does, and the bonus life reads the same high
    byte; four chained adds compiled into fusions that each recomputed the adds before them."""
    count = hit.astype(jnp.int32).sum(-1)
    s = start_tune(then(s, count > 0), count > 0)
    return add_points(s, k.MONKEY_POINTS * count, count > 0)


# rule: scoring.punch-monkey
def punch_monkeys(s):
    """End of the picture, odd frames, a punch pose: the glove's box (2 rows under the mother's top,
    x + 10 facing right, x - 3 left) takes a monkey off."""
    odd = (s.frame_count & 1) != 0
    on = odd & minus(s.pose, 0)
    row = (s.mother_row + 2) & BYTE
    fist = (s.mother_x + jnp.where((s.pose & k.FACING_RIGHT) != 0, 0x0A, 0xFD)) & BYTE

    st, mx, mr = s.monkey_state, s.monkey_x, s.monkey_row
    hit = (on & ((st & 0x0F) != k.MONKEY_HIT) & (mx < fist) & (mx + 7 >= fist)
           & (mr < row) & (mr + 2 >= row))
    return _monkeys_hit(s.replace(monkey_state=jnp.where(hit, k.MONKEY_HIT, st)), hit,
                        lambda s, _: s)


# rule: spawning.monkeys-throw-apples
def _throw(s, i, cond):
    """A monkey on the mother's floor throws: an apple slot taken, its row and x, the thrower's
    supply one less (none left or three in flight: it walks back)."""
    s = s.replace(monkey_state=put(s.monkey_state, i, 2, cond))
    full = s.apples == k.MAX_APPLES
    empty = (s.apple_flags[i] & k.APPLE_SUPPLY) == 0
    free = (s.apple_flags[:k.APPLE_SLOTS] & k.APPLE_FREE) == k.APPLE_FREE
    slot = jnp.argmax(free)
    found = free.any()
    walk_back = cond & (full | (~empty & ~found))
    restock = cond & ~full & empty
    throws = cond & ~full & ~empty & found
    s = s.replace(monkey_state=put(s.monkey_state, i, 0x24, walk_back),
                  monkey_sprite=put(s.monkey_sprite, i, k.SPRITE_WALK_A, walk_back))
    s = s.replace(monkey_state=put(s.monkey_state, i, 4, restock),
                  monkey_sprite=put(s.monkey_sprite, i, k.SPRITE_WALK_B, restock),
                  monkey_x=put(s.monkey_x, i, (s.monkey_x[i] + k.MONKEY_STEP) & BYTE, restock))
    flags = s.apple_flags
    flags = flags.at[slot].set(jnp.where(throws, flags[slot] & ((i << 4) | 0x8F), flags[slot]))
    index = jnp.where(s.throw_index + 1 == k.THROW_PATTERN, 0, s.throw_index + 1)
    height = jnp.where(s.monkey_pace != 0, table(k.THROW_HEIGHT_PACED, index), table(k.THROW_HEIGHT, index))
    flags = put(flags, i, (flags[i] - 1) & BYTE, throws)
    row = height + s.monkey_row[i]
    carry = row > BYTE
    x = (s.monkey_x[i] - 2 - jnp.where(carry, 0, 1)) & BYTE
    return s.replace(
        apple_flags=flags, throw_index=jnp.where(throws, index, s.throw_index),
        apple_row=s.apple_row.at[slot].set(jnp.where(throws, row & BYTE, s.apple_row[slot])),
        apple_x=s.apple_x.at[slot].set(jnp.where(throws, x, s.apple_x[slot])),
        monkey_sprite=put(s.monkey_sprite, i, jnp.where(height - 1 > 0, k.SPRITE_THROW_HIGH, k.SPRITE_THROW_LOW),
                          throws))


# rule: spawning.monkeys-come-down, spawning.monkeys-throw-apples
def think(s, i, cond):
    """Monkey ``i``'s AI step (the cartridge's BRK handler) where ``cond``."""
    st, row, x = s.monkey_state[i], s.monkey_row[i], s.monkey_x[i]
    cond = cond & ((st & k.SIGN) == 0)
    b0, b1, b2 = (st & 1) != 0, (st & 2) != 0, (st & 4) != 0
    sprite_for = lambda new, on, off: jnp.where((new & 0x10) != 0, on, off)

    # slot i's four bytes, kept as scalars through the branches and written back once (the
    # branches are exclusive; none reads them back before the write)
    slot = {"monkey_state": st, "monkey_row": row, "monkey_x": x, "monkey_sprite": s.monkey_sprite[i]}

    def step(s, c, state=None, row=None, x=None, sprite=None):
        for name, value in (("monkey_state", state), ("monkey_row", row), ("monkey_x", x)):
            if value is not None:
                slot[name] = jnp.where(c, value & BYTE, slot[name])
        if sprite is not None:
            slot["monkey_sprite"] = jnp.where(c, sprite, slot["monkey_sprite"])
        return s

    # bit 0: climbing down the side
    side = cond & b0 & ((st & 0x20) != 0)
    leaving = side & minus(row, 0)
    up_side = side & ~leaving
    toggled = st ^ 0x10
    s = step(s, up_side, state=toggled, row=row - 1, sprite=sprite_for(toggled, k.SPRITE_CLIMB_A, k.SPRITE_CLIMB_B))
    # (the cartridge ORs the sign into the row it just read, not the state)
    s = step(s, leaving, state=row | k.SIGN, row=jnp.int32(0x80), x=jnp.int32(0x88))
    s = s.replace(monkeys=jnp.where(leaving, (s.monkeys - 1) & BYTE, s.monkeys))
    down = cond & b0 & ((st & 0x20) == 0)
    look = (row == 7) | (row == 13) | (row == 19)
    mother_floor = table(k.FLOOR_OF_ROW, (s.mother_row + table(k.POSE_HEIGHT, s.pose & k.POSE_FRAME)) & BYTE)
    same_floor = down & look & (table(k.FLOOR_OF_ROW, jnp.clip(row, 0, len(k.FLOOR_OF_ROW) - 1)) == mother_floor)
    throw_now = same_floor & ~minus(s.mother_x, k.MONKEY_THROW_MOTHER_X)
    walk_left = same_floor & ~throw_now
    bottom = down & ~look & (row == k.MONKEY_BOTTOM)
    descend = down & ~same_floor & ~bottom
    s = step(s, walk_left, state=jnp.int32(0x24), x=x - k.MONKEY_STEP, sprite=jnp.int32(k.SPRITE_WALK_A))
    s = step(s, bottom, state=st ^ 0x30, x=jnp.int32(k.MONKEY_LEFT_TURN), sprite=jnp.int32(k.SPRITE_CLIMB_B))
    s = step(s, descend, state=toggled, row=row + 1, sprite=sprite_for(toggled, k.SPRITE_CLIMB_A, k.SPRITE_CLIMB_B))
    # bit 1: throwing
    throwing = cond & ~b0 & b1
    wind = throwing & ((st & 0x40) == 0)
    s = step(s, wind, state=st ^ 0x40)
    release = throwing & ((st & 0x10) == 0) & ((st & 0x40) != 0)
    s = step(s, release, state=st ^ 0x50, sprite=jnp.int32(k.SPRITE_THROWN))
    owner = (i << 4) | k.APPLE_IDLE
    mine = (s.apple_flags[:k.APPLE_SLOTS] & k.APPLE_FREE) == owner
    # the last matching slot from 2 down; none: the cartridge's index wraps onto $94
    last = k.APPLE_SLOTS - 1 - jnp.argmax(mine[::-1])
    flags = s.apple_flags
    flags = flags.at[last].set(jnp.where(release & mine.any(), flags[last] & 0x7F, flags[last]))
    s = s.replace(apple_flags=flags,
                  monkeys=jnp.where(release & ~mine.any(), s.monkeys & 0x7F, s.monkeys),
                  apples=jnp.where(release, (s.apples + 1) & BYTE, s.apples))
    after = throwing & ((st & 0x10) != 0) & ((st & 0x40) != 0)
    more = after & ((s.apple_flags[i] & k.APPLE_SUPPLY) != 0)
    home = after & ~more & (x == k.MONKEY_START_X)
    away = after & ~more & ~home
    s = step(s, more, state=jnp.int32(0x24), sprite=jnp.int32(k.SPRITE_WALK_A))
    s = step(s, home, state=jnp.int32(0x24), x=x - k.MONKEY_STEP, sprite=jnp.int32(k.SPRITE_WALK_A))
    s = step(s, away, state=jnp.int32(4), x=x + k.MONKEY_STEP, sprite=jnp.int32(k.SPRITE_WALK_B))
    # bit 2: walking along the floor
    walking = cond & ~b0 & ~b1 & b2
    right = walking & ((st & 0x20) == 0)
    turn = right & ~minus(x, k.MONKEY_LEFT_TURN)
    s = step(s, turn, state=st ^ 0x25, sprite=jnp.int32(k.SPRITE_CLIMB_A))
    go_right = right & ~turn
    s = step(s, go_right, state=toggled, x=x + k.MONKEY_STEP,
             sprite=sprite_for(toggled, k.SPRITE_WALK_RIGHT_A, k.SPRITE_WALK_RIGHT_B))
    left = walking & ((st & 0x20) != 0)
    rest = left & (x == k.MONKEY_HOME) & ((s.apple_flags[i] & k.APPLE_SUPPLY) == 0)
    s = step(s, rest, state=jnp.int32(k.CLIMBING_DOWN), sprite=jnp.int32(k.SPRITE_CLIMB_B))
    at_throw = left & ~rest & (x == table(k.MONKEY_THROW_X, s.level))
    go_left = left & ~rest & ~at_throw
    s = step(s, go_left, state=toggled, x=x - k.MONKEY_STEP,
             sprite=sprite_for(toggled, k.SPRITE_WALK_LEFT_A, k.SPRITE_WALK_LEFT_B))
    # bits 0-2 clear: a hit monkey flashes three times, then is gone
    hit = cond & ~b0 & ~b1 & ~b2
    gone = hit & ((st & 0xF0) == 0x30)
    flash = hit & ~gone
    s = step(s, flash, state=((st & 0xF0) + 0x10) | k.MONKEY_HIT, sprite=jnp.int32(k.SPRITE_HIT))
    s = step(s, gone, state=jnp.int32(k.MONKEY_EMPTY), row=jnp.int32(0x7F))
    s = s.replace(monkeys=jnp.where(gone, (s.monkeys - 1) & BYTE, s.monkeys))
    s = s.replace(**{name: getattr(s, name).at[i].set(v) for name, v in slot.items()})
    return _throw(s, i, throw_now | at_throw)


def think_all(s):
    """Overscan: every monkey thinks on frame_count & 15 == 0; one climbing down the side also on 8."""
    phase = s.frame_count & k.AI_PERIOD_MASK

    def slot(s, i):
        climbing = (s.monkey_state[i] & k.CLIMB_STATE_MASK) == k.CLIMBING_DOWN
        return think(s, i, (phase == 0) | ((phase == k.AI_CLIMB_FRAME) & climbing))

    return down_slots(k.MONKEY_SLOTS, slot, s)


def _remove_apple(s, j, cond):
    return s.replace(apple_row=put(s.apple_row, j, k.MONKEY_EMPTY, cond),
                     apple_flags=put(s.apple_flags, j, s.apple_flags[j] | k.APPLE_FREE, cond),
                     apples=jnp.where(cond, (s.apples - 1) & BYTE, s.apples))


# rule: spawning.apple-flight, lives.duck-under-apple
def fly_apples(s):
    """Overscan, odd frames: each apple in flight 2 pixels left (gone past the edge); one meeting
    the mother kills her."""
    odd = (s.frame_count & 1) != 0
    height = table(k.POSE_HEIGHT, s.pose & k.POSE_FRAME)

    def slot(s, j):
        flying = odd & ((s.apple_flags[j] & k.SIGN) == 0)
        ax = s.apple_x[j] - k.APPLE_STEP
        off = flying & (ax < 0)
        ax = ax & BYTE
        s = s.replace(apple_x=put(s.apple_x, j, ax, flying & ~off))
        mx, mr, ar = s.mother_x, s.mother_row, s.apple_row[j]
        c1 = (ax >= mx).astype(jnp.int32)
        c2 = (mr >= ar).astype(jnp.int32)
        hit = (flying & ~off & ~minus(ax, mx) & ~minus((mx + 4 + c1) & BYTE, ax)
               & minus(mr, ar) & ~minus((mr + height + c2) & BYTE, ar))
        s = die(s, hit)
        return _remove_apple(s, j, off | hit)

    return down_slots(k.APPLE_SLOTS, slot, s)


def punched_apple(s, glove_over_apple):
    """The picture drew the glove over an apple (odd frames): the apple at the mother's row + 2 is
    taken, 100 points, the pickup tune."""
    odd = (s.frame_count & 1) != 0
    on = odd & glove_over_apple
    row = (s.mother_row + 2) & BYTE

    def slot(carry, j):
        s, found = carry
        here = on & ~found & (s.apple_row[j] == row)
        return _remove_apple(s, j, here), found | here

    s, found = down_slots(k.APPLE_SLOTS, slot, (s, jnp.bool_(False)))
    s = start_tune(s, found)
    return add_points(s, jnp.int32(k.APPLE_POINTS), found), found
