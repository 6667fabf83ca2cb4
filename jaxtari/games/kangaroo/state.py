"""Kangaroo's state: the cartridge's RAM, one field per quantity (each names its byte), and the
values the picture of the frame was drawn from (:class:`Picture`); the RAM bytes each field mirrors
(:data:`FIELD_RAM`), the state of a RAM snapshot and the snapshot of a state."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import pytree_dataclass
from jaxtari.games.kangaroo import constants as k


@pytree_dataclass
class Picture:
    """What the frame's picture was drawn from. The kernel runs between the vertical blank (and
    bank 0's ape and touches) and the overscan, so it reads most bytes as they were then, before
    the overscan moved anything (``ram``: every mirrored field by name, see :data:`FIELD_RAM`); the
    player-1 list (the baby, the mother, the bell and fruit) was built in the previous frame's
    overscan, before its pickups, so those objects are drawn as they were then (``list_*``)."""

    ram: dict                 # field name -> its value at the kernel
    list_row: jax.Array       # ram[16] at the end of the previous frame
    list_x: jax.Array         # ram[17]
    list_pose: jax.Array      # ram[18]
    list_frame: jax.Array     # ram[57]
    list_state: jax.Array     # ram[54]
    list_bell: jax.Array      # ram[41]
    list_fruit: jax.Array     # ram[42..44]
    list_level: jax.Array     # ram[36]
    # the player-1 list this frame's overscan built for the next picture (the same eight bytes,
    # before the pickups: a fruit eaten on a frame is still drawn on the next, measured; the list is
    # RAM of its own, so a byte written into RAM after it was built shows a frame later, as on ALE)
    built: dict


@pytree_dataclass
class KangarooState:
    frame: jax.Array          # frames since reset (not in RAM)
    key: jax.Array            # carried as every state does (the cartridge makes its own randomness)
    monkey_sprite: jax.Array  # ram[0..3]
    monkey_state: jax.Array   # ram[4..7]
    monkey_row: jax.Array     # ram[8..11]
    monkey_x: jax.Array       # ram[12..15]
    mother_row: jax.Array     # ram[16]
    mother_x: jax.Array       # ram[17]
    pose: jax.Array           # ram[18]
    counter: jax.Array        # ram[19]
    monkeys: jax.Array        # ram[20]
    apple_flags: jax.Array    # ram[21..24]
    apple_row: jax.Array      # ram[25..27]
    apple_x: jax.Array        # ram[28..30]
    apples: jax.Array         # ram[31]
    throw_index: jax.Array    # ram[32]
    coconut_row: jax.Array    # ram[33]
    coconut_x: jax.Array      # ram[34]
    coconut_state: jax.Array  # ram[35]
    level: jax.Array          # ram[36]
    difficulty: jax.Array     # ram[38]
    score_high: jax.Array     # ram[39], BCD
    score_low: jax.Array      # ram[40], BCD
    bell: jax.Array           # ram[41]
    fruit: jax.Array          # ram[42..44]
    lives: jax.Array          # ram[45]
    music_flags: jax.Array    # ram[53]
    mother_state: jax.Array   # ram[54]
    monkey_pace: jax.Array    # ram[55]
    music: jax.Array          # ram[56]
    frame_count: jax.Array    # ram[57]
    attract: jax.Array        # ram[58]
    timer: jax.Array          # ram[59]
    walk_phase: jax.Array     # ram[60]
    picture: Picture          # what this frame's picture was drawn from (not RAM of its own)


def reset_ram(c) -> dict[int, int]:
    """ram[index] after ALE's reset, for the bytes the state mirrors (measured, ale-py 0.12.1): the
    game is waiting through its start tune; ``c`` the game's Constants (its starting numbers and
    ALE mode)."""
    return {
        **{k.RAM_MONKEY_STATE + i: k.MONKEY_EMPTY for i in range(k.MONKEY_SLOTS)},
        **{k.RAM_MONKEY_ROW + i: k.MONKEY_EMPTY for i in range(k.MONKEY_SLOTS)},
        **{k.RAM_MONKEY_X + i: k.MONKEY_IDLE_X for i in range(k.MONKEY_SLOTS)},
        **{k.RAM_APPLE_FLAGS + i: k.APPLE_FLAGS_START for i in range(k.MONKEY_SLOTS)},
        **{k.RAM_APPLE_ROW + i: k.MONKEY_EMPTY for i in range(k.APPLE_SLOTS)},
        k.RAM_APPLE_X: k.MONKEY_EMPTY,
        k.RAM_MOTHER_ROW: c.start_row, k.RAM_MOTHER_X: c.start_x, k.RAM_POSE: k.START_POSE,
        k.RAM_COUNTER: k.START_COUNTER, k.RAM_COCONUT_ROW: k.COCONUT_NONE, k.RAM_COCONUT_X: 0,
        k.RAM_COCONUT_STATE: k.COCONUT_NONE, k.RAM_LEVEL: 0, k.RAM_DIFFICULTY: 0, k.RAM_SCORE_HIGH: 0,
        k.RAM_SCORE_LOW: 0, k.RAM_BELL: 0, k.RAM_FRUIT: 0, k.RAM_FRUIT + 1: 0, k.RAM_FRUIT + 2: 0,
        k.RAM_LIVES: c.start_lives, k.RAM_MUSIC_FLAGS: k.START_MUSIC_FLAGS,
        # rule: timing.start-wait
        k.RAM_MOTHER_STATE: k.WAITING, k.RAM_MONKEY_PACE: 0, k.RAM_MUSIC: k.START_MUSIC,
        k.RAM_FRAME_COUNT: 0, k.RAM_ATTRACT: 0, k.RAM_TIMER: c.start_timer, k.RAM_WALK_PHASE: 0,
        **k.MODE_RESET_RAM[c.mode],
    }


# state field -> its RAM index (fruit: the first of three)
FIELD_RAM = {
    "monkey_sprite": k.RAM_MONKEY_SPRITE, "monkey_state": k.RAM_MONKEY_STATE,
    "monkey_row": k.RAM_MONKEY_ROW, "monkey_x": k.RAM_MONKEY_X, "monkeys": k.RAM_MONKEYS,
    "apple_flags": k.RAM_APPLE_FLAGS, "apple_row": k.RAM_APPLE_ROW, "apple_x": k.RAM_APPLE_X,
    "apples": k.RAM_APPLES, "throw_index": k.RAM_THROW_INDEX,
    "mother_row": k.RAM_MOTHER_ROW, "mother_x": k.RAM_MOTHER_X, "pose": k.RAM_POSE,
    "counter": k.RAM_COUNTER, "coconut_row": k.RAM_COCONUT_ROW, "coconut_x": k.RAM_COCONUT_X,
    "coconut_state": k.RAM_COCONUT_STATE, "level": k.RAM_LEVEL, "difficulty": k.RAM_DIFFICULTY,
    "score_high": k.RAM_SCORE_HIGH, "score_low": k.RAM_SCORE_LOW, "bell": k.RAM_BELL,
    "fruit": k.RAM_FRUIT, "lives": k.RAM_LIVES, "music_flags": k.RAM_MUSIC_FLAGS,
    "mother_state": k.RAM_MOTHER_STATE, "monkey_pace": k.RAM_MONKEY_PACE, "music": k.RAM_MUSIC,
    "frame_count": k.RAM_FRAME_COUNT, "attract": k.RAM_ATTRACT, "timer": k.RAM_TIMER,
    "walk_phase": k.RAM_WALK_PHASE,
}
# the fields holding several bytes: how many
LENGTHS = {"fruit": 3, "monkey_sprite": k.MONKEY_SLOTS, "monkey_state": k.MONKEY_SLOTS,
           "monkey_row": k.MONKEY_SLOTS, "monkey_x": k.MONKEY_SLOTS, "apple_flags": k.MONKEY_SLOTS,
           "apple_row": k.APPLE_SLOTS, "apple_x": k.APPLE_SLOTS}


def state_from_ram(ram, *, frame: int = 0, key=None) -> KangarooState:
    """The state that mirrors a RAM snapshot of the cartridge (128 bytes, ALE's ``getRAM``);
    ``frame`` (frames since reset) is not in RAM."""
    r = np.asarray(ram, np.int64)
    fields = {name: (jnp.asarray(r[i:i + LENGTHS[name]], jnp.int32) if name in LENGTHS
                     else jnp.int32(r[i])) for name, i in FIELD_RAM.items()}
    # the picture before a first step: drawn from the snapshot itself (ALE's screen of that frame
    # was drawn from the frame before, which the snapshot does not hold)
    return KangarooState(frame=jnp.int32(frame), key=jax.random.key(0) if key is None else key,
                         picture=picture_of(fields, fields), **fields)


# the player-1 list's fields: Picture.list_<name> is the state's <field> when the list was built
LIST_FIELDS = {"row": "mother_row", "x": "mother_x", "pose": "pose", "frame": "frame_count",
               "state": "mother_state", "bell": "bell", "fruit": "fruit", "level": "level"}


def built_list(fields) -> dict:
    """The player-1 list built from ``fields`` (a state or fields by name)."""
    get = (lambda n: fields[n]) if isinstance(fields, dict) else (lambda n: getattr(fields, n))
    return {name: get(field) for name, field in LIST_FIELDS.items()}


def picture_of(kernel, previous) -> Picture:
    """The picture's inputs: ``kernel`` (fields by name) as the kernel read them, and the player-1
    list ``previous`` built (a state: the list its frame built; fields by name: built from them).
    ``built`` starts as the kernel's fields; the step replaces it with the list its overscan
    builds."""
    listed = built_list(previous) if isinstance(previous, dict) else previous.picture.built
    return Picture(ram={n: (kernel[n] if isinstance(kernel, dict) else getattr(kernel, n))
                        for n in FIELD_RAM},
                   **{f"list_{name}": value for name, value in listed.items()},
                   built=built_list(kernel))


def ram_of_state(state) -> dict[int, int]:
    """The RAM bytes a (single, concrete) state mirrors: {index: value}."""
    out = {}
    for name, i in FIELD_RAM.items():
        value = np.asarray(getattr(state, name))
        if name in LENGTHS:
            out.update({i + j: int(v) for j, v in enumerate(value)})
        else:
            out[i] = int(value)
    return out


def with_ram(state, writes) -> KangarooState:
    """``state`` with mirrored RAM bytes replaced ({index: value}): a RAM write into the console
    made on the state (a probe's poke). Bytes the state does not mirror are refused by name."""
    fields = {}
    for index, value in writes.items():
        name, offset = _field_of(int(index))
        current = fields.get(name, getattr(state, name))
        fields[name] = (current.at[offset].set(int(value)) if name in LENGTHS
                        else jnp.asarray(int(value), current.dtype))
    return state.replace(**fields)


def _field_of(index: int) -> tuple[str, int]:
    for name, first in FIELD_RAM.items():
        if first <= index < first + LENGTHS.get(name, 1):
            return name, index - first
    raise ValueError(f"ram[{index}] is not a byte the Kangaroo state mirrors; mirrored: "
                     f"{sorted(ram for ram in _MIRRORED)}")


_MIRRORED = [first + i for name, first in FIELD_RAM.items() for i in range(LENGTHS.get(name, 1))]
