"""Frostbite's players: the playtest's scripted hopper, and the ALE lookahead player of deep play.

Both play the real emulator: the hopper reads the window's ALE signals, the deep player reads RAM
(the addresses of :mod:`.ram`) inside ALE's clone/restore lookahead.
"""

from __future__ import annotations

import numpy as np

from jaxtari.games.frostbite import (
    BEAR_LEVEL_INDEX, F_DEAD, F_FREEZE, F_LEVEL, F_SINK, F_TALLY, FULL_IGLOO, IGLOO_JUMP_X, ROW_Y,
    SHORE_Y,
)

from alignment.plugin import Lookahead, ScriptedPolicy
from alignment.reference.games.frostbite.ram import (
    BEAR_HIT, BEAR_HIT_BIT, FLAGS, IGLOO, JUMP, LEVEL, LIVES, PLAYER_X, PLAYER_Y, ROW,
)

# ---- the playtest's scripted player --------------------------------------------------------------
FLOE_PIECES = ((-4, 12), (28, 44), (60, 76))  # white spans of a floe row from its floe_x (px)
FLOE_ROWS = 4
SHORE = 255  # the row signal on the shore
JUMP_FRAMES = 4  # frames a jump key is held
JUMP_AIR = 28  # frames from the key to the landing (measured on ALE from the shore)
SPEED_WINDOW = 16  # frames over which a floe row's speed is read


class FrostbiteHopper:
    """Jump from row to row (down to the bottom row, then up to the shore, again) whenever
    Bailey's middle is over a piece of the floe row he is jumping to; on the shore walk toward the
    nearest piece of the top row. Every landing on a white floe adds an igloo block."""

    def __init__(self):
        self.going_down = True
        self.hold = 0
        self.key = ""
        self.history: list[np.ndarray] = []

    def __call__(self, signals: dict, tick: int) -> set:
        if not signals:
            return set()
        self.history = (self.history + [np.asarray(signals["floe_x"], np.float64)])[-SPEED_WINDOW:]
        if self.hold:
            self.hold -= 1
            return {self.key}
        row = int(signals["row"])
        if row == SHORE:
            self.going_down, target = True, FLOE_ROWS - 1
        else:
            if row == 0:
                self.going_down = False
            target = row - 1 if self.going_down else row + 1
        middle = int(signals["player_x"]) + 4
        if target >= FLOE_ROWS:  # back up onto the shore: always possible
            return self._jump("up")
        # where the target row will be when Bailey lands (rows drift while he is in the air)
        speed = (self.history[-1] - self.history[0]) / max(1, len(self.history) - 1)
        fx = float(self.history[-1][target] + speed[target] * JUMP_AIR)
        centres = [fx + (a + b) // 2 for a, b in FLOE_PIECES]
        if any(fx + a + 3 <= middle <= fx + b - 3 for a, b in FLOE_PIECES):
            return self._jump("down" if target < (row if row != SHORE else FLOE_ROWS) else "up")
        if row == SHORE:
            nearest = min(centres, key=lambda c: abs(c - middle))
            return {"left"} if nearest < middle else {"right"}
        return set()

    def _jump(self, key: str) -> set:
        self.key, self.hold = key, JUMP_FRAMES - 1
        return {key}


SCRIPTED = ScriptedPolicy("scripted-frostbite-hopper-v2", FrostbiteHopper)


# ---- the deep player -----------------------------------------------------------------------------
ON_SHORE = 255  # ram[ROW] on the shore
TOP_ROW = 3  # ram[ROW] on the floe row next to the shore
STANDING_Y = {SHORE_Y, *ROW_Y}  # ram[PLAYER_Y] standing on the shore and on rows 0..3


LOSING = F_SINK | F_DEAD | F_FREEZE  # ram[FLAGS] bits of a Bailey being lost
HOME = F_TALLY | F_LEVEL  # ram[FLAGS] bits of an igloo entered


def doomed(ram: np.ndarray) -> bool:
    """Whether this Bailey is lost already, long before ALE's lives() says so (sinking takes ~200
    frames to cost the life): he is sinking or freezing, or the bear has touched him on the ground
    (it then pushes him off the shore's left edge; only a jump under way clears its touch)."""
    if ram[FLAGS] & LOSING:
        return True
    return bool(ram[LEVEL] >= BEAR_LEVEL_INDEX and ram[BEAR_HIT] & BEAR_HIT_BIT and ram[JUMP] == 0)


def _value(reward: int, ram: np.ndarray, over: bool, *, ram0: np.ndarray) -> float:
    v = float(reward)
    if over or ram[LIVES] < ram0[LIVES] or doomed(ram):
        v -= 10_000
    if ram[LEVEL] > ram0[LEVEL] or ram[FLAGS] & HOME:
        v += 5_000
    if ram0[IGLOO] == FULL_IGLOO and ram[LEVEL] == ram0[LEVEL]:
        # the igloo is open: up the rows, riding the top row to below the door, then up to the
        # shore there and in (y above the shore). The shore far from the door is worth less than
        # the top row: walking the shore to the door meets the bear (from level 4 on).
        off = abs(int(ram[PLAYER_X]) - IGLOO_JUMP_X)
        if ram[PLAYER_Y] < SHORE_Y:
            v += 5_000
        elif ram[ROW] == ON_SHORE and ram[PLAYER_Y] == SHORE_Y:
            v += 1000 - 8 * off
        elif ram[ROW] <= TOP_ROW:
            v += 100 * int(ram[ROW]) + (int(ram[ROW]) == TOP_ROW) * (300 - 2 * off)
    return v


CHECKPOINT_EVERY = 32  # frames between the saved states the player backs up to
CLEAR_AFTER = 512  # frames past the furthest failure after which failures count from 0 again


def play(g: Lookahead, rng: np.random.Generator, levels: int = 5, max_frames: int = 40_000,
         explore: float = 0.03, tail: int = 40, retries: int = 8) -> None:
    """Frame actions reaching ``levels`` levels (or ``max_frames``), then jumping about until the
    last Bailey drowns (game over).

    Bailey decides every 4 frames, in the air too (a jump is steered left and right). Standing, each
    key is looked at two moves deep (every key for 4 frames, then every key again, then ``tail``
    frames of NOOP); in the air, steering only. Each look is judged by :func:`doomed` at its end: a
    lost Bailey shows on landing in the sea or at the bear's touch, long before ALE's life count.
    What the look misses (a floe drifting him into an enemy, the bear cornering him on the shore)
    the player undoes: when a Bailey is doomed before ``levels`` is reached it goes back to a saved
    state (further back after each failure in a row) and plays on from there with fresh tie-breaks;
    after ``retries`` failures in a row it lets the Bailey go.
    """
    noop, up, down, left, right = (g.idx(a) for a in ("NOOP", "UP", "DOWN", "LEFT", "RIGHT"))
    firsts = (noop, up, down, left, right)
    steer = (noop, left, right)
    step = 4
    saved: list = []  # (frames taken, ALE state)
    fails, failed_at = 0, 0
    while not g.raw.game_over() and len(g.taken) < max_frames:
        ram0 = g.ram.copy()
        if ram0[LEVEL] + 1 > levels:
            break
        if len(g.taken) > failed_at + CLEAR_AFTER:
            fails = 0  # this far past the last failure: the next one is a new one
        if doomed(ram0) and (fails >= retries or len(saved) < 2):
            while doomed(g.ram) and not g.raw.game_over():  # let this Bailey go
                g.play(noop)
            saved, fails = [], 0
            continue
        if doomed(ram0):
            fails, failed_at = fails + 1, max(failed_at, len(g.taken))
            back = min(len(saved) - 1, 1 + 2 * fails)
            at, state = saved[-1 - back]
            del saved[len(saved) - back:]
            g.raw.restoreState(state)
            del g.taken[at:]
            rng = np.random.default_rng(int(rng.integers(1 << 31)))
            continue
        if not doomed(ram0) and (not saved or len(g.taken) >= saved[-1][0] + CHECKPOINT_EVERY):
            saved.append((len(g.taken), g.raw.cloneState()))
        standing = int(ram0[PLAYER_Y]) in STANDING_Y and ram0[JUMP] == 0
        values = {}
        for a in firsts if standing else steer:
            thens = firsts if standing else (noop,)
            values[a] = max(_value(*g.sim([(a, step), (then, step), (noop, tail)]), ram0=ram0)
                            - (then != noop) for then in thens) + rng.random() * 0.5
        best = max(values, key=values.get)
        if rng.random() < explore:
            cand = list(values)[rng.integers(len(values))]
            if values[cand] > -1000:
                best = cand
        g.play(best, step)
    while not g.raw.game_over() and len(g.taken) < max_frames + 30_000:
        # jump about at random until every Bailey has drowned: ALE ends the game only when the last
        # Bailey sinks (a frozen last Bailey leaves it running on, see jaxtari's frostbite docstring)
        g.play((up, down)[rng.integers(2)], int(rng.integers(4, 30)))
