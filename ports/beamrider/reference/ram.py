"""BeamRider's ground truth: the RAM map of ALE's cartridge and the quantities decoded from it.

Sources. There is no public disassembly of BeamRider in this project's documents. Three addresses
come from ALE's own game driver (Farama-Foundation/Arcade-Learning-Environment,
src/ale/games/supported/BeamRider.cpp: the score as the decimal digits of ram[9..11], the lives
as ram[5] + 1 with the decrement taken only once ram[12] reads 1, the game over at ram[5] == 255,
RIGHT as ALE's starting action). Every other address is measured on ale-py 0.12.1 (sticky actions
off, one frame per act, mode 0, difficulty 0) with alignment.porting (RAM traces while pressing
each action, two runs that differ in one action compared byte for byte, pokes read back off the
screen); how each was found is in ports/beamrider/NOTES.md and each is re-checked on the emulator
by tests/ports/test_beamrider_ram.py.

Frames. The cartridge runs its logic in two halves: the ship, its shot and the joystick on the
frames with an even index from reset (frame 0 is the first ``act`` after reset), the frame counter
ram[1] on the odd ones.
"""

from __future__ import annotations

import numpy as np

ALE_DRIVER = ("Farama-Foundation/Arcade-Learning-Environment, "
              "src/ale/games/supported/BeamRider.cpp")
MEASURED = "measured on ale-py 0.12.1 (ports/beamrider/NOTES.md)"

# ---- addresses (index into ALE's getRAM(); the 6502 address is 0x80 + index) ------------------------
SECTOR = 0               # $80 the sector number (1 at reset; poked 5 shows "SECTOR 05")      measured
FRAME_COUNT = 1          # $81 +1 after every odd frame (1 at reset)                           measured
RANDOM = 2               # $82 after each odd frame: << 1 | (bit 7 xor bit 4), 2 at reset      measured
GRID_SPEED = 4           # $84 the grid's speed, sixteenths, signed: 0 at reset, -2 each odd frame of the intro, 19 in play  measured
LIVES = 5                # $85 reserve ships: ALE's lives() - 1; 255 is the game over        ALE driver
SCORE = (9, 10, 11)      # $89-$8B BCD, two digits each, lowest first                          ALE driver
PHASE = 12               # $8C 2 in the sector's intro, 3 in play; ALE counts a death once it is 1
SHIP_FLAGS = 13          # $8D 0x83 on a beam; bit 3 set while moving right, bit 2 while moving left; bit 7 cleared for the sector once a rejuvenator came  measured
SHOT_SPEED = 7           # $87 the enemies' shots' speed in sixteenths: 22 at reset, 21 + the sector from a sector's end (to 25)  measured
COUNT_BASE = 6           # $86 the saucers' horizon count base: 56, 2 less each wave  measured
WAVE_TIMER = 8           # $88 the wave's pacing timer: 90 at a wave's start, -1 every 16 frames, -22 a kill  measured
WAVE = 16                # $90 the saucers' wave: 1 until the spawn, then 2, 3, ...  measured
GRID = 24                # $98 the grid's position 0..31: + the speed (whole part + a dithered fraction) each odd frame  measured
SOUND = 21               # $95 the sound's step: 3..13 a lariat's, 72..83 a torpedo's, 84..90 the dud's, 37..47 a saucer firing (it restarts there whatever the ship's shot is)  measured
SHOT_PICTURE = 49        # $B1 the ship's shot's picture in flight (35 a lariat, 38/37/36 a torpedo, 0 on its one step more; other values with no shot)  measured
SHOT_Y = 32              # $A0 the ship's shot, 255 when none: 206 at launch, 8 higher each logic frame  measured
SHOT_X = 40              # $A8 the beam the last shot was fired on (the ship's x then; 0 at reset)  measured
SHIP_X = 41              # $A9 the ship's x: 94, 111, 128, 145, 162 on the five beams         measured
TORPEDOES = 83           # $D3 torpedoes left in the sector (3 at reset)                       measured
ENEMIES_LEFT = 84        # $D4 the enemy saucers left in the sector, the number drawn top left (15)  measured
# Three enemy slots, one byte per slot in each array (measured, NOTES.md "Enemy slots"):
ENEMY_STEP = (17, 18, 19)    # $91.. the slot's step along its path (0..17)
ENEMY_DEPTH = (25, 26, 27)   # $99.. 0 on the horizon, growing as the saucer comes down (~190 near the ship)
ENEMY_X = (33, 34, 35)       # $A1.. x in the ship's beam coordinates (a beam's x while riding it)
ENEMY_KIND = (42, 43, 44)    # $AA.. what the slot holds (values below)
ENEMY_PARAM = (50, 51, 52)   # $B2.. the step's parameter: a countdown on the horizon, the x aimed at
                             # while crossing between beams
# The enemies' shots: entries 3..6 of the same object table (the ship's shot is entry 7: ram[32],
# ram[40]), measured (NOTES.md "The enemies' shots"); empty entries keep scratch values
SHOT_DEPTH = (28, 29, 30, 31)   # $9C.. growing as the shot falls, 255 when empty
SHOT_ENTRY_X = (36, 37, 38, 39)  # $A4.. the beam it falls on
SHOT_KIND = (45, 46, 47, 48)    # $AD.. 0 empty, 2/3 a shot (its two pictures, flipping every 4 frames), 16..19 the rejuvenator

# ---- values ----------------------------------------------------------------------------------------
NO_SHOT = 255
EMPTY_DEPTH = 255        # an empty slot's or shot entry's depth (measured)
GAME_OVER_LIVES = 255    # ALE driver: terminal when ram[5] == 255
PHASE_INTRO, PHASE_PLAY, PHASE_LIFE_LOST = 2, 3, 1  # measured (2, 3); ALE driver (1)
PHASE_DYING, PHASE_GAME_OVER = 5, 6  # measured: a ship being lost; after the last one
PHASE_SECTOR_END = 4     # measured: from the frame the last slot empties with no enemy left
SECTOR_END_ENEMIES = 255  # measured: ram[84] through the sector's end
CROSSER_KINDS = (68, 69)  # measured: the sector's end's crossers in entries 3..6, crossing / come down a beam
ON_BEAM_FLAGS = 0x83
MOVING_RIGHT, MOVING_LEFT = 0x08, 0x04
BEAM_X = (94, 111, 128, 145, 162)
# ram[42..44] values (measured): 0 empty, 2 waiting on the horizon, 1, 4 and 5 white saucers (each
# paid 44 in sector 1 when hit; 1 rides a beam back up), 3 not settled, 6..11 the explosion
# after a hit (a step every 4 frames)
KIND_EMPTY, KIND_WAITING = 0, 2
SAUCER_KINDS = (1, 4, 5)
EXPLOSION_KINDS = range(6, 12)
EXPLOSION_STEP_FRAMES = 4
REJUVENATOR_KINDS = range(16, 20)   # measured: its four pictures, by depth (NOTES.md "The rejuvenator")
REJUVENATOR_DUE = 0x80   # measured: ram[13]'s top bit, cleared on a rejuvenator's arrival for the rest of the sector
LARIAT_PICTURE = 35                 # measured: ram[49] while a lariat flies
TORPEDO_PICTURES = (38, 37, 36)     # measured: ram[49] while a torpedo flies, by its height
REACH_PICTURE = 0                   # measured: ram[49] on the shot's one step more past its last y


def _ram(ram) -> np.ndarray:
    r = np.asarray(ram)
    if r.shape != (128,):
        raise ValueError(f"an Atari 2600 RAM snapshot has 128 bytes, got shape {r.shape}")
    return r.astype(np.int64)


def _bcd(byte: int) -> int:
    return (int(byte) >> 4) * 10 + (int(byte) & 0x0F)


def score(ram) -> int:
    """The score as ALE reads it: ram[9] the ones and tens, ram[10] hundreds and thousands, ram[11]
    the ten and hundred thousands."""
    r = _ram(ram)
    return sum(_bcd(r[a]) * 100 ** i for i, a in enumerate(SCORE))


def reserve_ships(ram) -> int:
    """ram[5]: the ships in reserve (255 once the game is over)."""
    return int(_ram(ram)[LIVES])


def lives_now(ram) -> int:
    """ram[5] + 1: ALE's ``lives()`` outside a death animation (ALE keeps the old count until
    ram[12] reads 1, so it lags this by the animation's frames)."""
    return (reserve_ships(ram) + 1) % 256


def game_over(ram) -> bool:
    return reserve_ships(ram) == GAME_OVER_LIVES


def sector(ram) -> int:
    return int(_ram(ram)[SECTOR])


def enemies_left(ram) -> int:
    return int(_ram(ram)[ENEMIES_LEFT])


def torpedoes(ram) -> int:
    return int(_ram(ram)[TORPEDOES])


def ship_x(ram) -> int:
    return int(_ram(ram)[SHIP_X])


def ship_beam(ram) -> int:
    """The beam (0..4, left to right) the ship is on or last left; -1 for an x on no beam's grid."""
    x = ship_x(ram)
    step = BEAM_X[1] - BEAM_X[0]
    return (x - BEAM_X[0]) // step if x in BEAM_X else -1


def ship_moving(ram) -> int:
    """+1 moving right, -1 moving left, 0 on a beam."""
    f = int(_ram(ram)[SHIP_FLAGS])
    return 1 if f & MOVING_RIGHT else -1 if f & MOVING_LEFT else 0


def shot_y(ram) -> int:
    return int(_ram(ram)[SHOT_Y])


def shot_active(ram) -> bool:
    return shot_y(ram) != NO_SHOT


def shot_x(ram) -> int:
    return int(_ram(ram)[SHOT_X])


def enemies(ram) -> list[dict]:
    """The three enemy slots: kind, path step, x (beam coordinates), depth, step parameter."""
    r = _ram(ram)
    return [{"kind": int(r[ENEMY_KIND[i]]), "step": int(r[ENEMY_STEP[i]]),
             "x": int(r[ENEMY_X[i]]), "depth": int(r[ENEMY_DEPTH[i]]),
             "param": int(r[ENEMY_PARAM[i]])} for i in range(len(ENEMY_KIND))]


def frame_count(ram) -> int:
    return int(_ram(ram)[FRAME_COUNT])


def phase(ram) -> int:
    return int(_ram(ram)[PHASE])


def ship_bytes(ram) -> dict[str, int]:
    """Every byte the JAX port mirrors so far, under the names its ``signals`` gives them."""
    r = _ram(ram)
    return {"count": int(r[FRAME_COUNT]), "random": int(r[RANDOM]), "phase": int(r[PHASE]),
            "grid": int(r[GRID]), "grid_speed": int(r[GRID_SPEED]), "shot_speed": int(r[SHOT_SPEED]), "ship_x": int(r[SHIP_X]),
            "ship_flags": int(r[SHIP_FLAGS]), "shot_y": int(r[SHOT_Y]), "shot_x": int(r[SHOT_X]),
            "shot_picture": int(r[SHOT_PICTURE]) if r[SHOT_Y] != NO_SHOT else 0,
            "torpedoes": int(r[TORPEDOES]), "enemies_left": int(r[ENEMIES_LEFT]),
            "sector": int(r[SECTOR]), "reserve": int(r[LIVES]), "score": score(r),
            "wave_timer": int(r[WAVE_TIMER]), "wave": int(r[WAVE]), "count_base": int(r[COUNT_BASE]),
            **saucer_bytes(r), **enemy_shot_bytes(r)}


def enemy_shot_bytes(ram) -> dict[str, int]:
    """The enemies' shots by entry: kind, and x and depth while the entry holds something (the
    cartridge leaves scratch values in an empty entry's x and, for a frame, its depth)."""
    r = _ram(ram)
    out = {}
    for name in ("kind", "x", "depth"):
        for j in range(len(SHOT_KIND)):
            held = r[SHOT_KIND[j]] != KIND_EMPTY
            value = {"kind": r[SHOT_KIND[j]], "x": r[SHOT_ENTRY_X[j]] if held else 0,
                     "depth": r[SHOT_DEPTH[j]] if held else EMPTY_DEPTH}[name]
            out[f"enemy_shot_{name}_{j}"] = int(value)
    return out


def saucer_bytes(ram) -> dict[str, int]:
    """The enemy slots' five arrays, one name per slot byte (``saucer_kind_0`` ...)."""
    r = _ram(ram)
    arrays = {"kind": ENEMY_KIND, "step": ENEMY_STEP, "x": ENEMY_X, "depth": ENEMY_DEPTH,
              "param": ENEMY_PARAM}
    return {f"saucer_{name}_{i}": int(r[a]) for name, group in arrays.items()
            for i, a in enumerate(group)}


# ---- pokes a probe may write (measured: each read back off ALE's screen, NOTES.md) ------------------
def _bcd_byte(v: int) -> int:
    return ((v // 10) << 4) | (v % 10)


def score_bytes(value: int) -> dict[int, int]:
    v = int(value)
    if not 0 <= v <= 999_999:
        raise ValueError(f"the score has six digits, got {value!r}")
    return {a: _bcd_byte((v // 100 ** i) % 100) for i, a in enumerate(SCORE)}
