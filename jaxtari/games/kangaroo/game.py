"""Kangaroo's game: reset, the frame in the cartridge's order (:mod:`.logic`), score, lives, the end,
the signals the comparisons read, and the state that mirrors a RAM snapshot."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import Game, ObjectGroup, joystick
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo import logic
from jaxtari.games.kangaroo.ape import ape
from jaxtari.games.kangaroo import monkeys
from jaxtari.games.kangaroo import render
from jaxtari.games.kangaroo.state import KangarooState, Picture


@dataclasses.dataclass(frozen=True)
class KangarooConstants:
    """What the mods switch (:mod:`.mods`) and ALE's game mode; the cartridge's numbers are in
    :mod:`.constants`. Each switch holds bytes at a value after reset and after every frame, as the
    mod's ALE counterpart writes them into the console's RAM, so the two sides play the same
    modified game."""

    # rule: spawning.monkeys-come-down
    monkeys_held_off: bool = False  # the monkeys' rows (ram[8..11]) held at 127: none comes down
    # rule: spawning.ape-first-coconut
    coconut_held_off: bool = False  # the coconut's row (ram[33]) held at 255: the ape drops none
    # rule: timing.bonus-timer
    timer_frozen: bool = False  # the bonus timer (ram[59]) held at its start, 2,000
    # rule: progression.mode-1-harder
    mode: int = 0  # ALE's game mode, 0 or 1 (:data:`.constants.MODE_RESET_RAM`)


# ram[index] after ALE's reset, for the bytes the state mirrors (measured, ale-py 0.12.1): the game
# is waiting through its start tune
RESET_RAM = {
    **{k.RAM_MONKEY_STATE + i: k.MONKEY_EMPTY for i in range(k.MONKEY_SLOTS)},
    **{k.RAM_MONKEY_ROW + i: k.MONKEY_EMPTY for i in range(k.MONKEY_SLOTS)},
    **{k.RAM_MONKEY_X + i: k.MONKEY_IDLE_X for i in range(k.MONKEY_SLOTS)},
    **{k.RAM_APPLE_FLAGS + i: k.APPLE_FLAGS_START for i in range(k.MONKEY_SLOTS)},
    **{k.RAM_APPLE_ROW + i: k.MONKEY_EMPTY for i in range(k.APPLE_SLOTS)},
    k.RAM_APPLE_X: k.MONKEY_EMPTY,
    k.RAM_MOTHER_ROW: k.START_ROW, k.RAM_MOTHER_X: k.START_X, k.RAM_POSE: k.START_POSE,
    k.RAM_COUNTER: k.START_COUNTER, k.RAM_COCONUT_ROW: k.COCONUT_NONE, k.RAM_COCONUT_X: 0,
    k.RAM_COCONUT_STATE: k.COCONUT_NONE, k.RAM_LEVEL: 0, k.RAM_DIFFICULTY: 0, k.RAM_SCORE_HIGH: 0,
    k.RAM_SCORE_LOW: 0, k.RAM_BELL: 0, k.RAM_FRUIT: 0, k.RAM_FRUIT + 1: 0, k.RAM_FRUIT + 2: 0,
    k.RAM_LIVES: k.START_LIVES, k.RAM_MUSIC_FLAGS: k.START_MUSIC_FLAGS,
    # rule: timing.start-wait
    k.RAM_MOTHER_STATE: k.WAITING, k.RAM_MONKEY_PACE: 0, k.RAM_MUSIC: k.START_MUSIC,
    k.RAM_FRAME_COUNT: 0, k.RAM_ATTRACT: 0, k.RAM_TIMER: k.START_TIMER, k.RAM_WALK_PHASE: 0,
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


def bcd(byte):
    return (byte >> 4) * 10 + (byte & 0xF)


class Kangaroo(Game):
    name = "kangaroo"
    # rule: action.minimal-set
    minimal_actions = tuple(range(18))  # ALE's minimal set for Kangaroo is all 18 actions
    Constants = KangarooConstants
    mechanics = ()

    def _reset(self, key):
        if self.consts.mode not in k.MODES:
            raise ValueError(f"Kangaroo has ALE modes {k.MODES}; got mode={self.consts.mode!r}")
        r = np.zeros(128, np.int64)
        for i, v in {**RESET_RAM, **k.MODE_RESET_RAM[self.consts.mode]}.items():
            r[i] = v
        return self._hold(state_from_ram(r, key=key))

    def _hold(self, s):
        c = self.consts
        if c.monkeys_held_off:
            s = s.replace(monkey_row=jnp.full(k.MONKEY_SLOTS, k.MONKEY_HELD_OFF, jnp.int32))
        if c.coconut_held_off:
            s = s.replace(coconut_row=jnp.int32(k.COCONUT_NONE))
        if c.timer_frozen:
            s = s.replace(timer=jnp.int32(k.START_TIMER))
        return s

    def _step(self, state, ale_action):
        joy = joystick(ale_action)
        s = logic.vertical_blank(state)
        ended = ((s.attract & k.SIGN) != 0) & ((state.attract & k.SIGN) == 0)
        attract = logic.attract_frame(s)
        s = logic.where((s.mother_state & k.SIGN) != 0, s, monkeys.spawn(s))
        s = monkeys.cap_pace(s)
        s = logic.music(s)
        s = logic.where((s.mother_state & k.SIGN) != 0, s, ape(monkeys.touch_mother(s)))
        picture = picture_of(s, state)  # the kernel draws here
        s = monkeys.punch_monkeys(s)
        s = logic.bell_clock(s)
        s = logic.overscan(s, joy, monkeys.think_all, monkeys.fly_apples, monkeys.punched_apple,
                           render.glove_enabled(picture))
        built = picture.replace(built=built_list(s))  # the next picture's list, before the pickups
        s = logic.pickups(s)
        s = logic.where(ended, attract, s)  # the game over: the attract mode takes the frame
        s = self._hold(s).replace(frame=state.frame + 1, picture=built)
        return s, self.score(s) - self.score(state)

    # rule: termination.last-life-lost
    def is_terminal(self, state):
        return state.lives == k.BYTE

    def score(self, state):
        return (bcd(state.score_high) * 100 + bcd(state.score_low)) * 100

    def lives(self, state):
        # ALE's lives(): ram[45] + 1 (0 once the game is over: 255 + 1 wraps)
        return (state.lives + 1) & k.BYTE

    def render(self, state):
        return render.render(state)

    def render_gray84(self, state):
        return render.render_gray84(state)

    def objects(self, state):
        """Every object as the box the picture draws it in (render.py; the reference's RAM
        decoding, alignment/reference/games/kangaroo/ram.py, reads the same boxes and both are checked on
        ALE: tests/games/test_kangaroo_render.py): the mother's sprite (8 wide, her pose's rows
        tall), the monkeys' (8 x 15 from their second line), the apples in flight (missile 0: 2 x 3
        on lines 5-7 of the row above their own, x + 14; a slot's apple not yet let go is not drawn), the coconut (the ball: 2 x 3 on lines 5-7 of its
        row), the fruit and the bell (8 x 16 from their row's first line, x + 15). The boxes are
        of the state (the end of the frame); the picture of the next frame draws them there."""
        playing = (state.attract & k.SIGN) == 0
        height = jnp.asarray(k.POSE_HEIGHT, jnp.int32)[state.pose & k.POSE_FRAME]
        monkeys = state.monkey_row < k.MONKEY_HELD_OFF
        level = jnp.asarray(state.level)
        fruit_at = level[..., None] + k.FRUIT_STRIDE * jnp.arange(3)
        apple_on = ((state.apple_row != k.MONKEY_EMPTY)
                    & ((state.apple_flags[..., :k.APPLE_SLOTS] & k.SIGN) == 0) & playing)
        coconut_on = (state.coconut_row != k.COCONUT_NONE) & playing
        fruit_on = ((state.fruit & k.FRUIT_GONE) == 0) & playing
        bell_on = (state.bell != k.BELL_GONE) & playing
        coconut_row = state.coconut_row - jnp.asarray(k.LAYOUT_ROW_BASE, jnp.int32)[level]
        return {
            "player": ObjectGroup.make(state.mother_x + k.MOTHER_X_OFFSET,
                                       state.mother_row * k.ROW_LINES + k.MOTHER_Y_OFFSET,
                                       k.SPRITE_WIDTH, height * k.ROW_LINES, playing,
                                       pose=state.pose),
            "monkeys": ObjectGroup.make(state.monkey_x + k.MONKEY_X_OFFSET,
                                        state.monkey_row * k.ROW_LINES + k.MONKEY_Y_OFFSET,
                                        k.SPRITE_WIDTH, k.MONKEY_LINES, monkeys & playing),
            "apples": ObjectGroup.make(
                jnp.where(apple_on, state.apple_x + k.APPLE_X_OFFSET, 0),
                jnp.where(apple_on, (state.apple_row - 1) * k.ROW_LINES + k.MOTHER_Y_OFFSET
                          + k.MISSILE_TOP, 0), k.APPLE_WIDTH, k.MISSILE_LINES, apple_on),
            "coconut": ObjectGroup.make(
                jnp.where(coconut_on, state.coconut_x + k.APPLE_X_OFFSET, 0),
                jnp.where(coconut_on, coconut_row * k.ROW_LINES + k.MOTHER_Y_OFFSET
                          + k.MISSILE_TOP, 0), k.APPLE_WIDTH, k.MISSILE_LINES, coconut_on),
            "fruit": ObjectGroup.make(
                jnp.where(fruit_on, jnp.asarray(k.FRUIT_X, jnp.int32)[fruit_at] + k.MOTHER_X_OFFSET, 0),
                jnp.where(fruit_on, jnp.asarray(k.FRUIT_ROW, jnp.int32)[fruit_at] * k.ROW_LINES
                          + k.MOTHER_Y_OFFSET, 0), k.SPRITE_WIDTH, k.ITEM_LINES, fruit_on,
                kind=state.fruit & k.FRUIT_KIND),
            "bell": ObjectGroup.make(
                jnp.where(bell_on, jnp.asarray(k.BELL_X, jnp.int32)[level] + k.MOTHER_X_OFFSET, 0),
                jnp.where(bell_on, k.BELL_ROW * k.ROW_LINES + k.MOTHER_Y_OFFSET, 0),
                k.SPRITE_WIDTH, k.ITEM_LINES, bell_on),
        }

    def signals(self, state):
        """The signals of alignment/reference/games/kangaroo/ram.py, decoded from the state as the reference
        decodes them from RAM (the same offsets: sprites' left x and top line)."""
        row = state.mother_row
        monkeys = state.monkey_row < k.MONKEY_HELD_OFF
        timer = state.timer

        def digit(d):
            return jnp.where(d == k.BLANK_DIGIT, 0, d)

        return {
            "mother_x": state.mother_x + k.MOTHER_X_OFFSET,
            "mother_y": row * k.ROW_LINES + k.MOTHER_Y_OFFSET,
            "mother_floor": jnp.clip((k.START_ROW - row) // k.ROWS_PER_FLOOR, 0, k.FLOORS - 1),
            "mother_pose": state.pose,
            "monkeys_active": monkeys[..., ::-1],
            "monkey_x": jnp.where(monkeys, state.monkey_x + k.MONKEY_X_OFFSET, 0)[..., ::-1],
            "monkey_y": jnp.where(monkeys, state.monkey_row * k.ROW_LINES + k.MONKEY_Y_OFFSET, 0)[..., ::-1],
            "thrown_active": state.apple_row != k.MONKEY_EMPTY,
            "coconut_active": state.coconut_row != k.COCONUT_NONE,
            "coconut_x": state.coconut_x,
            "fruit_present": (state.fruit & k.FRUIT_GONE) == 0,
            "bell_present": state.bell != k.BELL_GONE,
            "timer": digit(timer >> 4) * 10 + digit(timer & 0xF),
            "level": state.level,
        }
