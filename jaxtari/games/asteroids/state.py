"""Asteroids' state: the ship and the asteroid field; each field names the RAM byte it
mirrors (alignment/reference/games/asteroids/ram.py), kept as the cartridge keeps it so the lockstep test
can compare byte for byte."""

from __future__ import annotations

import jax

from jaxtari.env import pytree_dataclass


@pytree_dataclass
class ShipState:
    count: jax.Array       # int32, ram[57] | ram[58] << 8: frames since power-on, 16 bits
    rotation: jax.Array    # int32, ram[60] & 0x0F: heading 0..15, 0 up, +1 anticlockwise
    x_code: jax.Array      # int32, ram[73]: horizontal position code (constants.FINE_PIXELS)
    y: jax.Array           # int32, ram[74]: vertical position byte (251..255 above the top)
    subpixel: jax.Array    # int32 (2,), ram[75], ram[76]: fractional position, x then y
    velocity: jax.Array    # int32 (2,), ram[77] << 8 | ram[79] (x), ram[78] << 8 | ram[80] (y)
    fire_held: jax.Array   # bool, ram[71] bit 4: the button was down on the last logic frame
    shot_x: jax.Array      # int32 (2,), ram[83..84]: position codes
    shot_y: jax.Array      # int32 (2,), ram[86..87]: 224 when the slot is free
    shot_direction: jax.Array  # int32 (2,), ram[89..90]: range << 4 | heading; 0 when free


@pytree_dataclass
class FieldState:
    memory: jax.Array      # int32 (54 + pad,), ram[3..56]: 18 ys, 18 position codes, 18 attributes
    speed: jax.Array       # int32, ram[59]: the asteroids' sideways speed counters
    random: jax.Array      # int32 (2,), ram[1], ram[2]: the random number, low byte first
    list_end: jax.Array    # int32 (2,), ram[92], ram[93]: each list's last listed slot
    asteroid_collision: jax.Array  # int32, ram[66]: non-zero when a hit asteroid awaits splitting
    object_collision: jax.Array    # int32, ram[97]: which object the collision check takes next


@pytree_dataclass
class PlayerState:
    lives: jax.Array       # int32, ram[60] >> 4
    score: jax.Array       # int32 (2,), ram[61] (thousands, BCD), ram[62] (hundreds and tens, BCD)
    reserved: jax.Array    # int32, ram[63]: the other player's attributes (cleared at a respawn)
    flags: jax.Array       # int32, ram[72]: game over, killed, hyperspace armed (constants)
    feature_timer: jax.Array  # int32, ram[94]: 128+ exploding, then the wait; hyperspace's wait
    respawn_y: jax.Array   # int32, ram[95]: the height the ship comes back at


@pytree_dataclass
class ScreenState:
    """What the kernel drew this frame with: the bytes as they were before the frame's overscan
    (which scores hits and respawns the ship after the picture is out). No RAM byte; the render's
    own (draw.py)."""
    score: jax.Array       # int32 (2,), ram[61..62] before the overscan
    lives: jax.Array       # int32, ram[60] >> 4 before the overscan (a bonus life comes with a hit)
    ship_y: jax.Array      # int32, ram[74] before the overscan (224: no ship drawn)
    field: jax.Array       # int32 (54 + pad,), ram[3..56] after the frame's asteroid moves, before
    #                        the overscan (which marks a hit asteroid or splits one after the picture)
    top_code: jax.Array    # int32, the up list's first position code before the frame's sideways
    #                        step: the kernel positions that asteroid by it (field.asteroid_frame)


@pytree_dataclass
class AsteroidsState:
    ship: ShipState
    field: FieldState
    player: PlayerState
    screen: ScreenState
    frame: jax.Array       # int32, frames since reset (not in RAM)
    ale_lives: jax.Array   # int32, ALE's lives(): ram[60] >> 4 as the frame left it, before the
    #                        mods' held bytes (ALE reads it inside act(), before a RAM write lands)
    key: jax.Array         # carried as every state does (the cartridge makes its own randomness)
