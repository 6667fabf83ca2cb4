"""Training across time-limited commands (an accelerator host's 10-minute runs): budgets written as
10M, a stop at --max-minutes that resumes to the very curve of an unbroken run, checkpoints spaced
in time, and the finished agents exported as a policy file."""

import time

import numpy as np
import pytest

from alignment.learning import checkpoints as ckpts
from alignment.learning import policy as pol
from alignment.learning.config import LearnerInputError, budget_config, parse_steps
from alignment.stress.core import TrainingPaused, run_stress
from alignment.stress.export import export_policy
from tests.stress.test_core import TINY


@pytest.mark.parametrize("text,steps", [("10M", 10_000_000), ("10m", 10_000_000),
                                        ("500k", 500_000), ("1.5M", 1_500_000),
                                        ("2048", 2048), ("10_000_000", 10_000_000)])
def test_step_counts_with_suffixes(text, steps):
    assert parse_steps(text) == steps
    assert budget_config(text).total_timesteps == steps


def test_paper_sized_budgets_keep_the_paper_curve_spacing():
    assert budget_config("10M").updates_per_eval == budget_config("paper").updates_per_eval == 40


@pytest.mark.parametrize("text", ["10X", "M", "1e7", "-5", "0.5k1", "1.0001k"])
def test_what_is_not_a_step_count_is_refused(text):
    with pytest.raises(LearnerInputError, match="unknown budget|too small"):
        budget_config(text)


def test_a_run_stopped_at_its_time_limit_resumes_to_the_unbroken_curve(tmp_path, jax_tiny):
    _, whole = jax_tiny
    with pytest.raises(TrainingPaused, match="run the same command again") as paused:
        run_stress("freeway", budget=TINY, seeds=2, backends=("jax",), out_dir=tmp_path / "cut",
                   max_seconds=0.0)
    assert 0 < paused.value.steps_done < paused.value.steps_total
    root = tmp_path / "cut" / ".checkpoints" / f"freeway-objects-{TINY.total_timesteps}"
    assert ckpts.latest(root, "jax", 0)[0].interval == 1  # stopped after its first interval
    first = ckpts.latest(root, "jax", 0)[0].wall_seconds
    resumed = run_stress("freeway", budget=TINY, seeds=2, backends=("jax",),
                         out_dir=tmp_path / "cut")
    assert resumed.runs["jax"].trained_steps < whole.runs["jax"].trained_steps
    # the reported speed is the whole training's, both calls' time, not the last call's
    b = resumed.runs["jax"]
    assert b.wall_seconds > first > 0
    assert b.steps_per_second == pytest.approx(2 * b.steps[-1] / b.wall_seconds)
    np.testing.assert_array_equal(resumed.runs["jax"].curves, whole.runs["jax"].curves)
    np.testing.assert_array_equal(resumed.runs["jax"].final, whole.runs["jax"].final)


def test_checkpoints_spaced_in_time_still_end_with_the_last_interval(tmp_path):
    run_stress("freeway", budget=TINY, seeds=1, backends=("jax",), out_dir=tmp_path,
               checkpoint_every=3600.0)
    root = tmp_path / ".checkpoints" / f"freeway-objects-{TINY.total_timesteps}"
    files = sorted((root / "jax" / "seed0").glob("interval*.ckpt"))
    # one at the end only: the first interval's was skipped (an hour had not passed)
    assert [ckpts.load(f).interval for f in files] == [TINY.num_evals]


def test_finished_agents_export_as_the_policy_the_transfer_stage_loads(tmp_path):
    config = budget_config(2048, "objects")
    run_stress("freeway", budget=2048, seeds=2, backends=("jax",), out_dir=tmp_path)
    path = export_policy("freeway", config, 2, tmp_path, tmp_path / "freeway-objects.npz")
    p = pol.load(path, "freeway", "objects")
    assert p.seeds == [0, 1] and p.meta["steps"] == 2048 and p.meta["trained_on"] == "jax"
    assert p.meta["training"]["seeds_together"] == 2
    assert p.meta["training"]["wall_seconds_per_seed"] > 0
    # the stored agent is the trained one, to float16's precision
    ck = ckpts.latest(tmp_path / ".checkpoints" / "freeway-objects-2048", "jax", 1)[0]
    biggest = max(ck.leaves, key=lambda a: a.size)
    stored = max(jax_leaves(p.params), key=lambda a: a.size)[1]
    np.testing.assert_allclose(stored, biggest, rtol=1e-3, atol=1e-4)


def jax_leaves(tree):
    import jax

    return [np.asarray(x) for x in jax.tree_util.tree_leaves(tree)]
