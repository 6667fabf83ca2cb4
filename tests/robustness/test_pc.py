"""The performance change against values worked out by hand, and its aggregates."""

import math

import numpy as np
import pytest

from alignment.robustness import pc


def test_pc_matches_hand_computed_values():
    # seed 0: S_org 10, R_org 2 -> advantage 8; S_mod 4, R_mod 1 -> advantage 3: (3 - 8) / 8
    # seed 1: S_org -5, R_org -20 -> 15; S_mod -14, R_mod -20 -> 6: (6 - 15) / 15
    # seed 2: the agent is worse than random on the original: S_org 1, R_org 2 -> -1;
    #         S_mod 3, R_mod 1 -> 2: (2 - (-1)) / |-1| = 3
    got = [pc.performance_change([4.0], 1.0, [10.0], 2.0)[0],
           pc.performance_change([-14.0], -20.0, [-5.0], -20.0)[0],
           pc.performance_change([3.0], 1.0, [1.0], 2.0)[0]]
    assert got == pytest.approx([-0.625, -0.6, 3.0])


def test_pc_is_zero_when_the_advantage_is_kept_and_minus_one_when_it_is_lost():
    assert pc.performance_change([12.0], 5.0, [9.0], 2.0)[0] == 0.0
    assert pc.performance_change([5.0], 5.0, [9.0], 2.0)[0] == -1.0


def test_pc_is_undefined_where_the_agent_plays_exactly_like_random():
    out = pc.performance_change([3.0, 4.0], 1.0, [2.0, 6.0], 2.0)
    assert math.isnan(out[0]) and out[1] == pytest.approx((3.0 - 4.0) / 4.0)
    assert pc.nan_to_none(out) == [None, pytest.approx(-0.25)]


def test_aggregate_gives_the_iqm_and_its_interval_and_leaves_out_undefined_seeds():
    values = np.array([-1.0, -0.5, 0.0, 0.5, 1.0, np.nan])
    agg = pc.aggregate({"jax": values})
    iqm = agg["jax"]["iqm"]
    # the IQM of five values trims 25% each side (rliable: scipy trim_mean): the middle three
    assert iqm["value"] == pytest.approx(0.0)
    assert iqm["low"] <= iqm["value"] <= iqm["high"]
    assert agg["jax"]["mean"]["value"] == pytest.approx(0.0)
    assert pc.aggregate({"jax": np.array([np.nan])}) == {}


def test_compare_sides_uses_the_pc_margin():
    same = pc.compare_sides([-0.50, -0.52, -0.49, -0.51, -0.50], [-0.51, -0.50, -0.50, -0.52, -0.49])
    assert same["label"] == "equivalent" and same["margin"] == pc.PC_MARGIN
    assert "PC" in same["detail"] and "final return" not in same["detail"]
    assert same["paired_mean_difference"] == pytest.approx(0.0)
    apart = pc.compare_sides([0.0, 0.01, -0.01, 0.0, 0.02], [-0.9, -0.91, -0.88, -0.9, -0.92])
    assert apart["label"] == "different"


def test_side_pc_from_returns_by_variant_matches_hand_computed_values():
    # two seeds, two episodes each. Original: seed means 10 and 6, random mean 2 -> advantages 8, 4.
    # Mod: seed means 4 and 6, random mean 1 -> advantages 3, 5: PC (3 - 8) / 8, (5 - 4) / 4
    agents = {"original": [[12.0, 8.0], [5.0, 7.0]], "m": [[3.0, 5.0], [6.0, 6.0]]}
    random = {"original": [1.0, 3.0, 2.0, 2.0], "m": [0.0, 2.0]}
    assert pc.side_pc(agents, random, "m").tolist() == pytest.approx([-0.625, 0.25])
    assert pc.gain_over_random(agents, random).tolist() == pytest.approx([8.0, 4.0])


def test_side_pc_is_none_where_the_mod_or_the_original_did_not_run():
    agents = {"original": [[1.0]], "m": [[2.0]]}
    assert pc.side_pc(agents, {"original": [0.0]}, "m") is None
    assert pc.side_pc({"m": [[2.0]]}, {"original": [0.0], "m": [0.0]}, "m") is None
    assert pc.side_pc(agents, {"original": [0.0], "m": [0.0]}, "other") is None


def test_the_same_agents_are_compared_seed_by_seed():
    # three agents as robust as each other on both sides (within 0.01) but far apart from one
    # another: unpaired, the spread between agents leaves it open; paired, it is decided
    jax_pc, ale_pc = [-0.96, -0.04, -0.50], [-0.95, -0.05, -0.51]
    v = pc.compare_sides(jax_pc, ale_pc)
    d = np.subtract(jax_pc, ale_pc)
    se = d.std(ddof=1) / np.sqrt(3)
    assert v["label"] == "equivalent" and v["test"]["df"] == 2 and v["pairs"] == 3
    assert v["test"]["se"] == pytest.approx(se)
    assert v["test"]["ci"][1] == pytest.approx(d.mean() + pc.st.sps.t.ppf(0.95, 2) * se)
    assert "paired difference +0.00" in v["detail"]
    assert pc.st.tost(jax_pc, ale_pc, pc.PC_MARGIN)["p_value"] > 0.3  # what Welch said of it
    # a seed with no PC on a side drops out of the pairs, and the detail says so
    v = pc.compare_sides([-0.96, np.nan, -0.50, -0.2], [-0.95, -0.05, -0.51, -0.21])
    assert v["pairs"] == 3 and ", 3 seeds with a PC on both sides" in v["detail"]
    v = pc.compare_sides([-0.96, np.nan], [-0.95, -0.05])
    assert v["label"] == "inconclusive" and "needs at least 2" in v["detail"]
