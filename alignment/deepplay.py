"""Deep play: players that take the real emulator far into a game, and a frame-exact comparison.

A player runs on ALE alone (greedy lookahead over ALE's clone/restore) and returns the per-frame
action sequence it chose; that sequence is data (stored run-length encoded under tests/data/deep/)
and is replayed on both backends with sticky actions off. :func:`compare` reports every frame where
a catalog signal or the reward differs, and every sampled frame whose 210x160 render differs.

Players (``seed`` drives their random tie-breaks and exploration):

- Frostbite: builds igloos by jumping onto white floes, enters each complete igloo, keeps going to
  ``levels`` levels, then jumps about until every Bailey has drowned (game over).
- Freeway: a whole 2:16 game, mostly UP, dodging a car when the lookahead says it would hit.
- Pong: a whole game to 21 (``win=True`` tracks the ball with a lookahead; ``win=False`` idles).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np

from alignment.backends import REWARD, make_backend

# Frostbite RAM (public disassembly names; addresses as in alignment/reference/games/frostbite/)
_FB_ROW, _FB_LEVEL, _FB_LIVES, _FB_IGLOO, _FB_Y, _FB_X = 57, 75, 76, 77, 100, 102
_FB_FULL_IGLOO, _FB_SHORE_ROW, _FB_DOOR_X, _FB_SHORE_Y = 15, 255, 123, 27


# ---- run-length encoding of an action sequence -------------------------------------------------
def rle_encode(actions) -> list[list[int]]:
    out: list[list[int]] = []
    for a in np.asarray(actions, np.int64).tolist():
        if out and out[-1][0] == a:
            out[-1][1] += 1
        else:
            out.append([a, 1])
    return out


def rle_decode(runs) -> np.ndarray:
    if not runs:
        return np.zeros(0, np.int32)
    return np.concatenate([np.full(int(n), int(a), np.int32) for a, n in runs])


def save_actions(path: Path, game: str, actions, **meta) -> None:
    from alignment.atomic import write_text

    doc = {"game": game, "frames": int(len(actions)), **meta, "runs": rle_encode(actions)}
    write_text(Path(path), json.dumps(doc, separators=(",", ":")) + "\n")


def load_actions(path: Path) -> tuple[dict, np.ndarray]:
    doc = json.loads(Path(path).read_text())
    actions = rle_decode(doc["runs"])
    if len(actions) != doc["frames"]:
        raise ValueError(f"{path}: runs decode to {len(actions)} frames, header says {doc['frames']}")
    return doc, actions


# ---- a raw ALE handle for fast lookahead ---------------------------------------------------------
class _Ale:
    def __init__(self, game: str, mode=None):
        self.backend = make_backend("ale", game, mode=mode)
        self.backend.reset(0)
        self.raw = self.backend._ale.ale  # ale_py.ALEInterface: the lookahead needs its raw speed
        import ale_py

        ids = self.backend._ale.action_ids
        self.actions = [ale_py.Action(i) for i in ids]
        self.names = list(self.backend.action_names)
        self.taken: list[int] = []

    def idx(self, name: str) -> int:
        return self.names.index(name)

    def sim(self, plan) -> tuple[int, np.ndarray, bool]:
        """Play ``plan`` [(index, frames)] from here and come back; returns reward, RAM, game over."""
        snap = self.raw.cloneState()
        total = 0
        for i, n in plan:
            for _ in range(n):
                total += self.raw.act(self.actions[i])
        ram, over = self.raw.getRAM().copy(), self.raw.game_over()
        self.raw.restoreState(snap)
        return total, ram, over

    def play(self, i: int, n: int = 1) -> int:
        total = 0
        for _ in range(n):
            if self.raw.game_over():
                break
            total += self.raw.act(self.actions[i])
            self.taken.append(i)
        return total

    @property
    def ram(self) -> np.ndarray:
        return self.raw.getRAM()


# ---- Frostbite ---------------------------------------------------------------------------------
def _fb_value(reward: int, ram0: np.ndarray, ram: np.ndarray, over: bool) -> float:
    v = float(reward)
    if over or ram[_FB_LIVES] < ram0[_FB_LIVES]:
        v -= 10_000
    if ram[_FB_LEVEL] > ram0[_FB_LEVEL]:
        v += 5_000
    if ram0[_FB_IGLOO] == _FB_FULL_IGLOO and ram[_FB_LEVEL] == ram0[_FB_LEVEL]:
        # the igloo is open: go up to the shore, then to the door, then in (y above the shore)
        if ram[_FB_Y] < _FB_SHORE_Y:
            v += 5_000
        elif ram[_FB_ROW] == _FB_SHORE_ROW and ram[_FB_Y] == _FB_SHORE_Y:
            v += 1000 - 4 * abs(int(ram[_FB_X]) - _FB_DOOR_X)
        elif ram[_FB_ROW] <= 3:
            v += 100 * int(ram[_FB_ROW])
    return v


def play_frostbite(seed: int = 0, levels: int = 5, max_frames: int = 40_000,
                   explore: float = 0.03) -> np.ndarray:
    """Frame actions reaching ``levels`` levels (or ``max_frames``), then jumping about until the
    last Bailey drowns (game over).

    Bailey decides only while standing (on the shore or a floe row); a jump plays out on NOOP. Each
    choice is looked at 150 frames ahead, long enough to see a drowning take the life.
    """
    rng = np.random.default_rng(seed)
    g = _Ale("frostbite")
    noop, up, down, left, right = (g.idx(a) for a in ("NOOP", "UP", "DOWN", "LEFT", "RIGHT"))
    firsts = (noop, up, down, left, right)
    standing = {27, 131, 105, 79, 53}  # ram[100] on the shore and on rows 0..3
    step, tail = 4, 150
    while not g.raw.game_over() and len(g.taken) < max_frames:
        ram0 = g.ram.copy()
        if ram0[_FB_LEVEL] + 1 > levels:
            break
        if int(ram0[_FB_Y]) not in standing:
            g.play(noop, 2)
            continue
        best, best_v = noop, -np.inf
        for a in firsts:
            r, ram, over = g.sim([(a, step), (noop, tail)])
            v = _fb_value(r, ram0, ram, over) + rng.random() * 0.5
            if a in (left, right):
                r2, ram2, over2 = g.sim([(a, step), (up if ram0[_FB_IGLOO] == _FB_FULL_IGLOO else down, step), (noop, tail)])
                v = max(v, _fb_value(r2, ram0, ram2, over2) - 1)
            if v > best_v:
                best, best_v = a, v
        if rng.random() < explore:
            cand = firsts[rng.integers(len(firsts))]
            r, ram, over = g.sim([(cand, step), (noop, tail)])
            if _fb_value(r, ram0, ram, over) > -1000:
                best = cand
        g.play(best, step)
    while not g.raw.game_over() and len(g.taken) < max_frames + 30_000:
        # jump about at random until every Bailey has drowned: ALE ends the game only when the last
        # Bailey sinks (a frozen last Bailey leaves it running on, see jaxtari's frostbite docstring)
        g.play((up, down)[rng.integers(2)], int(rng.integers(4, 30)))
    return np.asarray(g.taken, np.int32)


# ---- Freeway -----------------------------------------------------------------------------------
def play_freeway(seed: int = 0, explore: float = 0.05) -> np.ndarray:
    """A whole 2:16 game: UP unless the lookahead sees a hit (the chicken thrown back) coming."""
    rng = np.random.default_rng(seed)
    g = _Ale("freeway")
    noop, up, down = g.idx("NOOP"), g.idx("UP"), g.idx("DOWN")
    y_addr = 14  # the chicken's y (OCAtari's freeway extractor)
    while not g.raw.game_over():
        y0 = int(g.ram[y_addr])
        best, best_v = noop, -np.inf
        for a in (up, noop, down):
            r, ram, _ = g.sim([(a, 4), (up, 12)])
            v = 1000 * r + (int(ram[y_addr]) - y0) + rng.random() * 0.1
            if v > best_v:
                best, best_v = a, v
        if rng.random() < explore:
            best = (noop, up, down)[rng.integers(3)]
        g.play(best, 4)
    return np.asarray(g.taken, np.int32)


# ---- Pong --------------------------------------------------------------------------------------
def play_pong(seed: int = 0, win: bool = True, explore: float = 0.05) -> np.ndarray:
    """A whole game to 21. ``win``: the paddle tracks the ball (aiming a random few pixels off
    centre per rally, for steeper returns), and a 60-frame lookahead overrides a move that would
    lose the point; otherwise random held moves, which lose."""
    rng = np.random.default_rng(seed)
    g = _Ale("pong")
    noop, up, down = (g.names.index(a) for a in ("NOOP", "RIGHT", "LEFT"))  # RIGHT moves it up
    player_y, ball_y = 51, 54  # RAM (OCAtari's pong extractor)
    offset = 0
    while not g.raw.game_over():
        if not win:
            g.play((noop, up, down)[rng.integers(3)], int(rng.integers(4, 40)))
            continue
        ram = g.ram
        gap = int(ram[ball_y]) - int(ram[player_y]) - offset
        track = noop if abs(gap) < 3 else (down if gap > 0 else up)
        best = track
        if g.sim([(track, 4), (noop, 56)])[0] < 0:
            for a in (noop, up, down):
                if g.sim([(a, 4), (noop, 56)])[0] >= 0:
                    best = a
                    break
        elif rng.random() < explore:
            best = (noop, up, down)[rng.integers(3)]
        r = g.play(best, 4)
        if r:
            offset = int(rng.integers(-8, 9))
    return np.asarray(g.taken, np.int32)


# ---- the comparison ----------------------------------------------------------------------------
@dataclasses.dataclass
class Comparison:
    game: str
    frames: int
    signal_mismatches: dict  # signal -> list of frames (capped)
    first_mismatch: int | None
    pixel_mismatches: list  # [(frame, pixels differing)]
    rendered: int
    final: dict  # the last frame's signals on ALE
    peak: dict  # the largest value of each scalar signal over the game on ALE (level, score, ...)

    @property
    def equal(self) -> bool:
        return self.first_mismatch is None and not self.pixel_mismatches


def event_frames(trace: dict, every: int = 50, around: int = 2) -> list[int]:
    """Frames to render: every ``every``-th, and ``around`` frames either side of each change of
    lives, level or ``terminated``."""
    n = len(trace[REWARD])
    marks = set(range(every - 1, n, every))
    for key in ("lives", "level", "terminated"):
        if key in trace:
            v = np.asarray(trace[key])
            for t in np.nonzero(v[1:] != v[:-1])[0] + 1:
                marks.update(range(max(0, t - around), min(n, t + around + 1)))
    return sorted(marks)


def compare(game: str, actions, *, seed: int = 0, mode=None, render_every: int = 50,
            render=True, chunk: int = 2_000) -> Comparison:
    """Replay ``actions`` on ALE and JAX; compare every signal and reward every frame, and the
    render on sampled frames (see :func:`event_frames`)."""
    actions = np.asarray(actions, np.int32)
    ale, jax_ = make_backend("ale", game, mode=mode), make_backend("jax", game, mode=mode)
    ale.reset(seed)
    jax_.reset(seed)
    ta = ale.run(actions)
    tj = jax_.run(actions)
    bad: dict = {}
    first = None
    for k in ta:
        a, j = np.asarray(ta[k]), np.asarray(tj[k])
        diff = a != j
        rows = np.nonzero(diff.reshape(len(a), -1).any(1))[0]
        if len(rows):
            bad[k] = rows[:20].tolist()
            first = int(rows[0]) if first is None else min(first, int(rows[0]))
    pix, rendered = [], 0
    if render:
        marks = set(event_frames(ta, render_every))
        if first is not None:
            marks.update(range(max(0, first - 2), min(len(actions), first + 3)))
        ale.reset(seed)
        jax_.reset(seed)
        t = 0
        for m in sorted(marks):
            if m + 1 > t:
                ale.run(actions[t:m + 1])
                jax_.run(actions[t:m + 1])
                t = m + 1
            d = int((ale.rgb() != jax_.rgb()).any(-1).sum())
            rendered += 1
            if d:
                pix.append((m, d))
    final = {k: np.asarray(v[-1]).tolist() for k, v in ta.items()}
    peak = {k: np.asarray(v).max().tolist() for k, v in ta.items() if np.asarray(v).ndim == 1}
    return Comparison(game, len(actions), bad, first, pix, rendered, final, peak)


__all__ = ["Comparison", "compare", "event_frames", "load_actions", "play_freeway",
           "play_frostbite", "play_pong", "rle_decode", "rle_encode", "save_actions"]
