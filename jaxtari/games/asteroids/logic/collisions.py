"""The overscan's collision step (public disassembly DNSDEBRO/Disassemblies @ a74a6312bac5,
Atari2600/Asteroids/asteroids.asm: CollisionDetection, PerformObjectCollisions,
CheckAsteroidCollisions, CheckObjectCollisions, IncrementScore).

One object is checked a frame, in a round robin kept in ram[97] that skips whatever is not in
flight: the first shot, the second shot, the ship (the UFO and its shot never fly in ALE's default
difficulty). The object's box is checked against each asteroid of the up list, then the down list;
the first unhit asteroid it overlaps is marked hit (its hit bit and colour 4, also copied into
ram[66], which makes the next overscan split it), its points are added (the ship ramming an
asteroid scores it too), a shot ends, the ship is killed. An asteroid above the top and its copy
at the list's end are marked together."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .. import constants as c
from .field import A0, BYTE, NIBBLE, NIBBLE_MASK, OFF, SIGN_BIT, X0, Y0
from .onehot import put, take

_FINE = jnp.asarray(np.asarray(c.FINE_PIXELS, np.int32))
_COARSE = jnp.asarray(np.asarray(c.COARSE_PIXELS, np.int32))
_SLOT = jnp.arange(c.FIELD_SLOTS)
CHECK_NONE, CHECK_SHOT1, CHECK_SHOT2, CHECK_SHIP = 0, 1, 2, 3
DECIMAL = 10
ROBIN_STEPS = 6  # the longest walk of the round robin past objects not in flight


def pixel(code):
    """ConvertHorizPosToPixelValue."""
    return (take(_FINE, (code >> NIBBLE) & NIBBLE_MASK) + take(_COARSE, code & NIBBLE_MASK)) & BYTE


def _table(values):
    return jnp.asarray(np.asarray(values, np.int32))


def _overlaps(k, mem, y, code, kind):
    """Per slot: whether the object (y, position code, id ``kind``) overlaps that asteroid as
    CheckAsteroidCollisions' pre-filter and CheckObjectCollisions' boxes have it (byte sums)."""
    _HEIGHT, _WIDTH = _table(k.box_height), _table(k.box_width)
    top_a = (y + k.collision_top) & BYTE
    height_a, width_a = take(_HEIGHT, kind), take(_WIDTH, kind)
    bottom_a = (top_a + height_a) & BYTE
    left_a = pixel(code)
    ys = mem[Y0:Y0 + c.FIELD_SLOTS]
    attributes = mem[A0:A0 + c.FIELD_SLOTS]
    near = (ys + k.collision_top) & BYTE
    in_band = ((near & SIGN_BIT) != 0) | ((near < bottom_a) & (near + k.asteroid_box_reach >= top_a))
    unhit = (attributes & c.ATTR_HIT) == 0
    size = (attributes >> c.ATTR_TYPE_SHIFT) & c.ATTR_SIZE_MASK
    top_b = (ys + k.asteroid_top_drop + k.collision_top) & BYTE
    vertical = jnp.where(top_b < top_a, ((top_b + take(_HEIGHT, size)) & BYTE) >= top_a,
                         ((top_a + height_a + 1) & BYTE) >= top_b)
    left_b = pixel(mem[X0:X0 + c.FIELD_SLOTS])
    horizontal = jnp.where(left_b < left_a, ((left_b + take(_WIDTH, size)) & BYTE) >= left_a,
                           ((left_a + width_a + 1) & BYTE) >= left_b)
    return in_band & unhit & vertical & horizontal


def _listed(mem):
    """Each list's slots before its 224, as masks over all 18 slots (up list, down list)."""
    ys = mem[Y0:Y0 + c.FIELD_SLOTS]
    none = jnp.zeros(c.LIST_SLOTS, bool)
    up = jnp.cumprod((ys[:c.DOWN_FIRST] != OFF).astype(jnp.int32)) == 1
    down = jnp.cumprod((ys[c.DOWN_FIRST:] != OFF).astype(jnp.int32)) == 1
    return jnp.concatenate([up, none]), jnp.concatenate([none, down])


def _mark_pair(mem, first, end):
    """An asteroid above the top (``first``, the list's first slot) and its copy at the list's
    end share the hit mark once either has it."""
    above = (mem[Y0 + first] & SIGN_BIT) != 0
    either = ((mem[A0 + first] | take(mem, A0 + end)) & c.ATTR_HIT) != 0
    marked = mem[A0 + first] | c.HIT_MARK
    paired = put(put(mem, A0 + first, marked), A0 + end, marked)
    return jnp.where(above & either, paired, mem)


def bcd_add(a, b, carry):
    """A decimal-mode byte addition (both operands valid BCD): the sum and the carry out."""
    low = (a & NIBBLE_MASK) + (b & NIBBLE_MASK) + carry
    low_carry = low >= DECIMAL
    low = jnp.where(low_carry, low - DECIMAL, low)
    high = (a >> NIBBLE) + (b >> NIBBLE) + low_carry
    out = high >= DECIMAL
    high = jnp.where(out, high - DECIMAL, high)
    return ((high << NIBBLE) | low) & BYTE, out.astype(jnp.int32)


def check_object(k, mem, list_end, y, code, kind, score, lives):
    """CheckAsteroidCollisions for one object. Returns (memory, hit: bool, the hit asteroid's new
    attributes, score (2,), lives)."""
    up, down = _listed(mem)
    overlap = _overlaps(k, mem, y, code, kind)
    in_up, in_down = overlap & up, overlap & down
    hit_up, hit_down = in_up.any(), in_down.any()
    slot = jnp.where(hit_up, jnp.argmax(in_up), jnp.argmax(in_down))
    hit = hit_up | hit_down

    attributes = take(mem, A0 + slot)
    marked = attributes | c.HIT_MARK
    size = (attributes >> c.ATTR_TYPE_SHIFT) & c.ATTR_SIZE_MASK
    mem = jnp.where(hit, put(mem, A0 + slot, marked), mem)
    mem = jnp.where(hit_up, _mark_pair(mem, c.UP_FIRST, list_end[0]),
                    _mark_pair(mem, c.DOWN_FIRST, list_end[1]))

    tens, carry = bcd_add(score[1], take(_table(k.points_bcd), size), 0)
    thousands, _ = bcd_add(score[0], 0, carry)
    new_score = jnp.where(hit, jnp.stack([thousands, tens]), score)
    digit = thousands & NIBBLE_MASK
    bonus = hit & (carry == 1) & jnp.isin(digit, _table(k.bonus_thousands_digits))
    raised = lives + 1
    lives = jnp.where(bonus & (raised != k.max_lives), raised, lives)
    return mem, hit, marked, new_score, lives


def robin(state, shot_active, ship_ready):
    """PerformObjectCollisions' turn: which object is checked this frame (CHECK_*) and the new
    round robin byte. ``ship_ready``: the ship's check would run (not exploding)."""
    check = jnp.int32(CHECK_NONE)
    chosen = jnp.bool_(False)
    for _ in range(ROBIN_STEPS):
        shot_turn = (state & c.ROBIN_SHOT_TURN) != 0
        first = (state & c.ROBIN_WHICH_SHOT) != 0
        flipped = state ^ (c.ROBIN_SHOT_TURN | c.ROBIN_WHICH_SHOT)
        flying = jnp.where(first, shot_active[0], shot_active[1])

        others = state & c.ROBIN_OTHERS_MASK
        counted = ((state + 1) | c.ROBIN_SHOT_TURN) & BYTE
        counted = jnp.where((counted & c.ROBIN_OTHERS_MASK) == c.ROBIN_OTHERS_MASK,
                            counted & ~c.ROBIN_OTHERS_MASK, counted)
        ship_turn = others >= c.ROBIN_SHIP

        new_state = jnp.where(shot_turn, flipped, counted)
        now = ~chosen & jnp.where(shot_turn, flying, ship_turn)
        this = jnp.where(shot_turn, jnp.where(first, CHECK_SHOT1, CHECK_SHOT2),
                         jnp.where(ship_ready, CHECK_SHIP, CHECK_NONE))
        check = jnp.where(now, this, check)
        state = jnp.where(chosen, state, new_state)
        chosen = chosen | now
    return check, state
