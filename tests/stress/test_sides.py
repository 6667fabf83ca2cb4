"""How the JAX side runs its seeds together: lax.map (the CPU default) gives every seed exactly the
numbers of training it alone; vmap trains the same seeds to the same numbers up to rounding; the
choice is checked before any work."""

import subprocess
import sys

import jax
import numpy as np
import pytest

from alignment.stress.config import StressInputError
from alignment.stress.sides import JaxSide, seeds_by_choice
from tests.stress.test_core import ROOT, TINY


def _leaves(tree):
    return [np.asarray(jax.random.key_data(x) if jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)
                       else x) for x in jax.tree_util.tree_leaves(tree)]


def _train(side, seeds):
    runner, ctx = side.init(seeds)
    runner, stats = side.chunk(runner, ctx, TINY.updates_per_eval)
    return _leaves(runner), stats


@pytest.fixture(scope="module")
def by_map():
    side = JaxSide("freeway", TINY, "map")
    return side, _train(side, [0, 1])


def test_lax_map_trains_each_seed_exactly_as_alone(by_map):
    side, (both, stats) = by_map
    assert side.seeds_by == "map" and stats["losses"].shape[:2] == (2, TINY.updates_per_eval)
    for i, seed in enumerate([0, 1]):
        alone, _ = _train(side, [seed])
        for x, y in zip(both, alone):
            np.testing.assert_array_equal(x[i], y[0])
    assert not all(np.array_equal(x[0], x[1]) for x in both)  # the seeds did differ


def test_vmap_trains_the_same_seeds_up_to_rounding(by_map):
    _, (mapped, _) = by_map
    vmapped, _ = _train(JaxSide("freeway", TINY, "vmap"), [0, 1])
    for x, y in zip(mapped, vmapped):
        if np.issubdtype(x.dtype, np.floating):
            np.testing.assert_allclose(x, y, rtol=0, atol=1e-4)
        else:
            np.testing.assert_array_equal(x, y)


def test_seeds_by_names_the_choices():
    assert seeds_by_choice("auto") == ("map" if jax.default_backend() == "cpu" else "vmap")
    assert seeds_by_choice("vmap") == "vmap"
    with pytest.raises(StressInputError, match="unknown seeds_by 'pmap'; choices: auto, map, vmap"):
        seeds_by_choice("pmap")


def test_the_command_names_a_bad_seeds_by_before_any_work(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "alignment.cli", "stress", "freeway", "--seeds-by",
                           "pmap", "--out", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 2
    assert "unknown seeds_by 'pmap'; choices: auto, map, vmap" in proc.stderr
    assert "Traceback" not in proc.stderr and "steps/s" not in proc.stderr
