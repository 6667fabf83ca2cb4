"""Asteroids' numbers, each with its source: "disassembly" is the public commented disassembly
(DNSDEBRO/Disassemblies @ a74a6312bac5, Atari2600/Asteroids/asteroids.asm, the table or constant
named); "measured" is ale-py 0.12.1, sticky actions off, one frame per act, default mode 0 and
difficulty 0, checked by tests/ports/test_asteroids_ram.py or _constants.py (how: NOTES.md).
Frames are emulator frames; "logic frames" are the even frames (ram[57] even after the frame) on
which the ship's logic runs."""

from __future__ import annotations

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

# ---- the asteroid field (ports/asteroids/game/field.py) ---------------------------------------------
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
# disassembly AsteroidUpperBound / AsteroidLowerBound by size (0..3): an up-drifting asteroid at
# the top is dropped when its y reaches minus its height; a down-drifting one at the bottom gets
# its copy above the top when its y reaches the kernel height + 1 minus its height
ASTEROID_HEIGHTS = (15, 15, 7, 4)  # disassembly H_LARGE/H_MEDIUM/H_SMALL_ASTEROID
UPPER_BOUND = tuple((-h) & 0xFF for h in ASTEROID_HEIGHTS)
LOWER_BOUND = tuple(PLAY_HEIGHT + 1 - h for h in ASTEROID_HEIGHTS)
# disassembly asteroidHorizSpeed and ProcessAsteroidCalculations: two down-counters in one byte
# (high nibble from 7, low from 3), both lowered by one on each asteroid frame; a nibble run out
# is reloaded and raises its bit in the delay bits that frame.
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
