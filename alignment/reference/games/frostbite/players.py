"""Frostbite's players: the playtest's scripted hopper, and the ALE lookahead player of deep play.

Both play the real emulator: the hopper reads the window's ALE signals, the deep player reads RAM
(the addresses of :mod:`.ram`) inside ALE's clone/restore lookahead.
"""

from __future__ import annotations

import numpy as np

from jaxtari.games.frostbite import FULL_IGLOO, IGLOO_JUMP_X, ROW_Y, SHORE_Y

from alignment.plugin import Lookahead, ScriptedPolicy
from alignment.reference.games.frostbite.ram import IGLOO, LEVEL, LIVES, PLAYER_X, PLAYER_Y, ROW

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
STANDING_Y = {SHORE_Y, *ROW_Y}  # ram[PLAYER_Y] standing on the shore and on rows 0..3


def _value(reward: int, ram0: np.ndarray, ram: np.ndarray, over: bool) -> float:
    v = float(reward)
    if over or ram[LIVES] < ram0[LIVES]:
        v -= 10_000
    if ram[LEVEL] > ram0[LEVEL]:
        v += 5_000
    if ram0[IGLOO] == FULL_IGLOO and ram[LEVEL] == ram0[LEVEL]:
        # the igloo is open: go up to the shore, then to the door, then in (y above the shore)
        if ram[PLAYER_Y] < SHORE_Y:
            v += 5_000
        elif ram[ROW] == ON_SHORE and ram[PLAYER_Y] == SHORE_Y:
            v += 1000 - 4 * abs(int(ram[PLAYER_X]) - IGLOO_JUMP_X)
        elif ram[ROW] <= 3:
            v += 100 * int(ram[ROW])
    return v


def play(g: Lookahead, rng: np.random.Generator, levels: int = 5, max_frames: int = 40_000,
         explore: float = 0.03) -> None:
    """Frame actions reaching ``levels`` levels (or ``max_frames``), then jumping about until the
    last Bailey drowns (game over).

    Bailey decides only while standing (on the shore or a floe row); a jump plays out on NOOP. Each
    choice is looked at 150 frames ahead, long enough to see a drowning take the life.
    """
    noop, up, down, left, right = (g.idx(a) for a in ("NOOP", "UP", "DOWN", "LEFT", "RIGHT"))
    firsts = (noop, up, down, left, right)
    step, tail = 4, 150
    while not g.raw.game_over() and len(g.taken) < max_frames:
        ram0 = g.ram.copy()
        if ram0[LEVEL] + 1 > levels:
            break
        if int(ram0[PLAYER_Y]) not in STANDING_Y:
            g.play(noop, 2)
            continue
        best, best_v = noop, -np.inf
        for a in firsts:
            r, ram, over = g.sim([(a, step), (noop, tail)])
            v = _value(r, ram0, ram, over) + rng.random() * 0.5
            if a in (left, right):
                then = up if ram0[IGLOO] == FULL_IGLOO else down
                r2, ram2, over2 = g.sim([(a, step), (then, step), (noop, tail)])
                v = max(v, _value(r2, ram0, ram2, over2) - 1)
            if v > best_v:
                best, best_v = a, v
        if rng.random() < explore:
            cand = firsts[rng.integers(len(firsts))]
            r, ram, over = g.sim([(cand, step), (noop, tail)])
            if _value(r, ram0, ram, over) > -1000:
                best = cand
        g.play(best, step)
    while not g.raw.game_over() and len(g.taken) < max_frames + 30_000:
        # jump about at random until every Bailey has drowned: ALE ends the game only when the last
        # Bailey sinks (a frozen last Bailey leaves it running on, see jaxtari's frostbite docstring)
        g.play((up, down)[rng.integers(2)], int(rng.integers(4, 30)))
