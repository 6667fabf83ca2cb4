"""What the gate recomputes from an artefact's rows instead of trusting its summary or label.

- audit figures (coverage, recall, precision, fault detection) from the per-rule outcomes, the
  traced structure items, the matched-rollout event kinds and the seeded faults, as
  :mod:`alignment.audit.core` defines them; a summary that disagrees with its rows is named;
- the mutation score, killed / (killed + survived), from the audit's ``mutation.mutants`` rows;
- a stress verdict from the per-seed final returns (:mod:`alignment.stress.remake`), its recorded
  label checked against the closed set, exact case.
Every function returns data: the figures, and the problems in words.
"""

from __future__ import annotations

import math
from typing import Any, Optional

from alignment.audit.core import OUTCOMES
from alignment.learning.statistics import LABELS

AUDIT_FIGURES = ("coverage", "recall", "precision", "fault_detection")
MUTANT_STATUSES = ("killed", "survived", "equivalent")
# Figures are ratios written with float rounding; a smaller difference is the same figure.
TOLERANCE = 1e-9
# The audit writes its summary figures and the mutation score rounded to 4 decimals
# (alignment.audit.core._ratio, alignment.audit.mutants.score): within half a unit is the same.
SCORE_ROUNDING = 5e-5


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _ratio(num: int, den: int) -> Optional[float]:
    return num / den if den else None


def audit_figures(doc: dict, rel: str) -> tuple[dict[str, Optional[float]], list[str]]:
    """(figures recomputed from the rows, problems). A figure with nothing to count is None."""
    problems: list[str] = []
    rules = doc.get("rules")
    if not isinstance(rules, list) or not all(isinstance(r, dict) for r in rules):
        return {k: None for k in AUDIT_FIGURES}, [f"{rel} has no per-rule rows (`rules`): re-run "
                                                   "the audit"]
    bad = sorted({str(r.get("outcome")) for r in rules if r.get("outcome") not in OUTCOMES})
    if bad:
        problems.append(f"{rel}: rule outcome(s) {', '.join(bad)} are not one of "
                        f"{', '.join(OUTCOMES)}")
    passed = sum(r.get("outcome") == "pass" for r in rules)
    failed = sum(r.get("outcome") == "fail" for r in rules)

    structure = doc.get("structure") or []
    behaviour = doc.get("behaviour") or {"kinds": {"jax": {}}, "unjustified": []}
    faults = doc.get("faults") or []
    flags = [(f"structure[{i}].justified", s.get("justified")) for i, s in enumerate(structure)]
    flags += [(f"faults[{i}].detected", f.get("detected")) for i, f in enumerate(faults)]
    not_bool = [name for name, v in flags if not isinstance(v, bool)]
    if not_bool:
        problems.append(f"{rel}: {', '.join(not_bool[:3])} must be true or false")
    try:
        jax_kinds = len(behaviour["kinds"]["jax"])
        unjustified = len(behaviour["unjustified"])
    except (KeyError, TypeError):
        problems.append(f"{rel}: behaviour.kinds.jax / behaviour.unjustified are missing")
        jax_kinds = unjustified = 0
    justified = sum(s.get("justified") is True for s in structure)
    figures = {
        "coverage": _ratio(passed + failed, len(rules)),
        "recall": _ratio(passed, passed + failed),
        "precision": _ratio(justified + jax_kinds - unjustified, len(structure) + jax_kinds),
        "fault_detection": _ratio(sum(f.get("detected") is True for f in faults), len(faults)),
    }
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    for key, value in figures.items():
        said = summary.get(key)
        if said is None and value is None:
            continue
        if (not _is_number(said) or value is None
                or abs(float(said) - value) > SCORE_ROUNDING + TOLERANCE):
            shown = "nothing to count" if value is None else f"{value:.4f}"
            problems.append(f"{rel}: summary.{key} says {said!r} but its rows give {shown} "
                            f"(a summary edited by hand, or rows edited: re-run the audit)")
    return figures, problems


def mutation_score(doc: dict, rel: str) -> tuple[Optional[dict], list[str]]:
    """({"score", "killed", "survived", "equivalent"}, problems); None when the audit has no
    ``mutation`` rows."""
    mutation = doc.get("mutation")
    if mutation is None:
        return None, []
    mutants = mutation.get("mutants") if isinstance(mutation, dict) else None
    if not isinstance(mutants, list) or not all(isinstance(m, dict) for m in mutants):
        return None, [f"{rel}: mutation.mutants is not a list of rows"]
    problems = []
    bad = sorted({repr(m.get("status")) for m in mutants if m.get("status") not in MUTANT_STATUSES})
    if bad:
        problems.append(f"{rel}: mutant status(es) {', '.join(bad)} are not one of "
                        f"{', '.join(MUTANT_STATUSES)} (exact case)")
    counts = {s: sum(m.get("status") == s for m in mutants) for s in MUTANT_STATUSES}
    score = _ratio(counts["killed"], counts["killed"] + counts["survived"])
    said = mutation.get("score")
    if said is not None and (not _is_number(said) or score is None
                             or abs(float(said) - score) > SCORE_ROUNDING + TOLERANCE):
        problems.append(f"{rel}: mutation.score says {said!r} but its rows give "
                        f"{'nothing to count' if score is None else f'{score:.4f}'}")
    return {"score": score, **counts}, problems


def stress_verdict(doc: dict, rel: str) -> tuple[str, list[str]]:
    """(the label recomputed from the per-seed returns, problems with the recorded one)."""
    from alignment.stress.remake import RemakeError, recomputed_verdict

    verdict = doc.get("verdict") if isinstance(doc.get("verdict"), dict) else {}
    said = verdict.get("label")
    problems = []
    if said not in LABELS:
        problems.append(f"{rel}: verdict label {said!r} is not one of {', '.join(LABELS)} "
                        f"(exact case)")
    try:
        label = recomputed_verdict(doc)["label"]
    except (RemakeError, KeyError, TypeError, ValueError) as err:
        return "unreadable", problems + [f"{rel}: the per-seed returns cannot be read ({err})"]
    if said in LABELS and said != label:
        problems.append(f"{rel}: verdict label says {said} but its per-seed returns give {label} "
                        f"(re-make it: jaxtari-align stress-remake {rel})")
    return label, problems
