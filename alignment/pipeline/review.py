"""The review step: which rules wait for a person, what they are shown, and applying the answer.

A rule waits for review when its status is ``extracted`` (new or changed by the spec stage) or
``stale`` (its cited text changed), or
when it is reviewed but its probe fails on ALE (a wrong probe or a wrong rule) and nobody has
looked at that yet. The person accepts (the rule becomes ``reviewed``; an ALE-failing one is kept
as it is and acknowledged), rejects (the rule stays in the spec with status ``rejected`` and a note
saying why), or skips it for now. Editing a rule is done in the spec file; accept it afterwards.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional

from alignment.spec.schema import GameSpec, Rule, span_problem
from alignment.spec.store import load_spec, write_spec

ACCEPT, REJECT = "accept", "reject"


class ReviewAnswerError(ValueError):
    """An answer naming rules that are not waiting for review."""


@dataclasses.dataclass(frozen=True)
class Pending:
    rule_id: str
    why: str  # "new", "changed", or "probe fails on ALE: <what failed>"


def pending_rules(spec: GameSpec, *, changed: Iterable[str] = (),
                  ale_failures: Mapping[str, str] | None = None,
                  acknowledged: Iterable[str] = ()) -> list[Pending]:
    changed, done = set(changed), set(acknowledged)
    out = []
    for rule in spec.rules:
        if rule.status == "extracted":
            out.append(Pending(rule.id, "changed" if rule.id in changed else "new"))
        elif rule.status == "stale":
            out.append(Pending(rule.id, "stale: its cited text is gone from the document; fix the "
                                        "span in the spec file, then accept"))
        elif rule.status == "reviewed" and rule.id in (ale_failures or {}) and rule.id not in done:
            out.append(Pending(rule.id, f"probe fails on ALE: {ale_failures[rule.id]}"))
    return out


def _span(rule: Rule, documents: Mapping[str, Any]) -> Optional[dict[str, Any]]:
    if rule.source is None:
        return None
    ref = rule.source
    span: dict[str, Any] = {"document": ref.document, "start": ref.start, "end": ref.end}
    if span_problem(ref, documents) is None:  # a stale rule's old offsets point at other text
        span["text"] = documents[ref.document].text[ref.start:ref.end]
    return span


def payload(game: str, spec_path: Path, spec: GameSpec, pending: list[Pending],
            documents: Mapping[str, Any]) -> dict[str, Any]:
    """What the interrupt shows: each waiting rule's statement, cited span and probe."""
    rules = []
    for item in pending:
        rule = spec.rule(item.rule_id)
        rules.append({
            "id": rule.id, "why": item.why, "category": rule.category, "status": rule.status,
            "statement": rule.statement, "span": _span(rule, documents),
            "probe": rule.probe.model_dump(mode="json") if rule.probe else None,
        })
    return {"kind": "review", "game": game, "spec_path": str(spec_path), "rules": rules}


def check_answer(answer: Any, valid_ids: Iterable[str]) -> dict[str, str]:
    """``{rule_id: "accept"|"reject"}`` from ``{"accept": [...], "reject": [...]}``, checked."""
    if not isinstance(answer, Mapping):
        raise ReviewAnswerError(
            f"a review answer is {{'accept': [ids], 'reject': [ids]}}, not {type(answer).__name__}")
    extra = sorted(set(answer) - {ACCEPT, REJECT})
    if extra:
        raise ReviewAnswerError(f"unknown answer key(s) {', '.join(extra)}; use accept, reject")
    valid = list(valid_ids)
    decisions: dict[str, str] = {}
    unknown: list[str] = []
    for verdict in (ACCEPT, REJECT):
        for rule_id in answer.get(verdict) or ():
            if rule_id not in valid:
                unknown.append(rule_id)
            elif decisions.get(rule_id, verdict) != verdict:
                raise ReviewAnswerError(f"rule {rule_id} is both accepted and rejected; choose one")
            else:
                decisions[rule_id] = verdict
    if unknown:
        waiting = ", ".join(valid) or "none"
        raise ReviewAnswerError(
            f"no rule {', '.join(unknown)} is waiting for review; the rules waiting are: {waiting}")
    return decisions


def _rejected_note(rule: Rule, why: str, run_id: str) -> str:
    note = f"rejected in review (run {run_id}): {why}"
    if rule.note and note in rule.note:
        return rule.note
    return f"{rule.note}; {note}" if rule.note else note


def apply(spec_path: Path, decisions: Mapping[str, str], pending: list[Pending],
          run_id: str) -> tuple[list[str], list[str]]:
    """Write the decisions into the spec file (atomically); returns (changed, acknowledged) ids.

    Idempotent: applying the same decisions again leaves the file as it is.
    """
    spec = load_spec(spec_path)
    why = {p.rule_id: p.why for p in pending}
    rules, changed, acknowledged = [], [], []
    for rule in spec.rules:
        verdict = decisions.get(rule.id)
        if verdict == ACCEPT and rule.status in ("extracted", "stale"):
            rule = rule.model_copy(update={"status": "reviewed"})
            changed.append(rule.id)
        elif verdict == ACCEPT:
            acknowledged.append(rule.id)
        elif verdict == REJECT and rule.status != "rejected":
            rule = rule.model_copy(update={"status": "rejected",
                                           "note": _rejected_note(rule, why.get(rule.id, ""), run_id)})
            changed.append(rule.id)
        rules.append(rule)
    if changed:
        write_spec(spec.model_copy(update={"rules": rules}), spec_path)
    return changed, acknowledged
