"""Deep play: players that take the real emulator far into a game, and a frame-exact comparison.

A player runs on ALE alone (greedy lookahead over ALE's clone/restore) and returns the per-frame
action sequence it chose; that sequence is data (stored run-length encoded under tests/data/deep/)
and is replayed on both backends with sticky actions off. :func:`compare` reports every frame where
a catalog signal or the reward differs, and every sampled frame whose 210x160 render differs.

Each game's player is part of its plug-in (``deep_player`` of its entry, in
``alignment/reference/games/<game>/players.py``); :func:`play` runs it through a :class:`Lookahead`.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np

from alignment import catalog
from alignment.backends import REWARD, make_backend


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


# ---- the handle a player drives -----------------------------------------------------------------
class Lookahead:
    """A raw ALE handle for fast lookahead: play, or simulate a plan and come back."""

    def __init__(self, game: str, mode=None):
        self.backend = make_backend("ale", game, mode=mode)
        self.backend.reset(0)
        self.raw = self.backend._ale.ale  # ale_py.ALEInterface: the lookahead needs its raw speed
        import ale_py

        ids = self.backend._ale.action_ids
        self.actions = [ale_py.Action(i) for i in ids]
        self.names = list(self.backend.action_names)
        self.taken: list[int] = []

    @classmethod
    def of_rom(cls, rom: str, *, seed: int = 0) -> "Lookahead":
        """A handle on any ROM ale-py ships (its minimal actions, sticky off), for a game being
        ported that is not in the catalog yet (:mod:`alignment.porting`)."""
        import ale_py

        from alignment.actions import names_of
        from alignment.porting.ramtrace import open_rom

        self = cls.__new__(cls)
        self.backend = None
        self.raw = open_rom(rom, seed=seed)
        ids = [int(a.value) for a in self.raw.getMinimalActionSet()]
        self.actions = [ale_py.Action(i) for i in ids]
        self.names = list(names_of(ids))
        self.taken = []
        return self

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


# ---- the players ---------------------------------------------------------------------------------
def play(game: str, seed: int = 0, *, mode=None, **options) -> np.ndarray:
    """The frame actions the game's deep player (its entry's ``deep_player``) chooses on ALE in game
    ``mode`` (None: the default); ``seed`` drives its random tie-breaks and exploration,
    ``options`` are the player's own."""
    player = catalog.entry(game).deep_player
    if player is None:
        with_one = [g for g in catalog.games() if catalog.entry(g).deep_player is not None]
        raise ValueError(f"{catalog.canonical(game)} has no deep player; games with one: "
                         f"{', '.join(with_one)}")
    rng = np.random.default_rng(seed)
    g = Lookahead(game, mode=mode)
    player(g, rng, **options)
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


__all__ = ["Comparison", "Lookahead", "compare", "event_frames", "load_actions", "play",
           "rle_decode", "rle_encode", "save_actions"]
