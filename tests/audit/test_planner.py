"""The planner player of the exploration: a search on the JAX game, replayed on both backends.

The fault here is written for these tests (not taken from faults/): Breakout paying a point more
per brick once the ball has been returned eight times - a situation no save point or poke start
sets up (the hit count is not pokeable) and the open-loop walks never reach (they lose the ball).
"""

import dataclasses

import jax.numpy as jnp
import numpy as np
import pytest

from alignment import catalog
from alignment.audit import explore, planner, report
from alignment.backends import make_backend
from alignment.spec.store import load_spec
from jaxtari.mods import PostStepMod
from tests.docs.paths import SPECS

HIT_COUNT = 0x3F  # bits 0..5 of Breakout's hits byte (ram[107], alignment/reference/games/breakout)
LATE_HITS = 8


def _late_bonus(game, prev, state, reward):
    late = ((prev.hits & HIT_COUNT) >= LATE_HITS) & (reward > 0)
    return (state.replace(score=jnp.where(late, state.score + 1, state.score)),
            jnp.where(late, reward + 1, reward))


LATE_BONUS = PostStepMod("test_late_bonus", "a point more per brick from the 8th return of a ball",
                         _late_bonus)
SMALL = planner.Search(candidates=8, horizon=32, commit=16)


def test_a_plan_is_deterministic_uses_the_minimal_actions_and_leaves_the_state_alone():
    b = make_backend("jax", "breakout", full_action_space=True)
    b.reset(0)
    before = b.clone()
    first = planner.plan(b, 100, seed=3, search=SMALL)
    assert b.clone().state is before.state  # the backend is put back where it was
    again = planner.plan(b, 100, seed=3, search=SMALL)
    assert first.actions == again.actions and len(first.actions) == 100
    assert set(first.actions) <= set(catalog.entry("breakout").minimal_actions)
    assert first.search_frames == 7 * SMALL.candidates * SMALL.horizon  # ceil(100 / 16) searches
    other = planner.plan(b, 100, seed=4, search=SMALL)
    assert other.actions != first.actions


def test_a_search_that_cannot_work_is_refused():
    with pytest.raises(ValueError, match="commit <= horizon"):
        planner.Search(candidates=8, horizon=16, commit=32)


def test_the_report_lists_each_player_and_the_planner_searches():
    ex = explore.Exploration(explore.QUICK, [], [
        explore.WalkResult("reset", "random-holds", 240, None, []),
        explore.WalkResult("reset", explore.PLANNER, 1200, None, [])], 3.0,
        [{"start": "reset", "frames": 1200, "reward": 11.0, "levels": 0, "lives_lost": 0,
          "search_frames": 116736, "seconds": 6.3}]).to_json()
    assert ex["players"] == {"random-holds": {"walks": 1, "frames": 240, "divergences": 0},
                             "planner": {"walks": 1, "frames": 1200, "divergences": 0}}
    text = report.render_markdown(_with_exploration(ex))
    assert "| planner | 1 | 1,200 | 0 |" in text
    assert "| reset | 1200 | 11.0 | 0 | 0 | 116,736 |" in text


def _with_exploration(ex: dict) -> dict:
    """A stored audit (audits/breakout.json) with ``ex`` as its exploration."""
    import json

    from tests.docs.paths import REPO

    doc = json.loads((REPO / "audits" / "breakout.json").read_text())
    doc["exploration"] = ex
    return doc


@pytest.mark.slow
def test_the_planner_goes_deeper_than_the_walks_and_catches_a_fault_only_it_reaches():
    spec = load_spec(SPECS / "breakout.yaml")
    entry = catalog.entry("breakout")
    quick = explore.QUICK
    b = make_backend("jax", "breakout", full_action_space=True)
    # deeper: every open-loop walk of the quick budget from reset, played for the planner's frames,
    # against the planner's walk
    walked = []
    for n, policy in enumerate(("random-holds", "human-holds", "scripted")):
        for seed in range(3):
            b.reset(explore.SEED)
            steps = explore.walk(policy, entry, quick.planner_frames, seed=seed + 10 * n)
            walked.append(b.run([h.action for h in steps for _ in range(h.frames)]))
    b.reset(explore.SEED)
    chosen = planner.plan(b, quick.planner_frames, seed=explore.SEED + 1)
    b.reset(explore.SEED)
    planned = b.run(chosen.actions)
    assert max(int(t["score"][-1]) for t in walked) <= 3
    assert max(int(np.max(t["hit_count"])) for t in walked) < LATE_HITS
    assert int(planned["score"][-1]) >= 8 and int(np.max(planned["hit_count"])) >= LATE_HITS
    assert int(planned["lives"][-1]) == 5  # no ball lost

    # the quick budget's starts from reset and the spec's (not the deep recording or the plug-in's
    # deep starts, which reach late hits by other ways)
    shallow = dataclasses.replace(quick, deep_frames=0, deep_starts=False)
    without = explore.explore(spec, mods=(LATE_BONUS,),
                              budget=dataclasses.replace(shallow, planner_frames=0))
    assert without.divergences == []  # reset, the save points and the wall-cleared poke start
    found = explore.explore(spec, mods=(LATE_BONUS,), budget=shallow)
    assert [d["policy"] for d in found.divergences] == [explore.PLANNER]
    first = found.first()
    assert first["start"] == "reset" and first["signal"] == "score"
    assert first["ale"] + 1 == first["jax"]
    assert "scoring.ball-hits-brick-continues" in found.rules
    assert found.players()[explore.PLANNER] == {"walks": 1, "frames": 1200, "divergences": 1}


@pytest.mark.slow
def test_the_stored_breakout_deep_game_is_what_the_planner_plays():
    """tests/data/deep/breakout-planner-s1.json (replayed on ALE by tests/test_deepplay.py) is the
    planner's whole game, reaching what no probe or walk does: a shrunk paddle, 16 hits, 374 points."""
    from alignment import deepplay
    from tests.docs.paths import REPO

    doc, stored = deepplay.load_actions(REPO / "tests" / "data" / "deep" / "breakout-planner-s1.json")
    actions, found = planner.whole_game("breakout", seed=1)
    assert np.array_equal(actions, stored) and doc["game"] == "breakout"
    assert (found.reward, found.lives_lost) == (374.0, 5)
    b = make_backend("jax", "breakout")
    b.reset(0)
    t = b.run(actions)
    assert bool(t["terminated"][-1]) and bool(np.any(t["paddle_shrunk"]))
    assert int(np.max(t["hit_count"])) == 16


@pytest.mark.slow
def test_mutants_are_also_killed_by_the_planners_walk():
    """Mutation testing plays the exploration's walks for what the probes leave alive: the
    planner's walk from reset is among them, the very actions the exploration replays."""
    from alignment.audit.mutants import explore_scripts
    from alignment.spec.schema import ALE_ACTION_NAMES

    spec = load_spec(SPECS / "breakout.yaml")
    scripts = {s.name: s for s in explore_scripts(spec, "breakout")}
    walk = scripts["explore:reset/planner"]
    assert walk.frames == explore.QUICK.planner_frames
    b = make_backend("jax", "breakout", full_action_space=True)
    b.reset(explore.SEED)
    chosen = planner.plan(b, explore.QUICK.planner_frames, seed=explore.SEED + 1)
    assert [ALE_ACTION_NAMES[s[1]] for s in walk.steps for _ in range(s[2])] == chosen.actions
