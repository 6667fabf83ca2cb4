"""Small statistics for comparing two backends' episodes: summaries, two-sample tests, and
behavioural precision/recall over event kinds. Values that do not exist (a test on fewer than two
samples per side, a ratio over an empty set) are ``None``, never NaN, so they survive JSON."""

from __future__ import annotations

import warnings
from typing import Iterable, Sequence

import numpy as np

from alignment.plain import finite_or_none


def summary(values: Sequence[float]) -> dict:
    """mean, std (sample, ddof=1; 0 for one value), min, max, n."""
    a = np.asarray(values, np.float64)
    if a.size == 0:
        return {"n": 0, "mean": None, "std": None, "min": None, "max": None}
    return {
        "n": int(a.size),
        "mean": float(a.mean()),
        "std": float(a.std(ddof=1)) if a.size > 1 else 0.0,
        "min": float(a.min()),
        "max": float(a.max()),
    }


def two_sample(a: Sequence[float], b: Sequence[float]) -> dict:
    """Welch's t-test and the Mann-Whitney U test of two samples (two-sided).

    With identical constant samples there is no evidence of a difference: p = 1. A test that is
    undefined (fewer than two values on a side, or two different constants for Welch) gives None.
    """
    from scipy import stats

    x = np.asarray(a, np.float64)
    y = np.asarray(b, np.float64)
    out = {"welch_t": {"statistic": None, "p_value": None},
           "mann_whitney_u": {"statistic": None, "p_value": None}}
    if x.size < 2 or y.size < 2:
        return out
    if np.all(x == x[0]) and np.all(y == y[0]) and x[0] == y[0]:
        out["welch_t"] = {"statistic": 0.0, "p_value": 1.0}
        out["mann_whitney_u"] = {"statistic": float(x.size * y.size / 2), "p_value": 1.0}
        return out
    if np.ptp(x) > 0 or np.ptp(y) > 0:  # Welch's t needs some variance; two constants have none
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            t = stats.ttest_ind(x, y, equal_var=False)
        out["welch_t"] = {"statistic": finite_or_none(t.statistic), "p_value": finite_or_none(t.pvalue)}
    u = stats.mannwhitneyu(x, y, alternative="two-sided")
    out["mann_whitney_u"] = {"statistic": finite_or_none(u.statistic), "p_value": finite_or_none(u.pvalue)}
    return out


def precision_recall(ale_kinds: Iterable, jax_kinds: Iterable) -> dict:
    """Behavioural precision (JAX kinds also seen on ALE / JAX kinds) and recall (ALE kinds also
    seen on JAX / ALE kinds); None over an empty set."""
    ale, jx = set(ale_kinds), set(jax_kinds)
    both = ale & jx
    return {
        "precision": len(both) / len(jx) if jx else None,
        "recall": len(both) / len(ale) if ale else None,
        "only_ale": sorted(ale - jx),
        "only_jax": sorted(jx - ale),
    }


def agreement(ale: np.ndarray, jax: np.ndarray, tolerance: float) -> dict:
    """Frame-by-frame agreement of one signal: fraction of frames within tolerance (every element of
    a vector signal) and the first frame (1-based: frames since reset) where they differ."""
    n = min(len(ale), len(jax))
    if n == 0:
        return {"frames": 0, "agreement": None, "first_divergence": None, "max_abs_diff": None}
    a = np.asarray(ale[:n], np.float64).reshape(n, -1)
    b = np.asarray(jax[:n], np.float64).reshape(n, -1)
    if a.shape != b.shape:
        return {"frames": n, "agreement": 0.0, "first_divergence": 1,
                "max_abs_diff": None, "shape_mismatch": [list(a.shape[1:]), list(b.shape[1:])]}
    diff = np.abs(a - b)
    ok = np.all(diff <= tolerance, axis=1)
    bad = np.nonzero(~ok)[0]
    return {
        "frames": int(n),
        "agreement": float(ok.mean()),
        "first_divergence": int(bad[0]) + 1 if len(bad) else None,
        "max_abs_diff": float(diff.max()),
    }
