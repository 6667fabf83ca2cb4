"""What every part of the frame may cause: points (the cartridge's score routine and its bonus
life), the pickup tune, the mother's death; and the two look-ups they share (a layout's row, the
touch test against the mother)."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic.cpu import BYTE, bcd_add, minus, table


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


def die(c, s, cond):
    return s.replace(pose=jnp.where(cond, k.DEATH_POSE, s.pose),
                     mother_state=jnp.where(cond, k.DYING, s.mother_state),
                     counter=jnp.where(cond, c.death_frames, s.counter))


def row_index(c, s, row):
    return table(c.layout_row_base, s.level) + row


def touches(c, s, row, x):
    """The cartridge's touch test of the mother against a thing at (row, x)."""
    height = table(c.pose_height, s.pose & k.POSE_FRAME)
    dy = (row - s.mother_row) & BYTE
    rows = ~minus(dy, 0) & minus(dy, height)
    dx = (x - s.mother_x) & BYTE
    return rows & ((dx < c.fruit_reach) | (dx >= (BYTE + 1 - c.fruit_reach)))
