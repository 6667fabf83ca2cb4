"""The JAXtari paper's performance change and its aggregates.

PC = ((S_mod - R_mod) - (S_org - R_org)) / |S_org - R_org| per seed: S an agent's mean episode
return, R the random policy's, on the modified (mod) and the original (org) game. 0: the agent
keeps its advantage over random; -1: it loses all of it; below -1: worse than random.
Aggregated over seeds as the IQM with a 95% stratified-bootstrap interval (rliable, through the
stress stage's :func:`alignment.learning.statistics.final_intervals`); the JAX and the ALE PC of one
mod are compared with the stress stage's equivalence test (TOST) at :data:`PC_MARGIN`.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from alignment.plain import finite_or_none
from alignment.robustness.schema import ORIGINAL
from alignment.learning import statistics as st

# The equivalence margin on PC: a tenth of the agents' advantage over random on the original game
# (the stress stage's margin is likewise 10% of the reference's final return).
PC_MARGIN = 0.1


def performance_change(s_mod, r_mod: float, s_org, r_org: float) -> np.ndarray:
    """PC per seed (``s_mod``, ``s_org``: per-seed mean returns); NaN where the agent does no
    better or worse than random on the original (|S_org - R_org| = 0: PC is undefined)."""
    s_mod, s_org = np.asarray(s_mod, np.float64), np.asarray(s_org, np.float64)
    base = s_org - float(r_org)
    with np.errstate(divide="ignore", invalid="ignore"):
        pc = ((s_mod - float(r_mod)) - base) / np.abs(base)
    return np.where(base == 0, np.nan, pc)


def seed_means(returns) -> np.ndarray:
    """Each seed's mean episode return (``returns``: seeds x episodes)."""
    return np.asarray([np.mean(np.asarray(r, np.float64)) for r in returns], np.float64)


def random_mean(returns) -> float:
    """The random policy's mean episode return."""
    return float(np.mean(np.asarray(returns, np.float64)))


def gain_over_random(agents: Mapping[str, Sequence], random: Mapping[str, Sequence],
                     variant: str = ORIGINAL) -> np.ndarray:
    """S - R per seed on one variant: the agents' advantage over the random policy."""
    return seed_means(agents[variant]) - random_mean(random[variant])


def side_pc(agents: Mapping[str, Sequence], random: Mapping[str, Sequence],
            mod: str) -> np.ndarray | None:
    """Per-seed PC of ``mod`` on one backend, from its episode returns by variant (``agents``:
    variant -> seeds x episodes; ``random``: variant -> episodes; :data:`ORIGINAL` beside each
    mod); None when the mod or the original did not run there. The one computation of PC from
    returns: the stage uses it on fresh returns, the gate on a report's rows."""
    if not ({mod, ORIGINAL} <= agents.keys() and {mod, ORIGINAL} <= random.keys()):
        return None
    return performance_change(seed_means(agents[mod]), random_mean(random[mod]),
                              seed_means(agents[ORIGINAL]), random_mean(random[ORIGINAL]))


def aggregate(pc_by_side: dict[str, np.ndarray]) -> dict:
    """Per side: IQM, mean, median of PC over seeds, each with its 95% stratified-bootstrap
    interval; sides with no defined PC are left out."""
    finite = {k: np.asarray(v, np.float64)[np.isfinite(v)] for k, v in pc_by_side.items()}
    finite = {k: v for k, v in finite.items() if v.size}
    return st.final_intervals(finite) if finite else {}


def compare_sides(pc_jax, pc_ale, margin: float = PC_MARGIN) -> dict:
    """JAX PC against ALE PC, seed by seed: the same agent plays both sides, so the test is the
    stress stage's TOST (:func:`alignment.learning.statistics.tost`, alpha per side) on the pairs'
    differences (a seed with no defined PC on a side drops out): how robust an agent is differs
    from agent to agent, alike on both sides, and is no part of a difference between them. Labels:
    "equivalent" (TOST rejects a difference of ``margin`` or more), "different" (the 90% interval
    lies wholly outside the margin), else "inconclusive" with the seeds a decision would need
    (:func:`~alignment.learning.statistics.seeds_needed`). The margin is fixed (PC is already a
    share of the agents' gain over random), so the stress verdict's gain-based margin and
    success-rate split do not apply."""
    x, y = np.asarray(pc_jax, np.float64), np.asarray(pc_ale, np.float64)
    both = np.isfinite(x) & np.isfinite(y)
    mean_diff = float(np.mean(x[both] - y[both])) if both.any() else None
    base = {"margin": float(margin), "alpha": st.ALPHA, "paired_mean_difference": mean_diff,
            "n": {"jax": int(np.isfinite(x).sum()), "ale": int(np.isfinite(y).sum())},
            "pairs": int(both.sum())}
    x, y = x[both], y[both]
    if x.size < 2:
        return {**base, "label": "inconclusive", "test": None, "more_seeds": 2 - x.size,
                "detail": f"{x.size} seed(s) with a defined PC on both sides: the paired test "
                          f"needs at least 2"}
    w = st.paired(x, y)
    t = st.tost_of(w, margin)
    dropped = "" if both.all() else f", {x.size} seeds with a PC on both sides"
    desc = (f"PC jax {x.mean():.2f} vs ale {y.mean():.2f} (paired difference {t['diff']:+.2f}, "
            f"90% CI [{t['ci'][0]:.2f}, {t['ci'][1]:.2f}]{dropped}); margin +/-{margin:.2f}")
    if t["ci"][0] > margin or t["ci"][1] < -margin:
        return {**base, "label": "different", "test": t,
                "detail": f"{desc}: the interval lies outside the margin, the modified games differ"}
    if t["p_value"] < st.ALPHA:
        return {**base, "label": "equivalent", "test": t,
                "detail": f"{desc}: TOST p = {t['p_value']:.3g} < {st.ALPHA}, equivalent within the margin"}
    # seeds_needed sizes two independent samples (se = sd * sqrt(2 / n)); pairs have se = sd / sqrt(n)
    n = st.seeds_needed(w["sd"] / math.sqrt(2), t["diff"], margin)
    more = None if n is None else max(n - x.size, 1)
    return {**base, "label": "inconclusive", "test": t, "more_seeds": more,
            "detail": f"{desc}: TOST p = {t['p_value']:.3g}; inconclusive: "
                      f"{st.advice(more, t['diff'], margin, 'seeds')}"}


def nan_to_none(values) -> list:
    return [finite_or_none(v) for v in np.asarray(values).ravel()]
