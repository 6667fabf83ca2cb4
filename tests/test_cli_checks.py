"""The validation layer of the newer commands (alignment/cli_checks.py, alignment.atomic.exclusive):
inputs and outputs checked before any work, user-given git refs never read as git options, and
one process at a time on resumable work."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from alignment import atomic, cli_checks
from alignment.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _text(result) -> str:
    return " ".join(result.output.split())  # rich wraps long messages


def test_a_ref_that_looks_like_a_git_option_is_refused_and_git_writes_nothing(tmp_path):
    target = tmp_path / "written-by-git"
    for ref in (f"--output={target}", "-p", ""):
        with pytest.raises(cli_checks.InputError, match="cannot start with '-'"):
            cli_checks.git_commit(ref, "--base", ROOT)
    assert not target.exists()
    with pytest.raises(cli_checks.InputError, match="--base 'no-such-branch-x' is not a git ref here"):
        cli_checks.git_commit("no-such-branch-x", "--base", ROOT)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    assert cli_checks.git_commit("HEAD", "--base", ROOT) == head.stdout.strip()


def test_input_files_and_folders_are_named_with_their_option(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(cli_checks.InputError, match=r"--agents '.*f' is a file; give a folder"):
        cli_checks.input_dir(tmp_path / "f", "--agents")
    with pytest.raises(cli_checks.InputError, match="no such folder"):
        cli_checks.input_dir(tmp_path / "none", "--agents")
    with pytest.raises(cli_checks.InputError, match="is a folder; give a file in it"):
        cli_checks.input_file(tmp_path, "REPORT")
    with pytest.raises(cli_checks.InputError, match="REPORT '.*none': no such file"):
        cli_checks.input_file(tmp_path / "none", "REPORT")
    assert cli_checks.input_file(tmp_path / "f", "REPORT") == tmp_path / "f"


def test_a_second_stress_run_into_the_same_checkpoints_is_refused_before_training(tmp_path):
    from alignment.learning.config import budget_config
    from alignment.stress.config import StressInputError
    from alignment.stress.core import run_stress

    steps = budget_config("smoke", "objects").total_timesteps
    lock = tmp_path / ".checkpoints" / f"freeway-objects-{steps}.lock"
    with atomic.exclusive(lock, "held by the test ({holder})"):
        with pytest.raises(StressInputError, match=r"another run is training into .* now \(pid \d+\)"):
            run_stress("freeway", budget="smoke", seeds=1, backends=("jax",), out_dir=tmp_path)
    assert not (tmp_path / ".checkpoints" / f"freeway-objects-{steps}").exists()  # nothing trained


def test_the_lock_is_free_again_after_its_holder_ends(tmp_path):
    with atomic.exclusive(tmp_path / "x.lock", "busy ({holder})"):
        with pytest.raises(atomic.Busy, match=r"busy \(pid \d+\)"):
            with atomic.exclusive(tmp_path / "x.lock", "busy ({holder})"):
                pass
    with atomic.exclusive(tmp_path / "x.lock", "busy ({holder})"):
        pass


def test_gate_outputs_and_inputs_are_checked_before_any_game_is_evaluated(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    r = runner.invoke(app, ["gate", "pong", "--markdown", str(blocker / "gate.md")])
    assert r.exit_code == 2 and "--markdown" in _text(r) and "fidelity gate" not in _text(r)
    r = runner.invoke(app, ["gate", "pong", "--verify-artefacts", str(tmp_path / "none")])
    assert r.exit_code == 2 and "--verify-artefacts" in _text(r) and "no such folder" in _text(r)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path))  # a folder: the summary cannot go there
    r = runner.invoke(app, ["gate", "pong"])
    assert r.exit_code == 2 and "$GITHUB_STEP_SUMMARY" in _text(r) and "fidelity gate" not in _text(r)


def test_stress_remake_checks_every_report_before_remaking_any(tmp_path):
    first = tmp_path / "freeway-objects.json"
    first.write_text((ROOT / "stress" / "freeway-objects.json").read_text())
    before = first.read_bytes()
    r = runner.invoke(app, ["stress-remake", str(first), str(tmp_path / "pong-objects.json")])
    assert r.exit_code == 2 and "no such file" in _text(r)
    assert first.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [first.name]


def test_robustness_names_a_missing_agents_folder_before_work(tmp_path):
    r = runner.invoke(app, ["robustness", "freeway", "--agents", str(tmp_path / "none"),
                            "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "--agents" in _text(r) and "no such folder" in _text(r)
    assert not (tmp_path / "out").exists()


def test_a_folder_given_as_a_session_file_is_named(tmp_path):
    r = runner.invoke(app, ["playtest", "replay", str(tmp_path)])
    assert r.exit_code == 1 and "is a folder; give a file in it" in _text(r)
    assert "Traceback" not in _text(r)


def test_gate_takes_a_game_in_any_spelling_and_names_an_unknown_one(monkeypatch, tmp_path):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    r = runner.invoke(app, ["gate", "tetris", "--no-replay", "--markdown", str(tmp_path / "g.md")])
    assert r.exit_code == 2 and "unknown game(s) tetris" in _text(r)
    r = runner.invoke(app, ["gate", "ALE/Pong-v5", "--no-replay", "--markdown", str(tmp_path / "g.md")])
    assert "unknown game" not in _text(r) and "pong" in (tmp_path / "g.md").read_text()
