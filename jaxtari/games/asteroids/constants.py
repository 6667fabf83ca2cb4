"""Asteroids' numbers, each with its source: "disassembly" is the public commented disassembly
(DNSDEBRO/Disassemblies @ a74a6312bac5, Atari2600/Asteroids/asteroids.asm, the table or constant
named); "measured" is ale-py 0.12.1, sticky actions off, one frame per act, default mode 0 and
difficulty 0, checked by tests/games/test_asteroids_ram.py or _constants.py (how: NOTES.md).
Frames are emulator frames; "logic frames" are the even frames (ram[57] even after the frame) on
which the ship's logic runs."""

from __future__ import annotations

import dataclasses

# ---- horizontal positions -------------------------------------------------------------------------
# The cartridge keeps a horizontal position as a code (high nibble the HMOVE fine motion, bits 1-3
# the coarse loop count, bit 0 the screen half). Its collision code reads the pixel column as a
# fine term (by the high nibble) plus a coarse term (by the low nibble): disassembly
# FineMotionPixelValues, CoarsePixelValues. The ROM's coarse table has 14 entries; the two bytes
# after it (both 14) are what it reads for low nibbles 14 and 15, which no position the game
# writes has.
FINE_PIXELS = (6, 5, 4, 3, 2, 1, 0, 0, 14, 13, 12, 11, 10, 9, 8, 7)
COARSE_PIXELS = (0, 0, 85, 0, 100, 13, 115, 28, 130, 43, 145, 58, 0, 73, 14, 14)
SCREEN_WIDTH = 160

# ---- lives and score -------------------------------------------------------------------------------
START_LIVES = 4            # disassembly INIT_NUM_LIVES; measured: ALE lives() 4 at reset
MAX_LIVES = 10             # disassembly MAX_NUM_LIVES: a bonus life is not given at 10
BONUS_LIFE_EVERY = 5000    # disassembly: mode 0's bonus-ship setting (every 5,000 points)
SIZE_LARGE, SIZE_MEDIUM, SIZE_SMALL = "large", "medium", "small"
SIZE_OF_KIND = (SIZE_LARGE, SIZE_LARGE, SIZE_MEDIUM, SIZE_SMALL)  # attribute bits 4-5 (disassembly)
# disassembly POINTS_* tables; measured: every reward of a whole random game is one of these and
# pays for the size of the asteroid whose hit bit appears on that frame
POINTS = {SIZE_LARGE: 20, SIZE_MEDIUM: 50, SIZE_SMALL: 100}
SCORE_UNIT = 10            # the score is kept in tens (two BCD bytes): the last digit is always 0

# ---- the frame schedule ----------------------------------------------------------------------------
# measured: after an odd frame (ram[57] odd) ALE's screen shows the asteroids only, after an even
# one the ship and shots only; the ship's logic runs on the even frames.
LOGIC_PERIOD = 2
ASTEROID_FRAME_PARITY = 1

# ---- the ship --------------------------------------------------------------------------------------
ROTATIONS = 16             # disassembly: REFLECT bit + 3 direction bits; 0 up, +1 anticlockwise
ROTATION_PERIOD = 4        # measured: one step every 4 frames while LEFT or RIGHT is held,
ROTATION_PHASE = 2         # on the frames after which ram[57] % 4 == 2
LEFT_TURN, RIGHT_TURN = 1, -1  # measured: LEFT increments the heading, RIGHT decrements it
START_X_CODE = 29          # disassembly INIT_PLAYER_X (a position code: pixel 78); measured ram[73]
START_Y = 41               # disassembly INIT_PLAYER_Y; measured ram[74] at reset
SHIP_HEIGHT = 5            # disassembly H_PLAYER_SHIP: 5 rows of 2 scanlines
PLAY_HEIGHT = 89           # disassembly H_KERNEL: vertical positions wrap within 0..88
# disassembly PlayerThrustValueTable: the velocity added per logic frame of thrust, by heading
# (y component; the x component is the entry 4 headings on, positive = left)
THRUST = (-127, -117, -90, -49, 0, 49, 90, 117, 127, 117, 90, 49, 0, -49, -90, -117)

# ---- shots -----------------------------------------------------------------------------------------
MAX_SHOTS = 2              # disassembly: two missile slots; measured: never more than 2 in flight
SHOT_LAUNCH_DY = 3         # disassembly: a shot starts 3 below the ship's y (measured: ram[87])
# disassembly MissileVerticalOffsetTable / MissileHorizOffsetTable: a shot's move per logic frame
# by heading, before the ship's velocity is added (x positive = left)
SHOT_STEP_DY = (-4, -3, -3, -1, 0, 1, 3, 3, 4, 3, 3, 1, 0, -1, -3, -3)
SHOT_STEP_DX = (0, 1, 3, 3, 4, 3, 3, 1, 0, -1, -3, -3, -4, -3, -3, -1)
# disassembly MissileRangeTable, indexed by the heading's low 3 bits only (the reflect bit is
# dropped), so headings h and h + 8 fly equally far; a range step is lost on every frame after
# which ram[57] % 4 == 0 (measured), the shot ends when it reaches 0.
SHOT_RANGE = (6, 7, 7, 11, 9, 11, 7, 7)
SHOT_RANGE_PERIOD = 4
PARKED_SHOT_DX = 2         # disassembly MoveMissiles: a free slot waits two pixels east of the ship
OFF_SCREEN_Y = 224         # disassembly VERT_OUT_OF_RANGE: a parked object's y
SHOT_RANGE_PHASE = 0


def shot_lifetime_frames(rotation: int, launch_count: int = 0) -> int:
    """Frames a shot is in flight (y on screen) when fired on the frame after which the counter is
    ``launch_count`` (even: the ship's logic frames)."""
    if not 0 <= int(rotation) < ROTATIONS:
        raise ValueError(f"a heading is 0..{ROTATIONS - 1}, got {rotation!r}")
    if int(launch_count) % LOGIC_PERIOD:
        raise ValueError(f"shots are fired on even frame counts only, got {launch_count!r}")
    first = (-int(launch_count) - SHOT_RANGE_PHASE) % SHOT_RANGE_PERIOD
    return first + SHOT_RANGE_PERIOD * (SHOT_RANGE[int(rotation) % 8] - 1)

# ---- asteroids -------------------------------------------------------------------------------------
# measured: every listed asteroid moves one vertical step on each frame after which ram[57] is odd
# (up list -1, down list +1); in mode 0 (slow asteroids) every unhit asteroid moves one pixel
# sideways every 14 frames (disassembly: the slow counter SPEED_SLOW = 7 asteroid frames).
ASTEROID_STEP_PERIOD = 2
ASTEROID_SIDEWAYS_PERIOD = 14
ASTEROID_SLOW_COUNT = 7    # disassembly SPEED_SLOW ($70 >> 4), in asteroid frames
ASTEROID_MEDIUM_COUNT = 3  # disassembly SPEED_MEDIUM (hit small asteroids in slow mode; fast mode)
START_ASTEROIDS_PER_LIST = 2   # measured: ram[3..4] and ram[12..13] at reset; disassembly InitAsteroidObjects
START_ASTEROID_Y = (1, 63)     # measured at reset, both lists; disassembly: 1 and 3 * (15 + 6)

# ---- the asteroid field (jaxtari/games/asteroids/logic/field.py) ---------------------------------------------
# The two lists live in RAM as three 18-byte arrays (y, position code, attributes), slots 0-8 the
# up-drifting list and 9-17 the down-drifting one, each sorted by height and ended by a y of 224
# (disassembly: asteroidVertPos, asteroidHorizPos, asteroidAttributes; measured at reset).
LIST_SLOTS = 9
UP_FIRST, DOWN_FIRST = 0, 9
FIELD_SLOTS = 2 * LIST_SLOTS
# Attribute bits (disassembly ASTEROID_*): bit 7 fast, bit 6 hit (debris), bits 4-5 size
# (0, 1 large; 2 medium; 3 small), bit 3 drifting left, bits 0-2 colour.
ATTR_FAST, ATTR_HIT, ATTR_LEFT = 0x80, 0x40, 0x08
ATTR_TYPE_SHIFT = 4        # attributes >> 4: fast, hit and size as the delay table's index
ATTR_TYPE_MASK = 0x07      # hit and size bits after the shift (mode 0 ignores the fast bit)
ATTR_SIZE_MASK = 0x03
ATTR_COLOUR_MASK = 0x07    # bits 0-2: the colour index (disassembly ASTEROID_ID_MASK)
# disassembly AsteroidUpperBound / AsteroidLowerBound by size (0..3): an up-drifting asteroid at
# the top is dropped when its y reaches minus its height; a down-drifting one at the bottom gets
# its copy above the top when its y reaches the kernel height + 1 minus its height
ASTEROID_HEIGHTS = (15, 15, 7, 4)  # disassembly H_LARGE/H_MEDIUM/H_SMALL_ASTEROID
UPPER_BOUND = tuple((-h) & 0xFF for h in ASTEROID_HEIGHTS)
LOWER_BOUND = tuple(PLAY_HEIGHT + 1 - h for h in ASTEROID_HEIGHTS)
# disassembly asteroidHorizSpeed and ProcessAsteroidCalculations: two down-counters in one byte
# (high nibble from 7, low from 3), both lowered by one on each asteroid frame; a nibble run out
# is reloaded and raises its bit in the delay bits that frame. measured: ram[59] over 300 NOOP
# frames from reset, the low nibble runs out every 6 frames and the high every 14, independently.
SPEED_TICK = 0x11
SPEED_SLOW_RELOAD = 0x70
SPEED_MEDIUM_RELOAD = 0x03
SPEED_SLOW_DONE_BELOW = 0x10
SPEED_MEDIUM_MASK = 0x0F
START_SPEED = SPEED_SLOW_RELOAD | SPEED_MEDIUM_RELOAD  # disassembly; measured ram[59] 115 at reset
DELAY_SLOW, DELAY_MEDIUM = 0x80, 0x40  # disassembly ASTEROID_HORIZ_DELAY_*
# disassembly AsteroidHorizDelayValues, slow half (mode 0), by (attributes >> 4) & 7: an asteroid
# moves sideways on the frames its entry's bit is raised; 0 would move it every asteroid frame
HORIZONTAL_DELAY = (DELAY_SLOW,) * 7 + (DELAY_MEDIUM,)

# Measured at reset (ale-py 0.12.1, every seed alike): the field's bytes ram[3..56] and ram[59],
# the random number ram[1..2], the list ends ram[92..93], the collision bytes ram[66] and ram[97].
START_RANDOM = (4, 96)
START_FIELD_Y = (1, 63, 224, 0, 0, 0, 0, 0, 0, 1, 63, 224, 0, 0, 0, 0, 0, 0)
START_FIELD_X = (71, 135, 0, 0, 0, 0, 0, 0, 0, 22, 54, 0, 0, 0, 0, 0, 0, 0)
START_FIELD_ATTRIBUTES = (12, 24, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0)
START_LIST_END = (1, 10)
START_ASTEROID_COLLISION = 198  # disassembly: the reset leaves a position code there (non-zero)
START_OBJECT_COLLISION = 0

# ---- collisions (jaxtari/games/asteroids/logic/collisions.py) -------------------------------------------------
# disassembly CheckAsteroidCollisions / CheckObjectCollisions: boxes in the collision code's own
# coordinates (top = y + 17, an asteroid's y read 3 lower), heights and widths by object id
COLLISION_TOP = 17
ASTEROID_TOP_DROP = 3
ASTEROID_BOX_REACH = 15    # the pre-filter's reach below an asteroid's top
ID_SHIP, ID_SHOT1, ID_SHOT2 = 4, 7, 8   # disassembly ID_* (0..3 are the asteroid sizes)
BOX_HEIGHT = (14, 14, 6, 3, 4, 4, 6, 2, 2, 2)  # disassembly ObjectRectangleHeightValues
BOX_WIDTH = (15, 15, 7, 3, 4, 4, 6, 2, 2, 2)   # disassembly ObjectBoundingBoxWidthValues
HIT_MARK = 0x44            # a hit asteroid: the hit bit and colour 4 (disassembly ASTEROID_HIT | 4)
# the collision round robin in ram[97]: bit 7 a shot's turn (bit 6 which), else bits 0-1 count
# the other objects (0 the UFO's shot, 1 the UFO, 2 the ship)
ROBIN_SHOT_TURN, ROBIN_WHICH_SHOT = 0x80, 0x40
ROBIN_OTHERS_MASK = 0x03
ROBIN_SHIP = 2
KILLED, HYPERSPACE, GAME_OVER_FLAG = 0x02, 0x04, 0x01  # disassembly playerState bits (ram[72])
EXPLODING = 0x80           # disassembly: a kill sets the feature timer ram[94] to 128
# disassembly PointsLowTable by size, BCD tens (large 20, medium 50, small 100)
POINTS_BCD = (0x02, 0x02, 0x05, 0x10)
BONUS_THOUSANDS_DIGITS = (0x0, 0x5)  # disassembly: mode 0's bonus ship when the thousands end in 0 or 5
LIVES_FIELD = 0xF0
MAX_LIVES_FIELD = MAX_LIVES << 4

# ---- splitting and waves (jaxtari/games/asteroids/logic/spawn.py) -----------------------------------------
SIZE_BITS_MEDIUM, SIZE_BITS_SMALL = 0x20, 0x30     # attribute size bits (disassembly)
SIZE_BITS_MASK = 0x30
PIECE_RANDOM_MASK = 0x8F   # a piece keeps the random number's fast, direction and colour bits
SECOND_PIECE_RANDOM_MASK = 0x87  # the second medium takes the first's direction, reversed
SECOND_PIECE_DROP = 10  # disassembly: H_MEDIUM_ASTEROID + 3 below the first piece
MEDIUM_WRAP_FROM = PLAY_HEIGHT - (7 - 1)   # a new medium this low is copied above the top
SMALL_WRAP_FROM = PLAY_HEIGHT - (4 - 1)    # a new small this low likewise
SECOND_BELOW_FROM = PLAY_HEIGHT - (7 + 3)  # a first piece this low puts the second above the top
SECOND_WRAP_FROM = PLAY_HEIGHT - 6         # a second piece this low is copied above the top
# disassembly CheckForSpaceToSpawnNewAsteroid: no second medium once a list's end reaches this
ROOM_UP, ROOM_DOWN = 6, 15
# disassembly InitAsteroidObjects: the wave's asteroids per list by score (thousands byte, BCD)
WAVE_MORE_FROM, WAVE_MOST_FROM = 0x01, 0x15
WAVE_ATTRIBUTE_MASK = 0x1F  # large, direction, colour from the random number
WAVE_FIRST_Y, WAVE_STEP_Y = 1, 21   # disassembly: 1, then (H_LARGE_ASTEROID + 6) steps
WAVE_LAST_Y = 3 * WAVE_STEP_Y
WAVE_MIDDLE_X_MASK, WAVE_MIDDLE_X = 0xE0, 0x0A  # the middle ones' codes: a random fine value, coarse 5
# disassembly PseudoRandomHorizPositionCoarseValues (by the random high byte's low 3 bits)
RANDOM_COARSE = (0x06, 0x04, 0x05, 0x06, 0x07, 0x09, 0x07, 0x05)
FINE_MASK = 0xF0
UNUSED_FINE, UNUSED_FINE_REPLACEMENT = 0x70, 0x80

# ---- the player: hyperspace, death, respawn (jaxtari/games/asteroids/logic/player.py) ------------------------
HYPERSPACE_TIME = 31       # disassembly MAX_HYPERSPACE_TIME: logic frames away after a warp
RESPAWN_WAIT = 63          # disassembly: the feature timer after an explosion, in logic frames
EXPLOSION_END_STEP = 3     # disassembly: the explosion ends when (timer >> 1) & 7 reaches 3
EXPLOSION_STEP_MASK = 0x7
HYPERSPACE_Y_SPAN = PLAY_HEIGHT - 2 * SHIP_HEIGHT  # disassembly: the warp's y is random low / 2 below this
FEATURE_FLAGS = 0xC4       # disassembly: flip, shield and hyperspace flags, cleared without DOWN
GAME_OVER_COUNT = 0x100    # disassembly: the frame counter restarts at 256 when the game ends
# disassembly CheckForFreeCenterSpace: a killed ship waits while an asteroid is near the middle
CENTRE_COARSE_MASK = 0x0F
CENTRE_COARSE = 0x0D
BESIDE_COARSE = (0x0B, 0x02)
CENTRE_ROWS = (START_Y - (SHIP_HEIGHT * 6 + 3), START_Y + SHIP_HEIGHT * 4 + 3)   # 8..63
BESIDE_ROWS = (START_Y - (SHIP_HEIGHT * 3 + 2), START_Y + SHIP_HEIGHT * 3)       # 24..55


# ---- the Constants dataclass -----------------------------------------------------------------------
# The step reads every tunable number through the game's ``consts`` (an AsteroidsConstants), so an
# InternalMod or an audit's Constants mutant reaches it; the upper-case names above stay as the
# ground truth's and the tests' reading of the defaults (the fields' defaults are those names, not
# a second copy). Codes, bit masks, the RAM layout and the kernel's geometry (the 89-row play
# area, the 9-slot lists) stay module names: the state's shapes and the RAM mirror depend on them.

@dataclasses.dataclass(frozen=True)
class AsteroidsConstants:
    """Every tunable number of the cartridge the step reads (the mods' switches first); each
    field's source is the module name it defaults to (above)."""

    # ---- the mods' switches (all off: the cartridge as ALE plays it)
    # asteroid frames per move of the field (1: every asteroid frame, as the cartridge; 2: half speed)
    asteroid_move_period: int = 1  # rule: physics.asteroids-drift
    lives_held: bool = False          # the lives nibble held at start_lives after every frame  rule: lives.asteroid-kills-ship
    hyperspace: bool = True           # False: the armed flag cleared after every frame (no warp)  rule: action.hyperspace
    # the asteroids' colour bits cleared after every frame  measured: off as ALE plays; on, equal
    # to ALE with those bits written (tests/games/test_asteroids_mods.py)
    one_colour_asteroids: bool = False

    # ---- ALE's start (measured: the RAM after reset_game(), the same on every seed)
    start_lives: int = START_LIVES
    start_x_code: int = START_X_CODE
    start_y: int = START_Y
    start_random: tuple = START_RANDOM
    start_speed: int = START_SPEED
    start_field_y: tuple = START_FIELD_Y
    start_field_x: tuple = START_FIELD_X
    start_field_attributes: tuple = START_FIELD_ATTRIBUTES
    start_list_end: tuple = START_LIST_END
    start_asteroid_collision: int = START_ASTEROID_COLLISION
    start_object_collision: int = START_OBJECT_COLLISION

    # ---- points and lives (disassembly POINTS_*, bonus ships; measured in play)
    # by size bits: large, large, medium, small (BCD tens)
    # rule: scoring.score-points-destroying-asteroids, scoring.smaller-asteroid-more-points
    points_bcd: tuple = POINTS_BCD
    max_lives: int = MAX_LIVES  # rule: lives.bonus-every-5000
    bonus_thousands_digits: tuple = BONUS_THOUSANDS_DIGITS  # rule: lives.bonus-every-5000

    # ---- the ship (disassembly tables; lockstep tests/games/test_asteroids_ship.py)
    rotation_period: int = ROTATION_PERIOD  # rule: action.control-spaceship-asteroid-field
    rotation_phase: int = ROTATION_PHASE  # rule: action.control-spaceship-asteroid-field
    left_turn: int = LEFT_TURN  # rule: action.control-spaceship-asteroid-field
    right_turn: int = RIGHT_TURN  # rule: action.control-spaceship-asteroid-field
    thrust: tuple = THRUST  # rule: physics.thrust

    # ---- shots (disassembly MissileRangeTable, Missile*OffsetTable; measured)
    shot_launch_dy: int = SHOT_LAUNCH_DY  # rule: timing.shot-range
    shot_step_dy: tuple = SHOT_STEP_DY  # rule: timing.shot-range
    shot_step_dx: tuple = SHOT_STEP_DX  # rule: timing.shot-range
    shot_range: tuple = SHOT_RANGE  # rule: timing.shot-range
    shot_range_period: int = SHOT_RANGE_PERIOD  # rule: timing.shot-range
    shot_range_phase: int = SHOT_RANGE_PHASE  # rule: timing.shot-range
    parked_shot_dx: int = PARKED_SHOT_DX  # rule: action.two-shots

    # ---- the asteroids' sideways speed (disassembly SPEED_SLOW/SPEED_MEDIUM, AsteroidHorizDelayValues)
    # the slow reload leaves the medium nibble alone (measured: the debris' beat stays 3 asteroid
    # frames across it, specs/asteroids.yaml physics.debris-drift)
    speed_slow_reload: int = SPEED_SLOW_RELOAD  # rule: physics.asteroids-drift, physics.debris-drift
    speed_medium_reload: int = SPEED_MEDIUM_RELOAD  # rule: physics.debris-drift
    horizontal_delay: tuple = HORIZONTAL_DELAY  # rule: physics.asteroids-drift, physics.debris-drift
    asteroid_heights: tuple = ASTEROID_HEIGHTS  # the upper and lower bounds follow from them  rule: physics.asteroids-drift

    # ---- collisions (disassembly CheckAsteroidCollisions, ObjectRectangleHeightValues, ...)
    collision_top: int = COLLISION_TOP  # rule: lives.asteroid-kills-ship
    asteroid_top_drop: int = ASTEROID_TOP_DROP  # rule: lives.asteroid-kills-ship
    asteroid_box_reach: int = ASTEROID_BOX_REACH  # rule: lives.asteroid-kills-ship
    box_height: tuple = BOX_HEIGHT  # rule: lives.asteroid-kills-ship
    box_width: tuple = BOX_WIDTH  # rule: lives.asteroid-kills-ship

    # ---- splitting and waves (disassembly CheckToSpawnNewAsteroids, InitAsteroidObjects)
    second_piece_drop: int = SECOND_PIECE_DROP  # rule: spawning.large-splits-in-two
    room_up: int = ROOM_UP  # rule: spawning.large-splits-in-two
    room_down: int = ROOM_DOWN  # rule: spawning.large-splits-in-two
    wave_more_from: int = WAVE_MORE_FROM  # rule: spawning.wave-size-by-score
    wave_most_from: int = WAVE_MOST_FROM  # rule: spawning.wave-size-at-15000
    # a wave's ys: the first and last asteroid of each list, the middle ones with 3 or 4 a list
    wave_ys: tuple = (WAVE_FIRST_Y, WAVE_STEP_Y, 2 * WAVE_STEP_Y, WAVE_LAST_Y)  # rule: spawning.asteroids-destroyed-enter-new
    random_coarse: tuple = RANDOM_COARSE  # rule: timing.hyperspace-return

    # ---- hyperspace, death, respawn (disassembly MAX_HYPERSPACE_TIME, CheckForFreeCenterSpace)
    hyperspace_time: int = HYPERSPACE_TIME  # rule: timing.hyperspace-return
    respawn_wait: int = RESPAWN_WAIT  # rule: spawning.ship-respawns-at-centre
    explosion_end_step: int = EXPLOSION_END_STEP  # rule: lives.asteroid-kills-ship
    game_over_count: int = GAME_OVER_COUNT  # rule: termination.last-life
    centre_coarse: int = CENTRE_COARSE  # rule: spawning.ship-respawns-at-centre
    beside_coarse: tuple = BESIDE_COARSE  # rule: spawning.ship-respawns-at-centre
    centre_rows: tuple = CENTRE_ROWS  # rule: spawning.ship-respawns-at-centre
    beside_rows: tuple = BESIDE_ROWS  # rule: spawning.ship-respawns-at-centre


DEFAULTS = AsteroidsConstants()
