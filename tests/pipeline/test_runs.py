"""Durable runs in the real SQLite checkpointer, and the run/review/runs commands."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from alignment.pipeline import graph
from alignment.cli import app
from alignment.pipeline import execute, runs
from alignment.spec.store import load_spec
from tests.pipeline import toy_stages

ALL_RULES = [rid for rid, _, _ in toy_stages.EXTRACTED]
runner = CliRunner()


def _start(cfg, root):
    with runs.open_store(root) as saver:
        return execute.start(graph.compile(saver), "toy", cfg, root, run_id="toy-1")


def _resume(root, run_id="toy-1"):
    with runs.open_store(root) as saver:
        compiled = graph.compile(saver)
        return execute.resume(compiled, runs.find_run(compiled, saver, run_id), root)


def test_a_node_that_raises_leaves_a_run_that_resume_finishes(toy_cfg, tmp_path):
    cfg, root = toy_cfg(), tmp_path / "state"
    info = _start(cfg, root)
    assert info.status == "waiting for review" and info.stage == "spec"
    runs.save_answer(root, "toy-1", {"accept": ALL_RULES[:3], "reject": ALL_RULES[3:]})
    (Path(cfg.specs_dir) / ".fail-once").touch()

    info = _resume(root)  # review applies the answer, then the audit raises
    assert info.status.startswith("failed in audit: RuntimeError('injected failure")
    assert info.next == ("audit",) and info.stage == "review"
    assert "injected failure" in (root / "logs" / "toy-1.log").read_text()
    assert load_spec(Path(cfg.specs_dir) / "toy.yaml").rule(ALL_RULES[3]).status == "rejected"

    info = _resume(root)  # a fresh store connection, as a new process would have
    assert info.status == "done" and info.stage == "report"
    assert info.values["audit"]["summary"]["recall"] == 1.0
    assert not runs.answer_path(root, "toy-1").exists()


RESUME_SCRIPT = """
import sys
from pathlib import Path
from alignment.pipeline import graph
from alignment.pipeline import execute, runs
root = Path(sys.argv[1])
with runs.open_store(root) as saver:
    compiled = graph.compile(saver)
    execute.resume(compiled, runs.find_run(compiled, saver, "toy-1"), root)
"""


def test_a_run_killed_inside_a_node_resumes_from_that_node(toy_cfg, tmp_path):
    cfg, root = toy_cfg(), tmp_path / "state"
    _start(cfg, root)
    runs.save_answer(root, "toy-1", {"accept": ALL_RULES[:3], "reject": ALL_RULES[3:]})
    knobs = Path(cfg.specs_dir)  # the toy's knobs (tests/pipeline/toy_stages.py)
    (knobs / ".hang").touch()
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-c", RESUME_SCRIPT, str(root)], cwd=repo,
                            env={**os.environ, "PYTHONPATH": str(repo)})
    try:
        deadline = time.monotonic() + 120
        while not (knobs / ".started").exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the audit never started"
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    (knobs / ".hang").unlink()
    with runs.open_store(root) as saver:
        killed = runs.run_info(graph.compile(saver), "toy-1")
    assert killed.status == "stopped before audit" and killed.stage == "review"

    info = _resume(root)  # the answer was applied before the kill; the audit runs again
    assert info.status == "done", info.status
    assert info.values["decisions"][ALL_RULES[3]] == "reject"
    assert info.values["audit"]["status"] == "done"
    assert load_spec(Path(cfg.specs_dir) / "toy.yaml").rule(ALL_RULES[3]).status == "rejected"
    assert not runs.answer_path(root, "toy-1").exists()


def test_cli_review_then_resume_then_runs(toy_cfg, tmp_path):
    cfg, root = toy_cfg(), tmp_path / "state"
    _start(cfg, root)
    state = ["--state-dir", str(root)]

    out = runner.invoke(app, ["run", "toy", "--resume", "toy-1", *state])
    assert out.exit_code == 1 and "jaxtari-align review toy-1" in out.output

    out = runner.invoke(app, ["review", "toy-1", "--accept", "scoring.nope", *state])
    assert out.exit_code == 2
    assert "no rule scoring.nope is waiting for review" in out.output
    assert "scoring.action-payout, lives.frame-forty" in out.output

    args = [x for r in ALL_RULES[:3] for x in ("--accept", r)] + ["--reject", ALL_RULES[3]]
    out = runner.invoke(app, ["review", "toy-1", *args, *state])
    assert out.exit_code == 0, out.output
    assert "3 accepted, 1 rejected" in out.output

    out = runner.invoke(app, ["run", "toy", "--resume", "toy-1", *state])
    assert out.exit_code == 0, out.output
    assert "toy-1 (toy): done" in out.output

    out = runner.invoke(app, ["runs", *state])
    assert out.exit_code == 0
    assert "toy-1" in out.output and "report" in out.output and "done" in out.output


def test_cli_interactive_review(toy_cfg, tmp_path):
    cfg, root = toy_cfg(), tmp_path / "state"
    _start(cfg, root)
    out = runner.invoke(app, ["review", "toy-1", "--state-dir", str(root)], input="a\nr\ns\na\n")
    assert out.exit_code == 0, out.output
    assert "A life is lost on frame 40." in out.output and "probe: from reset, FIRE x10" in out.output
    assert runs.load_answer(root, "toy-1") == {"accept": [ALL_RULES[0], ALL_RULES[3]],
                                               "reject": [ALL_RULES[1]]}


def test_resume_of_an_unknown_run_lists_the_runs(toy_cfg, tmp_path):
    root = tmp_path / "state"
    _start(toy_cfg(), root)
    out = runner.invoke(app, ["run", "toy", "--resume", "toy-9", "--state-dir", str(root)])
    assert out.exit_code == 1
    assert "no run 'toy-9'; the runs there are:\n  toy-1" in out.output


def test_unknown_game_lists_the_choices(tmp_path):
    out = runner.invoke(app, ["run", "frostbyte", "--state-dir", str(tmp_path)])
    assert out.exit_code == 2
    from alignment import catalog

    choices = ", ".join(catalog.games())
    assert "frostbite" in choices
    assert f"unknown game 'frostbyte'; the pipeline runs: {choices}" in out.output


def test_a_corrupt_store_is_named_and_left_alone(tmp_path):
    db = runs.db_path(tmp_path)
    db.write_bytes(b"this is not a database" * 100)
    before = db.read_bytes()
    for command in (["runs"], ["run", "pong"]):
        out = runner.invoke(app, [*command, "--state-dir", str(tmp_path)])
        assert out.exit_code == 1
        assert f"the checkpoint database {db} cannot be read (file is not a database)" in out.output
    assert db.read_bytes() == before


def test_a_locked_store_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(runs, "LOCK_TIMEOUT_S", 0.1)
    db = runs.db_path(tmp_path)
    holder = sqlite3.connect(db)
    holder.execute("CREATE TABLE t (x)")
    holder.commit()
    holder.execute("BEGIN EXCLUSIVE")
    try:
        out = runner.invoke(app, ["run", "pong", "--state-dir", str(tmp_path)])
    finally:
        holder.rollback()
        holder.close()
    assert out.exit_code == 1
    assert f"the checkpoint database {db} is locked by another process" in out.output


def test_review_of_a_run_that_does_not_wait_for_one(toy_cfg, tmp_path):
    cfg, root = toy_cfg(), tmp_path / "state"
    _start(cfg, root)
    runs.save_answer(root, "toy-1", {"accept": ALL_RULES[:3], "reject": ALL_RULES[3:]})
    assert _resume(root).status == "done"
    out = runner.invoke(app, ["review", "toy-1", "--accept", ALL_RULES[0], "--state-dir", str(root)])
    assert out.exit_code == 1 and "run toy-1 does not wait for review (status: done)" in out.output
