"""BeamRider's state; each field names the RAM byte it mirrors (ports/beamrider/reference/ram.py),
kept as the cartridge keeps it so the lockstep test compares byte for byte."""

from __future__ import annotations

import jax

from jaxtari.env import pytree_dataclass


@pytree_dataclass
class ShipState:
    x: jax.Array           # int32, ram[41]: 94..162, the five beams 17 apart
    flags: jax.Array       # int32, ram[13]: 0x83 on a beam, | 0x08 moving right, | 0x04 moving left;
    #                        the top bit cleared for the sector once a rejuvenator came
    shot_y: jax.Array      # int32, ram[32]: 255 with no shot in flight
    shot_x: jax.Array      # int32, ram[40]: the x the last shot was fired from
    torpedo: jax.Array     # bool, the shot in flight is a torpedo (ram[49] 38..36; 35 a lariat)
    torpedoes: jax.Array   # int32, ram[83]: torpedoes left in the sector
    dud: jax.Array         # int32, logic frames no shot launches after UP with no torpedo left or a
    #                        hit (ram[49]'s top two bits at times: not mirrored)


@pytree_dataclass
class PlayerState:
    sector: jax.Array      # int32, ram[0]
    enemies_left: jax.Array  # int32, ram[84]
    reserve: jax.Array     # int32, ram[5]: reserve ships (ALE's lives() - 1)
    score: jax.Array       # int32, ram[9..11] read as a decimal number


@pytree_dataclass
class SaucerState:
    """The three enemy slots, one entry per slot (int32 (3,)), each the byte ALE keeps."""

    kind: jax.Array        # ram[42..44]: 0 empty, 2/3 drifting left/right on the horizon, 4/5 coming
    #                        down after a dive to the left/right, 1 climbing back to the horizon
    step: jax.Array        # ram[17..19]: the path's step (0 entry, 1 ride, 2 cross, 3 climb, 4 re-cross, 5 return)
    x: jax.Array           # ram[33..35]: x in the ship's beam coordinates
    depth: jax.Array       # ram[25..27]: 0 on the horizon, growing downwards (255 before the first spawn)
    param: jax.Array       # ram[50..52]: the horizon count, the target x, or the ride/climb mark
    timer: jax.Array       # int32, ram[8]: the wave's pacing timer (90, -1 every 16 frames, -22 a kill)
    wave: jax.Array        # int32, ram[16]: the saucers' wave (1 before the spawn; 3 on brings the long dives)
    count_base: jax.Array  # int32, ram[6]: the horizon count's base (56, 2 less each wave)


@pytree_dataclass
class EnemyShotState:
    """The enemies' shots: entries 3..6 of the cartridge's object table (the saucers are 0..2, the
    ship's shot 7), one entry per shot (int32 (4,)), each the byte ALE keeps."""

    kind: jax.Array        # ram[45..48]: 0 empty, 2/3 a shot (its two pictures), 16..19 the rejuvenator,
    #                        1 its debris, 68/69 a crosser at the sector's end (crossing / coming down),
    #                        6..11 one a torpedo blew up, 24..27 sector 2's kind-24 object
    x: jax.Array           # ram[36..39]: the beam it falls on (kept when the entry empties)
    depth: jax.Array       # ram[28..31]: growing as it falls, 255 when empty
    speed: jax.Array       # ram[53..56] while a crosser (kinds 68/69) holds the entry: its x speed in
    #                        sixteenths, signed (-40 from the right, +40 from the left; not mirrored);
    #                        its explosion's count once blown up


@pytree_dataclass
class BeamRiderState:
    ship: ShipState
    saucers: SaucerState
    enemy_shots: EnemyShotState
    player: PlayerState
    count: jax.Array       # int32, ram[1]: steps after every odd frame
    random: jax.Array      # int32, ram[2]: the shift-register random number, stepped on odd frames
    phase: jax.Array       # int32, ram[12]: 2 intro, 3 play, 4 the sector's end, 5 a ship being lost,
    #                        1 the life taken, 6 game over
    grid: jax.Array        # int32, ram[24]: the grid's position 0..31, moved on odd frames
    grid_speed: jax.Array  # int32, ram[4]: the grid's speed in sixteenths, a signed byte
    shot_speed: jax.Array  # int32, ram[7]: the enemies' shots' speed in sixteenths, set at a sector's end
    frame: jax.Array       # int32, frames since reset (not in RAM)
    intro_start: jax.Array  # int32, the frame the running intro began on: 0, or after a lost ship (not in RAM)
    sentinel_hit: jax.Array  # bool, a torpedo met the sentinel in this sector's end: its bonus runs (the
    #                          cartridge's flag for it is not found; not in RAM here)
    key: jax.Array         # carried as every state does (the cartridge makes its own randomness)
