"""Re-make a stress report from its JSON: the per-seed curves and returns are kept, the statistics
and the verdict computed again (no retraining). Used when the statistics change, and by the gate,
which recomputes a report's verdict from its per-seed returns instead of trusting its label."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from alignment.learning import statistics as st
from alignment.learning.config import PPOConfig
from alignment.stress.core import SCHEMA, BackendRuns, StressResult, compare


class RemakeError(ValueError):
    """A stress JSON that cannot be re-made; the message names the problem."""


def _array(rows) -> np.ndarray:
    return np.array([[np.nan if v is None else float(v) for v in row] for row in rows], np.float64)


def _finals(values) -> np.ndarray:
    return np.array([np.nan if v is None else float(v) for v in values], np.float64)


def random_return(doc: dict) -> float | None:
    """The random policy's mean return, recomputed from the recorded returns (None if absent)."""
    rp = (doc.get("statistics") or {}).get("random_policy")
    if not isinstance(rp, dict) or not isinstance(rp.get("returns"), list) or not rp["returns"]:
        return None
    returns = rp["returns"]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
               for v in returns):
        raise RemakeError("statistics.random_policy.returns holds a value that is not a finite "
                          "number")
    return float(np.mean(returns))


def recomputed_verdict(doc: dict) -> dict:
    """The verdict from the report's per-seed final returns (JAX against ALE)."""
    backends = doc.get("backends") or {}
    if not {"ale", "jax"} <= set(backends):
        if len(backends) != 1:
            raise RemakeError(f"backends names {sorted(backends) or 'none'}: a stress report has "
                              f"ale and jax, or one of them")
        return st.one_side_verdict(next(iter(backends)))
    for k in ("ale", "jax"):
        finals = backends[k].get("final")
        if not isinstance(finals, list) or not all(
                v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)
                              and math.isfinite(v)) for v in finals):
            raise RemakeError(f"backends.{k}.final is not a list of numbers (or null)")
    return st.verdict(_finals(backends["jax"]["final"]), _finals(backends["ale"]["final"]),
                      random_return(doc))


def from_json(doc: dict) -> StressResult:
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise RemakeError(f"not a stress report (schema {SCHEMA!r})")
    runs = {}
    for k, b in doc["backends"].items():
        runs[k] = BackendRuns(
            steps=list(b["steps"]), curves=_array(b["curves"]),
            episodes=np.asarray(b["episodes"], np.int64), final=_finals(b["final"]),
            wall_seconds=float(b["wall_seconds"]),
            trained_steps=0)
    cfg = dict(doc["config"])
    cfg["mlp_sizes"] = tuple(cfg.get("mlp_sizes", ()))
    return StressResult(doc["game"], doc["obs"], str(doc["budget"]), PPOConfig(**cfg),
                        list(doc["seeds"]), runs, doc.get("statistics") or {}, doc["verdict"],
                        list(doc.get("notes") or []), doc["code_hash"], dict(doc["versions"]),
                        doc.get("command", ""), mods=tuple(doc.get("mods") or ()))


def remake(path: Path, random_policy: dict | None = None) -> StressResult:
    """Re-make ``path``'s statistics and verdict; ``random_policy`` (measured on ALE,
    :func:`alignment.stress.random_policy.random_policy`) when the report has none yet."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as err:
        raise RemakeError(f"{path} cannot be read as JSON: {err}") from None
    old = from_json(doc)
    kept = {k: doc[k] for k in ("fingerprint", "revalidated") if k in doc}
    rp = random_policy or (doc.get("statistics") or {}).get("random_policy")
    if rp is None:
        from alignment.stress.random_policy import random_policy as measure

        rp = measure(old.game)
    stats, verdict, notes = compare(old.runs, rp)
    for key in ("pixel_gap",):
        if key in old.statistics:
            stats[key] = old.statistics[key]
    old.statistics, old.verdict = stats, verdict
    old.notes = [n for n in old.notes if n not in notes] + notes
    old.extra = kept
    return old
