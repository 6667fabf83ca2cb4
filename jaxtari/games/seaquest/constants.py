"""Seaquest's numbers: the RAM layout and bit codes, and :class:`SeaquestConstants`, every tunable
number the step reads (limits, speeds, timers, thresholds, points, counts and the ROM's tables).

Source of every fact here: the public commented disassembly of the cartridge (Dennis Debro,
DNSDEBRO/Disassemblies, Atari2600/Seaquest/seaquest.asm), each re-measured on ALE (ale-py 0.12.1,
repeat_action_probability 0) by the tests in tests/games/test_seaquest.py. Names follow what the
number does in the game, not the disassembly's labels.

The logic reads the numbers through the game's ``consts`` (so that an
:class:`~jaxtari.mods.InternalMod` and the audit's Constants mutants reach them). The few upper-case
names kept beside the RAM layout are the ground truth's (alignment/reference/games/seaquest/) and
the tests': they are the fields' defaults, not a second copy the step reads.
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

# ---- the defaults the ground truth and the tests read as well ----------------------------------
SUB_X_MIN, SUB_X_MAX = 21, 134
SUB_Y_MIN, SUB_Y_MAX = 13, 108  # 13: on the surface
SUB_START_X = 76
SUB_TOP_OFFSET = 33  # measured: the sub's top drawn line on screen is ram[97] + 33
OXYGEN_DRAIN_Y = SUB_Y_MIN + 7  # oxygen drains below this line
OXYGEN_MAX = 64
OXYGEN_DRAIN_MASK = 0x1F  # one unit every 32 frames under water
MAX_DIVERS = 6
MAX_RESERVE_SUBS = 6
START_RESERVE_SUBS = 3
SCREEN_RIGHT = 160  # XMAX: positions are 0..159
SUB_WIDTH = 16  # the player's sub: an 8-pixel sprite at double width
TORPEDO_WIDTH = 8
BALL_X_OFFSET = 2  # measured: the ball (diver, enemy missile) starts 2 px right of its RAM x
TORPEDO_SPEED = 5
TORPEDO_PRO_SLOWDOWN = 2
SHARK_COLOURS = (0xC8, 0xE8, 0x58, 0x36, 0xC6, 0xE8, 0xC8, 0x36, 0x90)  # by difficulty & 7
DEATH_COLOURS = (0x90,) * 5 + (0x92, 0x94, 0x96, 0x98, 0x9A) + (0x9C,) * 4 + (0x0E, 0x00) * 4 + (0x0E,)
ENEMY_SUB_COLOUR = 0x08  # (attributes << 1) & 8 gives 8 for a sub: grey

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


@dataclasses.dataclass(frozen=True)
class SeaquestConstants:
    """Every tunable number of the cartridge the step reads (the switches first)."""

    # ---- switches
    # measured: ALE difficulty (the left switch): 1 = A ("pro"), the torpedo 3 px a frame, not 5
    difficulty: int = 0
    oxygen_drains: bool = True  # rule: timing.oxygen-decreases
    enemy_missiles: bool = True  # rule: spawning.enemy-sub-missiles
    # sharks drawn as enemy subs and enemy subs as sharks (the picture only)
    swap_enemy_sprites: bool = False  # measured: a drawing option of the mod swapped_enemies, off as on ALE
    # every moving object drawn as its box (Seaquest.objects's) in draw.BOX_COLOUR (the picture only)
    sprites_as_boxes: bool = False  # measured: a drawing option of the mod rectangles, off as on ALE

    # ---- ALE's start  measured: the RAM after ALEInterface.reset_game(), the same for every seed
    reset_frame_count: int = 67
    reset_random: int = 204
    reset_lane_colour: int = 0xC8  # ram[44..47]
    # ALE's reset_game restarts the console, and Stella's RIOT reset starts its timer at a value
    # 25..99 drawn from ALE's generator (jaxtari.dropin.riot_start_timer). The reset constants are
    # the start these values give; with any other the cartridge's power-up sees one frame less
    # before ALE's RESET press, and only its frame counter (ram[1]) shows it, one lower.
    # measured: ram after 1,500 reset_game calls on ALE 0.12.1, all 75 values met
    late_start_timers: tuple = tuple(range(62, 85))

    # ---- the player's sub and its torpedo  measured: seaquest.asm; lockstep on ALE's RAM (tests/games/test_seaquest_logic.py)
    sub_x_min: int = SUB_X_MIN  # rule: physics.sub-limits
    sub_x_max: int = SUB_X_MAX
    sub_y_min: int = SUB_Y_MIN  # the surface
    sub_y_max: int = SUB_Y_MAX
    sub_start_x: int = SUB_START_X
    start_reserve_subs: int = START_RESERVE_SUBS  # rule: lives.begins-with-four-subs
    max_reserve_subs: int = MAX_RESERVE_SUBS
    sub_animation_frames: int = 3
    sub_animation_mask: int = 3  # the sub's picture steps every 4th frame
    torpedo_min_y: int = SUB_Y_MIN + 5  # rule: action.no-torpedo-on-surface
    torpedo_speed: int = TORPEDO_SPEED
    torpedo_pro_slowdown: int = TORPEDO_PRO_SLOWDOWN  # difficulty A
    torpedo_launch_offset: int = 8  # the torpedo leaves from the sub's x + 8
    torpedo_sound_mask: int = 3  # the launch sound fades every 4th frame

    # ---- oxygen  measured: seaquest.asm; lockstep on ALE's RAM (tests/games/test_seaquest_logic.py)
    oxygen_max: int = OXYGEN_MAX
    oxygen_drain_y: int = OXYGEN_DRAIN_Y  # it drains below this line
    oxygen_drain_mask: int = OXYGEN_DRAIN_MASK  # one unit every 32 frames  rule: timing.oxygen-decreases
    # at or below it under water: the warning (ram[121]), the bar blinks
    oxygen_warning_level: int = 16  # rule: rendering.oxygen-warning
    oxygen_warning_on: int = 15  # ram[121] while warning

    # ---- divers and surfacing  measured: seaquest.asm; lockstep on ALE's RAM (tests/games/test_seaquest_logic.py)
    max_divers: int = MAX_DIVERS  # rule: scoring.goal-retrieve-many-divers
    diver_spawn_random: int = 80  # a new obstacle brings a diver when the random byte is at least this
    bonus_diver_mask: int = 0xF  # surfaced with six: one diver paid every 16th frame

    # ---- death (the animation counter, stepped every 4th frame)  measured: seaquest.asm; lockstep on ALE's RAM (tests/games/test_seaquest_logic.py)
    death_frames: int = 23
    death_step_mask: int = 3
    death_oxygen_empty: int = 15  # below this the oxygen bar is emptied

    # ---- points (BCD tens)  measured: seaquest.asm; lockstep on ALE's RAM (tests/games/test_seaquest_logic.py)
    point_value_base: int = 2  # 20 points per enemy at level 0
    point_value_cap: int = 9  # 90 points per enemy at most  rule: scoring.enemy-value-cap
    diver_bonus: int = 0x50  # 500 points per diver and level (levels capped)
    diver_bonus_level_cap: int = 19  # rule: scoring.diver-value-cap
    score_cap: int = 999_999  # the score stops here and the game ends

    # ---- the lanes' obstacles (x: a byte, 0..159 on screen)  measured: seaquest.asm; lockstep on ALE's RAM (tests/games/test_seaquest_logic.py)
    obstacle_right_start: int = SCREEN_RIGHT + 8
    obstacle_left_start: int = 256 - 41  # XMIN - 41 as a byte
    obstacle_parked: int = 256 - 48  # XMIN - 48 as a byte: off screen between waves
    obstacle_out_right: int = SCREEN_RIGHT
    obstacle_out_left: int = 256 - 40
    obstacle_out_mask: int = 0xF8
    obstacle_animation_frames: int = 3
    obstacle_animation_mask: int = 7  # the obstacles' picture steps every 8th frame
    # speeds in 1/16 px a frame: the obstacles' difficulty + 6, the divers' half, the missiles' + 16
    obstacle_speed_base: int = 6
    missile_speed_base: int = 16
    torpedo_hit_min: int = 8  # a torpedo hit counts at these x only
    torpedo_hit_max: int = SCREEN_RIGHT - 7
    shark_diver_min: int = 8  # a shark meets its diver at these x only
    shark_diver_max: int = SCREEN_RIGHT - 9
    missile_window_low: int = 39  # an enemy sub fires when its x + offset - 39 < 88
    missile_window: int = 88

    # ---- the patrol sub  measured: seaquest.asm; lockstep on ALE's RAM (tests/games/test_seaquest_logic.py)
    patrol_first_level: int = 2  # rule: spawning.patrol-sub-from-wave-2
    patrol_level_cap: int = 6
    # frame mask of its step, by level 2..8 (capped at 6)
    patrol_delay: tuple = (3, 3, 3, 1, 1, 1, 0)  # rule: timing.patrol-sub-speed

    # ---- sound timers the logic reads  measured: seaquest.asm; lockstep on ALE's RAM (tests/games/test_seaquest_logic.py)
    pickup_sound: int = 23
    sub_shot_sound: int = 32
    shark_shot_sound: int = 16
    torpedo_sound: int = 16
    reward_sound: int = 31

    # ---- ROM tables  measured: seaquest.asm; lockstep on ALE's RAM (tests/games/test_seaquest_logic.py)
    nusiz_masks: tuple = (6, 4, 0, 0, 0, 0, 1, 3, 7)  # copies shown by the lane's x - 128 >> 4; 8: all
    start_patterns: tuple = (0x41, 0x41, 0x63, 0x63, 0x55, 0x55, 0x77, 0x77)  # right (low) / left (high nibble)
    # The copy masks a hit removes, indexed by the hit's offset / 16 (torpedo) or / 8 + 3 (the sub).
    # The ROM reads past the 11-entry table into the next ones (shark colours, death colours) for
    # large offsets, so those follow here as the bytes the cartridge holds.
    killed_copy_masks: tuple = (3, 5, 6, 3, 3, 1, 5, 4, 6, 6, 4) + SHARK_COLOURS + DEATH_COLOURS
    missile_offsets: tuple = (0, 32, 16, 32, 0, 32, 16, 32, 0, 32, 16, 16, 0, 0, 0, 0)  # (left | pattern)

    # ---- colours  measured: the lanes' colour bytes by difficulty (RAM 44..47) on ALE's screen
    shark_colours: tuple = SHARK_COLOURS
    sub_colour: int = ENEMY_SUB_COLOUR  # enemy subs are grey
    death_colours: tuple = DEATH_COLOURS  # the player's sub while dying, by death counter - 1

    # ---- boxes of Game.objects / Game.signals (screen pixels)  measured: on ALE's screen (tests/games/test_seaquest_ram.py, tests/games/test_seaquest_render.py)
    sub_top_offset: int = SUB_TOP_OFFSET  # the sub's top drawn line is ram[97] + 33
    sub_width: int = SUB_WIDTH
    sub_rows_shown: int = 11  # rows 11..1 of the sub's picture
    torpedo_width: int = TORPEDO_WIDTH
    torpedo_line_offset: int = 40  # the torpedo's one line is the sub's row 4, ram[97] + 40
    enemy_width: int = 8
    ball_x_offset: int = BALL_X_OFFSET
    patrol_rows: int = 8
