"""``jaxtari-align stress GAME --mods ...``: the same PPO on both modified games (the JAX mods; on
ALE their RAM-write counterparts after reset and every frame), refused where a mod cannot run."""

import json
import subprocess
import sys

import numpy as np
import pytest

from alignment import catalog
from alignment.stress import report
from alignment.stress.ale_rollout import AleVecEnv, ram_writes
from alignment.stress.config import StressInputError
from alignment.stress.core import run_stress, validate_mods
from tests.stress.test_core import ROOT, TINY

CARS = slice(108, 118)  # Freeway's car bytes (alignment/reference/games/freeway/ram.py)


def test_the_ale_side_plays_the_counterpart_every_frame():
    env = AleVecEnv("freeway", 2, 0, writes=ram_writes("freeway", ("stop_cars",)))
    plain = AleVecEnv("freeway", 2, 0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        a = rng.integers(0, env.num_actions, 2)
        env.step(a)
        plain.step(a)
        assert np.all(env._rams()[:, CARS] == 0)
    assert np.any(plain._rams()[:, CARS] != 0)


def test_a_tiny_run_on_both_modified_games(tmp_path):
    result = run_stress("freeway", budget=TINY, seeds=2, out_dir=tmp_path, random_episodes=1,
                        mods=["stop_cars"])
    assert result.name == "freeway+stop_cars-objects"
    report.write(result, tmp_path)
    data = json.loads((tmp_path / "freeway+stop_cars-objects.json").read_text())
    assert data["mods"] == ["stop_cars"]
    assert data["code_hash"] == catalog.mod_code_hash("freeway", ["stop_cars"])
    assert "fingerprint" not in data  # the gate's fingerprint is the original game's
    assert set(data["backends"]) == {"ale", "jax"}
    assert data["statistics"]["random_policy"]["ram_writes"] == 10
    assert any("modified by stop_cars" in n for n in data["notes"])
    assert not (tmp_path / "freeway-objects.json").exists()
    assert (tmp_path / ".checkpoints" / f"freeway+stop_cars-objects-{TINY.total_timesteps}").is_dir()


def test_mods_that_cannot_run_on_ale_are_refused_naming_why():
    with pytest.raises(StressInputError, match="invincible have no ALE counterpart.*JAX-only"):
        validate_mods("freeway", ["invincible"], "objects", ("ale", "jax"))
    assert validate_mods("freeway", ["invincible"], "objects", ("jax",)) == ("invincible",)
    with pytest.raises(StressInputError, match="unknown mod 'zero_gravity'.*stop_cars"):
        validate_mods("freeway", ["zero_gravity"], "objects", ("jax",))
    with pytest.raises(StressInputError, match="--obs objects"):
        validate_mods("freeway", ["stop_cars"], "pixels", ("ale", "jax"))


def test_the_command_refuses_a_mod_without_counterpart_before_any_work(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "alignment.cli", "stress", "freeway", "--mods",
                           "invincible", "--out", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 2
    assert "invincible have no ALE counterpart" in proc.stderr and "Traceback" not in proc.stderr
    assert "steps/s" not in proc.stderr
