"""The stress stage end to end on the real emulator and the JAX game: the report and its schema,
resume after a kill, a corrupt checkpoint, bad input."""

import dataclasses
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from alignment.learning import checkpoints as ckpts
from alignment.stress import report
from alignment.learning.config import LearnerInputError, PPOConfig, budget_config
from alignment.stress.config import StressInputError
from alignment.stress.core import BackendRuns, compare, run_stress

ROOT = Path(__file__).resolve().parents[2]
# Tiny but complete PPO (every code path, two updates per interval, three intervals).
TINY = dataclasses.replace(PPOConfig(), num_envs=2, num_steps=16, total_timesteps=2 * 16 * 6,
                           updates_per_eval=2, mlp_sizes=(32, 32))


def test_smoke_budget_end_to_end_on_both_backends(tmp_path):
    result = run_stress("freeway", budget="smoke", seeds=2, out_dir=tmp_path, random_episodes=2)
    assert not list(tmp_path.glob("freeway-objects*"))  # the core writes no report
    report.write(result, tmp_path)
    data = json.loads((tmp_path / "freeway-objects.json").read_text())
    rp = data["statistics"]["random_policy"]
    assert rp["episodes"] == 2 and rp["returns"] == [0.0, 0.0]  # random Freeway never crosses
    assert data["fingerprint"]["code_hash"] == data["code_hash"]
    assert len(data["fingerprint"]["sha256"]) == 64
    assert data["schema"] == "jaxtari-align/stress/v1"
    assert data["game"] == "freeway" and data["obs"] == "objects" and data["seeds"] == [0, 1]
    assert len(data["code_hash"]) == 64 and data["versions"]["ale-py"].startswith("0.")
    assert set(data["backends"]) == {"ale", "jax"}
    for b in data["backends"].values():
        assert b["steps"] == [1024, 2048]
        assert np.array(b["episodes"]).shape == (2, 2)
        assert b["wall_seconds"] > 0
    # 256 agent steps per env: no Freeway game (2,048 steps) ends, and the verdict says so
    assert data["verdict"]["label"] == "inconclusive"
    assert "no finished episode" in data["verdict"]["detail"]
    assert set(data["verdict"]) >= {"label", "margin", "detail"}
    assert data["config"]["learning_rate"] == 2.5e-4 and data["config"]["clip_eps"] == 0.1
    for suffix in ("-curves.png", "-final.png"):
        assert (tmp_path / f"freeway-objects{suffix}").read_bytes()[:4] == b"\x89PNG"
    md = (tmp_path / "freeway-objects.md").read_text()
    assert "Verdict: inconclusive" in md
    assert result.verdict["label"] == "inconclusive"


def test_a_jax_only_run_records_the_fingerprint_of_what_its_learners_saw(jax_tiny):
    from alignment.stress.fingerprint import fingerprint

    _, result = jax_tiny
    fp = result.extra["fingerprint"]  # the accelerator's runs train the JAX side alone
    assert fp["code_hash"] == result.code_hash
    assert fp["sha256"] == fingerprint("freeway", "objects")["sha256"]
    assert fp["steps"] * fp["envs"] == 4 * 4096 and fp["done_count"] >= 4  # whole Freeway games


_KILLED_RUN = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from tests.stress.test_core import TINY
    from alignment.stress.core import run_stress
    kill_after = int(sys.argv[2])
    seen = [0]
    def on_progress(backend, steps):
        seen[0] += steps
        if seen[0] >= kill_after:
            os.kill(os.getpid(), signal.SIGKILL)
    run_stress("freeway", budget=TINY, seeds=2, backends=("ale",), out_dir=Path(sys.argv[1]),
               on_progress=on_progress)
""")


def test_resume_after_a_kill_continues_the_same_seeds(tmp_path):
    whole = run_stress("freeway", budget=TINY, seeds=2, backends=("ale",),
                       out_dir=tmp_path / "whole")
    # killed by SIGKILL midway through the second interval (first call: 0 restored steps)
    steps_per_interval = TINY.updates_per_eval * TINY.batch_size * 2
    proc = subprocess.run([sys.executable, "-c", _KILLED_RUN, str(tmp_path / "killed"),
                           str(steps_per_interval + steps_per_interval // 2)], cwd=ROOT)
    assert proc.returncode == -signal.SIGKILL
    root = tmp_path / "killed" / ".checkpoints" / f"freeway-objects-{TINY.total_timesteps}"
    kept = sorted(p.name for p in (root / "ale" / "seed0").iterdir())
    assert kept == ["interval00001.ckpt"]  # one interval kept, the one in flight lost
    resumed = run_stress("freeway", budget=TINY, seeds=2, backends=("ale",),
                         out_dir=tmp_path / "killed")
    a, b = whole.runs["ale"], resumed.runs["ale"]
    assert b.steps == a.steps == [64, 128, 192]
    assert b.trained_steps == 2 * 2 * TINY.updates_per_eval * TINY.batch_size  # only 2 intervals
    # the emulators, the policy's key and the learner all continued: the very same numbers
    np.testing.assert_array_equal(a.episodes, b.episodes)
    ca = ckpts.load(tmp_path / "whole" / ".checkpoints" / root.name / "ale" / "seed1" / "interval00003.ckpt")
    cb = ckpts.load(root / "ale" / "seed1" / "interval00003.ckpt")
    assert [r["losses"] for r in ca.history] == [r["losses"] for r in cb.history]
    for x, y in zip(ca.leaves, cb.leaves):
        np.testing.assert_array_equal(x, y)


def test_a_corrupt_checkpoint_is_named_and_its_seed_restarts_from_the_last_good(jax_tiny_copy):
    tmp_path, _ = jax_tiny_copy  # a finished run's checkpoints
    root = tmp_path / ".checkpoints" / f"freeway-objects-{TINY.total_timesteps}" / "jax"
    bad = root / "seed1" / "interval00003.ckpt"
    bad.write_bytes(bad.read_bytes()[:-100])  # truncated
    again = run_stress("freeway", budget=TINY, seeds=2, backends=("jax",), out_dir=tmp_path)
    assert any(str(bad) in n and "checksum" in n and "seed 1" in n for n in again.notes)
    # seed 0 was complete; seed 1 trained its last interval again from interval 2
    assert again.runs["jax"].trained_steps == TINY.updates_per_eval * TINY.batch_size
    assert ckpts.load(bad).interval == 3


def test_bad_input_names_the_choices(tmp_path):
    with pytest.raises(StressInputError, match=r"unknown game 'tetris'; choices: .*freeway.*pong"):
        run_stress("tetris", out_dir=tmp_path)
    with pytest.raises(StressInputError, match="choices: objects, pixels"):
        run_stress("pong", obs="ram", out_dir=tmp_path)
    with pytest.raises(LearnerInputError, match="choices: smoke, cpu, paper"):
        budget_config("huge")
    with pytest.raises(LearnerInputError, match="the minimum is 1024"):
        budget_config(1000)
    with pytest.raises(StressInputError, match="choices: ale, jax"):
        run_stress("pong", backends=("gym",), out_dir=tmp_path)
    assert budget_config("4096").num_updates == 4
    with pytest.raises(StressInputError, match="from 1 to 256 .*got 0"):
        run_stress("pong", seeds=0, out_dir=tmp_path)
    with pytest.raises(StressInputError, match="frostbite.*games with one: ") as err:
        run_stress("frostbite", out_dir=tmp_path)
    listed = {w.strip(",()") for w in str(err.value).split("games with one: ")[1].split()}
    assert {"freeway", "pong"} <= listed


def test_the_command_names_bad_input_before_any_work(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "alignment.cli", "stress", "tetris", "--out",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert "unknown game 'tetris'; choices:" in proc.stderr and "Traceback" not in proc.stderr
    assert "steps/s" not in proc.stderr  # no progress bar started


def test_one_seed_trains_but_the_verdict_is_inconclusive():
    def runs(final):
        curves = np.array([[final]])
        return BackendRuns([1024], curves, np.ones((1, 1), int), np.array([final]), 1.0, 1024)

    _, verdict, _ = compare({"ale": runs(10.0), "jax": runs(10.0)})
    assert verdict["label"] == "inconclusive"
    assert "at least 2 seeds" in verdict["detail"]
