"""Probes (data) run on the real emulator and on the JAX game; the reviewed specs' probes hold on both."""

import numpy as np
import pytest
from typer.testing import CliRunner

from alignment import catalog
from alignment.audit import probes
from alignment.cli import app
from alignment.spec.schema import Probe
from alignment.spec.store import load_spec
from tests.docs.paths import SPECS

GAMES = catalog.games()


def _probed():
    """Every reviewed probe; v5-protocol ones (a compile of the wrapper per game, and hundreds of
    gymnasium episodes) are slow-marked."""
    out = []
    for game in GAMES:
        spec = load_spec(SPECS / f"{game}.yaml")
        for r in spec.rules:
            if r.probe is None or r.status != "reviewed":
                continue
            marks = [pytest.mark.slow] if r.probe.protocol == "v5" else []
            out.append(pytest.param(game, r.id, id=f"{game}:{r.id}", marks=marks))
    return out


@pytest.mark.parametrize("game, rule_id", _probed())
def test_reviewed_probe_holds_on_ale_and_on_jax(game, rule_id):
    spec = load_spec(SPECS / f"{game}.yaml")
    results = probes.run_both(game, spec.rule(rule_id).probe, spec)
    assert results["ale"].passed, results["ale"].failures
    assert results["jax"].passed, results["jax"].failures


def _save_points():
    return [pytest.param(game, name, id=f"{game}:{name}") for game in GAMES
            for name in load_spec(SPECS / f"{game}.yaml").save_points]


@pytest.mark.parametrize("game, name", _save_points())
def test_save_point_reaches_what_it_says_on_both_backends(game, name):
    spec = load_spec(SPECS / f"{game}.yaml")
    for backend in probes.BACKENDS:
        result = probes.check_save_point(spec, name, backend)
        assert result.passed, (backend, result.failures)


def test_coverage_of_the_reviewed_specs_is_at_least_90_percent():
    for game in GAMES:
        spec = load_spec(SPECS / f"{game}.yaml")
        probed, reviewed = probes.coverage(spec)
        assert probed >= 0.9 * reviewed, (game, probed, reviewed)
        for rule in spec.rules:  # a reviewed rule without a probe says why
            if rule.status == "reviewed" and rule.probe is None:
                assert rule.unprobed, (game, rule.id)


def _block_probe(points):
    return Probe.model_validate({
        "steps": [{"action": "NOOP", "frames": 120}, {"action": "DOWN", "frames": 8},
                  {"action": "NOOP", "frames": 60}],
        "expectations": [{"signal": "score", "op": "==", "value": points},
                         {"signal": "igloo_blocks", "op": "increases_by", "value": 1}]})


def test_a_wrong_probe_fails_on_both_backends():
    for backend in probes.BACKENDS:
        result = probes.run_probe("frostbite", _block_probe(20), backend)
        assert not result.passed
        assert result.failures == ["score == 20 (start 0, end 10)"]
        assert probes.run_probe("frostbite", _block_probe(10), backend).passed


def test_a_mod_applies_to_the_jax_game_only():
    probe = _block_probe(10)
    assert probes.run_probe("frostbite", probe, "jax").passed
    modded = probes.run_probe("frostbite", probe, "jax", mods=["slow_floes"])
    assert not modded.passed and modded.divergence is not None
    assert modded.failures[0].startswith("diverges from ALE at frame ")
    assert probes.run_probe("frostbite", probe, "ale", mods=["slow_floes"]).passed


def test_save_point_start_is_the_same_situation_on_both_backends():
    spec = load_spec(SPECS / "frostbite.yaml")
    probe = Probe.model_validate({
        "start": "on-first-row",
        "steps": [{"action": "NOOP", "frames": 1}],
        "expectations": [{"signal": "igloo_blocks", "op": "==", "value": 1},
                         {"signal": "score", "op": "unchanged"}]})
    for backend in probes.BACKENDS:
        r = probes.run_probe("frostbite", probe, backend, spec=spec)
        assert r.passed, (backend, r.failures)
        assert r.start["score"] == 10


def test_unknown_start_and_signal_are_clear_errors():
    spec = load_spec(SPECS / "frostbite.yaml")
    bad_start = Probe.model_validate({"start": "castle", "steps": [{"action": "NOOP", "frames": 1}],
                                      "expectations": [{"signal": "score", "op": "==", "value": 0}]})
    with pytest.raises(probes.ProbeError, match="unknown start 'castle'.*on-first-row"):
        probes.run_on_ale("frostbite", bad_start, spec)
    with pytest.raises(probes.ProbeError, match="starts from save point 'castle'; give the spec"):
        probes.run_on_ale("frostbite", bad_start)
    bad_signal = Probe.model_validate({"steps": [{"action": "NOOP", "frames": 1}],
                                       "expectations": [{"signal": "mana", "op": "==", "value": 0}]})
    with pytest.raises(probes.ProbeError, match="unknown signal 'mana'"):
        probes.run_on_jax("pong", bad_signal)


def test_holds_on_vectors_and_change_operators():
    assert probes.holds("==", [1, 2], [3, 3], 3)
    assert not probes.holds("==", [1, 2], [3, 4], 3)
    assert probes.holds("changes", [1, 2], [1, 3])
    assert probes.holds("decreases_by", 45, 44, 1)
    assert not probes.holds("increases", 5, 5)


def test_probe_command_runs_a_spec_and_reports_failures(tmp_path):
    runner = CliRunner()
    ok = runner.invoke(app, ["probe", "freeway", "--specs", str(SPECS)])
    assert ok.exit_code == 0, ok.output
    assert "pass" in ok.output
    missing = runner.invoke(app, ["probe", "pong", "--specs", str(tmp_path)])
    assert missing.exit_code == 1 and "no spec at" in missing.output
    unknown = runner.invoke(app, ["probe", "tetris"])
    assert unknown.exit_code == 1 and "tetris" in unknown.output and "Traceback" not in unknown.output


def test_a_screen_probe_compares_the_jax_frame_with_ales():
    probe = Probe.model_validate({"steps": [{"action": "NOOP", "frames": 130}],
                                  "expectations": [{"signal": "screen", "op": "matches_ale"}]})
    both = probes.run_both("frostbite", probe)
    assert both["ale"].passed and both["jax"].passed, both["jax"].failures
    assert both["ale"].screen.shape == (210, 160, 3)
    # a mod that draws the sprites as solid boxes is caught, with where the pixels differ
    boxes = probes.run_probe("frostbite", probe, "jax", mods=["monochrome"],
                             ale_screen=both["ale"].screen)
    assert not boxes.passed and "pixels differ in rows" in boxes.failures[0]


def test_screen_difference_counts_and_locates_pixels():
    a = np.zeros((210, 160, 3), np.uint8)
    b = a.copy()
    assert probes.screen_difference(a, b) is None
    b[44:46, 123:125, 0] = 7
    assert probes.screen_difference(a, b) == "4 pixels differ in rows 44-45, columns 123-124"
    assert "shapes differ" in probes.screen_difference(a, b[:84, :84])


def test_the_action_set_is_read_from_each_backend():
    probe = Probe.model_validate({"steps": [{"action": "NOOP", "frames": 1}], "expectations": [
        {"signal": "action_set", "op": "==", "value": ["NOOP", "UP", "DOWN"]}]})
    wrong = probe.model_copy(update={"expectations": [probe.expectations[0].model_copy(
        update={"value": ["NOOP", "DOWN", "UP"]})]})
    for backend in probes.BACKENDS:
        assert probes.run_probe("freeway", probe, backend).passed
        failed = probes.run_probe("freeway", wrong, backend)
        assert failed.failures == ["action_set == ['NOOP', 'DOWN', 'UP'] "
                                   "(start ['NOOP', 'UP', 'DOWN'], end ['NOOP', 'UP', 'DOWN'])"]


@pytest.mark.slow
def test_a_v5_probe_runs_gymnasium_and_the_wrapper_and_judges_rates():
    """One agent step of UP from reset: the chicken climbs 4 px unless sticky actions repeat the
    reset's NOOP on the first frame (p = 0.25 per frame; 159 of 200 episodes measured on ALE)."""
    probe = Probe.model_validate({
        "protocol": "v5", "seeds": 100, "steps": [{"action": "UP", "agent_steps": 1}],
        "expectations": [{"signal": "frame", "op": "==", "value": 4},
                         {"signal": "chicken_y", "op": "==", "value": 183, "rate": [0.6, 0.9]}]})
    never_sticky = probe.model_copy(update={"expectations": [probe.expectations[1].model_copy(
        update={"rate": (0.99, 1.0)})]})
    for backend in probes.BACKENDS:
        assert probes.run_probe("freeway", probe, backend).passed, backend
        failed = probes.run_probe("freeway", never_sticky, backend)
        assert len(failed.failures) == 1 and "% of 100 seeds" in failed.failures[0], backend


# ---- RAM-written starts (pokes) ---------------------------------------------------------------------
def test_the_bonus_life_probe_holds_on_both_and_catches_the_no_bonus_life_fault():
    from alignment.audit.faults import DEFAULT_FAULTS_DIR, load_faults

    spec = load_spec(SPECS / "frostbite.yaml")
    probe = spec.rule("lives.bonus-every-5000").probe
    assert spec.describe_start(probe) == "RAM-written start (poke score=4990) from reset"
    results = probes.run_both("frostbite", probe, spec)
    assert results["ale"].passed and results["jax"].passed
    assert results["ale"].end["lives"] == results["jax"].end["lives"] == 5
    fault = next(f for f in load_faults("frostbite", DEFAULT_FAULTS_DIR) if f.name == "no_bonus_life")
    faulty = probes.run_probe("frostbite", probe, "jax", (fault.mod,), spec=spec)
    assert faulty.failures == [
        "diverges from ALE at frame 151 (in the probe's steps): lives ALE 5, JAX 4",
        "lives increases by 1 (start 4, end 4)"]


def test_the_second_wall_probe_holds_on_both():
    spec = load_spec(SPECS / "breakout.yaml")
    probe = spec.rule("termination.player-team-destroy-walls").probe
    assert spec.describe_start(probe).startswith("RAM-written start (poke bricks=0, score=432)")
    results = probes.run_both("breakout", probe, spec)
    assert results["ale"].passed and results["jax"].passed, results
    assert list(results["ale"].start["bricks_per_row"]) == [18] * 6  # the played start: full


def _with_probe_steps(steps, start="reset"):
    """Frostbite's spec holding one reviewed rule whose probe has ``steps``."""
    from alignment.spec.schema import GameSpec

    spec = load_spec(SPECS / "frostbite.yaml")
    rule = spec.rule("lives.bonus-every-5000").model_dump(mode="json", exclude_none=True)
    rule["probe"].update(steps=steps, start=start)
    data = spec.model_dump(mode="json", exclude_none=True)
    data["rules"] = [rule]
    return GameSpec.model_validate(data)


@pytest.mark.parametrize("steps, start, message", [
    ([{"poke": {"lives": 9}}], "reset",
     "rule lives.bonus-every-5000: probe, step 1 (poke lives=9): unknown poke 'lives'; quantities a "
     "probe can set on frostbite: level, score"),
    ([{"poke": {"score": 10**6}}], "reset",
     "rule lives.bonus-every-5000: probe, step 1: poke score: 1000000 is out of range; score takes "
     "0..999999"),
    ([{"action": "NOOP", "frames": 2}, {"poke": {"level": 10}}], "reset",
     "rule lives.bonus-every-5000: probe, step 2: poke level is written only before the first frame "
     "(at reset), not at frame 2"),
    ([{"poke": {"level": 10}}], "on-first-row",
     "rule lives.bonus-every-5000: probe, step 1: poke level is written only before the first frame "
     "(at reset), not at frame 188"),
])
def test_bad_pokes_name_the_rule_the_step_and_the_fix(steps, start, message):
    spec = _with_probe_steps(steps + [{"action": "NOOP", "frames": 1}], start)
    problems = probes.poke_problems(spec)
    assert len(problems) == 1 and problems[0].startswith(message), problems
    # the runner refuses the same probe on each backend, in the rule's own row
    (rule_id, results), = probes.run_probes(spec, ("ale",))
    assert not results["ale"].passed
    why = results["ale"].failures[0]
    assert why.startswith("rule lives.bonus-every-5000: cannot run its probe: probe step"), why


def test_the_reviewed_specs_poke_only_what_their_games_take():
    for game in GAMES:
        assert probes.poke_problems(load_spec(SPECS / f"{game}.yaml")) == [], game
