"""A planner on the JAX game: exploration's player that looks for deeper situations.

Open-loop walks (random holds, human-like holds, a script) rarely keep a ball in play, finish an
igloo or survive a wave, so a fault that only shows later in a game escapes them. The planner
chooses its actions by searching the JAX game itself (compiled, every candidate in one ``vmap``):
receding-horizon random shooting over held actions. At each step it rolls out ``candidates``
plans of ``horizon`` frames from the current state (random holds of the minimal action set, plus
the rest of the plan it chose last time), ranks them and keeps the first ``commit`` frames of the
best. The ranking is lexicographic, so no game's reward scale matters: not ending the game, then
losing fewer lives, then climbing levels, then the game's own objective where its plug-in declares
one (``GameEntry.planner_objective``: Kangaroo's pulls the mother to the next ladder and up it),
then reward, then *novelty* (how many signals end on a value the plan has not shown yet: a new row,
a new brick count, a new hit count).

The chosen sequence is data - per-frame action names - and is replayed like any other walk, in
lockstep on ALE and on the JAX game (:mod:`alignment.audit.explore`). It is planned once, on the
JAX game as the audit's emulator side plays it (the original, or the same registered mods), so the
emulator's recording is reused under every fault or mutant; the search trusts the JAX game only
to pick actions, never to judge: ALE is still the ground truth the replay is compared with.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Optional, Sequence

import numpy as np

from alignment.audit import session

# signals that say nothing about how far play got (or are ranked on their own)
_NOT_NOVEL = ("frame", "score", "terminated", "lives", "level")
LEVEL = "level"


@dataclasses.dataclass(frozen=True)
class Search:
    """How hard the planner searches per committed segment (its cost: candidates x horizon JAX
    frames per ``commit`` frames played)."""

    candidates: int = 32
    horizon: int = 96
    commit: int = 32
    hold: tuple[int, int] = (4, 24)  # a candidate's holds last this many frames (inclusive)

    def __post_init__(self):
        if not (self.candidates >= 2 and self.horizon >= 1 and 1 <= self.commit <= self.horizon
                and 1 <= self.hold[0] <= self.hold[1]):
            raise ValueError(f"a planner search needs candidates >= 2, 1 <= commit <= horizon "
                             f"and 1 <= hold[0] <= hold[1]; got {self}")

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


SEARCH = Search()


@dataclasses.dataclass
class Plan:
    """The actions the planner chose (per frame) and what its search saw of the JAX game."""

    actions: list[str]
    reward: float  # the JAX game's reward over the chosen actions
    levels: int  # level changes along the chosen actions (0 without a level signal)
    lives_lost: int
    search_frames: int  # JAX frames simulated while searching
    seconds: float

    def to_json(self) -> dict:
        return {"frames": len(self.actions), "reward": self.reward, "levels": self.levels,
                "lives_lost": self.lives_lost, "search_frames": self.search_frames,
                "seconds": round(self.seconds, 2)}


def _rollouts(backend, search: Search):
    """(state, actions[candidates, horizon]) -> (summed rewards, end signals): one compile per
    game build and search shape."""
    import jax
    import jax.numpy as jnp

    from jaxtari.xla import select_tree

    kept = session.current().planner_programs
    key = (backend.cache_key, search.candidates, search.horizon)
    if key in kept:
        return kept[key]
    game, entry = backend.jax_game, backend.entry

    def signals(state):
        return {k: jnp.asarray(s.jax(game, state)) for k, s in entry.signals.items()}

    def one(state, actions):
        def body(s, a):
            _, new, reward, _, _ = game.step(s, a)
            live = ~jnp.asarray(game.is_terminal(s))
            return select_tree(live, new, s), jnp.where(live, reward, 0.0)

        end, rewards = jax.lax.scan(body, state, actions)
        return rewards.sum(), signals(end)

    fn = jax.jit(jax.vmap(one, in_axes=(None, 0)))
    kept[key] = fn
    return fn


def _candidates(rng, n_actions: int, search: Search, keep: Optional[np.ndarray]):
    """Random held-action plans (positions in the action list); row 0 continues ``keep`` (the rest
    of the last chosen plan) when given."""
    out = np.empty((search.candidates, search.horizon), np.int64)
    lo, hi = search.hold
    for c in range(search.candidates):
        t = 0
        while t < search.horizon:
            k = int(rng.integers(lo, hi + 1))
            out[c, t:t + k] = int(rng.integers(n_actions))
            t += k
    if keep is not None and len(keep):
        out[0, :len(keep)] = keep
    return out


def _key(value) -> Any:
    a = np.asarray(value)
    return a.item() if a.ndim == 0 else tuple(a.ravel().tolist())


def plan(backend, frames: int, *, seed: int, search: Search = SEARCH,
         names: Optional[Sequence[str]] = None) -> Plan:
    """Plan ``frames`` frames from ``backend``'s current state (a :class:`JaxBackend`; its state is
    put back afterwards). ``names``: the actions to choose from (default: the catalog's minimal
    set)."""
    t0 = time.perf_counter()
    entry = backend.entry
    names = list(names or entry.minimal_actions)
    idx = np.asarray(backend.action_indices(names), np.int32)
    objective = entry.planner_objective
    fn = _rollouts(backend, search)
    rng = np.random.default_rng(seed)
    saved = backend.clone()
    start = backend.signals()
    has_level = LEVEL in entry.signals
    novel_of = [k for k, s in entry.signals.items() if k not in _NOT_NOVEL]
    seen: dict[str, set] = {k: {_key(start[k])} for k in novel_of}
    chosen: list[int] = []
    keep: Optional[np.ndarray] = None
    lives = int(start.get("lives", 0))
    level = int(start[LEVEL]) if has_level else 0
    reward = 0.0
    lives_lost = levels = 0
    searched = 0
    try:
        while len(chosen) < frames and not backend.terminated:
            cand = _candidates(rng, len(idx), search, keep)
            rewards, ends = fn(backend.state, idx[cand])
            rewards = np.asarray(rewards, np.float64)
            ends = {k: np.asarray(v) for k, v in ends.items()}
            searched += search.candidates * search.horizon
            pull = (np.asarray(objective(ends), np.float64) if objective is not None
                    else np.zeros(search.candidates))
            rank = []
            for c in range(search.candidates):
                lost = max(0, lives - int(ends["lives"][c])) if "lives" in ends else 0
                climbed = int(ends[LEVEL][c]) - level if has_level else 0
                novel = sum(_key(ends[k][c]) not in seen[k] for k in novel_of)
                rank.append((not bool(ends["terminated"][c]), -lost, climbed, float(pull[c]),
                             float(rewards[c]), novel, -c))
            best = max(range(search.candidates), key=lambda c: rank[c])
            n = min(search.commit, frames - len(chosen))
            step = cand[best, :n]
            traces = backend.run(idx[step])
            for k in novel_of:
                seen[k].update(_key(v) for v in traces[k])
            reward += float(np.sum(traces["reward"]))
            if "lives" in traces:
                now = np.concatenate([[lives], np.asarray(traces["lives"], np.int64)])
                lives_lost += int(np.sum(np.maximum(0, -np.diff(now))))
                lives = int(now[-1])
            if has_level:
                now = np.concatenate([[level], np.asarray(traces[LEVEL], np.int64)])
                levels += int(np.sum(np.diff(now) != 0))
                level = int(now[-1])
            chosen.extend(int(a) for a in step)
            keep = cand[best, n:]
    finally:
        backend.restore(saved)
    return Plan([names[a] for a in chosen], reward, levels, lives_lost, searched,
                time.perf_counter() - t0)


def whole_game(game: str, *, seed: int = 1, frames: int = 30_000,
               search: Search = SEARCH) -> tuple[np.ndarray, Plan]:
    """A deep game planned on the JAX game from reset (up to ``frames`` frames, or its end), as the
    per-frame indices into the minimal action set that :mod:`alignment.deepplay` recordings hold.
    Breakout has no ALE lookahead player; this one plays its whole game for the exploration's deep
    starts and the mutants' equivalence runs, and - being chosen on the JAX game - counts only once
    replayed on ALE and found equal (tests/test_deepplay.py)."""
    from alignment.backends import make_backend

    backend = make_backend("jax", game, full_action_space=True)
    backend.reset(0)
    found = plan(backend, frames, seed=seed, search=search)
    names = list(backend.entry.minimal_actions)
    return np.asarray([names.index(a) for a in found.actions], np.int32), found


__all__ = ["Plan", "SEARCH", "Search", "plan", "whole_game"]
