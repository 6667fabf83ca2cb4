"""Kangaroo's planner goals and the planner's pull (alignment/reference/games/kangaroo/goals.py, issue
50): each goal judged on real emulator recordings of known play, the exploration's report of them,
and (slow) the audit's planner climbing from reset with the pull where it did not without it."""

from __future__ import annotations

import numpy as np
import pytest

from alignment import catalog, deepplay
from alignment.audit import explore, planner
from alignment.audit.lockstep import Recording
from alignment.backends import REWARD, make_backend
from alignment.reference.games.kangaroo import goals
from alignment.spec.store import load_spec
from tests.docs.paths import SPECS

SPEC = load_spec(SPECS / "kangaroo.yaml")
ENTRY = catalog.entry("kangaroo")
DEEP = SPECS.parent / "tests" / "data" / "deep"


def _ale(names):
    """(start signals, traces) of ALE playing ``names`` (one action name a frame) from reset."""
    b = make_backend("ale", "kangaroo", full_action_space=True)
    b.reset(0)
    start = b.signals()
    return start, b.run(np.asarray(b.action_indices(list(names))))


def _reached(start, traces) -> set[str]:
    return {g.name for g in ENTRY.planner_goals if g.reached(start, traces)}


def _frames(save_point, rule=None):
    _, steps = SPEC.save_point_steps(save_point)
    steps = list(steps) + (list(SPEC.rule(rule).probe.steps) if rule else [])
    return [s.action for s in steps for _ in range(s.frames)]


def test_the_goals_cover_every_layout_and_floor():
    assert ENTRY.planner_goals is goals.GOALS and ENTRY.planner_objective is goals.objective
    names = [g.name for g in goals.GOALS]
    assert len(names) == len(set(names)) == 3 * 3 + 3 * 3 * 2  # climbs; coconuts and monkeys


def test_a_coconut_punched_on_floor_1_is_that_goal_and_no_other_punch():
    start, traces = _ale(_frames("coconut-beside-floor-1", "timing.punch-lands-when-drawn"))
    assert _reached(start, traces) == {"layout 0: floor 1 climbed",
                                       "layout 0: a coconut punched on floor 1"}
    # the same play cut before the punch reaches only the climb
    cut = {k: v[:-40] for k, v in traces.items()}
    assert _reached(start, cut) == {"layout 0: floor 1 climbed"}


def test_a_monkey_punched_on_floor_2_is_that_goal():
    start, traces = _ale(_frames("floor-2", "scoring.punch-monkey"))
    assert _reached(start, traces) == {"layout 0: floor 1 climbed", "layout 0: floor 2 climbed",
                                       "layout 0: a monkey punched on floor 2"}
    assert int(np.sum(traces[REWARD] == 100)) == 2  # two fruit (100 each) on the way: no punches


def test_the_cycle_recording_climbs_every_floor_of_every_layout():
    doc, actions = deepplay.load_actions(DEEP / "kangaroo-cycle.json")
    names = list(ENTRY.minimal_actions)
    start, traces = _ale(names[a] for a in actions)
    climbs = {f"layout {l}: floor {f} climbed" for l in range(3) for f in (1, 2, 3)}
    assert climbs <= _reached(start, traces)
    assert int(traces["score"][-1]) == 4_800 and int(traces["lives"][-1]) == 3


def test_the_exploration_reports_each_goal_with_who_reached_it():
    start, traces = _ale(_frames("coconut-beside-floor-1", "timing.punch-lands-when-drawn"))
    rec = Recording(0, traces, [], [], start, {})
    rows = explore.judge_goals(ENTRY, [("save point x", explore.REACHING, rec),
                                       ("save point x", explore.PLANNER, rec)])
    assert [r["goal"] for r in rows] == [g.name for g in goals.GOALS]
    punched = next(r for r in rows if r["goal"] == "layout 0: a coconut punched on floor 1")
    assert punched["reached"] and punched["by_planner"] and punched["walks"] == 2
    assert punched["first"] == ["(reaching it) from save point x", "planner from save point x"]
    assert sum(r["reached"] for r in rows) == 2
    # only a game whose plug-in declares goals reports them
    ex = explore.Exploration(explore.QUICK, [], [], 1.0, [], (), rows)
    assert ex.to_json()["goals"] == rows
    assert "goals" not in explore.Exploration(explore.QUICK, [], [], 1.0).to_json()


def test_the_pull_prefers_the_next_ladder_and_a_higher_floor_over_a_jump():
    ends = {"mother_y": np.array([148, 148, 140, 100]), "mother_x": np.array([40, 130, 130, 40]),
            "mother_pose": np.array([8, 8, 0x49, 8]), "mother_floor": np.array([0, 0, 0, 1]),
            "level": np.zeros(4, int), "score": np.zeros(4, int)}
    v = goals.objective(ends)
    # nearer the bottom ladder (x 129..136) beats farther; a jump's height counts for nothing;
    # floor 1 beats any place on floor 0
    assert v[1] > v[0] and v[2] == v[1] and v[3] > v[1]


@pytest.mark.slow
def test_the_planner_climbs_to_floor_1_and_punches_there_from_reset():
    """The audit's planner from reset (the quick audit's 1,200 frames) with Kangaroo's pull: up the
    first ladder and a monkey punched on floor 1, no life lost, replayed equal on ALE (without the
    pull the committed audit's planner walk from reset scored 200 and lost a life on floor 0)."""
    j = make_backend("jax", "kangaroo", full_action_space=True)
    j.reset(0)
    found = planner.plan(j, 1200, seed=1)
    start, traces = _ale(found.actions)
    assert found.reward == float(traces[REWARD].sum())
    assert "layout 0: floor 1 climbed" in _reached(start, traces)
    assert int(traces["lives"][-1]) == 3
