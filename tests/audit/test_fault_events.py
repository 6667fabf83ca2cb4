"""The matched rollouts (events) run under every seeded fault, compared frame by frame with ALE's.

The Breakout fault here is written for these tests (not taken from faults/): game over decided by
the score instead of the balls, so a player with points keeps the last ball. Only a whole game
played from reset to its end with points on the board shows it: the termination probe loses its
five balls without a point, the save points and poke starts are early in a game, and no
exploration walk loses five balls.
"""

import dataclasses

import jax.numpy as jnp
import pytest

from alignment.audit import core, events, explore, probes, report
from alignment.spec.store import load_spec
from jaxtari.mods import PostStepMod
from tests.docs.paths import SPECS

TERMINATION = "termination.first-player-team-completely"


def _last_ball_kept(game, prev, state, reward):
    keep = (state.lives == 0) & (prev.lives == 1) & (state.score > 0)
    return (state.replace(lives=jnp.where(keep, 1, state.lives), active=state.active | keep),
            reward)


LAST_BALL_KEPT = PostStepMod("test_last_ball_kept",
                             "game over read from the score: a player with points keeps the last "
                             "ball", _last_ball_kept)


def test_a_fault_only_the_matched_rollouts_notice_is_flagged_with_its_rule():
    """The audit's wiring, on the toy game: a fault no probe and no exploration walk notices, whose
    rollout divergence is attributed to the rule it breaks, is detected; the report says where."""
    from tests.audit import toy

    seen = []

    def rollouts(mods, structure):
        seen.append(tuple(m.name for m in mods))
        if mods[0].name != "five_lives":
            return {"divergences": [], "rules": [], "unjustified": [], "missing_on_jax": [],
                    "rollouts": 1}
        d = {"policy": "random", "episode": 0, "frame": 1, "signal": "lives", "ale": 3, "jax": 5,
             "where": "random rollout 0", "others": [], "rules": ["physics.bounce"]}
        return {"divergences": [d], "rules": ["physics.bounce"], "unjustified": ["lives -5"],
                "missing_on_jax": [], "rollouts": 1}

    subject = toy.subject()
    subject.fault_events = rollouts
    result = core.audit(subject)
    assert seen == [("free_payout",), ("endless",), ("five_lives",)]
    faults = {f.fault: f for f in result.faults}
    five = faults["five_lives"]
    assert five.flagged == [] and five.detected and five.caught and five.error is None
    assert not faults["endless"].event_rules
    doc = report.to_json(result)
    row = next(f for f in doc["faults"] if f["fault"] == "five_lives")
    assert row["detected"] and row["events"]["rules"] == ["physics.bounce"]
    md = report.render_markdown(doc)
    assert ("1 of 1 diverge, first at frame 1 (lives; random rollout 0) -> physics.bounce; "
            "events JAX only: lives -5") in md
    assert "| matched rollouts |" in md


def test_without_rollouts_a_fault_no_probe_sees_is_still_an_error(toy_audit):
    # toy.subject() leaves fault_events None: the rollouts do not run under faults
    five = next(f for f in toy_audit.faults if f.fault == "five_lives")
    assert not five.detected and "nothing flagged it" in five.error and five.events is None


@pytest.mark.slow
def test_breakout_game_over_fault_is_caught_only_by_the_matched_rollouts():
    spec = load_spec(SPECS / "breakout.yaml")
    assert events.fault_events("breakout", spec, ())["divergences"] == []  # the game as it is
    found = events.fault_events("breakout", spec, (LAST_BALL_KEPT,))
    first = found["divergences"][0]
    assert (first["signal"], first["ale"], first["jax"]) == ("lives", 0, 1)
    assert "terminated" in first["others"]
    assert TERMINATION in found["rules"]
    # the rule's own probe (five balls lost without a point) still holds on the faulty game ...
    rule = next(r for r in spec.rules if r.id == TERMINATION)
    assert probes.run_probe("breakout", rule.probe, "ale", spec=spec).passed
    assert probes.run_probe("breakout", rule.probe, "jax", (LAST_BALL_KEPT,), spec=spec).passed
    # ... and the quick exploration's play from reset and the spec's starts (planner included)
    # never loses the last ball with points (the whole deep recording does: it ends so)
    shallow = dataclasses.replace(explore.QUICK, deep_frames=0, deep_starts=False)
    assert explore.explore(spec, mods=(LAST_BALL_KEPT,), budget=shallow).divergences == []


def test_mutants_are_also_killed_by_the_matched_rollouts():
    """Mutation testing's second tier plays the matched rollouts too: the same frames as the
    events' rollouts up to ALE's game over, as ALE action ids run-length encoded, from the
    rollouts' reset seed."""
    from alignment import catalog
    from alignment.audit.mutants import rollout_scripts
    from alignment.spec.schema import ALE_ACTION_NAMES

    entry = catalog.entry("breakout")
    scripts = rollout_scripts("breakout")
    plan = events.rollout_actions(entry, seed=events.ROLLOUT_SEED)
    assert [s.name for s in scripts] == [f"events:{p} rollout {i}" for p, i, _ in plan]
    ale = events.ale_rollouts("breakout", plan)
    for script, (_, _, frames), trace in zip(scripts, plan, ale):
        assert script.seed == events.ROLLOUT_SEED and script.mode is None
        # up to the game-over frame ALE reached (random Breakout loses its five balls early)
        over = int(trace["terminated"].nonzero()[0][0]) + 1
        assert script.frames == over < events.MAX_FRAMES
        played = [ALE_ACTION_NAMES[s[1]] for s in script.steps for _ in range(s[2])]
        assert played == [entry.minimal_actions[a] for a in frames[:over]]
        assert all(a[2] > 0 for a in script.steps)
