"""Seaquest's numbers: RAM layout, limits, timings and the ROM tables the game logic reads.

Source of every fact here: the public commented disassembly of the cartridge (Dennis Debro,
DNSDEBRO/Disassemblies, Atari2600/Seaquest/seaquest.asm), each re-measured on ALE (ale-py 0.12.1,
repeat_action_probability 0) by the tests in tests/games/test_seaquest.py. Names follow what the
number does in the game, not the disassembly's labels.
"""

from __future__ import annotations

import dataclasses

# ---- RAM (index = 6502 address - 0x80, as ALE's getRAM() numbers it) ---------------------------
RAM_FRAME_COUNT = 1
RAM_RANDOM = 2
RAM_COLOR_CYCLE = 34
RAM_GAME_OVER = 35  # the copyright scroll: non-zero once the game is over (ALE's terminal test)
RAM_OBSTACLE_X = 30  # ..33, one per lane (index 0: the bottom lane)
RAM_PATTERN = 36  # ..39: which of the lane's (up to three) copies are alive
RAM_NUSIZ_INDEX = 40  # ..43: the copies shown, the pattern clipped at the screen's edges
RAM_OBSTACLE_COLOURS = 44  # ..47
RAM_COLLISIONS = 48  # ..54: per-lane shark/diver hits, then torpedo, sub-obstacle, sub-ball lanes
RAM_SCORE = 56  # ..58, BCD, high byte first
RAM_RESERVE_SUBS = 59
RAM_LEVEL = 60  # the surfacing count with six divers (waves)
RAM_DIFFICULTY = 61  # speeds, colours and patterns index: rises with every surfacing
RAM_DIVERS = 62
RAM_SUB_X = 70
RAM_MISSILE_X = 71  # ..74: the lane's diver, or the enemy sub's missile
RAM_POINT_VALUE = 78  # BCD tens of the points per enemy
RAM_FRACTIONS = 79  # ..81: sub-pixel accumulators of the diver, obstacle and missile speeds
RAM_SUB_DIRECTION = 86  # 0 facing right, 8 facing left (the TIA's REFLECT bit)
RAM_TORPEDO_DIRECTION = 87
RAM_ATTRIBUTES = 89  # ..92: animation (bits 0-1), kind (bit 2: sub), left (bit 3), fast (bit 4)
RAM_SHARK_FLOAT = 93
RAM_OBSTACLE_ANIMATION = 94
RAM_SUB_ANIMATION = 96
RAM_SUB_Y = 97
RAM_OXYGEN = 102
RAM_TORPEDO_X = 103
RAM_GAME_STATE = 104
RAM_DEATH = 105
RAM_SOUND_PICKUP = 106
RAM_SOUND_SHARK = 107
RAM_SOUND_SUB = 108
RAM_SOUND_TORPEDO = 109  # also the reward sound while surfacing with six divers
RAM_DIVER_STATE = 113  # ..116: 0 none, 1 swimming, 255 picked up (per lane)
RAM_PATROL_X = 118
RAM_PATROL_HIT = 120  # bit 7: the patrol sub touched the player's sub on the last picture
RAM_OXYGEN_WARNING = 121
RAM_SPEED_VALUE = 122

NUM_LANES = 4
BW_BIT = 0x08  # the colour bit the attract mode's cycling clears

# ---- limits and timings ---------------------------------------------------------------------------
SUB_X_MIN, SUB_X_MAX = 21, 134
SUB_Y_MIN, SUB_Y_MAX = 13, 108  # 13: on the surface
SUB_START_X = 76
SUB_TOP_OFFSET = 33  # measured: the sub's top drawn line on screen is ram[97] + 33
TORPEDO_MIN_Y = SUB_Y_MIN + 5  # no torpedo from the surface
OXYGEN_DRAIN_Y = SUB_Y_MIN + 7  # oxygen drains below this line
OXYGEN_MAX = 64
OXYGEN_DRAIN_MASK = 0x1F  # one unit every 32 frames under water
OXYGEN_WARNING_LEVEL = 16
WARNING_ON = 15
MAX_DIVERS = 6
MAX_RESERVE_SUBS = 6
START_RESERVE_SUBS = 3
DEATH_FRAMES = 23  # the death animation counter, stepped every 4th frame
DEATH_OXYGEN_EMPTY = 15  # below this the oxygen bar is emptied
POINT_VALUE_CAP = 9  # tens: 90 points per enemy at most
POINT_VALUE_BASE = 2  # tens at level 0: 20 points
DIVER_BONUS = 0x50  # BCD tens: 500 points per diver and level (levels capped)
DIVER_BONUS_LEVEL_CAP = 19
SCREEN_RIGHT = 160  # XMAX: positions are 0..159
OBSTACLE_RIGHT_START = SCREEN_RIGHT + 8
OBSTACLE_LEFT_START = 256 - 41  # XMIN - 41 as a byte
OBSTACLE_PARKED = 256 - 48  # XMIN - 48 as a byte: off screen between waves
OBSTACLE_OUT_RIGHT = SCREEN_RIGHT
OBSTACLE_OUT_LEFT = 256 - 40
OUT_MASK = 0xF8
TORPEDO_HIT_MIN, TORPEDO_HIT_MAX = 8, SCREEN_RIGHT - 7
SHARK_DIVER_MIN, SHARK_DIVER_MAX = 8, SCREEN_RIGHT - 9
DIVER_SPAWN_RANDOM = 80  # a new obstacle brings a diver when the random byte is at least this
MISSILE_WINDOW_LOW, MISSILE_WINDOW = 39, 88  # an enemy sub fires when its x + offset - 39 < 88
SUB_WIDTH = 16  # the player's sub: an 8-pixel sprite at double width
TORPEDO_WIDTH = 8
TORPEDO_LINE_OFFSET = 40  # measured: the torpedo's one line is the sub's row 4, ram[97] + 40
SUB_ROWS_SHOWN = 11  # rows 11..1 of the sub's picture
ENEMY_WIDTH = 8
BALL_X_OFFSET = 2  # measured: the ball (diver, enemy missile) starts 2 px right of its RAM x
PATROL_ROWS = 8
TORPEDO_SPEED = 5
TORPEDO_PRO_SLOWDOWN = 2

# game state bits
GS_OXYGEN_FILL = 0b01
GS_OXYGEN_BONUS = 0b10
GS_SURFACED_SIX = 0b110  # what surfacing with six divers writes

# obstacle attributes
ATTR_ANIMATION = 0b0011
ATTR_SUB = 0b0100
ATTR_LEFT = 0b1000
ATTR_FAST = 0b1_0000
ATTR_LOW = 0x0F
REFLECT = ATTR_LEFT  # the sub's facing byte uses the same bit

# diver states
DIVER_NONE, DIVER_SWIMMING, DIVER_RESCUED = 0, 1, 255

# ---- ROM tables -----------------------------------------------------------------------------------
PATROL_DELAY = (3, 3, 3, 1, 1, 1, 0)  # frame mask of the patrol sub's step, by level 2..8 (capped)
PATROL_FIRST_LEVEL, PATROL_LEVEL_CAP = 2, 6
NUSIZ_MASKS = (6, 4, 0, 0, 0, 0, 1, 3, 7)  # copies shown by the lane's x - 128 >> 4; 8: all
START_PATTERNS = (0x41, 0x41, 0x63, 0x63, 0x55, 0x55, 0x77, 0x77)  # right (low) / left (high nibble)
# The copy masks a hit removes, indexed by the hit's offset / 16 (torpedo) or / 8 + 3 (the sub).
# The ROM reads past the 11-entry table into the next ones (shark colours, death colours) for
# large offsets, so those follow here as the bytes the cartridge holds.
SHARK_COLOURS = (0xC8, 0xE8, 0x58, 0x36, 0xC6, 0xE8, 0xC8, 0x36, 0x90)  # by difficulty & 7
DEATH_COLOURS = (0x90,) * 5 + (0x92, 0x94, 0x96, 0x98, 0x9A) + (0x9C,) * 4 + (0x0E, 0x00) * 4 + (0x0E,)
KILLED_COPY_MASKS = (3, 5, 6, 3, 3, 1, 5, 4, 6, 6, 4) + SHARK_COLOURS + DEATH_COLOURS
ENEMY_SUB_COLOUR = 0x08  # (attributes << 1) & 8 gives 8 for a sub: grey
MISSILE_OFFSETS = (0, 32, 16, 32, 0, 32, 16, 32, 0, 32, 16, 16, 0, 0, 0, 0)  # (left | pattern)
SUB_ANIMATION_FRAMES = 3
OBSTACLE_ANIMATION_FRAMES = 3

# ALE's reset_game restarts the console, and Stella's RIOT reset starts its timer at a value
# 25..99 drawn from ALE's generator (jaxtari.dropin.riot_start_timer). The reset constants are the
# start these values give; with any other the cartridge's power-up sees one frame less before
# ALE's RESET press, and only its frame counter (ram[1]) shows it, one lower.
# measured: ram after 1,500 reset_game calls on ALE 0.12.1, all 75 values met
LATE_START_TIMERS = tuple(range(62, 85))

@dataclasses.dataclass(frozen=True)
class SeaquestConstants:
    """What a mod may change (every number the rules read is above; these are the tunables)."""

    # measured: ALE difficulty (the left switch): 1 = A ("pro"), the torpedo 3 px a frame, not 5
    difficulty: int = 0
    oxygen_drains: bool = True  # rule: timing.oxygen-decreases
    enemy_missiles: bool = True  # rule: spawning.enemy-sub-missiles
    shark_colours: tuple = SHARK_COLOURS  # measured: the lanes' colour bytes by difficulty (RAM 44..47)
    sub_colour: int = ENEMY_SUB_COLOUR  # measured: enemy subs are grey on ALE's screen
    # sharks drawn as enemy subs and enemy subs as sharks (the picture only)
    swap_enemy_sprites: bool = False  # measured: a drawing option of the mod swapped_enemies, off as on ALE
