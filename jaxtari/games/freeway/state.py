"""Freeway's state: each field names the RAM byte it mirrors."""

from __future__ import annotations

import jax

from jaxtari.env import pytree_dataclass


@pytree_dataclass
class FreewayState:
    frame: jax.Array        # int32 frames since reset
    key: jax.Array          # PRNG key (Freeway's game 0 has no randomness; carried for the API)
    climb: jax.Array        # int32, ram[14]: 6 on the kerb .. 177 at the top
    car_x: jax.Array        # int32 (10,), ram[117 - i]: 0..159
    hit_count: jax.Array    # int32, low bits of ram[106] while bit 6 is set, else 0
    cross_count: jax.Array  # int32, low bits of ram[106] while bit 7 is set, else 0
    hurt_pose: jax.Array    # bool, a hit is counting down on this frame (HURT replaces WALK_B)
    late_overlap: jax.Array  # bool, a late-read lane's car overlapped the chicken on this screen
    score: jax.Array        # int32, ram[103] as a number
    shown_score: jax.Array  # int32, the score the digits show on this frame
