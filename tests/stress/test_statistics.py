"""The curve statistics against values computed by hand on fixed arrays."""

import numpy as np
import pytest

from alignment.stress import statistics as st


def test_iqm_is_the_mean_of_the_middle_half():
    assert st.iqm([1, 2, 3, 4, 5, 6, 7, 8]) == pytest.approx(4.5)  # (3 + 4 + 5 + 6) / 4
    assert st.iqm([1, 2, 3, 4, 100, 5, 6, 7]) == pytest.approx(4.5)  # the outlier is trimmed


def test_normalized_auc_by_trapezoids():
    # area 0..10: (0 + 10) / 2 * 10 = 50; 10..20: 10 * 10 = 100; over a range of 20 steps
    assert st.normalized_auc([0, 10, 20], [0, 10, 10]) == pytest.approx(7.5)
    assert st.normalized_auc([0, 10, 20], [np.nan, 4, 6]) == pytest.approx(5.0)


def test_bootstrap_intervals_contain_the_truth_on_synthetic_runs():
    rng = np.random.default_rng(1)
    covered = 0
    for _ in range(20):
        runs = rng.normal(10.0, 2.0, size=(30, 1))  # IQM of a symmetric law = its mean, 10
        iv = st.final_intervals({"a": runs[:, 0]}, reps=500)["a"]["iqm"]
        assert iv["low"] < iv["value"] < iv["high"]
        covered += iv["low"] <= 10.0 <= iv["high"]
    assert covered >= 17  # a 95% interval: 19 of 20 expected, 17 leaves room for chance


def test_curve_intervals_per_checkpoint_and_missing_values():
    scores = np.array([[0.0, 1.0, np.nan], [0.0, 3.0, np.nan], [0.0, 2.0, np.nan]])
    out = st.curve_intervals({"jax": scores}, reps=200)["jax"]
    assert out["iqm"][0] == 0.0 and out["low"][0] == 0.0 and out["high"][0] == 0.0
    assert out["iqm"][1] == pytest.approx(2.0)
    assert out["iqm"][2] is None


def test_probability_of_improvement():
    assert st.probability_of_improvement([5, 6, 7], [1, 2, 3], reps=200)["value"] == 1.0
    assert st.probability_of_improvement([1, 2, 3], [1, 2, 3], reps=200)["value"] == 0.5


def test_tost_hand_computed():
    # d = 0, se = sqrt(1/3 + 1/3) = 0.8165, df = 4; t = 2 / 0.8165 = 2.449 -> one-sided p 0.0352
    t = st.tost([1, 2, 3], [1, 2, 3], margin=2.0)
    assert t["diff"] == 0 and t["df"] == pytest.approx(4.0)
    assert t["p_value"] == pytest.approx(0.0352, abs=5e-4)


def test_verdict_accepts_equal_and_rejects_shifted():
    rng = np.random.default_rng(0)
    a, b = rng.normal(20, 1, 12), rng.normal(20, 1, 12)
    assert st.verdict(a, b, margin=2.0)["label"] == "equivalent"
    shifted = st.verdict(a + 6, b, margin=2.0)
    assert shifted["label"] == "different"
    assert shifted["test"]["ci"][0] > 2.0


def test_verdict_inconclusive_says_how_many_more_seeds():
    rng = np.random.default_rng(0)
    a, b = rng.normal(20, 5, 3), rng.normal(20, 5, 3)
    v = st.verdict(a, b, margin=2.0)
    assert v["label"] == "inconclusive"
    assert v["more_seeds"] > 10 and f"{v['more_seeds']} more seeds" in v["detail"]


def test_verdict_with_one_seed_is_inconclusive_and_says_why():
    v = st.verdict([10.0], [11.0])
    assert v["label"] == "inconclusive" and "at least 2 seeds" in v["detail"]
    assert st.verdict([], [1.0, 2.0])["label"] == "inconclusive"


def test_default_margin():
    assert st.default_margin([30, 30]) == pytest.approx(3.0)
    assert st.default_margin([0.0, 0.0]) == 1.0
