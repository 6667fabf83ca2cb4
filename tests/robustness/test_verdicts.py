"""The gate's reading of a robustness report: a "different" JAX-vs-ALE verdict fails."""

import json

from alignment.robustness.verdicts import failures, failures_in


def _report(label):
    interval = {"value": -0.5, "low": -0.6, "high": -0.4}
    agg = {"iqm": interval, "mean": interval, "median": interval}
    side = {"agents": {"original": [[1.0]], "m": [[0.5]]}, "random": {"original": [0.0], "m": [0.0]},
            "random_mean": {"original": 0.0, "m": 0.0}, "truncated": {"original": 0, "m": 0},
            "wall_seconds": {"agents": 1.0, "random": 1.0}}
    return {
        "schema": "jaxtari-align/robustness/v1", "game": "freeway", "obs": "objects",
        "code_hash": "x", "versions": {}, "command": "", "wall_seconds": 1.0,
        "agents": {"source": "s", "steps_per_seed": 2048, "seeds": [0], "trained_here": False,
                   "trained_on": "jax"},
        "episodes": 1, "random_episodes": 1, "max_steps": 10,
        "mods": {"m": {"description": "d", "ale": True, "jax_only": None,
                       "counterpart": {"writes": [{"address": 1, "value": 0, "when": "frame",
                                                   "if_ram": None}],
                                       "exact": True, "measured": "m", "differs": ""}}},
        "sides": {"jax": side, "ale": side}, "pc": {"m": {"jax": [-0.5], "ale": [-0.5]}},
        "statistics": {"m": {"jax": agg, "ale": agg}},
        "comparison": {"m": {"label": label, "margin": 0.1, "detail": "why", "more_seeds": None,
                             "test": None, "paired_mean_difference": 0.0}},
        "notes": [],
    }


def test_different_fails_and_the_others_pass(tmp_path):
    assert failures(_report("equivalent")) == [] and failures(_report("inconclusive")) == []
    assert failures(_report("different")) == [
        "freeway m: JAX and ALE PC differ beyond the margin ±0.1 (why)"]
    (tmp_path / "freeway.json").write_text(json.dumps(_report("different")))
    (tmp_path / "pong.json").write_text("{not json")
    got = failures_in(tmp_path)
    assert got[0].startswith("freeway m: JAX and ALE PC differ")
    assert "pong.json: unreadable robustness report" in got[1]
