"""Kangaroo's numbers: the RAM bytes the game mirrors and the bits and codes of those bytes
(module names), and every tunable number, limits, timings, points, colours and the cartridge's
tables (fields of :class:`KangarooConstants`, read by the step through ``Game.consts``).

Source of every fact here: the cartridge ALE plays (Atari, 1983), read through Omegamatrix's public
disassembly of a controller hack of it (milnak/atari-vcs-disassembly, "Hacks/Kangaroo (Genesis
Controller)"; the hack changes only the joystick reading, so that part was read from ALE's own ROM
bytes: the directions are SWCHA's high nibble, the button INPT4). The tables are the
cartridge's data at the address named beside each (bank 1 unless said), and every number is
re-measured on ALE (ale-py 0.12.1, repeat_action_probability 0) by tests/games/test_kangaroo_*.py.
Names say what a number does in the game, not the disassembly's labels.
"""

from __future__ import annotations

import dataclasses

BYTE = 0xFF
SIGN = 0x80

# ---- RAM (index = 6502 address - 0x80, as ALE's getRAM() numbers it) ---------------------------
RAM_MOTHER_ROW = 16  # $90: 8-line rows, 0 at the baby's floor, 18 on the bottom floor
RAM_MOTHER_X = 17  # $91
RAM_POSE = 18  # $92: facing right (bit 3), walk frame (bit 0), duck/climb/jump/punch (bits 4-7)
RAM_COUNTER = 19  # $93: the current action's frame count (duck, climb, jump, punch, death, wait)
RAM_LEVEL = 36  # $A4: the floor layout, 0..2
RAM_DIFFICULTY = 38  # $A6: rounds played (0..3), the monkeys' pace
RAM_SCORE_HIGH = 39  # $A7: BCD, ten-thousands and thousands
RAM_SCORE_LOW = 40  # $A8: BCD, hundreds and tens of hundreds
RAM_BELL = 41  # $A9: bit 7 gone, bit 6 rung (the fruit refresh running), low nibble its clock
RAM_FRUIT = 42  # $AA..$AC: fruit kind (low bits), bit 7 eaten
RAM_LIVES = 45  # $AD: lives in reserve, 255 once the game is over
RAM_MUSIC_FLAGS = 53  # $B5: bit 7 the tune plays on both voices (the start and round tunes)
RAM_MOTHER_STATE = 54  # $B6: 0 playing, 1 dying, 2 punch held, $80 waiting, $C0 round won
RAM_MONKEY_PACE = 55  # $B7
RAM_MUSIC = 56  # $B8: the playing note's index in the music table, 255 silent
RAM_FRAME_COUNT = 57  # $B9
RAM_ATTRACT = 58  # $BA: bit 7 set once the game is over (the attract mode); the low bits the game number
GAME_NUMBER = 0x7F  # ram[58]'s game number bits: 0, or 1 in ALE's mode 1
RAM_TIMER = 59  # $BB: the bonus timer in hundreds, BCD, a nibble 0xA drawn blank
RAM_WALK_PHASE = 60  # $BC: 0, 1, 2: the mother walks on phase 0

# ---- screen offsets of the signals (OCAtari's, re-measured: alignment/reference/games/kangaroo/ram.py) ------
MOTHER_X_OFFSET = 15
MOTHER_Y_OFFSET = 4
MONKEY_X_OFFSET = 16
MONKEY_Y_OFFSET = 5
ROW_LINES = 8
ROWS_PER_FLOOR = 6
FLOORS = 4
BLANK_DIGIT = 0xA
SPRITE_WIDTH = 8
MONKEY_LINES = 15  # a monkey's sprite box (measured)
APPLE_WIDTH = 2  # the missiles and the ball are 2 wide, on lines 5-7 of a row
APPLE_X_OFFSET = 14  # an apple's or the coconut's left column: x + 14 (measured)
MISSILE_TOP = 5
MISSILE_LINES = 3
ITEM_LINES = 16  # the bell and a fruit take two rows

# ---- the mother ---------------------------------------------------------------------------------
FACING_RIGHT = 0x08
WALK_FRAME = 0x01
DUCKING = 0x10
DUCK_POSE = 0x14
CLIMBING = 0x20
CLIMB_POSE = 0x27
JUMPING = 0x40
JUMP_POSE = 0x41
PUNCH_REQUEST = 0x80
PUNCH_POSE = 0x86
DEATH_POSE = 0x03
POSE_FRAME = 0x07  # the pose's low bits index the heights table

PLAYING = 0
DYING = 1
PUNCH_HELD = 2  # fire still held after a punch: the next punch waits for a release
WAITING = 0x80
ROUND_WON = 0xC0
ROUND_WON_BIT = 0x40

START_POSE = FACING_RIGHT
ROUND_WON_FRAMES = 0xFF

# ---- timer, score, lives ------------------------------------------------------------------------
BLANK_TENS = 0xA0
TIMER_OUT = 0xAA
ATTRACT_TIMER = 0x1F  # ram[21] as the attract mode sets it on the game-over frame
BONUS_LIFE_BIT = 0x01  # a carry into an odd ten-thousands digit: every 20,000 points
FRUIT_GONE = 0x80
BELL_GONE = 0x80
BELL_RUNG = 0x40
BELL_CLOCK = 0x0F
BELL_STEP = 0x10
BELL_DONE = 0x30  # bits 4-6 at this: the bell is gone
FRUIT_REGROW = 0x81  # added to an eaten fruit: bit 7 off and the next kind
# ALE's game modes (the select switch) and the mirrored bytes each one's reset differs in (measured,
# ale-py 0.12.1: ram[38] and ram[55] start mode 1 at the second difficulty step, ram[58] holds the
# game number; ram[37], 16 in mode 1, is not read by the game's logic and is not mirrored)
MODES = (0, 1)
MODE_RESET_RAM = ({}, {RAM_DIFFICULTY: 1, RAM_MONKEY_PACE: 1, RAM_ATTRACT: 1})

# ---- music (only what the game logic waits on: the start and round-won tunes) --------------------
SILENT = 0xFF
TUNE_END = 0xFF
START_MUSIC = 0x41  # $B8 after ALE's reset (measured)
START_MUSIC_FLAGS = 0x88
BOTH_VOICES = 0x80
START_COUNTER = 0xFF  # ram[19] after ALE's reset (measured)
BELL_TUNE = 0x66
PICKUP_TUNE = 0x79
NOTE_LENGTH_SHIFT = 5

# ---- the cartridge's tables ----------------------------------------------------------------------
FRUIT_STRIDE = 6
FRUIT_KIND = 0x0F
# $DFCE (bank 0): a note lasts until frame_count & mask == 0; the mask is picked by the note's top
# three bits (the tune end, 255, reads past the table into $DFD4: 22)
NOTE_MASKS = (1, 3, 7, 15, 31, 63, 0, 22)
# $DA58 (bank 0): the music: note bytes (top 3 bits the length), 255 a tune end
MUSIC = (
    91, 0, 88, 0, 85, 18, 85, 0, 82, 14, 64, 0, 82, 24, 82, 0, 82, 14, 80, 0, 82, 18, 82, 0, 85,
    14, 85, 0, 91, 24, 91, 0, 91, 14, 88, 0, 85, 18, 64, 0, 85, 14, 64, 0, 88, 19, 64, 0, 88, 16,
    64, 0, 91, 18, 91, 0, 91, 24, 91, 0, 64, 18, 255, 0, 0, 89, 0, 88, 24, 88, 24, 93, 16, 64, 0,
    93, 16, 64, 0, 78, 16, 64, 0, 80, 24, 82, 24, 83, 16, 86, 16, 88, 24, 64, 24, 83, 18, 114, 19,
    82, 19, 255, 114, 114, 119, 119, 116, 116, 127, 127, 96, 96, 127, 127, 116, 116, 114, 114, 119,
    119, 255, 12, 13, 14, 16, 14, 16, 18, 20, 18, 20, 23, 24, 23, 24, 27, 31, 255, 255, 114, 119,
    119, 255, 12, 13, 14, 16, 14, 16, 18, 20, 18, 20, 23, 24, 23, 24, 27, 31, 255, 255, 24, 27, 31,
    255, 27, 31, 255,
)


# ---- the big ape's coconut ----------------------------------------------------------------------
RAM_COCONUT_ROW = 33  # $A1: layout base + row of the ape (walking) or its coconut (falling); 255 none
RAM_COCONUT_X = 34  # $A2
RAM_COCONUT_STATE = 35  # $A3: 255 none; bit 6 falling; bits 0-1 the walk's bob phase
COCONUT_NONE = 0xFF
COCONUT_FALLING = 0x40
COCONUT_BOB_MASK = 0x03
COCONUT_PHASE_WRAP = 0xFB  # the bob phase counts 0..3 (bit 2 cleared)

# ---- the monkeys and their apples ----------------------------------------------------------------
RAM_MONKEY_SPRITE = 0  # $80..$83: each monkey's sprite (its graphics' low address byte)
RAM_MONKEY_STATE = 4  # $84..$87: bit 7 empty; the low bits pick the AI's branch (below)
RAM_MONKEY_ROW = 8  # $88..$8B: rows 0..20 down the right side; 255/127/128 when empty
RAM_MONKEY_X = 12  # $8C..$8F
RAM_MONKEYS = 20  # $94: monkeys on the screen
RAM_APPLE_FLAGS = 21  # $95..$98: low nibble monkey i's apples left; high: apple slot i (bit 7 idle,
#                       bits 4-5 its thrower, $F0 free)
RAM_APPLE_ROW = 25  # $99..$9B: 255 none
RAM_APPLE_X = 28  # $9C..$9E
RAM_APPLES = 31  # $9F: apples in flight
RAM_THROW_INDEX = 32  # $A0: the next throw's height, 0..17
MONKEY_SLOTS = 4
APPLE_SLOTS = 3
MONKEY_EMPTY = 0xFF
MONKEY_HELD_OFF = 0x7F  # the empty row no_monkey holds the slots at (HackAtari's value)
MONKEY_START_ROW = 0xFF
MONKEY_SPAWN_STATE = 1
MONKEY_IDLE_X = 0x87  # ram[12..15] at a new life
APPLE_FLAGS_START = 0xF1  # ram[21..24] at a new life
APPLE_FREE = 0xF0
APPLE_IDLE = 0x80
APPLE_SUPPLY = 0x0F
MONKEY_HIT = 0x08  # the state of a punched (or touching) monkey; it flashes, then is gone
# a monkey's state byte ($84..$87, the BRK handler $FA74 of bank 1 branches on it; bit 7 empty):
MONKEY_CLIMBS = 0x01  # bit 0: on the right side, climbing
MONKEY_THROWS = 0x02  # bit 1: winding up and throwing an apple
MONKEY_WALKS = 0x04  # bit 2: walking along the mother's floor
MONKEY_BRANCH = 0x0F  # the low nibble: the branch bits above, or MONKEY_HIT
MONKEY_FRAME = 0x10  # climbing or walking: the animation frame (flips each step); throwing: let go
MONKEY_BACK = 0x20  # climbing: up the side (the row counts down); walking: to the left
MONKEY_WOUND = 0x40  # throwing: the arm up (flips each think)
MONKEY_FLASHES = 0xF0  # hit: the high nibble counts the flashes in MONKEY_FLASH steps ...
MONKEY_FLASH = 0x10
MONKEY_LAST_FLASH = 0x30  # ... and at this one the monkey is gone
MONKEY_THROW_STATE = MONKEY_THROWS  # a throw starts ($FB0D)
MONKEY_WALK_LEFT_STATE = MONKEY_BACK | MONKEY_WALKS  # walking left ($FAF7, $FB7C, $FBF4)
MONKEY_WALK_RIGHT_STATE = MONKEY_WALKS  # walking back right ($FB85)
MONKEY_GONE_ROW = 0x7F  # the row of a monkey gone after its flashes ($FC84)
MONKEY_LEFT_ROW = 0x80  # the row and x of a monkey that climbed off the top ($FA82)
MONKEY_LEFT_X = 0x88
ROW_ABOVE = 0xFF  # a row difference of -1
APPLE_OWNER_SHIFT = 4  # an apple slot's bits 4-5: the thrower's slot
PACE_OVERFLOW = 4
CLIMB_STATE_MASK = 0xFF & ~MONKEY_FRAME  # the state less its animation frame
# climbing back up the side to leave: the row counts down (measured on ALE, a random-play game: a
# monkey in this state went from row 19 up to row 7, then its slot was empty)
MONKEY_LEAVE_STATE = MONKEY_BACK | MONKEY_CLIMBS
# sprites (low address bytes of the monkey's graphics) the AI sets
SPRITE_CLIMB_A, SPRITE_CLIMB_B = 0xB3, 0xC3
SPRITE_WALK_A, SPRITE_WALK_B = 0x43, 0x53
SPRITE_WALK_RIGHT_A, SPRITE_WALK_RIGHT_B = 0x74, 0x53
SPRITE_WALK_LEFT_A, SPRITE_WALK_LEFT_B = 0x64, 0x43
SPRITE_THROW_HIGH, SPRITE_THROW_LOW = 0x84, 0xA3
SPRITE_THROWN = 0x93
SPRITE_HIT = 0xD4


@dataclasses.dataclass(frozen=True)
class KangarooConstants:
    """Every tunable number of the game: the mods' switches and ALE's game mode, then the
    cartridge's speeds, timers, reaches, points, tables and colours, read by the step through
    ``Game.consts`` (an :class:`~jaxtari.mods.InternalMod` or the audit's Constants mutants change
    them). The module's names above are RAM addresses and the bits and codes of its bytes. Each
    switch holds bytes at a value after reset and after every frame, as the mod's ALE counterpart
    writes them into the console's RAM, so the two sides play the same modified game."""

    # ---- the mods' switches and ALE's game mode -----------------------------------------------
    # rule: spawning.monkeys-come-down
    monkeys_held_off: bool = False  # the monkeys' rows (ram[8..11]) held at 127: none comes down
    # rule: spawning.ape-first-coconut
    coconut_held_off: bool = False  # the coconut's row (ram[33]) held at 255: the ape drops none
    # rule: timing.bonus-timer
    timer_frozen: bool = False  # the bonus timer (ram[59]) held at its start, 2,000
    # rule: progression.mode-1-harder
    mode: int = 0  # ALE's game mode, 0 or 1 (:data:`MODE_RESET_RAM`)

    # ---- the mother  measured: lockstep on ALE's RAM (tests/games/test_kangaroo_logic.py)
    start_row: int = 0x12
    start_x: int = 8
    round_won_x: int = 0x76  # where the mother is held while the round-won tune plays
    death_row: int = 0x16  # a dying mother sinks to this row
    death_frames: int = 7  # frames before the first sink
    sink_frames: int = 4  # frames per row sunk
    wait_after_death: int = 0x3F  # frames between the end of the death and the next life
    # rule: physics.left-limit
    left_limit: int = 1
    # rule: physics.right-limit
    right_limit: int = 0x79  # walking right stops at this x
    jump_right_limit: int = 0x78
    walk_phases: int = 3
    duck_frames: int = 0x1F  # the duck's count stops here
    punch_frames: int = 0x0D  # counted down on odd frames
    climb_step_frames: int = 0x13  # frames of holding up/down per row climbed after the first
    off_ladder_frames: int = 0x0F  # stepping off a ladder: no jump for this many frames of holding up
    ladder_reach: int = 8  # the ladder's x minus the mother's must be 0..7
    walk_animation_mask: int = 0x07  # the walk frame flips when frame_count & 7 == 0
    # the jump's timeline (frame of the jump's count): up a row, pose up, up and pose down, down a row
    # (land on a ledge?), down a row (land? a fall kills at the last)
    jump_up: int = 8
    jump_pose_up: int = 16
    jump_top: int = 24
    jump_ledge: int = 32
    jump_down: int = 40
    jump_fall: int = 48

    # ---- timer, score, lives, bell and fruit  measured: lockstep on ALE's RAM (tests/games/test_kangaroo_logic.py)
    # rule: timing.bonus-timer
    start_timer: int = 0x20
    timer_tick_frame: int = 0xFF  # the timer ticks on the frame the frame counter reaches 255
    timer_pace: int = 0x10  # on reaching 10 (hundreds) the monkeys speed up
    # rule: lives.start-game-lives
    start_lives: int = 2
    bell_refresh_at: int = 6  # on this clock value eaten fruit grow back as the next kind
    bell_clock_end: int = 9
    bell_period_mask: int = 0x1F
    bell_row: int = 4
    fruit_reach: int = 6  # the touch's x window: (thing x - mother x) & 255 in [0, 6) or [250, 256)
    layouts: int = 3
    difficulty_max: int = 3

    # ---- the cartridge's tables (bank 1 unless said)  measured: lockstep on ALE's RAM (tests/games/test_kangaroo_logic.py)
    # $FF5B: the first index of each layout's rows in the per-row tables below
    layout_row_base: tuple = (0, 22, 44, 66)
    # $FF81: the mother's height in rows for each pose frame (pose & 7)
    pose_height: tuple = (3, 3, 2, 3, 2, 2, 3, 3)
    # $FFA6: the bell's x on each layout
    bell_x: tuple = (77, 15, 114)
    # $FFA9 / $FFAC: fruit i of layout l is at row fruit_row[l + 6 i], x fruit_x[l + 6 i]
    fruit_row: tuple = (7, 8, 7, 44, 28, 3, 10, 11, 11, 24, 110, 110, 13, 17, 14)
    fruit_x: tuple = (44, 28, 3, 10, 11, 11, 24, 110, 110, 13, 17, 14, 104, 80, 75)
    # $FDDB: a fruit's points in hundreds by kind (kind & 15; kinds past 3 read on into $FDDF)
    # rule: scoring.fruit-points, progression.fruit-grows-back
    fruit_points: tuple = (1, 2, 4, 8, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2)
    # ---- the big ape's coconut, the glove  measured: lockstep on ALE's RAM (tests/games/test_kangaroo_logic.py)
    ape_start_x: int = 1
    ape_start_row: int = 1  # above the layout's row base
    ape_last_x: int = 0x7F  # the ape drops its coconut here at the latest
    ape_step: int = 2
    # $DBD2 (bank 0): the ape's row change per walk step, by bob phase (255 is -1)
    ape_bob: tuple = (255, 1, 1, 255)
    coconut_last_row: int = 0x14  # above the layout's row base: the coconut is gone past it
    coconut_reach: int = 7  # the mother's x .. x + 7 is hit
    coconut_slow_mask: int = 0x07  # below difficulty 2 the ape acts when frame_count & 7 == 0
    coconut_fast_difficulty: int = 2  # from here on walk phase 0 of even frames
    # the glove (the punch's missile) meets the coconut (the ball) on the picture when the coconut's row
    # is the mother's + 1 and its x is the glove's +-1; the glove is at x + 9 facing right, x - 1 facing
    # left (the cartridge's missile placement; the window measured on ALE by sweeping the coconut)
    glove_row: int = 1
    glove_apple_row: int = 2  # the apple's row, the mother's + 2, where the glove meets it
    glove_right: int = 9
    glove_left: int = -1
    glove_reach: int = 1
    # rule: scoring.punch-coconut
    coconut_punch_points: int = 2  # hundreds

    # ---- the monkeys and their apples  measured: lockstep on ALE's RAM (tests/games/test_kangaroo_logic.py)
    monkey_start_x: int = 0x88
    apple_step: int = 2  # pixels an apple flies left every odd frame
    apple_points: int = 1  # hundreds, a punched apple
    # rule: scoring.punch-monkey
    monkey_points: int = 2  # hundreds, a punched monkey (and one that touches the mother)
    # a monkey touching the mother (bank 0): monkey x - mother x in [0, 6) or [250, 256) (the window
    # of the fruit's test at $FA4B, reach 6 either side), the monkey's row from one above the
    # mother's top down through her height
    monkey_reach: int = 6
    # the punch's box (end of the picture): the glove's row is the mother's + 2; its x is the mother's +
    # 10 facing right, - 3 (0xFD) facing left; a monkey is hit with the glove's x in (x, x + 7] and its
    # row in (row, row + 2]
    fist_row: int = 2
    fist_right: int = 0x0A
    fist_left: int = 0xFD
    fist_reach_x: int = 7
    fist_reach_rows: int = 2
    # an apple starts at the thrower's x - 2, less the borrow of the row's add ($FB55)
    apple_throw_dx: int = 2
    max_apples: int = 3
    throw_pattern: int = 18
    pace_max: int = 3
    ai_period_mask: int = 0x0F  # every monkey thinks on frame_count & 15 == 0 ...
    ai_climb_frame: int = 0x08  # ... and one climbing back up the side to leave also on 8
    # $FD8C: monkeys come on frame_count & mask == 1, per layout
    spawn_mask: tuple = (0xFF, 0x7F, 0x7F)
    # $FDD6: apples per monkey, by pace ram[55]
    apples_per_monkey: tuple = (1, 2, 2, 3, 4)
    # $FDC3: the rows where a monkey climbing down looks for the mother's floor
    monkey_look_rows: tuple = (7, 13, 19)
    monkey_bottom: int = 0x14
    monkey_throw_mother_x: int = 0x70  # a monkey on the mother's floor throws if she is at or right of this
    monkey_left_turn: int = 0x81
    monkey_home: int = 0x82
    monkey_step: int = 3
    # $FF6D (running on into $FF81): the floor of each row (indexed by row + the mother's height)
    floor_of_row: tuple = (0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 2, 3, 2, 2)
    # $F000: the x where a monkey walking back throws, per layout
    monkey_throw_x: tuple = (91, 91, 109)
    # $FDC6 / $FDDF: the throw's row offset by the throw index, with pace / at pace 0
    throw_height_paced: tuple = (0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2)
    throw_height: tuple = (0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2)

    # ---- the picture's colours (TIA colour bytes)  measured: on ALE's screens (tests/games/test_kangaroo_render.py)
    background_colour: int = 0x60
    playfield_colour: int = 0x24
    mother_colour: int = 0x2C  # the mother and the baby
    bell_colour: int = 0x2B
    monkey_colour: int = 0x3A  # the monkeys and their apples
    digit_colour: int = 0xE8  # the score and the timer
