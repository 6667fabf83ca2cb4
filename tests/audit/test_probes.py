"""Probes (data) run on the real emulator and on the JAX game; the reviewed specs' probes hold on both."""

import pytest
from typer.testing import CliRunner

from alignment.audit import probes
from alignment.cli import app
from alignment.spec.schema import Probe
from alignment.spec.store import load_spec
from tests.docs.paths import SPECS

GAMES = ("pong", "freeway", "frostbite")


def _probed():
    out = []
    for game in GAMES:
        spec = load_spec(SPECS / f"{game}.yaml")
        out += [pytest.param(game, r.id, id=f"{game}:{r.id}")
                for r in spec.rules if r.probe is not None and r.status == "reviewed"]
    return out


@pytest.mark.parametrize("game, rule_id", _probed())
def test_reviewed_probe_holds_on_ale_and_on_jax(game, rule_id):
    rule = load_spec(SPECS / f"{game}.yaml").rule(rule_id)
    ale = probes.run_on_ale(game, rule.probe)
    assert ale.passed, ale.failures
    jax_result = probes.run_on_jax(game, rule.probe)
    assert jax_result.passed, jax_result.failures


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
    rule = load_spec(SPECS / "pong.yaml").rule("scoring.point-against")
    assert probes.run_probe("pong", rule.probe, "jax").passed
    modded = probes.run_probe("pong", rule.probe, "jax", mods=["no_enemy_points"])
    assert modded.failures == ["enemy_score == 1 (start 0, end 0)"]
    assert probes.run_probe("pong", rule.probe, "ale", mods=["no_enemy_points"]).passed


def test_save_point_start_is_the_same_situation_on_both_backends():
    probe = Probe.model_validate({
        "start": "on-first-row",
        "steps": [{"action": "NOOP", "frames": 1}],
        "expectations": [{"signal": "igloo_blocks", "op": "==", "value": 1},
                         {"signal": "score", "op": "unchanged"}]})
    for backend in probes.BACKENDS:
        r = probes.run_probe("frostbite", probe, backend)
        assert r.passed, (backend, r.failures)
        assert r.start["score"] == 10


def test_unknown_start_and_signal_are_clear_errors():
    bad_start = Probe.model_validate({"start": "castle", "steps": [{"action": "NOOP", "frames": 1}],
                                      "expectations": [{"signal": "score", "op": "==", "value": 0}]})
    with pytest.raises(probes.ProbeError, match="unknown probe start 'castle'.*on-first-row"):
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
    ok = runner.invoke(app, ["probe", "pong", "--specs", str(SPECS)])
    assert ok.exit_code == 0, ok.output
    assert "pass" in ok.output
    missing = runner.invoke(app, ["probe", "pong", "--specs", str(tmp_path)])
    assert missing.exit_code == 1 and "no spec at" in missing.output
    unknown = runner.invoke(app, ["probe", "tetris"])
    assert unknown.exit_code == 1 and "tetris" in unknown.output and "Traceback" not in unknown.output
