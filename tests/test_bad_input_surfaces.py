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
