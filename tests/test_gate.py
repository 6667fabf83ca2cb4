"""The fidelity gate: thresholds as validated data, figures against them and against a base ref."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from alignment import gate
from alignment.cli import app
from tests.gate_fixtures import git as _git, make_repo, write_audit as _audit, write_stress as _stress

runner = CliRunner()


@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path)


def _evaluate(root, game="pong", **kw):
    cfg = gate.load_config(root / "fidelity.toml")
    return gate.evaluate(game, cfg.for_game(game), root=root, replay=None,
                         code_hash=lambda g: None, **kw)


def test_passes_above_thresholds_and_fails_when_recall_dropped_against_base(repo):
    assert _evaluate(repo, base="main").passed
    _audit(repo, "pong", recall=0.92)  # still above the 0.90 threshold
    verdict = _evaluate(repo, base="main")
    assert verdict.failures == ["recall dropped against main: 0.96 -> 0.92"]
    assert _evaluate(repo).passed  # without a base only the thresholds count
    _audit(repo, "pong", recall=0.85)
    assert "recall 0.85 is below 0.90" in _evaluate(repo).failures


def test_stress_different_fails_and_a_worse_verdict_than_base_fails(repo):
    _stress(repo, "pong", "inconclusive")
    assert _evaluate(repo, base="main").failures == [
        "stress (objects) got worse against main: equivalent -> inconclusive"]
    _stress(repo, "pong", "different")
    assert "stress (objects): the learning curves are different" in _evaluate(repo).failures


def test_a_verdict_at_another_budget_is_not_a_drop_but_different_still_fails(repo):
    _stress(repo, "pong", "inconclusive", steps=2_097_152)  # base: equivalent at 524,288
    assert _evaluate(repo, base="main").passed
    _stress(repo, "pong", "different", steps=2_097_152)
    assert _evaluate(repo, base="main").failures == [
        "stress (objects): the learning curves are different"]


def test_a_game_without_an_audit_fails_with_the_command_that_makes_one(repo):
    assert _evaluate(repo, game="freeway").failures == [
        "no audit: make one with `jaxtari-align audit freeway` and commit audits/freeway.json"]
    (repo / "audits" / "freeway.json").write_text('{"schema": "something/else"}')
    assert _evaluate(repo, game="freeway").failures == [
        "audits/freeway.json has schema 'something/else', not 'jaxtari-align/audit/v1'"]


def test_an_audit_made_for_other_code_is_stale(repo):
    _audit(repo, "pong", code_hash="c0de")
    cfg = gate.load_config(repo / "fidelity.toml")
    verdict = gate.evaluate("pong", cfg.for_game("pong"), root=repo, replay=None,
                            code_hash=lambda g: "feedface" * 8)
    assert verdict.failures == ["audits/pong.json was made for code c0de, the game's code is now "
                                "feedfacefeed: re-run `jaxtari-align audit pong`"]


def test_playtest_required_and_removed_sessions_fail(repo):
    (repo / "fidelity.toml").write_text("[defaults]\nrequire_playtest = true\n")
    assert _evaluate(repo).failures == [
        "not playtested: record a session with `jaxtari-align play pong`"]
    session = repo / "playtest" / "pong" / "s1.jsonl.gz"
    session.parent.mkdir(parents=True)
    session.write_bytes(b"")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "session")
    cfg = gate.load_config(repo / "fidelity.toml")
    replayed = gate.evaluate("pong", cfg.for_game("pong"), root=repo, code_hash=lambda g: None,
                             replay=lambda game, root: (1, 0, ["s1.jsonl.gz: frame 7, score"]))
    assert replayed.figures["playtest_pass"] == 0.0
    assert replayed.failures == ["playtest: 0 of 1 session(s) replay clean (needs 100%): "
                                 "s1.jsonl.gz: frame 7, score"]
    session.unlink()
    assert "playtest sessions removed against HEAD: playtest/pong/s1.jsonl.gz" in \
        _evaluate(repo, base="HEAD").failures


@pytest.mark.parametrize("toml, named", [
    ("[defaults]\nrecal = 0.9\n", "defaults.recal: unknown key"),
    ("[games.pong]\nrecall = 1.5\n", "games.pong.recall: 1.5 is outside [0, 1]"),
    ("[defaults]\nprecision = -0.1\n", "defaults.precision: -0.1 is outside [0, 1]"),
    ("[limits]\nx = 1\n", "limits: unknown key"),
    ("[defaults\n", "is not valid TOML"),
])
def test_a_bad_fidelity_toml_names_the_key(tmp_path, toml, named):
    path = tmp_path / "fidelity.toml"
    path.write_text(toml)
    with pytest.raises(gate.GateConfigError) as err:
        gate.load_config(path)
    assert named in str(err.value) and str(path) in str(err.value)


def test_command_table_markdown_exit_status_and_step_summary(repo, monkeypatch):
    monkeypatch.chdir(repo)
    summary = repo / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    _audit(repo, "pong", recall=0.92)
    out = runner.invoke(app, ["gate", "pong", "--base", "main", "--no-replay",
                              "--markdown", "gate.md"])
    assert out.exit_code == 1, out.output
    assert "recall dropped against main: 0.96 -> 0.92" in out.output
    written = (repo / "gate.md").read_text()
    verdicts = [_evaluate(repo, base="main")]
    assert written == gate.markdown(verdicts, base="main")
    assert "| pong | 0.95 (≥ 0.90) | 0.92 (≥ 0.90) |" in written and "FAIL" in written
    assert summary.read_text() == "earlier step\n" + written

    _audit(repo, "pong")
    out = runner.invoke(app, ["gate", "pong", "--base", "main", "--no-replay"])
    assert out.exit_code == 0, out.output


def test_command_bad_input(repo, monkeypatch):
    monkeypatch.chdir(repo)
    out = runner.invoke(app, ["gate", "pong", "--base", "no-such-branch"])
    assert out.exit_code == 2 and "--base 'no-such-branch' is not a git ref" in out.output
    out = runner.invoke(app, ["gate", "pongg", "--no-replay"])
    assert out.exit_code == 2 and "unknown game(s) pongg; games: " in out.output
    out = runner.invoke(app, ["gate", "--config", "missing.toml"])
    assert out.exit_code == 2 and "no gate thresholds at missing.toml" in out.output


def test_touched_games(repo):
    games = ["freeway", "frostbite", "pong"]
    _git(repo, "checkout", "-qb", "change")
    (repo / "README.md").write_text("words\n")
    _git(repo, "add", "-A"); _git(repo, "commit", "-qm", "docs")
    assert gate.touched_games("main", games, repo) == []
    (repo / "jaxtari" / "games").mkdir(parents=True)
    (repo / "jaxtari" / "games" / "frostbite_draw.py").write_text("x = 1\n")
    (repo / "specs").mkdir()
    (repo / "specs" / "pong.yaml").write_text("game: pong\n")
    _git(repo, "add", "-A"); _git(repo, "commit", "-qm", "games")
    assert gate.touched_games("main", games, repo) == ["frostbite", "pong"]
    (repo / "alignment").mkdir()
    (repo / "alignment" / "backends.py").write_text("x = 1\n")
    _git(repo, "add", "-A"); _git(repo, "commit", "-qm", "shared")
    assert gate.touched_games("main", games, repo) == games


ROOT = Path(__file__).resolve().parents[1]


def _committed_games():
    cfg = gate.load_config(ROOT / "fidelity.toml")
    games = [g for g in gate.default_games(ROOT, cfg) if (ROOT / "audits" / f"{g}.json").exists()]
    if not games:
        pytest.skip("no audits committed on this branch yet")
    return cfg, games


def test_gate_passes_on_the_committed_artefacts():
    cfg, games = _committed_games()
    for game in games:
        verdict = gate.evaluate(game, cfg.for_game(game), root=ROOT, replay=None)
        assert verdict.passed, (game, verdict.failures)


@pytest.mark.slow
def test_gate_passes_on_the_committed_artefacts_with_replays():
    cfg, games = _committed_games()
    for game in games:
        verdict = gate.evaluate(game, cfg.for_game(game), root=ROOT)
        assert verdict.passed, (game, verdict.failures)
