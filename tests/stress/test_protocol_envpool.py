"""Training under the envpool protocol (CleanRL's EnvPool env: sticky off, no-op starts, fire
reset): where the stage-4 agents' shortfall against CleanRL's published returns is looked for.
Its runs are named apart from v5's, and v5's records stay as they were."""

import dataclasses
import hashlib
from pathlib import Path

import pytest

from alignment.learning import checkpoints as ckpts
from alignment.learning.config import LearnerInputError, budget_config
from alignment.stress.config import StressInputError
from alignment.stress.core import run_stress
from alignment.stress.report import configuration
from tests.stress.test_core import TINY


def test_v5_records_are_unchanged_and_envpool_is_recorded():
    v5 = budget_config("10M", "pixels")
    assert "protocol" not in v5.to_dict()  # committed reports and policies hold no such key
    assert "protocol" not in configuration(v5, range(3), ["jax"])["config"]
    ep = budget_config("10M", "pixels", "envpool")
    assert ep.to_dict()["protocol"] == "envpool" and ep.sticky_prob == 0.0 and v5.sticky_prob == 0.25
    assert ckpts.checkpoint_root("o", "breakout", ep).name == "breakout-pixels-10000000-envpool"
    assert ckpts.checkpoint_root("o", "breakout", v5).name == "breakout-pixels-10000000"
    from jaxtari.envpool import Functional
    from alignment.learning.ppo import make_jax_env

    assert isinstance(make_jax_env("breakout", ep).env, Functional)
    assert not isinstance(getattr(make_jax_env("breakout", v5), "env", None), Functional)


def test_what_the_protocol_cannot_train_is_refused(tmp_path):
    with pytest.raises(LearnerInputError, match="use obs pixels"):
        budget_config("10M", "objects", "envpool")
    with pytest.raises(LearnerInputError, match="unknown protocol 'v4'"):
        budget_config("10M", "pixels", "v4")
    with pytest.raises(StressInputError, match="--backends jax and no --mods"):
        run_stress("breakout", obs="pixels", budget="smoke", seeds=1, backends=("ale", "jax"),
                   out_dir=tmp_path, protocol="envpool")


@pytest.mark.slow  # a pixel CNN compiled and trained on the CPU: about a minute
def test_a_tiny_run_trains_in_the_envpool_env(tmp_path):
    config = dataclasses.replace(TINY, obs="pixels", protocol="envpool", sticky_prob=0.0)
    result = run_stress("breakout", obs="pixels", budget=config, seeds=1, backends=("jax",),
                        out_dir=tmp_path)
    assert result.name == "breakout-pixels-envpool"
    assert result.runs["jax"].curves.shape[-1] == config.num_evals
    root = ckpts.checkpoint_root(tmp_path, "breakout", config)
    assert list(root.glob("jax/seed0/interval*.ckpt"))
    # the env it trained through is outside the game's code hash: its files' own hashes are kept,
    # and no v5 fingerprint (the gate would replay v5 rollouts these learners never saw)
    source = result.extra["protocol_source"]
    repo = Path(__file__).resolve().parents[2]
    assert source["jaxtari/envpool.py"] == hashlib.sha256(
        (repo / "jaxtari" / "envpool.py").read_bytes()).hexdigest()
    assert "jaxtari/dropin.py" in source and "fingerprint" not in result.extra


@pytest.mark.parametrize("args, says", [
    (["--obs", "pixels", "--backends", "ale,jax"], "--backends jax and no --mods"),
    (["--obs", "objects", "--backends", "jax"], "use obs pixels"),
    (["--obs", "pixels", "--backends", "jax", "--protocol", "v4"], "unknown protocol 'v4'"),
])
def test_the_command_refuses_before_training_with_exit_code_2(tmp_path, args, says):
    from typer.testing import CliRunner

    from alignment.cli import app

    if "--protocol" not in args:
        args = args + ["--protocol", "envpool"]
    done = CliRunner().invoke(app, ["stress", "breakout", *args, "--out", str(tmp_path)])
    assert done.exit_code == 2, done.output
    assert says in " ".join(done.output.split())
    assert not list(tmp_path.iterdir())
