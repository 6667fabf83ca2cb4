"""Kangaroo's state: the cartridge's RAM, one field per quantity (each names its byte), and the
values the picture of the frame was drawn from (:class:`Picture`)."""

from __future__ import annotations

import jax

from jaxtari.env import pytree_dataclass


@pytree_dataclass
class Picture:
    """What the frame's picture was drawn from. The kernel runs between the vertical blank (and
    bank 0's ape and touches) and the overscan, so it reads most bytes as they were then, before
    the overscan moved anything (``ram``: every mirrored field by name, see game.FIELD_RAM); the
    player-1 list (the baby, the mother, the bell and fruit) was built in the previous frame's
    overscan, before its pickups, so those objects are drawn as they were then (``list_*``)."""

    ram: dict                 # field name -> its value at the kernel
    list_row: jax.Array       # ram[16] at the end of the previous frame
    list_x: jax.Array         # ram[17]
    list_pose: jax.Array      # ram[18]
    list_frame: jax.Array     # ram[57]
    list_state: jax.Array     # ram[54]
    list_bell: jax.Array      # ram[41]
    list_fruit: jax.Array     # ram[42..44]
    list_level: jax.Array     # ram[36]
    # the player-1 list this frame's overscan built for the next picture (the same eight bytes,
    # before the pickups: a fruit eaten on a frame is still drawn on the next, measured; the list is
    # RAM of its own, so a byte written into RAM after it was built shows a frame later, as on ALE)
    built: dict


@pytree_dataclass
class KangarooState:
    frame: jax.Array          # frames since reset (not in RAM)
    key: jax.Array            # carried as every state does (the cartridge makes its own randomness)
    monkey_sprite: jax.Array  # ram[0..3]
    monkey_state: jax.Array   # ram[4..7]
    monkey_row: jax.Array     # ram[8..11]
    monkey_x: jax.Array       # ram[12..15]
    mother_row: jax.Array     # ram[16]
    mother_x: jax.Array       # ram[17]
    pose: jax.Array           # ram[18]
    counter: jax.Array        # ram[19]
    monkeys: jax.Array        # ram[20]
    apple_flags: jax.Array    # ram[21..24]
    apple_row: jax.Array      # ram[25..27]
    apple_x: jax.Array        # ram[28..30]
    apples: jax.Array         # ram[31]
    throw_index: jax.Array    # ram[32]
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
    picture: Picture          # what this frame's picture was drawn from (not RAM of its own)
