"""The newer surfaces (stress, run, audit, playtest, the Python API) under bad input, faults and
concurrency (issue 33): each case refused before any work with a message naming the input and the
fix, or the correct result — never a lost file or a silently wrong one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from alignment.cli import app

REPO = Path(__file__).resolve().parents[1]
COMMITTED_STRESS = REPO / "stress" / "pong-objects.json"


def _invoke(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


# ---- 1. committed artefacts are never overwritten by a run of another configuration ------------


@pytest.fixture
def committed_stress(tmp_path) -> Path:
    out = tmp_path / "stress"
    out.mkdir()
    shutil.copy(COMMITTED_STRESS, out / COMMITTED_STRESS.name)
    return out


def test_stress_defaults_refuse_to_replace_a_report_of_another_budget(committed_stress):
    before = (committed_stress / "pong-objects.json").read_bytes()
    result = _invoke("stress", "pong", "--out", str(committed_stress))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "another configuration" in text and "2,097,152 agent steps" in text
    assert "--replace" in text and "--out" in text
    assert (committed_stress / "pong-objects.json").read_bytes() == before
    assert not (committed_stress / ".checkpoints").exists()  # refused before any training


def test_stress_refuses_an_unreadable_report_in_out(tmp_path):
    (tmp_path / "pong-objects.json").write_text("{half a report")
    result = _invoke("stress", "pong", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "cannot be read" in result.output and "--replace" in result.output
    assert (tmp_path / "pong-objects.json").read_text() == "{half a report"


def test_stress_api_check_accepts_the_same_configuration_and_refuses_another(committed_stress):
    from alignment.stress.config import budget_config
    from alignment.stress.report import ReplaceRefused, check_replace

    data = json.loads(COMMITTED_STRESS.read_text())
    same = budget_config(data["config"]["total_timesteps"], "objects")
    check_replace(committed_stress, "pong-objects", same, data["seeds"], ("jax", "ale"))
    with pytest.raises(ReplaceRefused, match="3 seeds"):
        check_replace(committed_stress, "pong-objects", same, [0, 1, 2], ("ale", "jax"))
    with pytest.raises(ReplaceRefused, match="backends jax"):
        check_replace(committed_stress, "pong-objects", same, data["seeds"], ("jax",))


def test_run_with_stress_refuses_before_any_stage_and_takes_the_stress_folder(committed_stress,
                                                                                  tmp_path):
    before = (committed_stress / "pong-objects.json").read_bytes()
    state = tmp_path / "state"
    result = _invoke("run", "pong", "--stress", "smoke", "--stress-out", str(committed_stress),
                     "--state-dir", str(state))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "--stress-out" in text and "--stress-replace" in text
    assert (committed_stress / "pong-objects.json").read_bytes() == before
    assert not (state / "checkpoints.sqlite").exists()  # no run was started


@pytest.mark.parametrize("args, bound", [
    (("--seeds", "100000"), "1 to 256"),
    (("--budget", str(2**40)), "1,000,000,000"),
])
def test_stress_bounds_are_named_before_any_allocation(tmp_path, args, bound):
    result = _invoke("stress", "pong", "--out", str(tmp_path), *args)
    assert result.exit_code == 2
    assert bound in " ".join(result.output.split())


# ---- 2. multi-file reports are written as one unit ------------------------------------------------

_KILL_AT = """
import os, signal, sys
from alignment import atomic
calls = 0
real = os.replace
def replace(a, b):
    global calls
    calls += 1
    if calls == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)
    real(a, b)
os.replace = replace
atomic.write_files(sys.argv[1], {"pong.json": "new json", "pong.md": "new md",
                                 "pong-curves.png": b"new png"})
"""


@pytest.mark.parametrize("kill_at", [1, 2, 3, 4, 5])
def test_a_report_killed_between_its_writes_is_all_old_or_all_new(tmp_path, kill_at):
    import subprocess
    import sys

    from alignment import atomic

    old = {"pong.json": b"old json", "pong.md": b"old md", "pong-curves.png": b"old png"}
    for name, data in old.items():
        (tmp_path / name).write_bytes(data)
    proc = subprocess.run([sys.executable, "-c", _KILL_AT, str(tmp_path), str(kill_at)],
                          capture_output=True, text=True, timeout=60)
    # os.replace calls: 1 the journal (the commit point), 2..4 the three files
    assert proc.returncode == (-9 if kill_at <= 4 else 0), proc.stderr
    atomic.recover(tmp_path)  # what every reader and writer of a report folder does first
    seen = {name: (tmp_path / name).read_bytes() for name in old}
    if kill_at == 1:
        assert seen == old
    else:
        assert seen == {n: d.replace(b"old", b"new") for n, d in old.items()}
    assert not (tmp_path / atomic.JOURNAL).exists()


def test_the_audit_refuses_a_folder_where_its_markdown_goes_before_any_work(tmp_path):
    (tmp_path / "pong.md").mkdir()
    result = _invoke("audit", "pong", "--out", str(tmp_path))
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "pong.md' is a directory" in text and "move it aside" in text
    assert not (tmp_path / "pong.json").exists()


def _tiny_result():
    import numpy as np

    from alignment.stress.config import budget_config
    from alignment.stress.core import BackendRuns, StressResult, compare

    runs = {k: BackendRuns([1024, 2048], np.array([[1.0, 2.0], [1.5, v]]), np.ones((2, 2), int),
                           np.array([2.0, v]), 1.0, 4096, 1.0) for k, v in (("ale", 2.5), ("jax", 3.0))}
    stats, verdict, notes = compare(runs)
    return StressResult("freeway", "objects", "2048", budget_config(2048), [0, 1], runs, stats,
                        verdict, notes, "0" * 64, {"python": "3"})


def test_the_stress_report_is_written_whole_or_not_at_all(tmp_path):
    from alignment import atomic
    from alignment.stress import report

    (tmp_path / "freeway-objects.json").write_text("old")
    (tmp_path / "freeway-objects.md").write_text("old")
    (tmp_path / "freeway-objects-final.png").mkdir()  # the last file cannot be replaced
    with pytest.raises(atomic.OutputLocationError, match="freeway-objects-final.png"):
        report.write(_tiny_result(), tmp_path)
    assert (tmp_path / "freeway-objects.json").read_text() == "old"
    assert (tmp_path / "freeway-objects.md").read_text() == "old"
    assert not (tmp_path / "freeway-objects-curves.png").exists()
    (tmp_path / "freeway-objects-final.png").rmdir()
    paths = report.write(_tiny_result(), tmp_path)
    assert sorted(paths) == ["curves", "final", "json", "md"]
    assert json.loads(paths["json"].read_text())["game"] == "freeway"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths.values())


# ---- 3. checksums cover everything they protect; recorded values validated on read --------------


def _checkpoint(interval=2):  # at most two intervals
    import numpy as np

    from alignment.stress import checkpoints as ckpts

    history = [{"interval": k, "steps": 1024 * (k + 1), "return": [0.89, 1.89][k], "episodes": 1,
                "losses": [0.1, 0.2]} for k in range(interval)]
    return ckpts.Checkpoint(interval, [np.arange(4, dtype=np.float32)], history, None, 3.0)


def test_a_stress_checkpoints_checksum_covers_its_learning_curve(tmp_path):
    from alignment.stress import checkpoints as ckpts

    path = ckpts.save(tmp_path, "jax", 0, _checkpoint())
    assert ckpts.load(path).history[1]["return"] == 1.89
    data = path.read_bytes()
    assert data.count(b'"return": 1.89') == 1
    path.write_bytes(data.replace(b'"return": 1.89', b'"return": 5.39'))  # one digit moved
    with pytest.raises(ckpts.CorruptCheckpoint, match="checksum"):
        ckpts.load(path)
    found, notes = ckpts.latest(tmp_path, "jax", 0)
    assert found is None and "restarts" in notes[0]


@pytest.mark.parametrize("row", [{"interval": 0, "steps": 1024, "return": float("nan"), "episodes": 1},
                                 {"interval": 0, "steps": 1024, "return": "1", "episodes": 1},
                                 {"interval": 0, "steps": 1024, "return": 1.0, "episodes": -1},
                                 {"interval": 5, "steps": 1024, "return": 1.0, "episodes": 1},
                                 None])
def test_a_checkpoints_curve_is_checked_value_by_value_even_with_a_good_checksum(tmp_path, row):
    from alignment.stress import checkpoints as ckpts

    ck = _checkpoint(interval=1)
    ck.history = [row]
    path = ckpts.save(tmp_path, "jax", 0, ck)
    with pytest.raises(ckpts.CorruptCheckpoint, match="learning curve"):
        ckpts.load(path)
