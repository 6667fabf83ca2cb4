"""What a committed robustness report says for the gate: a mod whose JAX and ALE PC differ by
more than the margin (the stress stage's "different") is a failure, like a stress verdict of
"different". Reads the report through its schema (:mod:`alignment.robustness.schema`) and
re-derives each verdict from the report's rows (every episode return of the agents and of the
random policy on each side), never trusting the recorded PC or label: a report whose recorded
numbers disagree with its own rows fails too."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from alignment.robustness import pc as pcm
from alignment.robustness.schema import ORIGINAL, Report, SchemaError, check

PC_TOLERANCE = 1e-9  # JSON keeps a float exactly; this only absorbs summation order


def _side_pc(side, mod: str) -> np.ndarray | None:
    """Per-seed PC of ``mod`` on one side (:func:`alignment.robustness.pc.side_pc`), once its
    rows are checked to pair seed for seed; None when it did not run."""
    if {mod, ORIGINAL} <= side.agents.keys() and {mod, ORIGINAL} <= side.random.keys():
        if len(side.agents[mod]) != len(side.agents[ORIGINAL]) or not all(side.agents[mod]) \
                or not all(side.agents[ORIGINAL]) or not side.random[mod] \
                or not side.random[ORIGINAL]:
            raise SchemaError(f"{mod}: the rows of the original and the modified game do not "
                              f"pair seed for seed (or hold no episodes)")
    return pcm.side_pc(side.agents, side.random, mod)


def recomputed(report: Report) -> dict[str, dict]:
    """For each mod: ``{"pc": {side: per-seed PC}, "comparison": the JAX-vs-ALE verdict or None}``,
    made from the report's episode returns alone."""
    out = {}
    for mod in report.mods:
        pcs = {s: v for s, d in report.sides.items() if (v := _side_pc(d, mod)) is not None}
        both = {"jax", "ale"} <= pcs.keys()
        out[mod] = {"pc": pcs,
                    "comparison": pcm.compare_sides(pcs["jax"], pcs["ale"]) if both else None}
    return out


def _same_pc(recorded, derived: np.ndarray) -> bool:
    """The recorded per-seed PC (None where undefined) is the derived one."""
    if recorded is None or len(recorded) != len(derived):
        return False
    for a, b in zip(recorded, derived):
        if not math.isfinite(b):
            if a is not None:
                return False
        elif a is None or abs(a - b) > PC_TOLERANCE * max(1.0, abs(b)):
            return False
    return True


def _shown(values) -> list:
    return [None if v is None else round(v, 4) for v in pcm.nan_to_none(values)]


def failures(report: dict) -> list[str]:
    """One line per mod whose modified games differ (JAX PC vs ALE PC beyond the margin, from the
    rows), and per recorded PC or verdict that its rows do not give."""
    r = check(report)
    derived = recomputed(r)
    out = []
    for mod in sorted(set(derived) | set(r.comparison)):
        d = derived.get(mod, {"pc": {}, "comparison": None})
        for side, values in sorted(d["pc"].items()):
            recorded = r.pc.get(mod, {}).get(side)
            if not _same_pc(recorded, values):
                out.append(f"{r.game} {mod}: the recorded {side} PC {recorded} is not what the "
                           f"report's returns give ({_shown(values)})")
        c, said = d["comparison"], r.comparison.get(mod)
        if c is None:
            if said is not None:
                out.append(f"{r.game} {mod}: the report compares JAX and ALE ({said.label}) but "
                           f"its rows hold no returns of this mod on both sides")
            continue
        if said is None or said.label != c["label"]:
            out.append(f"{r.game} {mod}: the report says {said.label if said else 'nothing'} for "
                       f"JAX vs ALE; its returns give {c['label']} ({c['detail']})")
        if c["label"] == "different":
            out.append(f"{r.game} {mod}: JAX and ALE PC differ beyond the margin "
                       f"±{c['margin']:g} ({c['detail']})")
    return out


def failures_in(folder: Path) -> list[str]:
    """:func:`failures` of every ``<game>.json`` in a robustness folder; an unreadable or
    off-schema report is a failure naming the file."""
    out = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            out.extend(failures(json.loads(path.read_text("utf-8"))))
        except (OSError, ValueError, SchemaError) as exc:
            out.append(f"{path}: unreadable robustness report: {exc}")
    return out
