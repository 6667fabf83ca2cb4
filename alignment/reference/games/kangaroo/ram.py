"""Kangaroo's ground truth: the RAM map of ALE's cartridge, the signals read from it, the pokes a deep
probe may write, and the RAM writes of the mods' ALE counterparts.

Sources. Object addresses and screen offsets: OCAtari's Kangaroo RAM extractor (k4ntz/OC_Atari,
ocatari/ram/kangaroo.py: the mother ram[16..18], monkeys ram[8..15], falling coconut ram[33..36],
thrown apples ram[25..30], fruits ram[42..44], bell ram[41], score ram[39..40], timer ram[59],
lives ram[45]); ALE's own Kangaroo settings read the score from ram[39..40] (BCD) and the lives from
ram[45]. Every address, offset and constant below was re-measured here on ale-py 0.12.1 with
sticky actions off, with :mod:`alignment.porting` (per-frame RAM, screens, RAM writes), and is re-checked on
the emulator by tests/games/test_kangaroo_ram.py. The controller-hack listing of the
cartridge (Omegamatrix, milnak/atari-vcs-disassembly) was read for the layout only; its input code
differs from ALE's ROM.

Measured (ale-py 0.12.1, NOOP from reset unless said):
- the mother stands still for the first 160 frames (ram[54] goes 128 -> 0 on frame 160);
- the timer (ram[59]) starts at 0x20 (2,000 bonus points, drawn "2000"), first ticks on frame 414,
  then every 256 frames by one BCD step; below 10 it is written 0xA0 + units (a nibble 0xA is a
  blank digit: 0xA9 is 9, 0 is 0xAA); on reaching 0 the mother dies at once (frame 5,278 with
  monkeys and coconuts held off; the life is counted lost on frame 5,363), and the next life
  starts it at 0x20 again;
- the big ape's first coconut falls on frame 415 and, left alone, hits the mother on frame 575;
  a lost life costs about 85 frames of the death sequence before the mother stands again;
- left alone the game ends on frame 1,150 (three lives lost to coconuts), ram[45] then 255;
- a punch that lands on a monkey pays 200, a punched thrown apple (its ram[25..27] slot -> 255)
  100, a fruit picked up (its ram[42..44] byte -> 128) 100 (the stored deep game, 15 rewards);
- the mother walks one pixel (ram[17]) every third frame, on the frames whose counter ram[57] is a
  multiple of 3.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from jaxtari.atari.palette import PALETTE
from jaxtari.games.kangaroo import art
from jaxtari.games.kangaroo import constants as c
from jaxtari.games.kangaroo.constants import KangarooConstants
from jaxtari.games.kangaroo.game import with_ram

from alignment.signals import (
    MEASURED, OCATARI, AleCounterpart, Poke, RamWrite, Signal, bcd_bytes, bcd_number, jax_signal,
)

CART = KangarooConstants()  # the cartridge's own numbers (the JAX game's defaults)

# ---- addresses -------------------------------------------------------------------------------------
# One home for each fact: the addresses, values and screen offsets the JAX game also uses are named
# in jaxtari/games/kangaroo/constants.py (``c``; the tunable numbers as the defaults of its
# KangarooConstants, ``CART``) and only given the reference's names here (sources
# above: OCAtari's extractor and ALE's settings for the addresses, re-measured on ale-py 0.12.1).
def _slots(first: int, n: int) -> tuple[int, ...]:
    """The RAM indices of slot 0..n-1 stored downwards from ``first + n - 1`` (OCAtari's order)."""
    return tuple(range(first + n - 1, first - 1, -1))


MONKEY_ROW = _slots(c.RAM_MONKEY_ROW, c.MONKEY_SLOTS)  # slot i: row of monkey i; 127, 128, 255: empty
MONKEY_X = _slots(c.RAM_MONKEY_X, c.MONKEY_SLOTS)  # slot i: x of monkey i
THROWN_ROW = tuple(c.RAM_APPLE_ROW + i for i in range(c.APPLE_SLOTS))  # a thrown apple's row, 255 none
THROWN_X = tuple(c.RAM_APPLE_X + i for i in range(c.APPLE_SLOTS))
APPLE_FLAGS = tuple(c.RAM_APPLE_FLAGS + i for i in range(c.APPLE_SLOTS))  # bit 7 set until let go
APPLE_IDLE = c.APPLE_IDLE
ATTRACT = c.RAM_ATTRACT  # bit 7 set from the game-over frame on (the attract mode)
COCONUT_ROW = c.RAM_COCONUT_ROW  # the big ape's coconut: layout base + row, 255 when none
COCONUT_X = c.RAM_COCONUT_X
COCONUT_STATE = c.RAM_COCONUT_STATE  # 255 when no coconut is coming
MOTHER_ROW = c.RAM_MOTHER_ROW  # 8-line units: the mother's top line is ram[16] * 8 + 4
MOTHER_X = c.RAM_MOTHER_X
FRAME_COUNTER = c.RAM_FRAME_COUNT  # counts up every frame (wraps at 256)
WALK_PERIOD = CART.walk_phases  # frames per pixel walked (measured)
POINTS_PER_SCORE_UNIT = 100  # the score is kept in hundreds (ALE's Kangaroo settings)
FRUIT_POINTS = CART.fruit_points[0] * POINTS_PER_SCORE_UNIT  # the first fruit kind
PUNCH_POINTS = CART.monkey_points * POINTS_PER_SCORE_UNIT  # a punched monkey
APPLE_POINTS = CART.apple_points * POINTS_PER_SCORE_UNIT  # a punched thrown apple
MOTHER_POSE = c.RAM_POSE  # animation/pose code (walking, ducking 20/28, jumping 65/66/73/74, ...)
LEVEL = c.RAM_LEVEL  # the floor layout, 0..2
SCORE = (c.RAM_SCORE_HIGH, c.RAM_SCORE_LOW)  # BCD, in hundreds (ALE reads the score here)
BELL = c.RAM_BELL  # 128 when the bell is gone
FRUIT = tuple(c.RAM_FRUIT + i for i in range(3))  # fruit kind (low two bits); bit 7 set: eaten
LIVES = c.RAM_LIVES  # lives in reserve; ALE's lives() is ram[45] + 1; 255 at game over
MOTHER_STATE = c.RAM_MOTHER_STATE  # 128 while the mother waits (start, after a lost life), 1 dying
WAITING = c.WAITING
DYING = c.DYING
BABY_X = 83  # the baby's x (it paces on the top floor); sprite left x = ram[83] + 15 (OCAtari)
TIMER = c.RAM_TIMER  # the bonus timer in hundreds, BCD; a nibble 0xA is a blank digit

NONE = c.BYTE  # an empty object slot
NO_MONKEY = c.MONKEY_HELD_OFF  # the other empty-slot value the cartridge uses (HackAtari writes it)
GAME_OVER_LIVES = c.BYTE
BELL_GONE = c.BELL_GONE
FRUIT_GONE = c.FRUIT_GONE
BLANK_DIGIT = c.BLANK_DIGIT  # a timer nibble drawn blank
TIMER_BLANK_TENS = c.BLANK_TENS

# screen offsets (OCAtari's, re-measured here against ALE's screens)
MOTHER_X_OFFSET = c.MOTHER_X_OFFSET  # the standing sprite's left x = ram[17] + 15
MOTHER_Y_OFFSET = c.MOTHER_Y_OFFSET  # top line = ram[16] * 8 + 4
MONKEY_X_OFFSET = c.MONKEY_X_OFFSET  # left x = ram[15 - i] + 16
MONKEY_Y_OFFSET = c.MONKEY_Y_OFFSET  # top line = ram[11 - i] * 8 + 5
ROW_LINES = c.ROW_LINES
FLOOR0_ROW = CART.start_row  # the mother's row standing on the bottom floor
ROWS_PER_FLOOR = c.ROWS_PER_FLOOR  # floors are 48 lines apart
FLOORS = c.FLOORS
START_TIMER = CART.start_timer



def _rgb(colour_byte: int) -> tuple[int, ...]:
    return tuple(int(v) for v in PALETTE[colour_byte >> 1])


# colours on ALE's screen (measured; the picture's colour bytes through ALE's palette)
MOTHER_RGB = _rgb(CART.mother_colour)  # (223, 183, 85)
MONKEY_RGB = _rgb(CART.monkey_colour)  # (227, 151, 89)
WALL_RGB = _rgb(CART.playfield_colour)  # (162, 98, 33): the walls, floors and the coconut
PLAY_LINES = slice(30, 185)  # below the baby's line, above the score line


def timer(ram) -> int:
    """The bonus timer in hundreds of points (20 at the start of a life, 0 when it runs out): two
    BCD digits where a nibble 0xA is a blank digit (0xA9: 9, 0xAA: 0)."""
    v = int(ram[TIMER])
    tens, units = v >> 4, v & 0x0F
    return (0 if tens == BLANK_DIGIT else tens) * 10 + (0 if units == BLANK_DIGIT else units)


def score(ram) -> int:
    return bcd_number(ram, SCORE) * POINTS_PER_SCORE_UNIT


def lives(ram) -> int:
    """ALE's lives(): ram[45] + 1 while the game runs."""
    return int(ram[LIVES]) + 1


def mother_x(ram) -> int:
    return int(ram[MOTHER_X]) + MOTHER_X_OFFSET


def mother_y(ram) -> int:
    return int(ram[MOTHER_ROW]) * ROW_LINES + MOTHER_Y_OFFSET


def mother_floor(ram) -> int:
    """The floor at or below the mother's feet, 0 (bottom) .. 3 (the baby's)."""
    return int(np.clip((FLOOR0_ROW - int(ram[MOTHER_ROW])) // ROWS_PER_FLOOR, 0, FLOORS - 1))


def monkeys_active(ram) -> np.ndarray:
    """(4,) whether each monkey slot holds a monkey: rows run 0..19; 127 (HackAtari's marker) and
    the values with bit 7 set (255, and 128, which the cartridge leaves in a slot after a lost
    life) are empty (measured: a slot holding 128 draws nothing on 781 frames of the deep game)."""
    return np.asarray(ram)[list(MONKEY_ROW)] < NO_MONKEY


def monkey_x(ram) -> np.ndarray:
    """(4,) left x of each monkey slot's sprite, 0 where the slot is empty."""
    x = np.asarray(ram)[list(MONKEY_X)].astype(np.int64) + MONKEY_X_OFFSET
    return np.where(monkeys_active(ram), x, 0)


def monkey_y(ram) -> np.ndarray:
    y = np.asarray(ram)[list(MONKEY_ROW)].astype(np.int64) * ROW_LINES + MONKEY_Y_OFFSET
    return np.where(monkeys_active(ram), y, 0)


def thrown_active(ram) -> np.ndarray:
    return np.asarray(ram)[list(THROWN_ROW)] != NONE


def fruit_present(ram) -> np.ndarray:
    return (np.asarray(ram)[list(FRUIT)] & FRUIT_GONE) == 0


# where the picture draws each object (measured on ALE's screens: tests/games/test_kangaroo_render.py
# draws them there and equals the screen): the left column and top line of its box
APPLE_X_OFFSET = c.APPLE_X_OFFSET  # an apple (missile 0, 2 x 3): x + 14, lines 5-7 of the row above
APPLE_Y_OFFSET = -ROW_LINES + c.MISSILE_TOP
MISSILE_W, MISSILE_H = c.APPLE_WIDTH, c.MISSILE_LINES
COCONUT_X_OFFSET = c.APPLE_X_OFFSET  # the coconut (the ball, 2 x 3): x + 14, lines 5-7 of its row
COCONUT_Y_OFFSET = c.MISSILE_TOP
LAYOUT_ROW_BASE = CART.layout_row_base  # ram[33] counts rows from the layout's first
ITEM_X_OFFSET = c.MOTHER_X_OFFSET  # the bell and fruit: x + 15, their row's first line (+4), two rows
ITEM_Y_OFFSET = c.MOTHER_Y_OFFSET
ITEM_W, ITEM_H = c.SPRITE_WIDTH, c.ITEM_LINES
# (x, row) of fruit 0-2 and the bell per layout: the cartridge's tables ($FFA9/$FFAC, $FFA3/$FFA6,
# public disassembly), re-measured on each layout's screen
FRUIT_AT = tuple(tuple((CART.fruit_x[layout + c.FRUIT_STRIDE * i],
                        CART.fruit_row[layout + c.FRUIT_STRIDE * i])
                       for i in range(3)) for layout in range(CART.layouts))
BELL_AT = tuple((CART.bell_x[layout], art.BELL_ROW[layout]) for layout in range(CART.layouts))


def apple_boxes(ram) -> np.ndarray:
    """(3, 4) x, y, w, h of each thrown apple's box (zeros when none is in flight: a slot holds
    its row from the throw on, but the apple flies, and is drawn, only once its flag ram[21 + i]
    has bit 7 clear; measured: a slot with the bit set draws nothing)."""
    r = np.asarray(ram).astype(np.int64)
    on = thrown_active(ram) & ((r[list(APPLE_FLAGS)] & APPLE_IDLE) == 0)
    x = r[list(THROWN_X)] + APPLE_X_OFFSET
    y = r[list(THROWN_ROW)] * ROW_LINES + MOTHER_Y_OFFSET + APPLE_Y_OFFSET
    box = np.stack([x, y, np.full(3, MISSILE_W), np.full(3, MISSILE_H)], 1)
    return np.where(on[:, None], box, 0)


def coconut_box(ram) -> np.ndarray:
    r = np.asarray(ram).astype(np.int64)
    if r[COCONUT_ROW] == NONE:
        return np.zeros(4, np.int64)
    row = r[COCONUT_ROW] - LAYOUT_ROW_BASE[r[LEVEL]]
    return np.asarray([r[COCONUT_X] + COCONUT_X_OFFSET,
                       row * ROW_LINES + MOTHER_Y_OFFSET + COCONUT_Y_OFFSET, MISSILE_W, MISSILE_H])


def _item(x, row):
    return [x + ITEM_X_OFFSET, row * ROW_LINES + ITEM_Y_OFFSET, ITEM_W, ITEM_H]


def fruit_boxes(ram) -> np.ndarray:
    """(3, 4) each fruit's box on the layout (zeros once eaten)."""
    at = FRUIT_AT[int(ram[LEVEL])]
    box = np.asarray([_item(x, row) for x, row in at])
    return np.where(fruit_present(ram)[:, None], box, 0)


def bell_box(ram) -> np.ndarray:
    if int(ram[BELL]) == BELL_GONE:
        return np.zeros(4, np.int64)
    return np.asarray(_item(*BELL_AT[int(ram[LEVEL])]))


# the JAX state fields the object-centric observation (Kangaroo.objects) reads, and their bytes
# (the addresses above; the state mirrors them byte for byte: tests/games/test_kangaroo_logic.py)
OBSERVED_FIELDS = {
    "mother_row": (MOTHER_ROW,), "mother_x": (MOTHER_X,), "pose": (MOTHER_POSE,),
    "monkey_row": MONKEY_ROW[::-1], "monkey_x": MONKEY_X[::-1],
    "apple_row": THROWN_ROW, "apple_x": THROWN_X,
    "apple_flags": tuple(c.RAM_APPLE_FLAGS + i for i in range(c.MONKEY_SLOTS)),
    "coconut_row": (COCONUT_ROW,), "coconut_x": (COCONUT_X,), "level": (LEVEL,), "fruit": FRUIT,
    "bell": (BELL,), "attract": (ATTRACT,),
}


def observation_fields(rams: np.ndarray) -> dict[str, np.ndarray]:
    """The JAX state fields ``Kangaroo.objects`` (its observation) reads, for a batch of RAM
    snapshots (N, 128) (see alignment.reference.features)."""
    r = np.asarray(rams).astype(np.int32).reshape(-1, 128)
    return {field: (r[:, list(addresses)] if len(addresses) > 1 else r[:, addresses[0]])
            for field, addresses in OBSERVED_FIELDS.items()}


def signals() -> list[Signal]:
    src = f"address {OCATARI}; offset {MEASURED}"
    return [
        Signal("mother_x", mother_x, jax_signal("mother_x"), 0, "px",
               f"ram[{MOTHER_X}]+{MOTHER_X_OFFSET}; {src}",
               description="the mother's x (the standing sprite's left edge)"),
        Signal("mother_y", mother_y, jax_signal("mother_y"), 0, "px",
               f"ram[{MOTHER_ROW}]*8+{MOTHER_Y_OFFSET}; {src}",
               description="the mother's top line (8-line steps)"),
        Signal("mother_floor", mother_floor, jax_signal("mother_floor"), 0, "floor",
               f"from ram[{MOTHER_ROW}]: floors 6 rows apart, bottom floor row {FLOOR0_ROW}; "
               f"{MEASURED}", description="floor at or below the mother's feet, 0..3"),
        Signal("mother_pose", lambda r: int(r[MOTHER_POSE]), jax_signal("mother_pose"), 0, "code",
               f"ram[{MOTHER_POSE}], {OCATARI}", description="pose/animation code"),
        Signal("monkeys_active", monkeys_active, jax_signal("monkeys_active"), 0, "bool",
               f"ram[11..8] below 127 (address {OCATARI}; 128 is empty too, {MEASURED})",
               shape=(4,)),
        Signal("monkey_x", monkey_x, jax_signal("monkey_x"), 0, "px",
               f"ram[15..12]+{MONKEY_X_OFFSET}; {src}", shape=(4,)),
        Signal("monkey_y", monkey_y, jax_signal("monkey_y"), 0, "px",
               f"ram[11..8]*8+{MONKEY_Y_OFFSET}; {src}", shape=(4,)),
        Signal("thrown_active", thrown_active, jax_signal("thrown_active"), 0, "bool",
               f"ram[25..27] != 255, {OCATARI}", shape=(3,),
               description="the monkeys' thrown apples in flight"),
        Signal("coconut_active", lambda r: int(r[COCONUT_ROW]) != NONE,
               jax_signal("coconut_active"), 0, "bool", f"ram[{COCONUT_ROW}] != 255, {OCATARI}",
               description="the big ape's coconut is falling"),
        Signal("coconut_x", lambda r: int(r[COCONUT_X]), jax_signal("coconut_x"), 0, "px",
               f"ram[{COCONUT_X}], {OCATARI}"),
        Signal("fruit_present", fruit_present, jax_signal("fruit_present"), 0, "bool",
               f"ram[42..44] bit 7 clear, {OCATARI}", shape=(3,)),
        Signal("bell_present", lambda r: int(r[BELL]) != BELL_GONE, jax_signal("bell_present"), 0,
               "bool", f"ram[{BELL}] != 128, {OCATARI}"),
        Signal("timer", timer, jax_signal("timer"), 0, "hundreds",
               f"ram[{TIMER}] BCD, nibble 0xA blank (0xA9: 9, 0xAA: 0); address {OCATARI}, encoding {MEASURED}"),
        Signal("level", lambda r: int(r[LEVEL]), jax_signal("level"), 0, "layout",
               f"ram[{LEVEL}], {OCATARI}", description="the floor layout, 0..2"),
    ]


def _timer_byte(value: int) -> int:
    if value >= 10:
        return bcd_bytes(value, (TIMER,))[TIMER]
    return TIMER_BLANK_TENS | (value or BLANK_DIGIT)  # as the cartridge writes it: 0xA9 .. 0xAA


def _score_bytes(value: int) -> dict[int, int]:
    return bcd_bytes(value // POINTS_PER_SCORE_UNIT, SCORE)


def _poke_state(ram: Callable[[int], dict[int, int]]):
    """The JAX half of a poke: the same bytes written into the state's mirrored fields."""
    def write(state, value):
        return with_ram(state, ram(value))
    return write


def _poke(name, low, high, ram, source, description, **when) -> Poke:
    return Poke(name, low, high, ram, _poke_state(ram), source, description, **when)


POKES = (
    _poke("level", 0, 2, lambda v: {LEVEL: int(v)}, f"ram[{LEVEL}], {OCATARI}; {MEASURED}",
          "the floor layout, written right after reset (the cartridge draws that layout and "
          "places its fruit from the first frame)", last_frame=0),
    _poke("timer", 0, 20, lambda v: {TIMER: _timer_byte(int(v))},
          f"ram[{TIMER}], encoding {MEASURED}", "the bonus timer in hundreds"),
    _poke("score", 0, 999_900, lambda v: _score_bytes(int(v)),
          f"BCD ram[39..40] (ALE's Kangaroo score), {MEASURED}",
          "the score (a multiple of 100)", score=True),
)

# The ALE halves of the mods; their JAX halves (jaxtari/games/kangaroo/mods.py) hold the same bytes
# after reset and every frame, and agree with them frame by frame (tests/games/test_kangaroo_mods.py,
# tests/test_counterparts.py).
RANDOM_GAMES = ("python -m alignment.counterparts kangaroo {mod} --games 10 --seed 100 (2026-12-05, "
                "ale-py 0.12.1): 10 whole games of random held actions, {frames} frames, every "
                "catalog signal and the reward equal on every frame")
ALE_MODS = {
    # HackAtari's no_monkey writes 127 into the four monkey slots; re-measured here: with these
    # writes every frame no monkey sprite and no thrown apple appears (tests on real ALE). What
    # else it changes (alignment.porting.writes, random play seeds 0-2, actions held 1..8 frames):
    # the monkey spawner ram[70] from frame 432, ram[95]/[116]/[117] from 673, the monkeys'
    # drawing bytes ram[3,7,15] from 751; the rest of the game only once the play differs (the
    # mother lives longer without apples: first life lost ~1,000 frames later or never).
    "no_monkey": AleCounterpart(
        tuple(RamWrite(a, NO_MONKEY) for a in MONKEY_ROW), exact=True,
        measured=RANDOM_GAMES.format(mod="no_monkey", frames="24,172") + "; the scripted "
                 "player's whole game (--policy scripted: the route to layout 1, reached after "
                 "2,340 frames with every life, then punching; 3,087 frames) equal too; the 210x160 "
                 "screens equal on all 1,214 frames of a whole random game (seed 0)"),
    # the big ape's coconut held off: ram[33] held at 255 (measured: the idle mother then first
    # dies to a monkey's apple on frame 1,098 instead of the coconut on frame 575)
    "no_coconut": AleCounterpart(
        (RamWrite(COCONUT_ROW, NONE),), exact=True,
        measured=RANDOM_GAMES.format(mod="no_coconut", frames="30,156")),
    # the bonus timer held at its start value (measured: with monkeys and coconut held off too, the
    # idle mother never dies)
    "frozen_timer": AleCounterpart(
        (RamWrite(TIMER, START_TIMER),), exact=True,
        measured=RANDOM_GAMES.format(mod="frozen_timer", frames="19,144")),
}
