"""Every number of Breakout, with where it came from.

Sources, named once here and cited below by their short names:

- **ROM**: a disassembly of ALE's 2 KB ``breakout.bin`` (Atari, 1978), made here from the cartridge
  bytes; only facts were taken from it (which RAM byte holds what, which table a value comes from,
  the order of the frame's logic), each one then checked against the emulator.
- **ALE**: measured on ale-py 0.12.1, ``repeat_action_probability=0``, one frame per ``act``, by
  diffing RAM (``getRAM``) and screens (``getScreenRGB``) frame by frame; setRAM for deep states.
- **manual**: the Atari Breakout instruction manual (AtariAge): six rows worth 7, 7, 4, 4, 1, 1
  points, five balls, two walls for 864 points, the twelve game variations.
- **Farama**: the ALE documentation page of Breakout: the four-action minimal set, modes
  0, 4, ..., 44 and difficulties 0, 1.
- **OCAtari**: OCAtari's Breakout extractor (k4ntz/OC_Atari), for the addresses of the paddle
  (ram[72]), the ball (ram[99], ram[101]) and the bricks (ram[0..35]), re-checked here.

RAM is named ``ram[i]`` with ALE's index (address - 0x80).
"""

from __future__ import annotations

import dataclasses

from jaxtari.atari.paddle import POT_DELTA, POT_MAX, POT_MIN, POT_START  # noqa: F401

# ---- the minimal action set (Farama; ALEInterface.getMinimalActionSet) ---------------------------
MINIMAL_ACTIONS = (0, 1, 3, 4)  # NOOP, FIRE, RIGHT, LEFT

# ---- modes (Farama lists 0, 4, ..., 44; ROM: ram[50] = mode, flags = MODE_FLAGS[mode // 4]) -------
# One-player games 1..12 of the manual. Flag bits (ROM, ram[51]); the manual's table names them.
TIMED, INVISIBLE, BREAKTHRU, STEERABLE, CATCH = 0x80, 0x40, 0x20, 0x10, 0x08
MODE_FLAGS = (0x00, 0x10, 0x08, 0x40, 0x80, 0x90, 0x88, 0xC0, 0x20, 0x30, 0x28, 0x60)
MODES = tuple(4 * i for i in range(len(MODE_FLAGS)))

# ---- the paddle controller (ALE's paddle emulation; ALE: checked on every reachable value) --------
# RIGHT lowers the resistance by POT_DELTA per frame, LEFT raises it: POT_* of jaxtari.atari.paddle
# ram[70]: the kernel's line count while the paddle's capacitor has not charged yet; a step function
# of the resistance. (resistance at or above which the reading is, reading) for every step, measured
# on ALE over all 101 resistances the paddle can reach (three 23,000-ohm lattices: from the start
# and from either clamp); below the first step the reading is 0.
POT_STEPS = (
    (91636, 12), (105009, 16), (114636, 18), (128009, 22), (137636, 24), (151009, 26),
    (160636, 28), (167323, 30), (174009, 32), (183636, 34), (197009, 38), (206636, 40),
    (220009, 44), (229636, 46), (243009, 48), (252636, 50), (259323, 52), (266009, 54),
    (275636, 56), (282323, 58), (289009, 60), (298636, 62), (305323, 64), (312009, 66),
    (321636, 68), (335009, 72), (344636, 74), (358009, 76), (367636, 80), (381009, 82),
    (390636, 84), (397323, 86), (404009, 88), (413636, 90), (420323, 92), (427009, 94),
    (436636, 96), (443323, 98), (450009, 100), (459636, 102), (466323, 104), (473009, 106),
    (482636, 108), (496009, 112), (505636, 114), (519009, 116), (528636, 120), (542009, 122),
    (551636, 126), (565009, 128), (574636, 130), (581323, 132), (588009, 134), (597636, 136),
    (604323, 138), (611009, 140), (620636, 142), (627323, 144), (634009, 146), (643636, 148),
    (650323, 150), (657009, 152), (666636, 154), (680009, 158), (689636, 160), (703009, 164),
    (712636, 166), (726009, 168), (735636, 172), (749009, 174), (758636, 178), (772009, 180),
    (781636, 182), (788323, 184),
)
START_POT_READING = 88   # ram[70] after reset
START_PADDLE = 146       # ram[72] after reset
PADDLE_TARGET = 235      # ROM: ram[72] <- (ram[72] + 235 - ram[70]) >> 1 (9-bit sum), each frame
PADDLE_MIN, PADDLE_MAX = 0x37, 0xBF  # ROM: the clamp of ram[72] (one player)

# ---- the paddle's size (ROM; ALE: difficulty 1 sets the left difficulty switch to A) -------------
# index = (difficulty A) + (ball has reached the top wall): half-width used for the bounce
# (ram[108]) and the quad-width player graphic (ram[55]: 16, 12 or 8 px wide from the left edge).
PADDLE_HALF = (8, 6, 4)
PADDLE_WIDTHS = (16, 12, 8)

# ---- the ball (ROM) ------------------------------------------------------------------------------
# Positions and speeds are 8.8 fixed point: x = ram[99].ram[100], y = ram[101].ram[102],
# dy = ram[103].ram[104], dx = ram[105].ram[106]; each frame y += dy and x -= dx (mod 2**16).
SERVE_Y = 0x70
# The serve's x (high byte) and direction by the frame counter's low two bits (ROM table): dx = -1
# moves right; the fraction bytes keep their old values.
SERVE_X = (0x40, 0x80, 0x80, 0xC0)
SERVE_DX = (0xFF00, 0x0100, 0xFF00, 0x0100)
SERVE_DY = 0x0100
MISS_Y = 0xD0        # ram[101] >= this: the ball is lost (checked at the start of the frame)
TOP_WALL_Y = 0x28    # a playfield hit with (ram[101] - 0x28) negative as a signed byte: top wall
BRICK_TOP_Y = 0x32   # brick row = (ram[101] - 0x32) // 6 (0 if negative)
ROW_LINES = 6
BRICK_LEFT_X = 0x39  # brick column = (ram[99] - 0x39 [- 1 in row 0]) // 8, 0..17
EDGE_NUDGE = 4       # a ball exactly at the paddle's middle is pushed 4 px along its way
# Speeds (dx, dy) as 8.8 values, by (hit count & 0x3C) + angle (ROM table at 0xF7DC): the hit count
# ram[107] & 0x3F counts paddle hits up to 12 and is set to 16 by a brick of the top three rows;
# angle (ram[109]) is 2 when the ball met the paddle within 4 px of its middle, else 0.
SPEED_TABLE = {
    0: (0x0180, 0x0100), 2: (0x0100, 0x0180),
    4: (0x0180, 0x0200), 6: (0x0080, 0x0200),
    8: (0x0200, 0x0100), 10: (0x0200, 0x0100),
    12: (0x0200, 0x0200), 14: (0x0200, 0x0200),
    16: (0x0200, 0x0360), 18: (0x0200, 0x0360),
}
MAX_HIT_COUNT = 12
FAST_HIT_COUNT = 16
FAST_ROWS = 3        # a brick in the top three rows sets the hit count to 16 (manual: "Speed Bricks")
NEAR_MIDDLE = 2      # angle value for a hit near the paddle's middle

# ---- bricks (ROM; manual for the points) ---------------------------------------------------------
NUM_ROWS, NUM_COLUMNS = 6, 18
ROW_POINTS = (7, 7, 4, 4, 1, 1)  # top row first (manual: red, orange, yellow, green, aqua, blue)
# ram[0..35] are the playfield bytes of the six rows: ram[base + 5 - row] with base 30 (PF0, left
# half), 24 (PF1 left), 18 (PF2 left), 12 (PF0 right), 6 (PF1 right), 0 (PF2 right). Column c is
# the two bits of COLUMN_MASKS[c] cleared in byte COLUMN_BASE[c] + 5 - row.
COLUMN_BASE = (30, 24, 24, 24, 24, 18, 18, 18, 18, 12, 12, 6, 6, 6, 6, 0, 0, 0)
COLUMN_MASKS = (0x3F, 0x3F, 0xCF, 0xF3, 0xFC, 0xFC, 0xF3, 0xCF, 0x3F,
                0xCF, 0x3F, 0x3F, 0xCF, 0xF3, 0xFC, 0xFC, 0xF3, 0xCF)
# ram[0..35] of a full wall  rule: spawning.brick-wall-appears-top
FULL_WALL = (0x3F,) * 6 + (0xFF,) * 24 + (0xC0,) * 6
POINTS_PER_WALL = 432
# a paddle hit at this score brings the second wall  rule: termination.player-team-destroy-walls
SECOND_WALL_SCORE = 432

# ---- a game stopped by the frame counter (ALE) ------------------------------------------------------
# When ram[90..91] wraps (65,536 frames without a reset) the cartridge ends the game but not the
# episode (ALE ends it on the last ball only): it shows its select display, the game number in the
# score's tens and units (tens blank below 10), the hundreds and the balls blank, and cycles the
# colours by the counter's high byte h (ram[93]), a new set every 256 frames: each colour byte
# XOR h with its nibbles swapped, then ANDed with 0xF7 (ALE: ram[60..69], the colour bytes, and the
# screen at h = 0..167).
ATTRACT_PERIOD_BITS = 8  # h: the high byte of ram[90..91]
ATTRACT_SETS = 256
ATTRACT_MASK = 0xF7
# Not modelled: from h = 100 (frame 91,136 of a game stopped at 65,536) ALE draws the paddle's lines
# one line higher on some frames of that set and 1 px to the right from then on, and the paddle's
# pot reading can differ (ALE, NOOP and random play); the frame cap (108,000) comes at h = 165.
PADDLE_SHIFT_SET = 100
GAMES_PER_MODE_STEP = 4  # ALE's modes 0, 4, ..., 44 are the manual's games 1..12
# The screen x on line 203 (geometry.COLOUR_SET_LINE) from which a new colour set shows on its first
# frame, per game 1..12: the select display's work before the write takes longer for some game
# numbers (ALE: the first frame of 5 sets in each game, at both difficulties; 160: from line 204)
COLOUR_SET_X = (55, 55, 55, 145, 55, 55, 55, 145, 55, 91, 91, 160)

# ---- the frame's other counters (ROM; ALE for the values after reset) -----------------------------
# ram[94]: bit 7 while the wall is being (re)built (collisions are skipped), bit 6 to refill the
# wall when done, low six bits frames left. After reset it is 0xE4: 36 frames of the start-up
# animation (which leaves the bricks as they are), then one frame that refills them.
START_WALL_STATE = 0xE4
REBUILD, REFILL = 0x80, 0x40
WALL_FRAMES = 0x3F   # the low six bits: frames left
SECOND_WALL_STATE = 0xC0
# ram[107]: the hit count in bits 0..5 (the speed table's row is the count's bits 2..5); bit 6 set
# by a paddle hit (the paddle does not bounce the ball again until it met something else), bit 7
# by a brick (no other brick until the ball meets the paddle or the top wall)
HIT_COUNT = 0x3F
SPEED_ROW = 0x3C
PADDLE_WAS_LAST, BRICK_WAS_LAST = 0x40, 0x80
# ram[95], the sound: frames left in bits 0..5, its kind in bits 6..7 (a kind-0 sound, a brick's,
# is what shows the invisible wall). Each event starts its own (ROM).
SOUND_FRAMES, SOUND_KIND = 0x3F, 0xC0
SOUND_BOUNCE = 0x88     # the paddle or the top wall
SOUND_SERVE = 0x48
SOUND_SIDE_WALL = 0x46  # only when no other sound plays
SOUND_BRICK = 0x06
STEER_STEP = 2          # steerable games: px the paddle's movement pushes a rising ball
CATCH_Y = 0xB2          # catch games: the line a caught ball is held on ...
CATCH_X_OFFSET = 4      # ... and its x from the paddle's
START_LIVES = 5      # ram[57] (manual: five balls)
TIMER_PERIOD = 64    # timed games: the score (a timer) counts one every 64 frames


@dataclasses.dataclass(frozen=True)
class BreakoutConstants:
    """The tunable numbers of the game (a mod may override any of them)."""

    mode: int = 0            # ALE mode (0, 4, ..., 44)  measured: ram[50] = ALE's mode (setMode)
    difficulty: int = 0      # ALE difficulty (0, 1)  measured: 1 narrows the paddle to 12 px
    pot_delta: int = POT_DELTA  # rule: physics.turn-clockwise-move-paddle
    row_points: tuple = ROW_POINTS  # rule: scoring.red-points-orange-yellow
    # measured: each entry's speed after a paddle hit, tests/games/test_breakout_mechanics.py
    speed_table: tuple = tuple(sorted(SPEED_TABLE.items()))
    max_hit_count: int = MAX_HIT_COUNT  # measured: the count stops at 12 (ram[107])
    fast_hit_count: int = FAST_HIT_COUNT  # measured: ram[107] = 16 after a top-row brick
    fast_rows: int = FAST_ROWS  # measured: rows 0..2 set the top speed (manual: "Speed Bricks")
    paddle_half: tuple = PADDLE_HALF  # measured: the angle's distance from the middle (ram[108])
    paddle_widths: tuple = PADDLE_WIDTHS  # measured: 16/12/8 px on ALE's screen
    shrink_on_top_wall: bool = True  # measured: the top wall sets ram[97] bit 7, a 12 px paddle
    start_lives: int = START_LIVES  # rule: lives.lives
    # colours as getScreenRGB shows them (ALE); the ROM's palette indices in brackets
    # rule: scoring.red-points-orange-yellow (the rows are named by their colours)
    row_colours: tuple = ((200, 72, 72), (198, 108, 58), (180, 122, 48),   # [0x46 0x36 0x26]
                          (162, 162, 42), (72, 160, 72), (66, 72, 200))    # [0x16 0xC6 0x86]
    wall_colour: tuple = (142, 142, 142)        # walls and digits [0x06]  measured: getScreenRGB
    # paddle, the ball below the bricks, right wall low [0x46]  measured: getScreenRGB
    paddle_colour: tuple = (200, 72, 72)
    # the left wall from the paddle's lines on [0xB6]  measured: getScreenRGB
    left_wall_low_colour: tuple = (66, 158, 130)
    background: tuple = (0, 0, 0)  # measured: getScreenRGB

    @property
    def flags(self) -> int:
        return MODE_FLAGS[self.mode // 4]
