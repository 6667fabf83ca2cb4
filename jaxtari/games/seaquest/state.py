"""Seaquest's state: the cartridge's RAM, one field per quantity (each names its byte)."""

from __future__ import annotations

import jax

from jaxtari.env import pytree_dataclass


@pytree_dataclass
class SeaquestState:
    frame: jax.Array          # frames since reset
    key: jax.Array            # carried as every state does (the cartridge makes its own randomness)
    frame_count: jax.Array    # ram[1]
    random: jax.Array         # ram[2], stepped every 8th frame
    color_cycle: jax.Array    # ram[34]: the attract-mode colour cycling
    game_over: jax.Array      # ram[35]: non-zero once the game is over
    obstacle_x: jax.Array     # ram[30..33], lane 0 the bottom lane
    pattern: jax.Array        # ram[36..39]: copies alive in each lane (bits)
    nusiz_index: jax.Array    # ram[40..43]: the copies shown (set before each picture)
    obstacle_colours: jax.Array  # ram[44..47]: each lane's colour (set by the overscan)
    hit_lanes: jax.Array      # ram[48..51]: 255, or the lane whose shark met the lane's diver
    torpedo_lane: jax.Array   # ram[52]: 255, or the lane the torpedo hit
    sub_lane: jax.Array       # ram[53]: 255, or the lane whose obstacle hit the sub
    ball_lane: jax.Array      # ram[54]: 255, or the lane whose diver/missile met the sub
    score: jax.Array          # ram[56..58] as a number (BCD on the cartridge)
    reserve_subs: jax.Array   # ram[59]
    level: jax.Array          # ram[60]
    difficulty: jax.Array     # ram[61]
    divers: jax.Array         # ram[62]
    sub_x: jax.Array          # ram[70]
    missile_x: jax.Array      # ram[71..74]: the lane's diver (shark lanes) or missile (sub lanes)
    point_value: jax.Array    # ram[78]
    fractions: jax.Array      # ram[79..81]
    sub_direction: jax.Array  # ram[86]
    torpedo_direction: jax.Array  # ram[87]
    attributes: jax.Array     # ram[89..92]
    shark_float: jax.Array    # ram[93]
    obstacle_animation: jax.Array  # ram[94]
    sub_animation: jax.Array  # ram[96]
    sub_y: jax.Array          # ram[97]
    oxygen: jax.Array         # ram[102]
    torpedo_x: jax.Array      # ram[103]
    game_state: jax.Array     # ram[104]
    death: jax.Array          # ram[105]
    sound_pickup: jax.Array   # ram[106]
    sound_shark: jax.Array    # ram[107]
    sound_sub: jax.Array      # ram[108]
    sound_torpedo: jax.Array  # ram[109]
    diver_state: jax.Array    # ram[113..116]
    patrol_x: jax.Array       # ram[118]
    patrol_hit: jax.Array     # ram[120] (the TIA's player-player latch, bit 7)
    oxygen_warning: jax.Array  # ram[121]
    speed_value: jax.Array    # ram[122]
    # what this frame's picture was drawn with, where the overscan changed it after the picture
    shown_sub_animation: jax.Array  # ram[96] as the picture read it
    shown_colours: jax.Array  # ram[44..47] as the picture read them (the last frame's overscan's)
    shown_random: jax.Array  # ram[2] as the picture read it (the surface's shimmer)
