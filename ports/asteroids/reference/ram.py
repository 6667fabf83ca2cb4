"""Asteroids' ground truth: the RAM map of ALE's cartridge and the quantities decoded from it.

Sources. Every address below is read off the public commented disassembly of the cartridge
(DNSDEBRO/Disassemblies @ a74a6312bac5, Atari2600/Asteroids/asteroids.asm: its zero-page variable
list from $80, the tables it names, the bit masks of its game and player state bytes), and each one
is re-checked on the emulator (ale-py 0.12.1, sticky actions off, one frame per act, ALE's default
mode 0 and difficulty 0) by tests/ports/test_asteroids_ram.py. Offsets between the cartridge's
coordinates and ALE's screen are measured there too (``SHIP_SCREEN_*``).

What the emulator showed beyond the listing (measured, see ports/asteroids/NOTES.md):
- the cartridge alternates frames: after a frame whose counter ram[57] is odd the screen holds the
  asteroids only; after an even one it holds the ship, its shots and nothing else. The ship's
  logic (joystick, rotation, fire, thrust, shots' flight) runs on the even frames only;
- ALE's ``lives()`` is ram[60] >> 4 and its reward the change of the BCD score in ram[61..62]
  (times ten: the last digit is always 0); the game is over on the frame the lives nibble reaches 0;
- in ALE's default difficulty (0, switch B) no UFO or satellite ever appears (the cartridge
  launches one only with the active player's difficulty switch at A): ram[81..82] and the UFO
  shot stay parked.

Coordinates. The cartridge keeps a horizontal position as its HMOVE/coarse-loop code (high nibble
the fine-motion value, bits 1-3 the coarse loop count, bit 0 the half of the screen);
:func:`horizontal_pixel` turns one into the pixel column its collision code uses (the
disassembly's ConvertHorizPosToPixelValue and its two tables). Vertical positions count two
scanlines a step inside the 89-step play kernel; 224 parks an object off the screen.
"""

from __future__ import annotations

import numpy as np

from ports.asteroids.game.constants import COARSE_PIXELS, FINE_PIXELS

SOURCE = "DNSDEBRO/Disassemblies @ a74a6312bac5, Atari2600/Asteroids/asteroids.asm"

# ---- addresses (index into ALE's getRAM(); the 6502 address is 0x80 + index) ------------------------
GAME_SELECTION = 0       # $80 the game variation; 0 in ALE's default mode
RANDOM = (1, 2)          # $81-$82 the 16-bit shift-register random number
ASTEROID_Y = 3           # $83.. 18 bytes: vertical positions, 224 ends a list
ASTEROID_X = 21          # $95.. 18 bytes: horizontal position codes
ASTEROID_ATTRIBUTES = 39  # $A7.. 18 bytes: size, hit, direction, colour (bits below)
LIST_LENGTH = 9          # each of the two lists has 9 slots (NUM_ASTEROIDS)
UP_LIST_FIRST = 0        # slots 0..8 hold the asteroids drifting up, sorted by height
DOWN_LIST_FIRST = 9      # slots 9..17 those drifting down
FRAME_COUNT = (57, 58)   # $B9-$BA frame counter, low byte first
ASTEROID_SPEED = 59      # $BB the asteroids' horizontal speed pattern
PLAYER_ATTRIBUTES = 60   # $BC lives << 4 | rotation (REFLECT bit 3 | direction bits 0-2)
SCORE = (61, 62)         # $BD-$BE BCD: thousands (two digits), then hundreds and tens
RESERVED_PLAYER = (63, 64, 65)  # $BF-$C1 the other player's attributes and score (2-player games)
GAME_STATE = 71          # $C7 (bits below)
PLAYER_STATE = 72        # $C8 (bits below)
SHIP_X = 73              # $C9 horizontal position code
SHIP_Y = 74              # $CA vertical position; 224 while in hyperspace or waiting to respawn
SHIP_SUBPIXEL = (75, 76)  # $CB-$CC fractional position, x then y
SHIP_VELOCITY_HIGH = (77, 78)  # $CD-$CE signed velocity, high byte, x then y
SHIP_VELOCITY_LOW = (79, 80)   # $CF-$D0 velocity, low byte, x then y
UFO_X, UFO_Y = 81, 82    # $D1, $D2
SHOT_X = (83, 84)        # $D3-$D4 the ship's two shots
UFO_SHOT_X = 85          # $D5
SHOT_Y = (86, 87)        # $D6-$D7; 224 when the slot is free
UFO_SHOT_Y = 88          # $D8
SHOT_DIRECTION = (89, 90)  # $D9-$DA range << 4 | rotation at the shot; 0 when the slot is free
UFO_SHOT_DIRECTION = 91  # $DB
UP_LIST_END = 92         # $DC index of the last up-list asteroid (0 when the list is empty)
DOWN_LIST_END = 93       # $DD index of the last down-list asteroid (9 when empty)
FEATURE_TIMER = 94       # $DE hyperspace / shield timer; bit 7 set during the ship's explosion
RESPAWN_Y = 95           # $DF the height the ship reappears at

# ---- values and bits ---------------------------------------------------------------------------------
OFF_SCREEN_Y = 224       # VERT_OUT_OF_RANGE: a parked object, the end of an asteroid list
LIVES_SHIFT = 4
ROTATION_MASK = 0x0F     # 16 headings: 0 up, counting up anticlockwise (4 left, 8 down, 12 right)
ASTEROID_FAST = 0x80
ASTEROID_HIT = 0x40      # exploding: drawn as debris until it is removed or split
ASTEROID_KIND_SHIFT, ASTEROID_KIND_MASK = 4, 0x3  # 0, 1: the two large shapes; 2 medium; 3 small
ASTEROID_LEFT = 0x08     # drifts left (else right)
ASTEROID_COLOUR_MASK = 0x07
KIND_LARGE_A, KIND_LARGE_B, KIND_MEDIUM, KIND_SMALL = 0, 1, 2, 3
SHOT_RANGE_SHIFT = 4
PLAYER_GAME_OVER, PLAYER_KILLED, PLAYER_HYPERSPACE = 0x01, 0x02, 0x04
PLAYER_SHIELD, PLAYER_FLIP = 0x40, 0x80
GAME_FIRE_HELD = 0x10    # the fire button's debounce: a shot needs a press after a release
GAME_UFO_COLLISION, GAME_UFO_IS_UFO = 0x08, 0x20

# Measured on ALE's screen (the ship facing up, its sprite's column 0 and first line): the screen
# column of the sprite's left edge is the position pixel plus this, its top line 2 * y plus this.
SHIP_SCREEN_X_OFFSET = 5
SHIP_SCREEN_Y_OFFSET = 18


def _ram(ram) -> np.ndarray:
    r = np.asarray(ram)
    if r.shape != (128,):
        raise ValueError(f"an Atari 2600 RAM snapshot has 128 bytes, got shape {r.shape}")
    return r.astype(np.int64)


def horizontal_pixel(code) -> int:
    """The pixel column (0..159) the cartridge's collision code reads from a position code."""
    c = int(code)
    if not 0 <= c <= 0xFF:
        raise ValueError(f"a horizontal position code is one byte (0..255), got {code!r}")
    return FINE_PIXELS[c >> 4] + COARSE_PIXELS[c & 0x0F]


def frame_count(ram) -> int:
    r = _ram(ram)
    return int(r[FRAME_COUNT[0]] | (r[FRAME_COUNT[1]] << 8))


def ship_frame(ram) -> bool:
    """Whether the screen of the frame that left this RAM shows the ship (else the asteroids)."""
    return frame_count(ram) % 2 == 0


def lives(ram) -> int:
    return int(_ram(ram)[PLAYER_ATTRIBUTES] >> LIVES_SHIFT)


def score(ram) -> int:
    r = _ram(ram)
    thousands = (r[SCORE[0]] >> 4) * 10 + (r[SCORE[0]] & 0x0F)
    tens = (r[SCORE[1]] >> 4) * 10 + (r[SCORE[1]] & 0x0F)
    return int(thousands * 1000 + tens * 10)


def ship_rotation(ram) -> int:
    return int(_ram(ram)[PLAYER_ATTRIBUTES] & ROTATION_MASK)


def ship_visible(ram) -> bool:
    return int(_ram(ram)[SHIP_Y]) != OFF_SCREEN_Y


def ship_x(ram) -> int:
    return horizontal_pixel(_ram(ram)[SHIP_X])


def ship_y(ram) -> int:
    return int(_ram(ram)[SHIP_Y])


def shots(ram) -> list[dict]:
    """The ship's two shot slots: active (a range left), x pixel, y, range, heading."""
    r = _ram(ram)
    out = []
    for i in range(len(SHOT_X)):
        d = int(r[SHOT_DIRECTION[i]])
        out.append({"active": d != 0, "x": horizontal_pixel(r[SHOT_X[i]]), "y": int(r[SHOT_Y[i]]),
                    "range": d >> SHOT_RANGE_SHIFT, "rotation": d & ROTATION_MASK})
    return out


def asteroid_list(ram, first: int) -> list[dict]:
    """The asteroids of one list (``UP_LIST_FIRST`` or ``DOWN_LIST_FIRST``), in slot order up to
    the list's end (the first slot whose y is ``OFF_SCREEN_Y``)."""
    if first not in (UP_LIST_FIRST, DOWN_LIST_FIRST):
        raise ValueError(f"an asteroid list starts at slot {UP_LIST_FIRST} or {DOWN_LIST_FIRST}, "
                         f"got {first!r}")
    r = _ram(ram)
    out = []
    for slot in range(first, first + LIST_LENGTH):
        y = int(r[ASTEROID_Y + slot])
        if y == OFF_SCREEN_Y:
            break
        a = int(r[ASTEROID_ATTRIBUTES + slot])
        out.append({"slot": slot, "x": horizontal_pixel(r[ASTEROID_X + slot]), "y": y,
                    "kind": (a >> ASTEROID_KIND_SHIFT) & ASTEROID_KIND_MASK,
                    "hit": bool(a & ASTEROID_HIT), "left": bool(a & ASTEROID_LEFT),
                    "colour": a & ASTEROID_COLOUR_MASK})
    return out


def asteroids(ram) -> list[dict]:
    """Every asteroid in RAM: the up-drifting list, then the down-drifting one."""
    return asteroid_list(ram, UP_LIST_FIRST) + asteroid_list(ram, DOWN_LIST_FIRST)


# Measured on ALE's screen: an asteroid's pixels lie inside this box from (x + X offset, 2 * y + Y
# offset); the box is wider and taller than the sprite because the cartridge shifts each sprite
# row with its own HMOVE and the two lists are drawn on alternate scanlines.
ASTEROID_SCREEN_X_OFFSET = 4
ASTEROID_SCREEN_Y_OFFSET = 20
ASTEROID_BOX_COLUMNS = 20
ASTEROID_BOX_LINES = 38


def ship_bytes(ram) -> dict[str, int]:
    """The ship's bytes under the names the JAX port's ``ship_signals`` gives them (the words
    joined high byte first), for the lockstep comparison."""
    r = _ram(ram)
    out = {
        "count": int(r[FRAME_COUNT[0]]),
        "rotation": int(r[PLAYER_ATTRIBUTES] & ROTATION_MASK),
        "ship_x_code": int(r[SHIP_X]), "ship_y": int(r[SHIP_Y]),
        "subpixel_x": int(r[SHIP_SUBPIXEL[0]]), "subpixel_y": int(r[SHIP_SUBPIXEL[1]]),
        "velocity_x": int(r[SHIP_VELOCITY_HIGH[0]] << 8 | r[SHIP_VELOCITY_LOW[0]]),
        "velocity_y": int(r[SHIP_VELOCITY_HIGH[1]] << 8 | r[SHIP_VELOCITY_LOW[1]]),
        "fire_held": int(bool(r[GAME_STATE] & GAME_FIRE_HELD)),
    }
    for i in range(len(SHOT_X)):
        out[f"shot{i}_x"] = int(r[SHOT_X[i]])
        out[f"shot{i}_y"] = int(r[SHOT_Y[i]])
        out[f"shot{i}_direction"] = int(r[SHOT_DIRECTION[i]])
    return out


ASTEROID_COLLISION = 66  # $C2 non-zero while a hit asteroid waits to be split (disassembly)
OBJECT_COLLISION = 97    # $E1 the round robin of collision checks: bit 7 a shot's turn, bit 6
                         # which shot, bits 0-1 the other objects' (UFO shot, UFO, ship)


def field_bytes(ram) -> dict[str, int]:
    """The asteroid field's bytes (ram[3..56], the speed counters, the random number, the list
    ends, the collision bytes) under the names the JAX port's ``field_signals`` gives them."""
    r = _ram(ram)
    out = {f"ram{a}": int(r[a]) for a in range(ASTEROID_Y, ASTEROID_ATTRIBUTES + 2 * LIST_LENGTH)}
    out["speed"] = int(r[ASTEROID_SPEED])
    out["random_low"], out["random_high"] = int(r[RANDOM[0]]), int(r[RANDOM[1]])
    out["up_end"], out["down_end"] = int(r[UP_LIST_END]), int(r[DOWN_LIST_END])
    out["asteroid_collision"] = int(r[ASTEROID_COLLISION])
    out["object_collision"] = int(r[OBJECT_COLLISION])
    return out


def player_bytes(ram) -> dict[str, int]:
    """Lives, score, the other player's attributes, the player state, the feature timer and the
    respawn height under the names the JAX port's ``player_signals`` gives them."""
    r = _ram(ram)
    return {"lives": int(r[PLAYER_ATTRIBUTES] >> LIVES_SHIFT), "score_thousands": int(r[SCORE[0]]),
            "score_tens": int(r[SCORE[1]]), "reserved": int(r[RESERVED_PLAYER[0]]),
            "player_flags": int(r[PLAYER_STATE]), "feature_timer": int(r[FEATURE_TIMER]),
            "respawn_y": int(r[RESPAWN_Y])}


def all_bytes(ram) -> dict[str, int]:
    """Every byte the JAX port mirrors (ship, field, player)."""
    return {**ship_bytes(ram), **field_bytes(ram), **player_bytes(ram)}
