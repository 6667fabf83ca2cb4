"""Asteroids' planner goals, pull and deep starts (alignment/reference/games/asteroids/goals.py),
judged on real emulator recordings: the gunner's stored game (alignment/reference/games/asteroids/
gunner_route.json) replayed on ALE, short scripted walks, and the poked deep starts played on."""

from __future__ import annotations

import numpy as np
import pytest

from alignment import catalog
from alignment.audit import explore
from alignment.audit.lockstep import Screens, first_divergence, play
from alignment.backends import make_backend
from alignment.reference.games.asteroids import goals, gunner

GAME = "asteroids"
FIRST_WAVE = 2_000  # frames of the gunner's game: its first wave is cleared at frame 1,739


def _run(actions, game=GAME):
    b = make_backend("ale", game, full_action_space=True)
    b.reset(0)
    start = b.signals()
    return start, b.run(np.asarray(b.action_indices(actions)))


def _reached(start, traces) -> set[str]:
    return {g.name for g in catalog.entry(GAME).planner_goals if g.reached(start, traces)}


def _gunner(frames: int) -> list[str]:
    out = [name for name, n in gunner.script() for _ in range(n)]
    return out[:frames]


def _deep_start(name: str, then=(), kinds=("ale",)):
    entry = catalog.entry(GAME)
    d = next(d for d in entry.deep_starts if d.name == name)
    recs = []
    for kind in kinds:
        b = make_backend(kind, GAME, full_action_space=True)
        b.reset(0)
        recs.append(play(b, explore.deep_start_steps(d) + list(then), Screens(every=7)))
    return recs


def test_the_entry_declares_goals_a_pull_and_deep_starts():
    entry = catalog.entry(GAME)
    assert len(entry.planner_goals) >= 8 and len(entry.deep_starts) >= 3
    b = make_backend("jax", GAME, full_action_space=True)
    b.reset(0)
    ends = {k: np.stack([np.asarray(v)] * 3) for k, v in b.signals().items()}
    assert np.asarray(entry.planner_objective(ends)).shape == (3,)


def test_the_gunners_first_wave_reaches_the_shooting_goals_and_nothing_it_does_not_play():
    start, traces = _run(_gunner(FIRST_WAVE))
    got = _reached(start, traces)
    assert {"a large asteroid shot", "a medium asteroid shot", "a small asteroid shot",
            "a wave cleared", "both shots in flight"} <= got
    # the spinner stays in the middle: no wrap; 1,430 points after its first wave (measured)
    assert "the ship across an edge" not in got
    assert int(np.asarray(traces["score"])[-1]) == 1_430
    assert "1,000 points reached" in got and "5,000 points reached" not in got
    # cut before the first hit: no shot goal
    cut = {k: v[:20] for k, v in traces.items()}
    assert not {g for g in _reached(start, cut) if g.endswith("shot")}


def test_hyperspace_and_the_edge_are_told_apart_from_a_death():
    # DOWN alone arms then warps: the ship leaves the screen with its lives
    start, traces = _run(["NOOP"] * 10 + ["DOWN"] * 12 + ["NOOP"] * 10)
    assert "a hyperspace jump" in _reached(start, traces) and "a ship lost" not in _reached(start, traces)
    # thrust up out of the top and on: the ship crosses the edge; the NOOP game's first death
    start, traces = _run(["UP"] * 200)
    assert "the ship across an edge" not in _reached(start, traces)  # y wraps, x does not
    start, traces = _run(["RIGHT"] * 12 + ["UP"] * 300)
    assert "the ship across an edge" in _reached(start, traces)
    start, traces = _run(["NOOP"] * 1_600)
    got = _reached(start, traces)
    assert "a ship lost" in got and "a hyperspace jump" not in got


def test_the_deep_starts_lay_out_bigger_waves_and_the_bonus_life():
    (ale,) = _deep_start("a wave of three a list")
    assert int(np.asarray(ale.traces["asteroid_active"])[-1].sum()) == 6
    (ale,) = _deep_start("a wave of four a list")
    assert int(np.asarray(ale.traces["asteroid_active"])[-1].sum()) == 8
    assert "1,000 points reached" in _reached(ale.start, ale.traces)
    (ale,) = _deep_start("the last life")
    assert int(np.asarray(ale.traces["lives"])[-1]) == 1


def test_each_pull_ranks_the_score_and_the_lives_kept():
    v = goals.objective({"score": np.array([100, 120, 120]), "lives": np.array([4, 4, 3])})
    assert v[1] > v[0] > v[2]


@pytest.mark.slow
def test_every_deep_start_and_an_edge_walk_from_it_are_exact():
    entry = catalog.entry(GAME)
    then = explore.walk(explore.EDGES, entry, 0, 0) + explore.walk("human-holds", entry, 600, 3)
    for d in entry.deep_starts:
        ale, jax = _deep_start(d.name, then, kinds=("ale", "jax"))
        assert first_divergence(entry.signals, ale, jax, d.name, entry.known_ends) is None
