"""Seaquest's score: the cartridge's one BCD score routine (every caller's points checked on ALE)."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.seaquest.logic.common import BYTE, DEFAULTS


def bcd(value):
    """A BCD byte's value (0x45 -> 45)."""
    return (value >> 4) * 10 + (value & 0xF)


def add_points(s, points_bcd, cond=True, c=DEFAULTS):
    """The cartridge's score increment (BCD tens/ones byte first): the score caps at 999,999 and
    ends the game there; a carry into the ten-thousands (every 10,000 points) gives a reserve sub
    up to the cap. Returns (state, carry): the 6502 carry flag the routine leaves (some callers add
    it into later arithmetic). ``c``: the game's consts."""
    points = bcd(points_bcd)
    cap = c.score_cap
    low = s.score % 100
    carried = (low + points) >= 100
    total = s.score + points
    maxed = total > cap
    total = jnp.where(maxed, cap, total)
    crossed = carried & ~maxed & (((total // 100) % 100) == 0)
    bonus = crossed & (s.reserve_subs < c.max_reserve_subs)
    carry = cond & (maxed | (crossed & ~bonus))
    s = s.replace(score=jnp.where(cond, total, s.score),
                  reserve_subs=jnp.where(cond & bonus, s.reserve_subs + 1, s.reserve_subs),
                  game_over=jnp.where(cond & maxed, (s.game_over + 1) & BYTE, s.game_over))
    return s, carry
