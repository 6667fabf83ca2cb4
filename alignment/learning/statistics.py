"""Learning-curve statistics for two backends, and the equivalence verdict.

From rliable (Agarwal et al. 2021): the interquartile mean (IQM), stratified-bootstrap confidence
intervals per checkpoint, and the probability of improvement. Written here because rliable does not
have them: the median over runs (rliable's ``aggregate_median`` is a median over *tasks* of the
per-task mean, so over a runs x 1 array it is the mean), an area-under-the-curve comparison, and an
equivalence verdict on final return by two one-sided Welch t-tests (TOST) with a margin stated on
what PPO gained over a random policy on ALE, plus a comparison of success rates when the outcomes
are bimodal (some runs learn, some do not: Freeway). The verdict is "equivalent", "different", or
"inconclusive" with the number of further seeds a decision would need; docs/stress-schema.md says
why the margin is what it is.

Scores are arrays (runs, checkpoints) of episodic return; NaN where a run finished no episode yet.
Values that do not exist are ``None`` in what this returns (they go to JSON).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import stats as sps

from alignment.plain import finite_or_none

ALPHA = 0.05  # TOST: each one-sided test at 5% (a 90% interval inside the margin)
POWER = 0.8  # the power the "needs N more seeds" estimate is for
# The margin: a fifth of what PPO gained over the random policy on ALE (docs/stress-schema.md).
GAIN_FRACTION = 0.2
# Bimodal outcomes: the pooled final returns, sorted, leave a gap wider than this share of the gain
# (runs that learned and runs that did not); a run above the middle of the widest gap succeeded.
BIMODAL_GAP_FRACTION = 0.5
SUCCESS_MARGIN = 0.2  # success rates are equivalent when they differ by less than 20 points
LABELS = ("equivalent", "inconclusive", "different")  # the closed set, from best to worst
BOOTSTRAP_REPS = 2000
CONFIDENCE = 0.95


def _bootstrap(score_dict, func, *, reps: int, confidence_interval_size: float, random_state):
    """rliable's stratified-bootstrap interval estimates, reproducible.

    rliable's ``StratifiedBootstrap`` draws its resamples from NumPy's global generator, not from
    the ``random_state`` it is given (rliable 1.2): the same call gave other intervals each time,
    so a report could not be re-made from its data. The global generator is seeded from
    ``random_state`` for the call and restored after it."""
    from rliable import library as rly

    seed = int(random_state.randint(2 ** 31))
    saved = np.random.get_state()
    np.random.seed(seed)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return rly.get_interval_estimates(
                score_dict, func, reps=reps, confidence_interval_size=confidence_interval_size,
                random_state=random_state)
    finally:
        np.random.set_state(saved)


IQM_CUT = 0.25  # rliable's IQM trims a quarter of the runs from each side


def _iqm(scores) -> np.floating:
    """rliable's ``aggregate_iqm`` (the trimmed mean over every element), the same floats by the
    same operations (tests/learning/test_statistics.py holds them equal), called directly: rliable
    goes through scipy's ``trim_mean``, whose per-call argument checks (signature inspection) cost
    several times the arithmetic, and a bootstrap interval calls it once per resample
    (:data:`BOOTSTRAP_REPS`); the gate re-derives every robustness report's intervals."""
    flat = np.ravel(scores)
    cut = int(IQM_CUT * flat.size)
    keep = flat.size - cut
    return np.mean(np.partition(flat, (cut, keep - 1))[cut:keep])


def iqm(values) -> float:
    """Interquartile mean: the mean of the middle 50% (rliable's, trimming 25% each side)."""
    return float(_iqm(np.asarray(values, np.float64)))


def median(values) -> float:
    """The median over runs (every element of a runs x 1 array)."""
    return float(np.median(np.asarray(values, np.float64)))


def curve_intervals(scores: dict[str, np.ndarray], *, reps: int = BOOTSTRAP_REPS, seed: int = 0):
    """Per backend and checkpoint: IQM and its 95% stratified-bootstrap interval (rliable).
    Returns ``{backend: {"iqm": [...], "low": [...], "high": [...]}}`` (None where undefined)."""
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
                {name: col.reshape(-1, 1)}, lambda x: np.array([_iqm(x)]),
                reps=reps, confidence_interval_size=CONFIDENCE,
                random_state=np.random.RandomState(seed))
            point.append(finite_or_none(est[name][0]))
            low.append(finite_or_none(ci[name][0, 0]))
            high.append(finite_or_none(ci[name][1, 0]))
        out[name] = {"iqm": point, "low": low, "high": high}
    return out


def final_intervals(final: dict[str, np.ndarray], *, reps: int = BOOTSTRAP_REPS, seed: int = 0):
    """IQM, mean and median of final return per backend, each with its 95% bootstrap interval."""
    from rliable import metrics

    fns = {"iqm": _iqm, "mean": metrics.aggregate_mean, "median": median}
    data = {k: np.asarray(v, np.float64).reshape(-1, 1) for k, v in final.items()}
    est, ci = _bootstrap(
        data, lambda x: np.array([f(x) for f in fns.values()]), reps=reps,
        confidence_interval_size=CONFIDENCE, random_state=np.random.RandomState(seed))
    return {k: {m: {"value": finite_or_none(est[k][i]), "low": finite_or_none(ci[k][0, i]), "high": finite_or_none(ci[k][1, i])}
                for i, m in enumerate(fns)} for k in data}


def probability_of_improvement(x, y, *, reps: int = BOOTSTRAP_REPS, seed: int = 0) -> dict:
    """P(a run of X beats a run of Y) (rliable; 0.5 = neither), with its 95% bootstrap interval."""
    from rliable import metrics

    x = np.asarray(x, np.float64).reshape(-1, 1)
    y = np.asarray(y, np.float64).reshape(-1, 1)
    est, ci = _bootstrap(
        {"xy": (x, y)}, lambda a, b: np.array([metrics.probability_of_improvement(a, b)]),
        reps=reps, confidence_interval_size=CONFIDENCE, random_state=np.random.RandomState(seed))
    return {"value": finite_or_none(est["xy"][0]), "low": finite_or_none(ci["xy"][0, 0]), "high": finite_or_none(ci["xy"][1, 0])}


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


def welch_blocked(xs, ys) -> dict:
    """Welch's difference for a blocked design: both sides played the same blocks (e.g. agents)
    with equal weight. The difference is the mean over blocks of mean(x_k) - mean(y_k) (with equal
    games per block, the pooled means' difference); its standard error comes from the spread within
    each block only (Satterthwaite's degrees of freedom), since the spread between blocks is the
    same on both sides by design and no part of the difference. ``sd``: the within-block standard
    deviation a side's sample size answers to (for :func:`seeds_needed`)."""
    xs = [np.asarray(x, np.float64) for x in xs]
    ys = [np.asarray(y, np.float64) for y in ys]
    if len(xs) != len(ys) or not xs or min(v.size for v in xs + ys) < 2:
        raise ValueError("a blocked comparison needs the same blocks on both sides, each with at "
                         "least 2 values a side")
    k = len(xs)
    parts = [(v.var(ddof=1) / v.size / k ** 2, v.size - 1) for v in xs + ys]
    var = sum(p for p, _ in parts)
    se = math.sqrt(var)
    df = (var ** 2 / sum(p ** 2 / n for p, n in parts if p > 0) if se > 0
          else float(sum(n for _, n in parts)))
    diff = float(np.mean([x.mean() - y.mean() for x, y in zip(xs, ys)]))
    sd = math.sqrt(np.mean([(x.var(ddof=1) + y.var(ddof=1)) / 2 for x, y in zip(xs, ys)]))
    return {"diff": diff, "se": se, "df": df, "blocks": k, "sd": sd}


def auc_comparison(steps, curves: dict[str, np.ndarray], a: str, b: str) -> dict:
    """Normalised AUC per run, per backend; the difference a - b with Welch's test."""
    auc = {k: np.array([normalized_auc(steps, run) for run in v]) for k, v in curves.items()}
    out = {"per_run": {k: [finite_or_none(x) for x in v] for k, v in auc.items()},
           "mean": {k: finite_or_none(np.nanmean(v)) if np.isfinite(v).any() else None for k, v in auc.items()}}
    x, y = auc[a][np.isfinite(auc[a])], auc[b][np.isfinite(auc[b])]
    if x.size >= 2 and y.size >= 2:
        w = welch(x, y)
        if w["se"] > 0:
            p = 2 * sps.t.sf(abs(w["diff"]) / w["se"], w["df"])
        else:
            p = 1.0 if w["diff"] == 0 else 0.0
        out.update({"diff": w["diff"], "p_value": finite_or_none(p)})
    else:
        out.update({"diff": None, "p_value": None})
    return out


def paired(x, y) -> dict:
    """The mean of the pairs' differences x_i - y_i (the same unit measured on both sides), its
    standard error and n - 1 degrees of freedom, in :func:`welch`'s shape; ``sd``: the
    differences' standard deviation."""
    d = np.asarray(x, np.float64) - np.asarray(y, np.float64)
    if d.size < 2:
        raise ValueError("a paired comparison needs at least 2 pairs")
    sd = float(d.std(ddof=1))
    return {"diff": float(d.mean()), "se": sd / math.sqrt(d.size), "df": float(d.size - 1),
            "pairs": int(d.size), "sd": sd}


def tost(x, y, margin: float, alpha: float = ALPHA) -> dict:
    """Two one-sided Welch t-tests of |mean(x) - mean(y)| < margin.

    ``p_value`` is the larger of the two one-sided p-values: below ``alpha``, the difference is
    within the margin (equivalent). ``ci`` is the (1 - 2 alpha) interval of the difference."""
    return tost_of(welch(x, y), margin, alpha)


def tost_of(w: dict, margin: float, alpha: float = ALPHA) -> dict:
    """:func:`tost` on a difference already estimated: ``w`` in :func:`welch`'s shape (``diff``,
    ``se``, ``df``), e.g. :func:`welch_blocked`'s or :func:`paired`'s."""
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


def gain_margin(reference_final, random_return: float) -> tuple[float, float]:
    """(gain, margin): the reference backend's mean final return over the random policy's, and the
    equivalence margin, :data:`GAIN_FRACTION` of that gain (0 when nothing was gained)."""
    ref = np.asarray(reference_final, np.float64)
    ref = ref[np.isfinite(ref)]
    gain = float(ref.mean()) - float(random_return) if ref.size else 0.0
    return gain, max(gain, 0.0) * GAIN_FRACTION


def bimodal_split(x, y, gain: float) -> float | None:
    """The success threshold when the pooled final returns are bimodal (the middle of their widest
    gap, when it is wider than :data:`BIMODAL_GAP_FRACTION` of the gain), else None."""
    pooled = np.sort(np.concatenate([np.asarray(x, np.float64), np.asarray(y, np.float64)]))
    if pooled.size < 2 or gain <= 0:
        return None
    gaps = np.diff(pooled)
    k = int(np.argmax(gaps))
    if gaps[k] <= BIMODAL_GAP_FRACTION * gain:
        return None
    return float((pooled[k] + pooled[k + 1]) / 2)


def success_rates(x, y, threshold: float, names=("jax", "ale")) -> dict:
    """Success rates (final return above ``threshold``), Fisher's exact test of a difference, and
    a TOST of equivalence within :data:`SUCCESS_MARGIN` (normal approximation)."""
    sx, sy = int(np.sum(np.asarray(x) > threshold)), int(np.sum(np.asarray(y) > threshold))
    nx, ny = len(x), len(y)
    px, py = sx / nx, sy / ny
    fisher = sps.fisher_exact([[sx, nx - sx], [sy, ny - sy]]).pvalue
    diff = px - py
    se = math.sqrt(px * (1 - px) / nx + py * (1 - py) / ny)
    if se == 0:
        p_equiv = 0.0 if abs(diff) < SUCCESS_MARGIN else 1.0
    else:
        p_equiv = float(max(sps.norm.sf((diff + SUCCESS_MARGIN) / se),
                            sps.norm.cdf((diff - SUCCESS_MARGIN) / se)))
    return {"threshold": threshold, "successes": {names[0]: sx, names[1]: sy},
            "runs": {names[0]: nx, names[1]: ny}, "diff": diff, "fisher_p": float(fisher),
            "margin": SUCCESS_MARGIN, "tost_p": p_equiv}


def advice(more: int | None, diff: float, margin: float, unit: str) -> str:
    """An inconclusive verdict's advice from :func:`seeds_needed`'s count (``unit``: e.g. "seeds",
    "episodes per backend"). An estimate beyond the margin cannot turn into equivalence by more
    samples unless it moves, so there the count is said for what it is: the samples that would
    show a difference."""
    if more is None:
        return "the difference sits on the margin; no seed count decides it"
    if abs(diff) > margin:
        return (f"the estimate lies beyond the margin, so more {unit.split()[0]} would sooner show a "
                f"difference than equivalence (about {more} more {unit} to show it)")
    return f"needs about {more} more {unit}"


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


def one_side_verdict(trained: str) -> dict:
    """The verdict of a report with one backend's runs (e.g. agents trained on the accelerator for
    the transfer to ALE): nothing to compare them with."""
    return {"label": "inconclusive", "margin": None, "test": None,
            "detail": f"only {trained} was trained: nothing to compare it with"}


def verdict(x, y, random_return: float | None, *, margin: float | None = None,
            names=("jax", "ale"), fraction: float | None = None, unit: str = "seeds",
            blocks: tuple[list, list] | None = None) -> dict:
    """The equivalence verdict on final returns ``x`` (JAX) against ``y`` (ALE, the reference),
    with the margin on ALE's gain over ``random_return`` (the random policy's mean return on ALE).

    ``label``: "equivalent" (TOST rejects a difference of the margin or more, and with bimodal
    outcomes the success rates are equivalent too), "different" (the (1 - 2 alpha) interval of the
    difference lies wholly outside the margin, or the success rates differ by Fisher's exact test),
    otherwise "inconclusive", with ``seeds_needed``/``more_seeds`` when a count can be given.
    ``margin`` replaces the gain-based one (experiments; the reports never pass it); ``fraction``
    replaces :data:`GAIN_FRACTION` as the share of the gain the margin is (the transfer report's
    10%); ``unit`` names what a side's samples are (seeds, or episodes) in the advice. ``blocks``:
    ``x`` and ``y`` split by the blocks both sides played alike (the transfer's agents, each with
    as many games a side): the interval and the TOST are then :func:`welch_blocked`'s, the means,
    the margin and any success rates the pooled values'."""
    x = np.asarray(x, np.float64)
    y = np.asarray(y, np.float64)
    x, y = x[np.isfinite(x)], y[np.isfinite(y)]
    base = {"alpha": ALPHA, "n": {names[0]: int(x.size), names[1]: int(y.size)},
            "random_return": random_return, "gain": None, "margin": None, "success": None}
    if x.size == 0 or y.size == 0:
        return {**base, "label": "inconclusive", "test": None,
                "detail": "no finished episode on "
                          + " and ".join(n for n, v in zip(names, (x, y)) if v.size == 0)
                          + " within the budget: nothing to compare (raise the budget)"}
    if x.size < 2 or y.size < 2:
        return {**base, "label": "inconclusive", "test": None, "more_seeds": max(2 - min(x.size, y.size), 1),
                "detail": f"{min(x.size, y.size)} run(s) on a side: a test of equivalence needs a "
                          f"variance estimate, so at least 2 seeds per backend (5 or more advised)"}
    if random_return is None:
        return {**base, "label": "inconclusive", "test": None,
                "detail": "no random-policy return recorded: the margin is a share of the gain over "
                          "it (re-make the report: jaxtari-align stress-remake)"}
    gain, gain_based = gain_margin(y, random_return)
    share = GAIN_FRACTION if fraction is None else float(fraction)
    if fraction is not None:
        gain_based = max(gain, 0.0) * share
    margin = gain_based if margin is None else float(margin)
    base.update(gain=gain, margin=margin)
    if margin <= 0:
        return {**base, "label": "inconclusive", "test": None,
                "detail": f"PPO gained nothing over the random policy on {names[1]} ({y.mean():.2f} "
                          f"vs random {random_return:.2f}): there is no learning to compare "
                          f"(raise the budget)"}
    if blocks is not None:
        w = welch_blocked(*blocks)
        t, sd = tost_of(w, margin), w["sd"]
    else:
        t, sd = tost(x, y, margin), math.sqrt((x.var(ddof=1) + y.var(ddof=1)) / 2)
    split = bimodal_split(x, y, gain)
    success = success_rates(x, y, split, names) if split is not None else None
    base["success"] = success
    within = f", within {len(blocks[0])} agents" if blocks is not None else ""
    desc = (f"final return {names[0]} {x.mean():.2f} vs {names[1]} {y.mean():.2f} "
            f"(difference {t['diff']:+.2f}, 90% CI [{t['ci'][0]:.2f}, {t['ci'][1]:.2f}]{within}); "
            f"margin +/-{margin:.2f} ({share:.0%} of {names[1]}'s gain {gain:.2f} over "
            f"random {random_return:.2f})")
    if success is not None:
        s = success
        desc += (f"; bimodal outcomes: success (final > {s['threshold']:.2f}) "
                 f"{s['successes'][names[0]]}/{s['runs'][names[0]]} vs "
                 f"{s['successes'][names[1]]}/{s['runs'][names[1]]}, Fisher p = {s['fisher_p']:.3g}")
    if t["ci"][0] > margin or t["ci"][1] < -margin:
        return {**base, "label": "different", "test": t,
                "detail": f"{desc}: the interval lies outside the margin, the backends differ"}
    if success is not None and success["fisher_p"] < ALPHA:
        return {**base, "label": "different", "test": t,
                "detail": f"{desc}: the success rates differ, the backends differ"}
    success_ok = success is None or success["tost_p"] < ALPHA
    if t["p_value"] < ALPHA and success_ok:
        return {**base, "label": "equivalent", "test": t,
                "detail": f"{desc}: TOST p = {t['p_value']:.3g} < {ALPHA}, equivalent within the margin"}
    n = seeds_needed(sd, t["diff"], margin)
    if success is not None and not success_ok:
        n_s = _success_seeds(success)
        n = None if n is None or n_s is None else max(n, n_s)
    more = None if n is None else max(n - min(x.size, y.size), 1)
    need = advice(more, t["diff"], margin, f"{unit} per backend")
    why = (f"TOST p = {t['p_value']:.3g}" + ("" if success is None else
           f", success rates within {SUCCESS_MARGIN:.0%}: TOST p = {success['tost_p']:.3g}"))
    return {**base, "label": "inconclusive", "test": t, "more_seeds": more,
            "detail": f"{desc}: {why}; inconclusive: {need}"}


def _success_seeds(success: dict) -> int | None:
    """Runs per backend for the success-rate TOST at :data:`POWER` (normal approximation)."""
    rates = [s / n for s, n in zip(success["successes"].values(), success["runs"].values())]
    p = sum(rates) / 2
    return seeds_needed(math.sqrt(p * (1 - p)) or 0.5, success["diff"], SUCCESS_MARGIN)
