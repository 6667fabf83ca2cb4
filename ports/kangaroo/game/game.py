"""Kangaroo's game: reset, the frame in the cartridge's order (:mod:`.logic`), score, lives, the end,
the signals the comparisons read, and the state that mirrors a RAM snapshot."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import Game, joystick
from . import constants as k
from . import logic
from .ape import ape
from .state import KangarooState


@dataclasses.dataclass(frozen=True)
class KangarooConstants:
    """Nothing tunable yet: the cartridge's numbers are in :mod:`.constants`."""


# ram[index] after ALE's reset, for the bytes the state mirrors (measured, ale-py 0.12.1): the game
# is waiting through its start tune
RESET_RAM = {
    k.RAM_MOTHER_ROW: k.START_ROW, k.RAM_MOTHER_X: k.START_X, k.RAM_POSE: k.START_POSE,
    k.RAM_COUNTER: k.START_COUNTER, k.RAM_COCONUT_ROW: k.COCONUT_NONE, k.RAM_COCONUT_X: 0,
    k.RAM_COCONUT_STATE: k.COCONUT_NONE, k.RAM_LEVEL: 0, k.RAM_DIFFICULTY: 0, k.RAM_SCORE_HIGH: 0,
    k.RAM_SCORE_LOW: 0, k.RAM_BELL: 0, k.RAM_FRUIT: 0, k.RAM_FRUIT + 1: 0, k.RAM_FRUIT + 2: 0,
    k.RAM_LIVES: k.START_LIVES, k.RAM_MUSIC_FLAGS: k.START_MUSIC_FLAGS,
    k.RAM_MOTHER_STATE: k.WAITING, k.RAM_MONKEY_PACE: 0, k.RAM_MUSIC: k.START_MUSIC,
    k.RAM_FRAME_COUNT: 0, k.RAM_ATTRACT: 0, k.RAM_TIMER: k.START_TIMER, k.RAM_WALK_PHASE: 0,
}

# state field -> its RAM index (fruit: the first of three)
FIELD_RAM = {
    "mother_row": k.RAM_MOTHER_ROW, "mother_x": k.RAM_MOTHER_X, "pose": k.RAM_POSE,
    "counter": k.RAM_COUNTER, "coconut_row": k.RAM_COCONUT_ROW, "coconut_x": k.RAM_COCONUT_X,
    "coconut_state": k.RAM_COCONUT_STATE, "level": k.RAM_LEVEL, "difficulty": k.RAM_DIFFICULTY,
    "score_high": k.RAM_SCORE_HIGH, "score_low": k.RAM_SCORE_LOW, "bell": k.RAM_BELL,
    "fruit": k.RAM_FRUIT, "lives": k.RAM_LIVES, "music_flags": k.RAM_MUSIC_FLAGS,
    "mother_state": k.RAM_MOTHER_STATE, "monkey_pace": k.RAM_MONKEY_PACE, "music": k.RAM_MUSIC,
    "frame_count": k.RAM_FRAME_COUNT, "attract": k.RAM_ATTRACT, "timer": k.RAM_TIMER,
    "walk_phase": k.RAM_WALK_PHASE,
}
FRUITS = 3


def state_from_ram(ram, *, frame: int = 0, key=None) -> KangarooState:
    """The state that mirrors a RAM snapshot of the cartridge (128 bytes, ALE's ``getRAM``);
    ``frame`` (frames since reset) is not in RAM."""
    r = np.asarray(ram, np.int64)
    fields = {name: jnp.int32(r[i]) for name, i in FIELD_RAM.items() if name != "fruit"}
    fields["fruit"] = jnp.asarray(r[k.RAM_FRUIT:k.RAM_FRUIT + FRUITS], jnp.int32)
    return KangarooState(frame=jnp.int32(frame), key=jax.random.key(0) if key is None else key,
                         **fields)


def ram_of_state(state) -> dict[int, int]:
    """The RAM bytes a (single, concrete) state mirrors: {index: value}."""
    out = {}
    for name, i in FIELD_RAM.items():
        value = np.asarray(getattr(state, name))
        if name == "fruit":
            out.update({i + j: int(v) for j, v in enumerate(value)})
        else:
            out[i] = int(value)
    return out


def bcd(byte):
    return (byte >> 4) * 10 + (byte & 0xF)


class Kangaroo(Game):
    name = "kangaroo"
    minimal_actions = tuple(range(18))  # ALE's minimal set for Kangaroo is all 18 actions
    Constants = KangarooConstants
    mechanics = ()

    def _reset(self, key):
        r = np.zeros(128, np.int64)
        for i, v in RESET_RAM.items():
            r[i] = v
        return state_from_ram(r, key=key)

    def _step(self, state, ale_action):
        joy = joystick(ale_action)
        s = logic.vertical_blank(state)
        s = logic.music(s)
        s = logic.where((s.mother_state & k.SIGN) != 0, s, ape(s))
        s = logic.bell_clock(s)
        s = logic.overscan(s, joy)
        s = logic.pickups(s)
        s = s.replace(frame=state.frame + 1)
        return s, self.score(s) - self.score(state)

    def is_terminal(self, state):
        return state.lives == k.BYTE

    def score(self, state):
        return (bcd(state.score_high) * 100 + bcd(state.score_low)) * 100

    def lives(self, state):
        # ALE's lives(): ram[45] + 1 (0 once the game is over: 255 + 1 wraps)
        return (state.lives + 1) & k.BYTE

    def signals(self, state):
        """The signals of ports/kangaroo/reference/ram.py that the port models so far."""
        row = state.mother_row
        floor = jnp.clip((k.START_ROW - row) // 6, 0, 3)
        return {
            "mother_x": state.mother_x + 15, "mother_y": row * 8 + 4, "mother_floor": floor,
            "mother_pose": state.pose,
            "fruit_present": (state.fruit & k.FRUIT_GONE) == 0,
            "bell_present": state.bell != k.BELL_GONE,
            "timer": jnp.where((state.timer >> 4) == 0xA, 0, state.timer >> 4) * 10
            + jnp.where((state.timer & 0xF) == 0xA, 0, state.timer & 0xF),
            "level": state.level,
        }
