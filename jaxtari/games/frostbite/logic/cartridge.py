"""The cartridge's arithmetic that several rules share: its random generator, its speed table, and
how it adds points (with the bonus Bailey)."""

from __future__ import annotations

import jax.numpy as jnp

MAX_SCORE = 1_000_000        # six BCD digits


def lfsr_step(v, times: int = 3):
    """The cartridge's random generator: shift left, new bit = bit7 xor bit4 (3 shifts per call)."""
    for _ in range(times):
        bit = ((v >> 7) ^ (v >> 4)) & 1
        v = ((v << 1) | bit) & 0xFF
    return v


def wrap_x(x):
    """An x byte moved past either edge back onto the 160-px screen (the cartridge's wrap)."""
    x = jnp.where(x >= 0xF0, x - 0x60, x)
    return jnp.where(x >= 0xA0, x - 0xA0, x)


def speed_bases(level_index):
    """Per-frame speed numerators (1/16 px) of floes, enemies and Bailey in the air, by level."""
    v = level_index + 4
    # above level 11 the speeds fall back by 3 per 7 levels (cartridge loop, checked on RAM)
    over = v - 15
    n_sub = jnp.where(over >= 0, over // 7 + 1, 0)
    b = v - 3 * n_sub
    return jnp.stack([b >> 1, b - 1, b]) & 0xFF


# rule: lives.bonus-every-5000
def add_points(score, lives, points, max_lives):
    """Add points the cartridge's way: a bonus Bailey when a carry out of the tens byte leaves the
    hundreds byte at 00 or 50 (every 5,000 points), up to max_lives."""
    low = score % 100
    new = (score + points) % MAX_SCORE
    carry = (low + points % 100) >= 100
    hundreds = (new // 100) % 100
    bonus = carry & ((hundreds == 0) | (hundreds == 50)) & (lives < max_lives)
    return new, lives + bonus.astype(jnp.int32)


def to_bcd(v):
    """A number 0..99 as the cartridge stores it (binary-coded decimal)."""
    return ((v // 10) << 4) | (v % 10)
