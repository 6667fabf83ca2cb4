"""Asteroids' ground truth: the RAM map of ALE's cartridge and the quantities decoded from it.

Sources. Every address below is read off the public commented disassembly of the cartridge
(DNSDEBRO/Disassemblies @ a74a6312bac5, Atari2600/Asteroids/asteroids.asm: its zero-page variable
list from $80, the tables it names, the bit masks of its game and player state bytes), and each one
is re-checked on the emulator (ale-py 0.12.1, sticky actions off, one frame per act, ALE's default
mode 0 and difficulty 0) by tests/games/test_asteroids_ram.py. Offsets between the cartridge's
coordinates and ALE's screen are measured there too (``SHIP_SCREEN_*``).

What the emulator showed beyond the listing (measured, see alignment/reference/games/asteroids/NOTES.md):
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

from jaxtari.games.asteroids.constants import COARSE_PIXELS, FINE_PIXELS

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


# ---- the object features' inputs (alignment.reference.features) ------------------------------------
# The state fields ``Asteroids.observation`` (objects.py) reads, by their paths in the nested state,
# each the RAM byte(s) it mirrors (state.py); the field's flat memory is ram[3..56] then its padding
# (slots past the arrays' end, which the objects never read).
OBSERVED_BYTES = {
    "ship.x_code": SHIP_X, "ship.y": SHIP_Y, "ship.subpixel": SHIP_SUBPIXEL,
    "ship.rotation": PLAYER_ATTRIBUTES, "ship.shot_x": SHOT_X, "ship.shot_y": SHOT_Y,
    "player.feature_timer": FEATURE_TIMER,
}
FIELD_BYTES = 3 * 2 * LIST_LENGTH  # ram[3..56]: ys, position codes, attributes


def observation_fields(rams: np.ndarray) -> dict[str, np.ndarray]:
    """The JAX state fields ``Asteroids.observation`` reads, for a batch of RAM snapshots (N, 128),
    keyed by their dotted paths (see alignment.reference.features)."""
    from jaxtari.games.asteroids.logic import field

    r = np.asarray(rams).astype(np.int32).reshape(-1, 128)
    out = {name: r[:, list(a)] if isinstance(a, tuple) else r[:, a]
           for name, a in OBSERVED_BYTES.items()}
    out["ship.rotation"] = out["ship.rotation"] & ROTATION_MASK
    memory = np.zeros((len(r), field.MEMORY), np.int32)
    memory[:, :FIELD_BYTES] = r[:, ASTEROID_Y:ASTEROID_Y + FIELD_BYTES]
    out["field.memory"] = memory
    return out


# ---- the signals both sides report (the catalog's, beside its core score, lives, terminated) -------
# Each is an extractor from ALE's RAM (below) and the JAX game's ``signals(state)[name]``
# (jaxtari/games/asteroids/objects.py), checked equal on every frame of whole random games by
# tests/games/test_asteroids_objects.py.
PLAY_HEIGHT = 89         # the kernel's rows: an edge copy is 89 rows from its asteroid (disassembly H_KERNEL)
SIGNED_FROM = 128        # an asteroid y from 128 on is above the top (negative as a signed byte)
ASTEROID_SLOTS = 2 * LIST_LENGTH
SIZE_CODE = (0, 0, 1, 2)  # the signals' size by kind (attribute bits 4-5): 0 large, 1 medium, 2 small


def asteroid_objects(ram) -> dict[str, np.ndarray]:
    """Per asteroid slot (18: the up list, then the down list): whether it holds an asteroid object
    and its collision pixel column, signed y, size code and hit bit (0 where it holds none). An
    asteroid above the top and its copy at its list's end (89 rows lower, the same code and
    attributes) are one object, kept at the slot above the top."""
    r = _ram(ram)
    out = {name: np.zeros(ASTEROID_SLOTS, np.int64) for name in ("active", "x", "y", "size", "hit")}
    for first in (UP_LIST_FIRST, DOWN_LIST_FIRST):
        listed = asteroid_list(r, first)
        top, last = (listed[0], listed[-1]) if listed else (None, None)
        merged = (len(listed) > 1 and top["y"] >= SIGNED_FROM
                  and (last["y"] - PLAY_HEIGHT) % 256 == top["y"]
                  and r[ASTEROID_X + last["slot"]] == r[ASTEROID_X + top["slot"]]
                  and r[ASTEROID_ATTRIBUTES + last["slot"]] == r[ASTEROID_ATTRIBUTES + top["slot"]])
        for a in listed:
            if merged and a is last:
                continue
            slot = a["slot"]
            out["active"][slot] = 1
            out["x"][slot] = a["x"]
            out["y"][slot] = a["y"] - 256 if a["y"] >= SIGNED_FROM else a["y"]
            out["size"][slot] = SIZE_CODE[a["kind"]]
            out["hit"][slot] = int(a["hit"])
    return out


def _shot_field(name):
    return lambda ram: np.asarray([s[name] for s in shots(ram)], np.int64)


def signals():
    from alignment.signals import Signal, jax_signal

    src = f"{SOURCE}; re-checked on ale-py 0.12.1 (tests/games/test_asteroids_ram.py)"

    def asteroid(name):
        return lambda ram: asteroid_objects(ram)[name]

    slots = (ASTEROID_SLOTS,)
    return [
        Signal("ship_x", ship_x, jax_signal("ship_x"), 0, "px",
               f"ram[{SHIP_X}] (position code) as ConvertHorizPosToPixelValue reads it; {src}",
               description="the ship's collision pixel column (its sprite's left edge is 5 further)"),
        Signal("ship_y", ship_y, jax_signal("ship_y"), 0, "rows",
               f"ram[{SHIP_Y}]; {src}",
               description="the ship's row (2 lines each, top line 2y + 18); 224 while away"),
        Signal("ship_rotation", ship_rotation, jax_signal("ship_rotation"), 0, "heading",
               f"ram[{PLAYER_ATTRIBUTES}] bits 0-3; {src}",
               description="0 up, +1 anticlockwise (16 headings)"),
        Signal("ship_visible", lambda ram: int(ship_visible(ram)), jax_signal("ship_visible"), 0,
               "bool", f"ram[{SHIP_Y}] != 224; {src}",
               description="the ship is on the screen (not in hyperspace or waiting to respawn)"),
        Signal("shot_x", _shot_field("x"), jax_signal("shot_x"), 0, "px",
               f"ram[83..84] as ConvertHorizPosToPixelValue reads them; {src}", shape=(2,)),
        Signal("shot_y", lambda ram: np.asarray([int(_ram(ram)[a]) for a in SHOT_Y], np.int64),
               jax_signal("shot_y"), 0, "rows", f"ram[86..87]; {src}", shape=(2,),
               description="224: the slot is free"),
        Signal("shot_active", lambda ram: np.asarray(
                   [int(_ram(ram)[a] != OFF_SCREEN_Y) for a in SHOT_Y], np.int64),
               jax_signal("shot_active"), 0, "bool", f"ram[86..87] != 224; {src}", shape=(2,)),
        Signal("asteroid_active", asteroid("active"), jax_signal("asteroid_active"), 0, "bool",
               f"ram[3..20] up to each list's 224, an edge pair one object; {src}", shape=slots,
               description="per slot (up list 0-8, down list 9-17), drawn this frame or not"),
        Signal("asteroid_x", asteroid("x"), jax_signal("asteroid_x"), 0, "px",
               f"ram[21..38] as ConvertHorizPosToPixelValue reads them; {src}", shape=slots),
        Signal("asteroid_y", asteroid("y"), jax_signal("asteroid_y"), 0, "rows",
               f"ram[3..20] as signed bytes (an edge pair at its copy above the top); {src}",
               shape=slots),
        Signal("asteroid_size", asteroid("size"), jax_signal("asteroid_size"), 0, "code",
               f"ram[39..56] bits 4-5: 0 large, 1 medium, 2 small; {src}", shape=slots),
        Signal("asteroid_hit", asteroid("hit"), jax_signal("asteroid_hit"), 0, "bool",
               f"ram[39..56] bit 6 (drawn as debris until split or removed); {src}", shape=slots),
    ]


# ---- pokes: quantities a probe writes on both sides (tests/games/test_asteroids_pokes.py) ----------
MAX_SCORE = 99_990       # two BCD bytes of tens
SCORE_UNIT = 10
MAX_POKED_LIVES = 9      # one digit on the screen
EMPTY_UP_END, EMPTY_DOWN_END = UP_LIST_FIRST, DOWN_LIST_FIRST  # the list ends of empty lists (measured)


def _bcd_byte(value: int) -> int:
    return ((value // 10) << 4) | (value % 10)


def score_bytes(value: int) -> dict[int, int]:
    """The BCD bytes of a score (a multiple of 10): ram[61] thousands, ram[62] hundreds and tens."""
    tens = int(value) // SCORE_UNIT
    return {SCORE[0]: _bcd_byte(tens // 100), SCORE[1]: _bcd_byte(tens % 100)}


def wave_bytes(_value: int = 1) -> dict[int, int]:
    """Both lists emptied (their first y 224, their ends at their first slots): the overscan of
    the next frame lays out a new wave, its size by the score."""
    return {ASTEROID_Y + UP_LIST_FIRST: OFF_SCREEN_Y, ASTEROID_Y + DOWN_LIST_FIRST: OFF_SCREEN_Y,
            UP_LIST_END: EMPTY_UP_END, DOWN_LIST_END: EMPTY_DOWN_END}


def _jax_score(state, value):
    import jax.numpy as jnp

    b = score_bytes(value)
    return state.replace(player=state.player.replace(
        score=jnp.asarray([b[SCORE[0]], b[SCORE[1]]], jnp.int32)))


def _jax_lives(state, value):
    import jax.numpy as jnp

    return state.replace(player=state.player.replace(lives=jnp.int32(value)))


def _jax_wave(state, value):
    import jax.numpy as jnp

    f = state.field
    memory = f.memory.at[UP_LIST_FIRST].set(OFF_SCREEN_Y).at[DOWN_LIST_FIRST].set(OFF_SCREEN_Y)
    return state.replace(field=f.replace(memory=memory, list_end=jnp.asarray(
        [EMPTY_UP_END, EMPTY_DOWN_END], jnp.int32)))


def pokes():
    from alignment.signals import Poke

    return [
        Poke("score", 0, MAX_SCORE, score_bytes, _jax_score,
             f"BCD ram[61..62] (thousands; hundreds and tens), {SOURCE}", score=True,
             description="the score (a multiple of 10; a bonus life when a hit carries into "
                         "thousands ending in 0 or 5, waves of 3 large asteroids a list from "
                         "1,000 points, 4 from 15,000)"),
        Poke("lives", 1, MAX_POKED_LIVES, lambda v: {PLAYER_ATTRIBUTES: int(v) << LIVES_SHIFT},
             _jax_lives, f"ram[{PLAYER_ATTRIBUTES}] bits 4-7 (its low nibble the heading, 0 at "
             f"reset), {SOURCE}", last_frame=0,
             description="the lives, written at reset only (the byte holds the ship's heading too)"),
        Poke("wave", 1, 1, wave_bytes, _jax_wave,
             f"ram[3], ram[12] (each list's first y: 224 ends a list), ram[92..93] (the list "
             f"ends), {SOURCE}",
             description="1: the field cleared; the next frame's overscan lays out a new wave "
                         "(2 large asteroids a list below 1,000 points, 3 from 1,000, 4 from "
                         "15,000: poke the score first for a deeper wave)"),
    ]


# ---- the mods' ALE halves (jaxtari/games/asteroids/mods.py; tests/games/test_asteroids_mods.py) ------
def _counterparts():
    from alignment.signals import AleCounterpart, RamWrite

    measured = ("tests/games/test_asteroids_mods.py (2026-12-06, ale-py 0.12.1): whole random games "
                "with the writes on ALE and the mod on the JAX game, every mirrored RAM byte "
                "equal on every frame{more}")
    lives_nibble = 0xF0
    return {
        # the lives nibble of ram[60] held at the start's 4 (its low nibble, the heading, kept).
        # ALE's lives() is the nibble as the frame left it (ALE reads it inside act(), before this
        # write), so it reads 3 on a death's frame and 5 on a bonus life's, 4 again on the next
        # (measured, 2026-12-06: frames 256, 478, ... of a random game; 7448 of the gunner's
        # route); the RAM holds no byte that skips the cartridge's decrement or its bonus, so the
        # JAX game reports its lives the same way (game.lives: the nibble before the hold)
        "endless_lives": AleCounterpart(
            (RamWrite(PLAYER_ATTRIBUTES, 4 << LIVES_SHIFT, mask=lives_nibble),), exact=True,
            measured=measured.format(more="; deaths and bonus lives taken back, no game over; "
                                     "lives() equal too, 3 on a death's frame and 5 on a bonus "
                                     "life's as ALE reads them; tests/test_counterparts.py: two "
                                     "6,144-frame random games, every signal and the reward")),
        # the armed hyperspace flag cleared: the warp needs it set on the next logic frame
        "no_hyperspace": AleCounterpart(
            (RamWrite(PLAYER_STATE, 0, mask=PLAYER_HYPERSPACE),), exact=True,
            measured=measured.format(more="; held DOWN never leaves the screen")),
        # every asteroid slot's colour bits cleared (a hit's colour 4 and a new piece's random
        # colour included): the kernel reads them while it draws
        "one_colour_asteroids": AleCounterpart(
            tuple(RamWrite(ASTEROID_ATTRIBUTES + slot, 0, mask=ASTEROID_COLOUR_MASK)
                  for slot in range(2 * LIST_LENGTH)), exact=True,
            measured=measured.format(more="; the 210x160 screens equal on every frame")),
    }


ALE_MODS = _counterparts()
# RAM cannot express these as RAM writes between frames
JAX_ONLY_MODS = {
    "slow_asteroids": "the cartridge moves every listed asteroid one row (and, when its speed "
                      "counter runs out, one pixel) on every asteroid frame in code; no RAM byte "
                      "gates the move (the speed byte ram[59] only times the sideways steps), and "
                      "a RAM write holds a byte at one value, which cannot undo a move: halving "
                      "the speed needs the moves skipped, as the JAX mod does",
}
