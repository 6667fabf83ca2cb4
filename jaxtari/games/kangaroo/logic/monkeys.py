"""The monkeys and their apples (read off the public disassembly, measured on ALE).

A monkey comes on at the top right every 256 frames (128 on layouts 1 and 2), climbs down the
right side, and on the mother's floor walks left (or throws when she is far right); it throws its
apples (1-4 by pace), walks back to the side and climbs back up it to leave. Each monkey thinks
every 16 frames (one climbing back up also 8 frames later): :func:`think_all` is the cartridge's BRK
handler, one branch per state bit. Apples fly left 2 pixels every odd frame and kill the mother
they meet; a monkey touching her kills her too (and pays 200); a punch (the glove's box) takes a
monkey off for 200, and the glove drawn over an apple takes the apple for 100.
"""

from __future__ import annotations

import functools

import jax.numpy as jnp

from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic.cpu import BYTE, at, down_slots, minus, put, table
from jaxtari.games.kangaroo.logic.events import add_points, die, start_tune


# rule: spawning.monkeys-come-down
def spawn(c, s):
    """A monkey comes on (vertical blank, not while the mother waits) in the highest empty slot."""
    due = (table(c.spawn_mask, s.level) & s.frame_count) == 1
    free = (s.monkey_state & k.SIGN) != 0
    supply = table(c.apples_per_monkey, s.monkey_pace)

    def slot(s, i, taken):
        here = due & at(free, i) & ~taken
        s = s.replace(monkey_state=put(s.monkey_state, i, k.MONKEY_SPAWN_STATE, here),
                      monkey_row=put(s.monkey_row, i, k.MONKEY_START_ROW, here),
                      monkey_x=put(s.monkey_x, i, c.monkey_start_x, here),
                      apple_flags=put(s.apple_flags, i, (at(s.apple_flags, i) & k.APPLE_FREE) | supply, here))
        return s, taken | here

    s, taken = down_slots(k.MONKEY_SLOTS, slot, s, ("monkey_state", "monkey_row", "monkey_x", "apple_flags"),
                          jnp.bool_(False))
    return s.replace(monkeys=jnp.where(taken, (s.monkeys + 1) & BYTE, s.monkeys))


def cap_pace(c, s):
    return s.replace(monkey_pace=jnp.where(s.monkey_pace == k.PACE_OVERFLOW, c.pace_max, s.monkey_pace))


def touch_mother(c, s):
    """Bank 0, odd frames, the mother neither waiting nor dying: a monkey meeting her box."""
    odd = (s.frame_count & 1) != 0
    on = odd & ~minus(s.mother_state, 0) & (s.mother_state != k.DYING)
    height = table(c.pose_height, s.pose & k.POSE_FRAME)

    st = s.monkey_state
    dy = (s.monkey_row - s.mother_row) & BYTE
    rows = ((~minus(dy, 0)) | (dy == k.ROW_ABOVE)) & minus(dy, height)
    dx = (s.monkey_x - s.mother_x) & BYTE
    near = rows & ((dx < c.monkey_reach) | (dx >= (BYTE + 1 - c.monkey_reach)))
    hit = on & ((st & k.MONKEY_BRANCH) != k.MONKEY_HIT) & near & ((st & k.MONKEY_HIT) == 0)
    return _monkeys_hit(c, s.replace(monkey_state=jnp.where(hit, k.MONKEY_HIT, st)), hit, die)


def _monkeys_hit(c, s, hit, then):
    """The monkeys ``hit`` (a flag per slot): ``then`` and the pickup tune where any is, 200
    points each. A slot's test reads only its own bytes and what no hit changes, so the four are
    tested at once. The points are one add: 200 per hit, at most 800, carries into the high byte
    once at most, as the cartridge's add per slot does, and the bonus life reads the same high
    byte; four chained adds compiled into fusions that each recomputed the adds before them."""
    count = hit.astype(jnp.int32).sum(-1)
    s = start_tune(then(c, s, count > 0), count > 0)
    return add_points(s, c.monkey_points * count, count > 0)


# rule: scoring.punch-monkey
def punch_monkeys(c, s):
    """End of the picture, odd frames, a punch pose: the glove's box (2 rows under the mother's top,
    x + 10 facing right, x - 3 left) takes a monkey off."""
    odd = (s.frame_count & 1) != 0
    on = odd & minus(s.pose, 0)
    row = (s.mother_row + c.fist_row) & BYTE
    fist = (s.mother_x + jnp.where((s.pose & k.FACING_RIGHT) != 0, c.fist_right, c.fist_left)) & BYTE

    st, mx, mr = s.monkey_state, s.monkey_x, s.monkey_row
    hit = (on & ((st & k.MONKEY_BRANCH) != k.MONKEY_HIT) & (mx < fist) & (mx + c.fist_reach_x >= fist)
           & (mr < row) & (mr + c.fist_reach_rows >= row))
    return _monkeys_hit(c, s.replace(monkey_state=jnp.where(hit, k.MONKEY_HIT, st)), hit,
                        lambda c, s, _: s)


# rule: spawning.monkeys-come-down, spawning.monkeys-throw-apples
def think_all(c, s):
    """Overscan: every monkey thinks on frame_count & 15 == 0; one climbing back up to leave also on 8.

    The cartridge's BRK handler runs for slots 3 down to 0 in turn, one branch per state bit. A
    slot's branch reads its own four bytes, its own apple supply (the low nibble of its flags byte)
    and the apple slots it owns, none of which another slot's think changes, so the four run at
    once (:func:`_branches`). What the slots share is taken in the cartridge's order after
    (:func:`_throws`): the free apple slots each throw claims, the apples in flight a throw reads
    (another's release counts), the throw index, and the monkey count."""
    phase = s.frame_count & c.ai_period_mask
    st = s.monkey_state
    climbing = (st & k.CLIMB_STATE_MASK) == k.MONKEY_LEAVE_STATE
    cond = ((phase == 0) | ((phase == c.ai_climb_frame) & climbing)) & ((st & k.SIGN) == 0)
    slot, throw, release, counted = _branches(c, s, cond)
    return _throws(c, s, slot, throw, release, counted)


def _branches(c, s, cond):
    """Each slot's branch where ``cond`` (a flag per slot): its new bytes (state, row, x, sprite),
    whether it throws (:func:`_throws` finishes those), whether it lets an apple go, and what it does
    to the monkey count (-1: one left or gone; ``k.SIGN``: a release that found no apple of its own
    clears the count's bit 7, the cartridge's index wrapping onto $94)."""
    st, row, x = s.monkey_state, s.monkey_row, s.monkey_x
    b0, b1, b2 = (st & k.MONKEY_CLIMBS) != 0, (st & k.MONKEY_THROWS) != 0, (st & k.MONKEY_WALKS) != 0
    back, wound = (st & k.MONKEY_BACK) != 0, (st & k.MONKEY_WOUND) != 0
    supply = (s.apple_flags & k.APPLE_SUPPLY) != 0
    toggled = st ^ k.MONKEY_FRAME
    sprite_for = lambda on, off: jnp.where((toggled & k.MONKEY_FRAME) != 0, on, off)
    slot = {"monkey_state": st, "monkey_row": row, "monkey_x": x, "monkey_sprite": s.monkey_sprite}

    def step(c, state=None, row=None, x=None, sprite=None):
        for name, value in (("monkey_state", state), ("monkey_row", row), ("monkey_x", x)):
            if value is not None:
                slot[name] = jnp.where(c, value & BYTE, slot[name])
        if sprite is not None:
            slot["monkey_sprite"] = jnp.where(c, sprite, slot["monkey_sprite"])

    # bit 0: climbing the side
    side = cond & b0 & back
    leaving = side & minus(row, 0)
    up_side = side & ~leaving
    step(up_side, state=toggled, row=row - 1, sprite=sprite_for(k.SPRITE_CLIMB_A, k.SPRITE_CLIMB_B))
    # (the cartridge ORs the sign into the row it just read, not the state)
    step(leaving, state=row | k.SIGN, row=k.MONKEY_LEFT_ROW, x=k.MONKEY_LEFT_X)
    down = cond & b0 & ~back
    look = functools.reduce(jnp.logical_or, [row == r for r in c.monkey_look_rows])
    mother_floor = table(c.floor_of_row, (s.mother_row + table(c.pose_height, s.pose & k.POSE_FRAME)) & BYTE)
    same_floor = down & look & (table(c.floor_of_row, jnp.clip(row, 0, len(c.floor_of_row) - 1)) == mother_floor)
    throw_now = same_floor & ~minus(s.mother_x, c.monkey_throw_mother_x)
    walk_left = same_floor & ~throw_now
    bottom = down & ~look & (row == c.monkey_bottom)
    descend = down & ~same_floor & ~bottom
    step(walk_left, state=k.MONKEY_WALK_LEFT_STATE, x=x - c.monkey_step, sprite=k.SPRITE_WALK_A)
    step(bottom, state=st ^ (k.MONKEY_BACK | k.MONKEY_FRAME), x=c.monkey_left_turn, sprite=k.SPRITE_CLIMB_B)
    step(descend, state=toggled, row=row + 1, sprite=sprite_for(k.SPRITE_CLIMB_A, k.SPRITE_CLIMB_B))
    # bit 1: throwing
    throwing = cond & ~b0 & b1
    let_go = (st & k.MONKEY_FRAME) != 0
    step(throwing & ~wound, state=st ^ k.MONKEY_WOUND)
    release = throwing & ~let_go & wound
    step(release, state=st ^ (k.MONKEY_WOUND | k.MONKEY_FRAME), sprite=k.SPRITE_THROWN)
    after = throwing & let_go & wound
    more = after & supply
    home = after & ~more & (x == c.monkey_start_x)
    away = after & ~more & ~home
    step(more, state=k.MONKEY_WALK_LEFT_STATE, sprite=k.SPRITE_WALK_A)
    step(home, state=k.MONKEY_WALK_LEFT_STATE, x=x - c.monkey_step, sprite=k.SPRITE_WALK_A)
    step(away, state=k.MONKEY_WALK_RIGHT_STATE, x=x + c.monkey_step, sprite=k.SPRITE_WALK_B)
    # bit 2: walking along the floor
    walking = cond & ~b0 & ~b1 & b2
    right = walking & ~back
    turn = right & ~minus(x, c.monkey_left_turn)
    step(turn, state=st ^ (k.MONKEY_BACK | k.MONKEY_WALKS | k.MONKEY_CLIMBS), sprite=k.SPRITE_CLIMB_A)
    step(right & ~turn, state=toggled, x=x + c.monkey_step,
         sprite=sprite_for(k.SPRITE_WALK_RIGHT_A, k.SPRITE_WALK_RIGHT_B))
    left = walking & back
    rest = left & (x == c.monkey_home) & ~supply
    step(rest, state=k.MONKEY_LEAVE_STATE, sprite=k.SPRITE_CLIMB_B)
    at_throw = left & ~rest & (x == table(c.monkey_throw_x, s.level))
    step(left & ~rest & ~at_throw, state=toggled, x=x - c.monkey_step,
         sprite=sprite_for(k.SPRITE_WALK_LEFT_A, k.SPRITE_WALK_LEFT_B))
    # bits 0-2 clear: a hit monkey flashes three times, then is gone
    hit = cond & ~b0 & ~b1 & ~b2
    gone = hit & ((st & k.MONKEY_FLASHES) == k.MONKEY_LAST_FLASH)
    step(hit & ~gone, state=((st & k.MONKEY_FLASHES) + k.MONKEY_FLASH) | k.MONKEY_HIT, sprite=k.SPRITE_HIT)
    step(gone, state=k.MONKEY_EMPTY, row=k.MONKEY_GONE_ROW)
    mine = _own_apples(s)
    counted = jnp.where(leaving | gone, -1, jnp.where(release & ~_holds_any(mine), k.SIGN, 0))
    return slot, throw_now | at_throw, release, counted


def _holds_any(mine):
    return functools.reduce(jnp.logical_or, [mine[:, j] for j in range(k.APPLE_SLOTS)])


def _own_apples(s):
    """``[monkey, apple slot]``: the apple slots each monkey holds (idle, its slot as thrower)."""
    owner = (jnp.arange(k.MONKEY_SLOTS) << k.APPLE_OWNER_SHIFT) | k.APPLE_IDLE
    return (s.apple_flags[None, :k.APPLE_SLOTS] & k.APPLE_FREE) == owner[:, None]


def _apple_slots_set(flags, cond, value):
    """``flags`` (a byte per monkey slot) with its first APPLE_SLOTS bytes ``value`` where
    ``cond``: a concatenation, not the scatter a sliced ``.at[].set`` is."""
    head = flags[:k.APPLE_SLOTS]
    return jnp.concatenate([jnp.where(cond, value, head), flags[k.APPLE_SLOTS:]])


# rule: spawning.monkeys-throw-apples
def _throws(c, s, slot, throw, release, counted):
    """The bytes the slots share, slot by slot from 3 down to 0 as the cartridge takes them: a
    release lets go the last apple slot the monkey holds (from 2 down) and counts one more apple in
    flight; a throw (``throw``) takes the first free apple slot, its row and x, the next throw index
    and one of the thrower's supply (none left: it walks back right; three in flight or no free
    slot: it walks left); a monkey gone or off the top counts one less. A monkey's apple slots are
    its alone (a throw claims only a free one), so the slots the releases let go are taken at once."""
    mine = _own_apples(s)
    later = [functools.reduce(jnp.logical_or, [mine[:, m] for m in range(j + 1, k.APPLE_SLOTS)], jnp.bool_(False))
             for j in range(k.APPLE_SLOTS)]
    let_go = jnp.stack([(release & mine[:, j] & ~later[j]).any() for j in range(k.APPLE_SLOTS)])
    flags = _apple_slots_set(s.apple_flags, let_go, s.apple_flags[:k.APPLE_SLOTS] & ~k.APPLE_IDLE)
    row = slot["monkey_row"]

    def one(s, i):
        monkeys = jnp.where(at(counted, i) < 0, (s.monkeys - 1) & BYTE,
                            jnp.where(at(counted, i) > 0, s.monkeys & ~k.SIGN, s.monkeys))
        turn = at(throw, i)
        flags = s.apple_flags
        full = s.apples == c.max_apples
        empty = (at(flags, i) & k.APPLE_SUPPLY) == 0
        free = [(flags[j] & k.APPLE_FREE) == k.APPLE_FREE for j in range(k.APPLE_SLOTS)]
        found = functools.reduce(jnp.logical_or, free)
        walk_back = turn & (full | (~empty & ~found))
        restock = turn & ~full & empty
        throws = turn & ~full & ~empty & found
        index = jnp.where(s.throw_index + 1 == c.throw_pattern, 0, s.throw_index + 1)
        height = jnp.where(s.monkey_pace != 0, table(c.throw_height_paced, index), table(c.throw_height, index))
        top = height + at(row, i)
        x = at(s.monkey_x, i)
        # the apple's x: the 6502's sbc after the row's adc borrows where that add did not carry
        ax = (x - c.apple_throw_dx - jnp.where(top > BYTE, 0, 1)) & BYTE
        # the first free apple slot, one flag per slot
        claim = jnp.stack([throws & free[j] & ~functools.reduce(jnp.logical_or, free[:j], jnp.bool_(False))
                           for j in range(k.APPLE_SLOTS)])
        owner = (i << k.APPLE_OWNER_SHIFT) | k.APPLE_IDLE | k.APPLE_SUPPLY
        flags = _apple_slots_set(flags, claim, flags[:k.APPLE_SLOTS] & owner)
        flags = put(flags, i, at(flags, i) - 1, throws)
        sprite = jnp.where(height - 1 > 0, k.SPRITE_THROW_HIGH, k.SPRITE_THROW_LOW)
        return s.replace(
            monkeys=monkeys, apple_flags=flags,
            apples=jnp.where(at(release, i), (s.apples + 1) & BYTE, s.apples),
            throw_index=jnp.where(throws, index, s.throw_index),
            apple_row=jnp.where(claim, top & BYTE, s.apple_row),
            apple_x=jnp.where(claim, ax, s.apple_x),
            monkey_state=put(s.monkey_state, i, jnp.where(walk_back, k.MONKEY_WALK_LEFT_STATE, jnp.where(
                restock, k.MONKEY_WALK_RIGHT_STATE, k.MONKEY_THROW_STATE)), turn),
            monkey_x=put(s.monkey_x, i, (x + c.monkey_step) & BYTE, restock),
            monkey_sprite=put(s.monkey_sprite, i, jnp.where(walk_back, k.SPRITE_WALK_A, jnp.where(
                restock, k.SPRITE_WALK_B, sprite)), turn))

    s = s.replace(apple_flags=flags, **slot)
    return down_slots(k.MONKEY_SLOTS, one, s, ("monkeys", "apple_flags", "apples", "throw_index", "apple_row",
                                              "apple_x", "monkey_state", "monkey_x", "monkey_sprite"))


def _remove_apple(s, j, cond):
    return s.replace(apple_row=put(s.apple_row, j, k.MONKEY_EMPTY, cond),
                     apple_flags=put(s.apple_flags, j, at(s.apple_flags, j) | k.APPLE_FREE, cond),
                     apples=jnp.where(cond, (s.apples - 1) & BYTE, s.apples))


# rule: spawning.apple-flight, lives.duck-under-apple
def fly_apples(c, s):
    """Overscan, odd frames: each apple in flight 2 pixels left (gone past the edge); one meeting
    the mother kills her."""
    odd = (s.frame_count & 1) != 0
    height = table(c.pose_height, s.pose & k.POSE_FRAME)

    def slot(s, j):
        flying = odd & ((at(s.apple_flags, j) & k.SIGN) == 0)
        ax = at(s.apple_x, j) - c.apple_step
        off = flying & (ax < 0)
        ax = ax & BYTE
        s = s.replace(apple_x=put(s.apple_x, j, ax, flying & ~off))
        mx, mr, ar = s.mother_x, s.mother_row, at(s.apple_row, j)
        c1 = (ax >= mx).astype(jnp.int32)
        c2 = (mr >= ar).astype(jnp.int32)
        hit = (flying & ~off & ~minus(ax, mx) & ~minus((mx + 4 + c1) & BYTE, ax)
               & minus(mr, ar) & ~minus((mr + height + c2) & BYTE, ar))
        s = die(c, s, hit)
        return _remove_apple(s, j, off | hit)

    return down_slots(k.APPLE_SLOTS, slot, s, ("apple_x", "apple_row", "apple_flags", "apples", "pose",
                                               "mother_state", "counter"))


def punched_apple(c, s, glove_over_apple):
    """The picture drew the glove over an apple (odd frames): the apple at the mother's row + 2 is
    taken, 100 points, the pickup tune."""
    odd = (s.frame_count & 1) != 0
    on = odd & glove_over_apple
    row = (s.mother_row + c.glove_apple_row) & BYTE

    def slot(s, j, found):
        here = on & ~found & (at(s.apple_row, j) == row)
        return _remove_apple(s, j, here), found | here

    s, found = down_slots(k.APPLE_SLOTS, slot, s, ("apple_row", "apple_flags", "apples"), jnp.bool_(False))
    s = start_tune(s, found)
    return add_points(s, jnp.int32(c.apple_points), found), found
