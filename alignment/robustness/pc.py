"""The JAXtari paper's performance change and its aggregates.

PC = ((S_mod - R_mod) - (S_org - R_org)) / |S_org - R_org| per seed: S an agent's mean episode
return, R the random policy's, on the modified (mod) and the original (org) game. 0: the agent
keeps its advantage over random; -1: it loses all of it; below -1: worse than random.
Aggregated over seeds as the IQM with a 95% stratified-bootstrap interval (rliable, through the
stress stage's :func:`alignment.stress.statistics.final_intervals`); the JAX and the ALE PC of one
mod are compared with the stress stage's equivalence verdict (TOST) at :data:`PC_MARGIN`.
"""

from __future__ import annotations

import math

import numpy as np

from alignment.stress import statistics as st

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


def aggregate(pc_by_side: dict[str, np.ndarray]) -> dict:
    """Per side: IQM, mean, median of PC over seeds, each with its 95% stratified-bootstrap
    interval; sides with no defined PC are left out."""
    finite = {k: np.asarray(v, np.float64)[np.isfinite(v)] for k, v in pc_by_side.items()}
    finite = {k: v for k, v in finite.items() if v.size}
    return st.final_intervals(finite) if finite else {}


def compare_sides(pc_jax, pc_ale, margin: float = PC_MARGIN) -> dict:
    """The stress stage's verdict (equivalent / different / inconclusive) on JAX PC vs ALE PC,
    and the paired mean difference (the same agents ran on both)."""
    x, y = np.asarray(pc_jax, np.float64), np.asarray(pc_ale, np.float64)
    v = st.verdict(x, y, margin, names=("jax", "ale"))
    v["detail"] = v["detail"].replace("final return", "PC")  # the stress stage's wording
    both = np.isfinite(x) & np.isfinite(y)
    v["paired_mean_difference"] = float(np.mean(x[both] - y[both])) if both.any() else None
    return v


def nan_to_none(values) -> list:
    return [None if not math.isfinite(float(v)) else float(v) for v in np.asarray(values).ravel()]
