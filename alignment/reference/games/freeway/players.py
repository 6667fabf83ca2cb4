"""Freeway's players: the playtest's scripted player, and the ALE lookahead player of deep play."""

from __future__ import annotations

import numpy as np

from alignment.plugin import Lookahead, ScriptedPolicy
from alignment.reference.games.freeway.ram import CLIMB


def policy(signals: dict, tick: int) -> set:
    """Walk up the road, stopping now and then and stepping back once in a while."""
    phase = tick % 300
    if phase < 200:
        return {"up"}
    if phase < 240:
        return set()
    if phase < 252:
        return {"down"}
    return {"up"}


SCRIPTED = ScriptedPolicy("scripted-freeway-v1", lambda: policy)


def play(g: Lookahead, rng: np.random.Generator, explore: float = 0.05) -> None:
    """A whole 2:16 game: UP unless the lookahead sees a hit (the chicken thrown back) coming."""
    noop, up, down = g.idx("NOOP"), g.idx("UP"), g.idx("DOWN")
    while not g.raw.game_over():
        y0 = int(g.ram[CLIMB])
        best, best_v = noop, -np.inf
        for a in (up, noop, down):
            r, ram, _ = g.sim([(a, 4), (up, 12)])
            v = 1000 * r + (int(ram[CLIMB]) - y0) + rng.random() * 0.1
            if v > best_v:
                best, best_v = a, v
        if rng.random() < explore:
            best = (noop, up, down)[rng.integers(3)]
        g.play(best, 4)
