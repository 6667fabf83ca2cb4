"""The curve statistics against values computed by hand on fixed arrays."""

import numpy as np
import pytest

from alignment.learning import statistics as st


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
    assert st.verdict(a, b, 0.0, margin=2.0)["label"] == "equivalent"
    shifted = st.verdict(a + 6, b, 0.0, margin=2.0)
    assert shifted["label"] == "different"
    assert shifted["test"]["ci"][0] > 2.0


def test_verdict_inconclusive_says_how_many_more_seeds():
    rng = np.random.default_rng(0)
    a, b = rng.normal(20, 5, 3), rng.normal(20, 5, 3)
    v = st.verdict(a, b, 0.0, margin=2.0)
    assert v["label"] == "inconclusive"
    assert v["more_seeds"] > 10 and f"{v['more_seeds']} more seeds" in v["detail"]


def test_an_estimate_beyond_the_margin_is_not_advised_towards_equivalence():
    # means 3.0 apart, a margin of 2: the interval [-4.3.., 10.3..] straddles it, so inconclusive;
    # more seeds would show the difference (gap 1.0), never equivalence unless the mean moved
    a, b = [20.0, 25.0, 29.0], [18.0, 22.0, 25.0]
    v = st.verdict(a, b, 0.0, margin=2.0)
    assert v["label"] == "inconclusive" and v["test"]["diff"] == pytest.approx(3.0)
    sd = np.sqrt((np.var(a, ddof=1) + np.var(b, ddof=1)) / 2)
    z = st.sps.norm.ppf(0.95) + st.sps.norm.ppf(0.8)  # one side at alpha 0.05, power 0.8
    assert v["more_seeds"] == int(np.ceil(2 * (sd * z / 1.0) ** 2)) - 3
    assert v["detail"].endswith(f"inconclusive: the estimate lies beyond the margin, so more seeds "
                                f"would sooner show a difference than equivalence (about "
                                f"{v['more_seeds']} more seeds per backend to show it)")
    assert "needs about" not in v["detail"]


def test_blocked_welch_by_hand():
    # blocks differ by -1 and +1 (mean 0); every sample's variance is 1 with 3 values:
    # se^2 = 4 * (1/3) / 2^2 = 1/3; Satterthwaite df = (1/3)^2 / (4 * (1/12)^2 / 2) = 8
    xs, ys = [[1, 2, 3], [101, 102, 103]], [[2, 3, 4], [100, 101, 102]]
    w = st.welch_blocked(xs, ys)
    assert w["diff"] == 0.0 and w["se"] == pytest.approx(np.sqrt(1 / 3)) and w["df"] == pytest.approx(8)
    assert w["sd"] == pytest.approx(1.0) and w["blocks"] == 2
    t = st.tost_of(w, margin=2.0)
    assert t["p_value"] == pytest.approx(st.sps.t.sf(2.0 / np.sqrt(1 / 3), 8))
    # pooled, the 100 points between the blocks are noise and nothing is decided
    assert st.tost(sum(xs, []), sum(ys, []), margin=2.0)["p_value"] > 0.4
    with pytest.raises(ValueError, match="same blocks on both sides"):
        st.welch_blocked([[1, 2]], [[1, 2], [3, 4]])
    with pytest.raises(ValueError, match="at least 2 values"):
        st.welch_blocked([[1]], [[1, 2]])


def test_verdict_with_one_seed_is_inconclusive_and_says_why():
    v = st.verdict([10.0], [11.0], 0.0)
    assert v["label"] == "inconclusive" and "at least 2 seeds" in v["detail"]
    assert st.verdict([], [1.0, 2.0], 0.0)["label"] == "inconclusive"
    v = st.verdict([1.0, 2.0], [1.0, 2.0], None)
    assert v["label"] == "inconclusive" and "no random-policy return recorded" in v["detail"]


def test_the_median_is_the_median_not_the_mean():
    # rliable's aggregate_median over runs x 1 is the mean of the one task: 22.0 here
    final = st.final_intervals({"a": np.array([1.0, 2.0, 3.0, 4.0, 100.0])}, reps=200)["a"]
    assert final["median"]["value"] == 3.0
    assert final["mean"]["value"] == pytest.approx(22.0)


def test_the_margin_is_a_fifth_of_the_gain_over_random_whatever_the_sign():
    # Pong: ALE -14 after training, random -20.4: gain 6.4, margin 1.28 (not 10% of |-14|)
    assert st.gain_margin([-14.0, -14.0], -20.4) == pytest.approx((6.4, 1.28))
    # Breakout: 3.2 against a random 1.3: gain 1.9, margin 0.38
    assert st.gain_margin([3.0, 3.4], 1.3) == pytest.approx((1.9, 0.38))
    v = st.verdict([-20.4, -20.5, -20.3], [-20.4, -20.4, -20.5], -20.4)
    assert v["label"] == "inconclusive" and "gained nothing over the random policy" in v["detail"]


def test_bimodal_outcomes_are_compared_by_success_rate():
    # Freeway-like: runs either learn (~22) or stay at 0. Equal means can hide 1/5 against 5/5.
    ale = [22.0, 23.0, 22.5, 21.5, 22.0, 0.0, 0.0, 0.0, 0.0, 0.0]  # 5 of 10 learn
    jax = [22.0, 23.0, 22.5, 21.5, 22.0, 22.0, 0.0, 0.0, 0.0, 0.0]  # 6 of 10
    v = st.verdict(jax, ale, 0.0)
    s = v["success"]
    assert s["threshold"] == pytest.approx(10.75)
    assert s["successes"] == {"jax": 6, "ale": 5} and s["runs"] == {"jax": 10, "ale": 10}
    assert v["label"] == "inconclusive" and "success rates within 20%" in v["detail"]
    all_or_nothing = st.verdict([22.0] * 10, [0.0] * 6 + [22.0] * 2 + [23.0] * 2, 0.0)
    assert all_or_nothing["label"] == "different"
    assert all_or_nothing["success"]["fisher_p"] < 0.05
    # unimodal outcomes: no success comparison
    assert st.verdict([10.0, 10.5, 9.5], [10.0, 10.2, 9.8], 0.0)["success"] is None


def test_intervals_are_reproducible_so_a_report_can_be_re_made_from_its_data():
    # rliable resamples from NumPy's global generator whatever random_state it is given
    x = np.array([1.0, 2.0, 5.0, 3.0, 9.0])
    first = st.final_intervals({"a": x, "b": x + 1}, reps=200)
    np.random.rand()  # the global generator moved on
    assert st.final_intervals({"a": x, "b": x + 1}, reps=200) == first
    assert st.curve_intervals({"a": x.reshape(-1, 1)}, reps=200) == \
        st.curve_intervals({"a": x.reshape(-1, 1)}, reps=200)


def test_the_iqm_is_rliables_to_the_last_bit():
    # reports made with rliable's aggregate_iqm (through scipy's trim_mean) are re-derived by the
    # gate with the direct computation: every value must be the same float, not a close one
    from rliable import metrics

    rng = np.random.RandomState(7)
    for n in range(1, 41):
        for scale in (1e-3, 1.0, 1e4):
            x = (rng.randn(n, 1) * scale + rng.randint(-50, 50)).round(rng.randint(0, 6))
            ours, theirs = st._iqm(x), metrics.aggregate_iqm(x)
            assert ours == theirs and type(ours) is type(theirs), (n, scale)


def test_the_intervals_are_the_ones_rliables_iqm_gives(monkeypatch):
    # the whole bootstrap (2,000 resamples) with rliable's own IQM put back: the same numbers
    from rliable import metrics

    rng = np.random.RandomState(3)
    final = {"jax": rng.randn(10) * 3 + 1, "ale": rng.randn(7) * 3 + 1}
    curves = {"jax": rng.randn(6, 3)}
    fast = st.final_intervals(final), st.curve_intervals(curves)
    monkeypatch.setattr(st, "_iqm", metrics.aggregate_iqm)
    assert (st.final_intervals(final), st.curve_intervals(curves)) == fast
