"""Kangaroo's state: the cartridge's RAM, one field per quantity (each names its byte)."""

from __future__ import annotations

import jax

from jaxtari.env import pytree_dataclass


@pytree_dataclass
class KangarooState:
    frame: jax.Array          # frames since reset (not in RAM)
    key: jax.Array            # carried as every state does (the cartridge makes its own randomness)
    mother_row: jax.Array     # ram[16]
    mother_x: jax.Array       # ram[17]
    pose: jax.Array           # ram[18]
    counter: jax.Array        # ram[19]
    coconut_row: jax.Array    # ram[33]
    coconut_x: jax.Array      # ram[34]
    coconut_state: jax.Array  # ram[35]
    level: jax.Array          # ram[36]
    difficulty: jax.Array     # ram[38]
    score_high: jax.Array     # ram[39], BCD
    score_low: jax.Array      # ram[40], BCD
    bell: jax.Array           # ram[41]
    fruit: jax.Array          # ram[42..44]
    lives: jax.Array          # ram[45]
    music_flags: jax.Array    # ram[53]
    mother_state: jax.Array   # ram[54]
    monkey_pace: jax.Array    # ram[55]
    music: jax.Array          # ram[56]
    frame_count: jax.Array    # ram[57]
    attract: jax.Array        # ram[58]
    timer: jax.Array          # ram[59]
    walk_phase: jax.Array     # ram[60]
