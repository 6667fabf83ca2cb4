"""The gate's reading of a robustness report: the JAX-vs-ALE verdict is re-derived from the
report's episode returns; a "different" one fails, and so does a recorded PC or label the returns
do not give."""

import json

import pytest

from alignment.robustness.verdicts import failures, failures_in

# Five seeds score 10 on the original game on both sides, the random policy 0 everywhere, so a
# seed's PC on the mod is (S_mod - 10) / 10, worked out by hand below.
ORIGINAL = [[10.0], [10.0], [10.0], [10.0], [10.0]]
HALF = [5.0, 5.1, 4.9, 5.0, 5.0]  # PC -0.50, -0.49, -0.51, -0.50, -0.50: half the advantage lost
HALF_PC = [-0.5, -0.49, -0.51, -0.5, -0.5]
TENTH = [1.0, 1.1, 0.9, 1.0, 1.0]  # PC -0.90, -0.89, -0.91, -0.90, -0.90
TENTH_PC = [-0.9, -0.89, -0.91, -0.9, -0.9]


def _side(mod_returns):
    return {"agents": {"original": ORIGINAL, "m": [[r] for r in mod_returns]},
            "random": {"original": [0.0, 0.0], "m": [0.0, 0.0]},
            "random_mean": {"original": 0.0, "m": 0.0}, "truncated": {"original": 0, "m": 0},
            "wall_seconds": {"agents": 1.0, "random": 1.0}}


def _report(label, ale_returns=HALF, ale_pc=HALF_PC, detail="why"):
    interval = {"value": -0.5, "low": -0.6, "high": -0.4}
    agg = {"iqm": interval, "mean": interval, "median": interval}
    return {
        "schema": "jaxtari-align/robustness/v1", "game": "freeway", "obs": "objects",
        "code_hash": "x", "versions": {}, "command": "", "wall_seconds": 1.0,
        "agents": {"source": "s", "steps_per_seed": 2048, "seeds": [0, 1, 2, 3, 4],
                   "trained_here": False, "trained_on": "jax"},
        "episodes": 1, "random_episodes": 2, "max_steps": 10,
        "mods": {"m": {"description": "d", "ale": True, "jax_only": None,
                       "counterpart": {"writes": [{"address": 1, "value": 0, "when": "frame",
                                                   "if_ram": None}],
                                       "exact": True, "measured": "m", "differs": ""}}},
        "sides": {"jax": _side(HALF), "ale": _side(ale_returns)},
        "pc": {"m": {"jax": HALF_PC, "ale": ale_pc}},
        "statistics": {"m": {"jax": agg, "ale": agg}},
        "comparison": {"m": {"label": label, "margin": 0.1, "detail": detail, "more_seeds": None,
                             "test": None, "paired_mean_difference": 0.0}},
        "notes": [],
    }


def test_returns_that_agree_pass_and_returns_that_part_fail():
    assert failures(_report("equivalent")) == []
    got = failures(_report("different", TENTH, TENTH_PC))
    assert len(got) == 1
    assert got[0].startswith("freeway m: JAX and ALE PC differ beyond the margin ±0.1 (PC jax "
                             "-0.50 vs ale -0.90 (paired difference +0.40")


def test_a_label_the_returns_do_not_give_fails_whatever_it_says():
    hidden = failures(_report("equivalent", TENTH, TENTH_PC))
    assert any("the report says equivalent for JAX vs ALE; its returns give different" in f
               for f in hidden)
    assert any("PC differ beyond the margin" in f for f in hidden)
    alarm = failures(_report("different"))
    assert alarm == [alarm[0]] and "says different for JAX vs ALE; its returns give equivalent" \
        in alarm[0]


def test_a_recorded_pc_the_returns_do_not_give_fails():
    doc = _report("equivalent")
    doc["pc"]["m"]["ale"] = [-0.5, -0.49, -0.51, -0.5, -0.1]
    assert failures(doc) == [
        "freeway m: the recorded ale PC [-0.5, -0.49, -0.51, -0.5, -0.1] is not what the report's "
        "returns give ([-0.5, -0.49, -0.51, -0.5, -0.5])"]
    doc["pc"]["m"]["ale"] = HALF_PC[:4]  # a seed dropped
    assert len(failures(doc)) == 1


def test_an_undefined_pc_is_recorded_as_null():
    doc = _report("equivalent")
    doc["sides"]["ale"]["agents"]["original"] = ORIGINAL[:4] + [[0.0]]  # seed 4 plays like random
    doc["sides"]["ale"]["agents"]["m"] = [[r] for r in HALF[:4]] + [[0.0]]
    doc["pc"]["m"]["ale"] = HALF_PC[:4] + [None]
    assert [f for f in failures(doc) if "recorded" in f] == []
    doc["pc"]["m"]["ale"] = HALF_PC[:4] + [0.0]
    assert any("recorded ale PC" in f for f in failures(doc))


def test_unpaired_rows_and_unreadable_files_fail_naming_the_file(tmp_path):
    doc = _report("equivalent")
    doc["sides"]["ale"]["agents"]["m"] = doc["sides"]["ale"]["agents"]["m"][:3]
    (tmp_path / "freeway.json").write_text(json.dumps(doc))
    (tmp_path / "pong.json").write_text("{not json")
    got = failures_in(tmp_path)
    assert "freeway.json: unreadable robustness report" in got[0] and "do not pair" in got[0]
    assert "pong.json: unreadable robustness report" in got[1]


def test_the_committed_reports_agree_with_their_returns():
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "robustness"
    assert sorted(folder.glob("*.json")), "no committed robustness report"
    assert failures_in(folder) == []


@pytest.mark.parametrize("label", ["equivalent", "inconclusive", "different"])
def test_a_mod_run_on_one_side_only_has_no_verdict(label):
    doc = _report(label)
    for key in ("agents", "random", "random_mean", "truncated"):
        del doc["sides"]["ale"][key]["m"]
    del doc["pc"]["m"]["ale"]
    got = failures(doc)
    assert got == ["freeway m: the report compares JAX and ALE (" + label + ") but its rows hold "
                   "no returns of this mod on both sides"]
    del doc["comparison"]["m"]
    assert failures(doc) == []
