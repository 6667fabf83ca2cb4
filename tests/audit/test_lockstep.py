"""Lockstep probes and exploration catch faults that an end-value check cannot see.

The faults here are written for these tests (not taken from faults/): each is a small mod of
Frostbite that changes play in one way only an every-frame comparison with ALE notices - a score
that is wrong for a few frames and right again, a reward that disagrees with the score, a picture
wrong on frames no probe ends on, a change only a later level shows.
"""

import jax.numpy as jnp
import numpy as np
import pytest

from alignment.audit import explore, lockstep, probes, report
from alignment.audit.explore import Budget
from alignment.spec.schema import Probe
from alignment.spec.store import load_spec
from jaxtari.mods import PostStepMod
from tests.docs.paths import SPECS

# One block from reset: Bailey jumps down onto the first row at frame ~130 (10 points).
BLOCK = Probe.model_validate({
    "steps": [{"action": "NOOP", "frames": 120}, {"action": "DOWN", "frames": 8},
              {"action": "NOOP", "frames": 60}],
    "expectations": [{"signal": "score", "op": "==", "value": 10},
                     {"signal": "igloo_blocks", "op": "increases_by", "value": 1}]})


def _score_early(game, prev, state, reward):
    # the block's 10 points show on the counter at frame 100, then the counter is put back at 104:
    # the score the probe ends on is right
    bump = jnp.where(state.frame == 100, 10, 0) - jnp.where(state.frame == 104, 10, 0)
    return state.replace(score=state.score + bump), reward


def _reward_doubled(game, prev, state, reward):
    return state, reward * 2  # the score is right, the reward paid for it is not


def _score_picture_glitch(game, prev, state, reward):
    # the score digits show 10 more on frames 61..66 only; no signal reads the picture's score
    glitch = (state.frame >= 61) & (state.frame <= 66)
    return state.replace(shown_score=jnp.where(glitch, state.score + 10, state.shown_score)), reward


def _double_points_on_level_3(game, prev, state, reward):
    deep = state.level_index == 2
    gain = state.score - prev.score
    return (state.replace(score=jnp.where(deep, state.score + gain, state.score)),
            jnp.where(deep, reward * 2, reward))


SCORE_EARLY = PostStepMod("test_score_early", "score counter 10 ahead for frames 100..103",
                          _score_early)
REWARD_DOUBLED = PostStepMod("test_reward_doubled", "reward twice the score's change",
                             _reward_doubled)
PICTURE = PostStepMod("test_score_picture", "score digits 10 too high on frames 61..66",
                      _score_picture_glitch)
DEEP = PostStepMod("test_double_points_level_3", "points doubled on level 3",
                   _double_points_on_level_3)


def test_a_mid_probe_divergence_whose_end_value_matches_ale_fails_the_probe():
    ale = probes.run_probe("frostbite", BLOCK, "ale")
    assert ale.passed and probes.run_probe("frostbite", BLOCK, "jax").passed
    faulty = probes.run_probe("frostbite", BLOCK, "jax", mods=(SCORE_EARLY,))
    # every end value is ALE's: an end-value check would pass it
    assert {k: faulty.end[k] for k in ("score", "igloo_blocks")} == \
        {k: ale.end[k] for k in ("score", "igloo_blocks")}
    assert not faulty.passed
    d = faulty.divergence
    assert (d.frame, d.signal, d.ale, d.jax) == (100, "score", 0, 10)
    assert faulty.failures == [
        "diverges from ALE at frame 100 (in the probe's steps): score ALE 0, JAX 10"]


def test_a_reward_only_fault_fails_the_probe_on_the_reward():
    faulty = probes.run_probe("frostbite", BLOCK, "jax", mods=(REWARD_DOUBLED,))
    assert faulty.end["score"] == 10  # the score is right
    assert not faulty.passed
    d = faulty.divergence
    assert (d.signal, d.ale, d.jax) == ("reward", 10, 20)
    assert 120 < d.frame < 188


@pytest.mark.slow
def test_a_pixel_only_fault_on_frames_no_probe_ends_on_is_caught():
    faulty = probes.run_probe("frostbite", BLOCK, "jax", mods=(PICTURE,))
    assert not faulty.passed
    d = faulty.divergence
    assert d.signal == lockstep.SCREEN and 61 <= d.frame <= 66
    assert "pixels differ in rows" in d.jax
    # the probe's last screen is ALE's: an end-screen check would not see it
    ale = probes.run_probe("frostbite", BLOCK, "ale")
    assert lockstep.screen_difference(ale.screen, faulty.screen) is None


def test_screens_are_sampled_every_few_frames_the_last_and_every_frame_of_a_screen_probe():
    s = lockstep.Screens(every=4)
    assert s.wanted(0, 10, last=True) == [3, 7, 9]
    assert s.wanted(2, 6, last=False) == [1, 5]
    assert lockstep.Screens(every=4, all_frames=True).wanted(5, 3, last=False) == [0, 1, 2]


@pytest.mark.parametrize("stride", ["probes", "explore", "mutants"])
def test_every_sampling_stride_meets_every_phase_of_the_frame_counters_low_bits(stride):
    """A 2600 game animates on its frame counter's low bits: a fault drawn only on frames whose
    counter ends in one bit pattern must fall on some sampled frame of a long enough run. A stride
    of 8 (the exploration's and mutants' before) met one phase in 8; 4 (the probes') one in 4."""
    from alignment.audit import explore, mutant_runs
    n = 400
    if stride == "mutants":
        frames = [t + 1 for t in range(n) if mutant_runs.sampled(t, n - 1)]
        frames = [f for f in frames if f > mutant_runs.SCREEN_EVERY]  # past the start-up frames
    else:
        every = probes.SCREEN_EVERY if stride == "probes" else explore.SCREEN_EVERY
        frames = [t + 1 for t in lockstep.Screens(every=every).wanted(0, n, last=False)]
    for bits in (1, 2, 3, 4):
        assert {f % (1 << bits) for f in frames} == set(range(1 << bits)), (stride, bits)
    # and from any start (a walk begins at whatever frame its start left off)
    if stride != "mutants":
        for first in (0, 5, 131, 1000):
            phases = {(first + t + 1) % 8 for t in lockstep.Screens(every=every).wanted(first, 120, False)}
            assert phases == set(range(8)), (stride, first)


def test_first_divergence_names_the_earliest_frame_and_every_signal_on_it():
    from alignment import catalog

    sig = catalog.entry("pong").signals

    def rec(player_y, reward):
        n = len(player_y)
        tr = {k: np.zeros(n) for k in sig}
        tr["player_y"], tr["reward"] = np.asarray(player_y), np.asarray(reward)
        return lockstep.Recording(10, tr, [], [], {}, {})

    ale = rec([5, 5, 5, 5], [0, 0, 0, 1])
    assert lockstep.first_divergence(sig, ale, rec([5, 5, 5, 5], [0, 0, 0, 1]), "x") is None
    d = lockstep.first_divergence(sig, ale, rec([5, 5, 60, 60], [0, 0, 1, 0]), "in a test")
    assert (d.frame, d.signal, d.ale, d.jax, d.others) == (13, "player_y", 5, 60, ["reward"])
    assert d.describe() == ("diverges from ALE at frame 13 (in a test): player_y ALE 5, JAX 60 "
                            "(also reward)")


@pytest.mark.slow
def test_exploration_finds_a_fault_only_a_deep_start_reaches():
    spec = load_spec(SPECS / "frostbite.yaml")
    shallow = Budget(walk_frames=120, policies=("random-holds",), deep_frames=0, deep_branches=0)
    found = explore.explore(spec, mods=(DEEP,), budget=shallow)
    # reset, the save points (levels 1, 2 and a poked level 5) and poke starts never play level 3
    assert found.divergences == []
    deep = Budget(walk_frames=120, policies=("random-holds",), deep_frames=7488, deep_branches=4)
    clean = explore.explore(spec, budget=deep)
    assert clean.divergences == [] and clean.spec_gaps == []
    found = explore.explore(spec, mods=(DEEP,), budget=deep)
    first = found.first()
    assert first is not None and first["signal"] in ("score", "reward")
    assert first["start"].startswith("deep play") and first["frame"] > 1934  # past level 2's point
    assert "scoring.ice-block" in found.rules


def test_the_audit_counts_exploration_under_faults_and_spec_gaps_on_the_game():
    """The audit's wiring of exploration, on the toy game with an explorer that reports what a
    lockstep run of it shows: the five-lives fault changes lives from the first frame (its rule,
    physics.bounce, has no probe; the Constants field it replaces carries no reviewed rule's tag,
    so the divergence goes to the rule whose probe watches lives: caught, not detected); the toy
    game itself leaves ALE once where no rule looks (a spec gap)."""
    from alignment.audit import core
    from alignment.audit.explore import QUICK, Exploration, WalkResult
    from tests.audit import toy

    seen = []

    def explorer(mods, structure):
        seen.append(tuple(m.name for m in mods))
        if not mods:
            gap = lockstep.Divergence(50, "marker_x", 3, 4, "random-holds walk 0 from reset")
            return Exploration(QUICK, [], [WalkResult("reset", "random-holds", 120, gap, [])], 1.0)
        if mods[0].name != "five_lives":
            return Exploration(QUICK, [], [WalkResult("reset", "random-holds", 120, None, [])], 1.0)
        d = lockstep.Divergence(1, "lives", 3, 5, "random-holds walk 0 from reset")
        start = explore.Start("reset", "reset", [])
        rules = explore.attribute(d, start, toy.SPEC, explore.touched_rules(mods, structure))
        return Exploration(QUICK, [], [WalkResult("reset", "random-holds", 120, d, rules)], 1.0)

    subject = toy.subject()
    subject.explore = explorer
    result = core.audit(subject)
    assert seen == [(), ("free_payout",), ("endless",), ("five_lives",)]
    s = result.summary()
    assert (s["explore_divergences"], s["spec_gaps"], s["explore_frames"]) == (1, 1, 120)
    faults = {f.fault: f for f in result.faults}
    assert faults["five_lives"].flagged == [] and faults["five_lives"].explore_rules == [
        "lives.loss-at-40"]
    assert faults["five_lives"].caught and not faults["five_lives"].detected
    assert (s["seeded_faults_detected"], s["seeded_faults_caught"]) == (2, 3)
    md = report.render_markdown(report.to_json(result))
    assert "**spec gap** (exploration, no rule to attribute it to): frame 50" in md
