"""Frostbite's numbers: the cartridge's constants, the bits of its status bytes, and the tunables.

One home for each: the game's rules, its drawing and its ground-truth module
(alignment/reference/games/frostbite/) import them from here.
"""

from __future__ import annotations

import dataclasses

from jaxtari.atari.screen import SCREEN_W  # noqa: F401  (x positions wrap here: floes, a carried Bailey)

# ---- numbers of the cartridge (each checked against ALE RAM) ------------------------------------
# measured: each number read off the disassembly and checked against ALE RAM (see the docstring)
SHORE_Y = 27                 # ram[100] standing on the shore; rows are 26 px apart below it  rule: physics.shore-hideout
ROW_Y = (131, 105, 79, 53)   # ram[100] standing on row 0..3
LOWEST_JUMP_Y = 112          # no downward jump from y >= 112 (the bottom row)
IGLOO_ENTER_Y = 6            # a jump that takes y below 6 enters the igloo
DOOR_X = (120, 127)          # UP on the shore starts the igloo jump only for x in this range  rule: progression.igloo-door
IGLOO_JUMP_X = 123           # x is held here during the igloo jump
START_X = 64                 # ram[102] of a new Bailey
PLAYER_MIN_X_SHORE, PLAYER_MIN_X_ROW, PLAYER_MAX_X = 17, 10, 150  # joystick limits
CARRY_MIN_X, CARRY_MAX_X = 9, 151  # a floe carries Bailey at most to these x
SINK_LINES = 18              # sinking and freezing advance one line per 5 frames, 18 lines
WHITE_HOLD = 16              # frames after a landing before all-blue rows can turn white again
BEAR_MIN_X, BEAR_MAX_X = 16, 140
BEAR_LEVEL_INDEX = 3         # level 4 (manual: "Polar Grizzlies come out ... at level 4")  rule: spawning.grizzly-from-level-4
TIMED_ENEMY_LEVEL_INDEX = 5  # from level 6 clams and crabs rest every other 64 frames
BREAKING_FLOES_LEVEL_INDEX = 5  # from level 6, on every other level, the floes break up and rejoin
NO_BLOCKS = -1               # ram[77] = 255
FULL_IGLOO = 15              # ram[77] = 15: 16 blocks, the door is open  rule: progression.igloo-door
MAX_LIVES = 9                # ram[76] never grows past 9 (bonus Baileys)  rule: lives.bonus-every-5000
FISH_LIMIT = 12              # after 12 fish in a level, would-be fish spawn as crabs
LEVEL_POINTS = 10            # a block and a degree are worth 10 x the level, up to level 9
LAST_PAYING_LEVEL = 9
FISH_POINTS_STEP = 10        # a fish's 200 points trickle in 10 at a time

# Screen geometry of Bailey shared by the game, its drawing and the ground truth: his 19-line sprite
# starts on screen line ram[100] + PLAYER_SPRITE_TOP; the top of his box (the first line any of his
# pictures lights; the player_y signal) is ram[100] + PLAYER_Y_OFFSET.
PLAYER_SPRITE_TOP = 28
PLAYER_Y_OFFSET = 29
PLAYER_W, PLAYER_H = 8, 18  # his box (the objects' and the ground truth's), less the lines he has sunk
BEAR_X_OFFSET = 3            # the bear's screen x is ram[104] + 3 (4 px further left walking right)
BEAR_MIRROR_SHIFT = 4

# Jump: one step on every even frame; up from 31 to 16 (15 steps), down from 15 to 0 (15 steps);
# the y change of each step (step index = jump counter - 1).
JUMP_DY = (6, 5, 5, 5, 4, 3, 2, 1, 0, 0, 0, 0, -1, -2, -2,
           3, 2, 2, 1, 0, 0, 0, 0, -1, -2, -3, -4, -5, -5, -5, -6)
JUMP_UP_START, JUMP_DOWN_START, JUMP_UP_END = 31, 15, 16
JUMP_PICTURE_FROM = 7        # jump counter & 15 from 7 up shows the jumping picture
ANIM_STAND, ANIM_JUMP, ANIM_SINK = 0, 2, 4   # ram[110]: walking alternates 0/1, sinking 4/5

# Enemies: x of the first copy is a byte (ram[96+i]) that wraps at 256; copies 16 px apart; which of
# the 3 copies exist (ram[92+i] bits 2,1,0 = copy at +0,+16,+32) by level, and which are on screen.
COPIES_BY_LEVEL = (1, 5, 5, 7)   # level_index & 3 (level_index 3 uses entry 0)
ENEMY_GONE = 0xC8            # (x & 0xF8) == 0xC8: off screen, a new enemy spawns
ENEMY_GONE_MASK = 0xF8
SPAWN_X_LEFT, SPAWN_X_RIGHT = 0xA8, 0xD8
START_ENEMY_X = (0xA0, 0xC0, 0xB0, 0xD0)
START_FLOE_X = (16, 80, 16, 80)
WHITE_FLOE_COLOUR, BLUE_FLOE_COLOUR = 0x0C, 0x98  # ram[43+i]: a row not yet / already jumped on
WHOLE_FLOES, BROKEN_FLOES = 8, 0  # ram[30] at the start of a level (broken: levels 6, 8, ...)
FISH_EATEN_MASK = (3, 5, 6, 3, 3, 1, 5, 4, 6, 6, 4, 0xB0, 0x07, 0xA5, 0xF8, 0x65)
ENEMY_BOB = (4, 3, 2, 1, 0, 0, 0, 1, 2, 3, 4, 3, 2, 1, 0, 0)  # fish/crab/clam sway down, by (fc>>3)
KIND_GOOSE, KIND_FISH, KIND_CRAB, KIND_CLAM = 0, 1, 2, 3  # rule: spawning.fish, physics.hazards-push
LAST_ENEMY_LINE_X = 24       # collision read at CPU cycle ~31 of the line: screen x ~ 3*31 - 68

# The row byte ram[17+i]: the enemy's kind, which way the floes and the enemy move.
ROW_KIND = 0x03
ROW_LOW_BITS = 0x0F          # kind and spare bits: kept when an enemy pushes Bailey
ROW_FLOES_LEFT = 0x40
ROW_ENEMY_LEFT = 0x80
ROW_DIRECTIONS = ROW_FLOES_LEFT | ROW_ENEMY_LEFT
START_ROW_BYTE = (0x10, ROW_FLOES_LEFT | 0x10, 0x10, ROW_FLOES_LEFT | 0x10)

# ram[108]: which way Bailey faces and the bear walks
FACE_LEFT = 0x08
BEAR_WALKS_RIGHT = 0x10

# ram[113], the status of the screen: one of these at a time (0 while playing)
F_SINK, F_TALLY, F_DEAD, F_FREEZE, F_LEVEL = 0x80, 0x40, 0x20, 0x10, 0x08

# Sound timer ram[116] doubles as the fish score trickle: 0x5B counts down, +10 on 20 of its 26 frames.
FISH_TRICKLE = 0x5B
SOUND_CHIRP = 0x8F
SOUND_TRICKLE = 0x40         # the trickle is counting
SOUND_DECAY = 0x80           # a chirp is fading
SOUND_COUNT = 0x1F

# Freeze timers ram[103] (frames during which the game logic is paused).
HOLD_NEW_SCREEN, HOLD_SINK_STEP, HOLD_AFTER_SINK = 64, 4, 0x70
HOLD_BLOCK, HOLD_DEGREE, HOLD_LEVEL_END, HOLD_FISH = 6, 2, 0x30, 16
HOLD_IGLOO = 0x40
# ALE's reset_game restarts the console, and Stella's RIOT reset starts its timer at a value
# 25..99 drawn from ALE's generator (jaxtari.dropin.riot_start_timer). With these values the
# cartridge's power-up sees one frame more before ALE's RESET press: its free-running bytes (frame
# counter, speed accumulators) come out one frame ahead, its pause from the RESET (ram[103]) not.
# measured: ram after 1,500 reset_game calls on ALE 0.12.1, all 75 values met, modes 0 and 2 alike
LATE_START_TIMERS = (42, 46, 50, 54, *range(66, 84))
ATTRACT_DELAY = 255          # ram[70] at game over; the demo starts when it has counted down
ATTRACT_TICK = 8             # ... one count every 8 frames
DEMO_LIVES = 3               # ram[76] while the demo runs
TEMPERATURE_PERIOD = 64      # one degree every 64 frames (framecounter & 63 == 0)  rule: timing.temperature-falls
BREAK_PERIOD = 16            # breaking floes change shape every 16 frames
RANDOM_PERIOD = 8            # the random byte advances every 8 frames


@dataclasses.dataclass(frozen=True)
class FrostbiteConstants:
    mode: int = 0                       # ALE mode 0 (level 1) or 2 (advanced: level 5)  rule: progression.start-level
    start_lives: int = 3                # ram[76] (ALE lives() = ram[76] + 1)  rule: lives.reserves-at-start
    start_temperature: int = 45  # rule: timing.temperature-start
    bonus_life_every: int = 5000        # checked as the hundreds byte becoming 00 or 50  rule: lives.bonus-every-5000
    max_lives: int = MAX_LIVES  # rule: lives.bonus-every-5000
    floe_speed_scale: int = 16          # floe speeds are in 1/16 px per frame; a mod may slow them  rule: physics.floes-drift
    enemies: bool = True                # False: enemies never spawn (mod no_enemies)  rule: spawning.fish, physics.hazards-push
    bear: bool = True  # rule: spawning.grizzly-from-level-4
    # measured: ALE RAM after reset_game
    # ALE's reset leaves the framecounter (ram[1]), random byte (ram[2]) and speed fractions
    # (ram[25..27]) at these values (measured after reset_game, modes 0 and 2).
    reset_fc: tuple = ((0, 70), (2, 74))
    reset_lfsr: tuple = ((0, 204), (2, 101))  # measured: ALE RAM after reset_game
    reset_frac: tuple = ((0, (14, 5, 12)), (2, (6, 1, 12)))  # measured: ALE RAM after reset_game
    reset_speed: tuple = ((0, (0, 0, 0)), (2, (0, 1, 0)))  # measured: ALE RAM after reset_game
    randomize_start: bool = False       # True: random byte from the key (ALE is deterministic)  measured: ALE's start is deterministic; True is an option of this port
    # True: ALE's end of game (mod ale_endless_game_over). A last Bailey lost to the cold does not
    # end the episode: the console runs on into its demo, rewards 0, lives() 1 and then, once the
    # demo starts, 4 (see the package's README.md).
    ale_endless_game_over: bool = False  # measured: ALE runs on after a frozen last Bailey; False is this port's default end
    monochrome: bool = False            # draw sprites as solid boxes (mod monochrome)  measured: drawing option of the mod monochrome, off as on ALE


def lookup(pairs, mode):
    """The value for ALE mode ``mode`` in a ((mode, value), ...) table of FrostbiteConstants."""
    table = dict(pairs)
    if mode not in table:
        raise ValueError(f"frostbite: mode {mode!r} is not an ALE mode of Frostbite; use 0 or 2")
    return table[mode]
