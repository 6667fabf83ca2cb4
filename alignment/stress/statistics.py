"""Learning-curve statistics for two backends, and the equivalence verdict.

From rliable (Agarwal et al. 2021): the interquartile mean (IQM), stratified-bootstrap confidence
intervals per checkpoint, and the probability of improvement. Written here because rliable does not
have them: an area-under-the-curve comparison and an equivalence verdict on final return by two
one-sided Welch t-tests (TOST) with a stated margin, which is "equivalent", "different", or
"inconclusive" with the number of further seeds a decision would need.

Scores are arrays (runs, checkpoints) of episodic return; NaN where a run finished no episode yet.
Values that do not exist are ``None`` in what this returns (they go to JSON).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import stats as sps

ALPHA = 0.05  # TOST: each one-sided test at 5% (a 90% interval inside the margin)
POWER = 0.8  # the power the "needs N more seeds" estimate is for
MARGIN_FRACTION = 0.1  # default margin: 10% of the reference backend's mean final return ...
MARGIN_FLOOR = 1.0  # ... but at least one point of score
BOOTSTRAP_REPS = 2000
CONFIDENCE = 0.95


def _bootstrap(*args, **kwargs):
    """rliable's interval estimate, without arch's notice that it will stop taking RandomState."""
    from rliable import library as rly

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return rly.get_interval_estimates(*args, **kwargs)


def _none(x):
    x = float(x)
    return x if math.isfinite(x) else None


def iqm(values) -> float:
    """Interquartile mean: the mean of the middle 50% (rliable's, trimming 25% each side)."""
    from rliable import metrics

    v = np.asarray(values, np.float64).reshape(-1, 1)
    return float(metrics.aggregate_iqm(v))


def curve_intervals(scores: dict[str, np.ndarray], *, reps: int = BOOTSTRAP_REPS, seed: int = 0):
    """Per backend and checkpoint: IQM and its 95% stratified-bootstrap interval (rliable).
    Returns ``{backend: {"iqm": [...], "low": [...], "high": [...]}}`` (None where undefined)."""
    from rliable import metrics

    out = {}
    for name, s in scores.items():
        s = np.asarray(s, np.float64)
        point, low, high = [], [], []
        for t in range(s.shape[1]):
            col = s[:, t][np.isfinite(s[:, t])]
            if col.size == 0:
                point.append(None); low.append(None); high.append(None)
                continue
            est, ci = _bootstrap(
                {name: col.reshape(-1, 1)}, lambda x: np.array([metrics.aggregate_iqm(x)]),
                reps=reps, confidence_interval_size=CONFIDENCE,
                random_state=np.random.RandomState(seed))
            point.append(_none(est[name][0]))
            low.append(_none(ci[name][0, 0]))
            high.append(_none(ci[name][1, 0]))
        out[name] = {"iqm": point, "low": low, "high": high}
    return out


def final_intervals(final: dict[str, np.ndarray], *, reps: int = BOOTSTRAP_REPS, seed: int = 0):
    """IQM, mean and median of final return per backend, each with its 95% bootstrap interval."""
    from rliable import metrics

    fns = {"iqm": metrics.aggregate_iqm, "mean": metrics.aggregate_mean,
           "median": metrics.aggregate_median}
    data = {k: np.asarray(v, np.float64).reshape(-1, 1) for k, v in final.items()}
    est, ci = _bootstrap(
        data, lambda x: np.array([f(x) for f in fns.values()]), reps=reps,
        confidence_interval_size=CONFIDENCE, random_state=np.random.RandomState(seed))
    return {k: {m: {"value": _none(est[k][i]), "low": _none(ci[k][0, i]), "high": _none(ci[k][1, i])}
                for i, m in enumerate(fns)} for k in data}


def probability_of_improvement(x, y, *, reps: int = BOOTSTRAP_REPS, seed: int = 0) -> dict:
    """P(a run of X beats a run of Y) (rliable; 0.5 = neither), with its 95% bootstrap interval."""
    from rliable import metrics

    x = np.asarray(x, np.float64).reshape(-1, 1)
    y = np.asarray(y, np.float64).reshape(-1, 1)
    est, ci = _bootstrap(
        {"xy": (x, y)}, lambda a, b: np.array([metrics.probability_of_improvement(a, b)]),
        reps=reps, confidence_interval_size=CONFIDENCE, random_state=np.random.RandomState(seed))
    return {"value": _none(est["xy"][0]), "low": _none(ci["xy"][0, 0]), "high": _none(ci["xy"][1, 0])}


def normalized_auc(steps, curve) -> float:
    """Area under one run's curve divided by the step range: its mean return over training
    (trapezoids; checkpoints without a value are skipped)."""
    steps = np.asarray(steps, np.float64)
    curve = np.asarray(curve, np.float64)
    ok = np.isfinite(curve)
    if ok.sum() == 0:
        return float("nan")
    if ok.sum() == 1:
        return float(curve[ok][0])
    s, c = steps[ok], curve[ok]
    return float(np.sum((c[1:] + c[:-1]) / 2 * np.diff(s)) / (s[-1] - s[0]))


def welch(x, y) -> dict:
    """Mean difference x - y, its standard error and Welch's degrees of freedom."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    vx, vy = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    se = math.sqrt(vx + vy)
    if se == 0:
        df = float(x.size + y.size - 2)
    else:
        df = (vx + vy) ** 2 / (vx ** 2 / (x.size - 1) + vy ** 2 / (y.size - 1))
    return {"diff": float(x.mean() - y.mean()), "se": se, "df": df}


def auc_comparison(steps, curves: dict[str, np.ndarray], a: str, b: str) -> dict:
    """Normalised AUC per run, per backend; the difference a - b with Welch's test."""
    auc = {k: np.array([normalized_auc(steps, run) for run in v]) for k, v in curves.items()}
    out = {"per_run": {k: [_none(x) for x in v] for k, v in auc.items()},
           "mean": {k: _none(np.nanmean(v)) if np.isfinite(v).any() else None for k, v in auc.items()}}
    x, y = auc[a][np.isfinite(auc[a])], auc[b][np.isfinite(auc[b])]
    if x.size >= 2 and y.size >= 2:
        w = welch(x, y)
        if w["se"] > 0:
            p = 2 * sps.t.sf(abs(w["diff"]) / w["se"], w["df"])
        else:
            p = 1.0 if w["diff"] == 0 else 0.0
        out.update({"diff": w["diff"], "p_value": _none(p)})
    else:
        out.update({"diff": None, "p_value": None})
    return out


def tost(x, y, margin: float, alpha: float = ALPHA) -> dict:
    """Two one-sided Welch t-tests of |mean(x) - mean(y)| < margin.

    ``p_value`` is the larger of the two one-sided p-values: below ``alpha``, the difference is
    within the margin (equivalent). ``ci`` is the (1 - 2 alpha) interval of the difference."""
    w = welch(x, y)
    d, se, df = w["diff"], w["se"], w["df"]
    if se == 0:
        inside = abs(d) < margin
        return {"diff": d, "se": 0.0, "df": df, "p_lower": 0.0 if inside else 1.0,
                "p_upper": 0.0 if inside else 1.0, "p_value": 0.0 if inside else 1.0,
                "ci": [d, d], "margin": margin, "alpha": alpha}
    p_lower = sps.t.sf((d + margin) / se, df)  # H0: d <= -margin
    p_upper = sps.t.cdf((d - margin) / se, df)  # H0: d >= +margin
    q = sps.t.ppf(1 - alpha, df)
    return {"diff": d, "se": se, "df": df, "p_lower": float(p_lower), "p_upper": float(p_upper),
            "p_value": float(max(p_lower, p_upper)), "ci": [d - q * se, d + q * se],
            "margin": margin, "alpha": alpha}


def default_margin(reference_final) -> float:
    ref = np.asarray(reference_final, np.float64)
    ref = ref[np.isfinite(ref)]
    scale = abs(float(ref.mean())) if ref.size else 0.0
    return max(MARGIN_FLOOR, MARGIN_FRACTION * scale)


def seeds_needed(sd: float, diff: float, margin: float, alpha: float = ALPHA,
                 power: float = POWER) -> int | None:
    """Runs per backend for a TOST decision (equivalence when |diff| < margin, or a (1 - 2 alpha)
    interval clear of the margin otherwise) at the given power, normal approximation."""
    gap = abs(margin - abs(diff))
    if sd == 0:
        return 2
    if gap == 0:
        return None
    z_a = sps.norm.ppf(1 - alpha)
    z_b = sps.norm.ppf(1 - (1 - power) / 2) if abs(diff) < margin else sps.norm.ppf(power)
    return int(math.ceil(2 * (sd * (z_a + z_b) / gap) ** 2))


def verdict(x, y, margin: float | None = None, *, names=("jax", "ale")) -> dict:
    """The equivalence verdict on final returns ``x`` (JAX) against ``y`` (ALE, the reference).

    ``label``: "equivalent" (TOST rejects a difference of the margin or more), "different" (the
    (1 - 2 alpha) interval of the difference lies wholly outside the margin), otherwise
    "inconclusive", with ``seeds_needed``/``more_seeds`` when a count can be given."""
    x = np.asarray(x, np.float64)
    y = np.asarray(y, np.float64)
    x, y = x[np.isfinite(x)], y[np.isfinite(y)]
    margin = default_margin(y) if margin is None else float(margin)
    base = {"margin": margin, "alpha": ALPHA, "n": {names[0]: int(x.size), names[1]: int(y.size)}}
    if x.size == 0 or y.size == 0:
        return {**base, "label": "inconclusive", "test": None,
                "detail": "no finished episode on "
                          + " and ".join(n for n, v in zip(names, (x, y)) if v.size == 0)
                          + " within the budget: nothing to compare (raise the budget)"}
    if x.size < 2 or y.size < 2:
        return {**base, "label": "inconclusive", "test": None, "more_seeds": max(2 - min(x.size, y.size), 1),
                "detail": f"{min(x.size, y.size)} run(s) on a side: a test of equivalence needs a "
                          f"variance estimate, so at least 2 seeds per backend (5 or more advised)"}
    t = tost(x, y, margin)
    sd = math.sqrt((x.var(ddof=1) + y.var(ddof=1)) / 2)
    desc = (f"final return {names[0]} {x.mean():.2f} vs {names[1]} {y.mean():.2f} "
            f"(difference {t['diff']:+.2f}, 90% CI [{t['ci'][0]:.2f}, {t['ci'][1]:.2f}]); "
            f"margin +/-{margin:.2f}")
    if t["p_value"] < ALPHA:
        return {**base, "label": "equivalent", "test": t,
                "detail": f"{desc}: TOST p = {t['p_value']:.3g} < {ALPHA}, equivalent within the margin"}
    if t["ci"][0] > margin or t["ci"][1] < -margin:
        return {**base, "label": "different", "test": t,
                "detail": f"{desc}: the interval lies outside the margin, the backends differ"}
    n = seeds_needed(sd, t["diff"], margin)
    more = None if n is None else max(n - min(x.size, y.size), 1)
    need = (f"needs about {more} more seeds per backend" if more is not None
            else "the difference sits on the margin; no seed count decides it")
    return {**base, "label": "inconclusive", "test": t, "more_seeds": more,
            "detail": f"{desc}: TOST p = {t['p_value']:.3g}; inconclusive: {need}"}
