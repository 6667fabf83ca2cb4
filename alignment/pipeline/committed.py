"""A run's audit beside the committed one: the run writes its own audit into its reports folder,
says whether its verdicts are the committed audit's, and replaces the committed audit only when it
is not weaker (:func:`alignment.cli_checks.check_not_weaker`, measured as the audit command
measures a report: :func:`alignment.audit.command.audit_measures`).

A verdict is what an audit decides item by item: each reviewed rule's outcome, each seeded fault
detected or missed, the spec gaps exploration found, and the headline figures they make. Items
only one of the two audits made (mutation testing in a run's quick audit, the seeded faults of a
``--no-faults`` run) are not compared; they are listed as such.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Optional

from alignment import artefacts, atomic

FIGURES = ("coverage", "recall", "precision", "fault_detection", "spec_gaps")


def run_audit_dir(reports_dir: Path | str, run_id: str) -> Path:
    """The folder of a run's own audit (``<reports dir>/<run id>/<game>.json`` and ``.md``)."""
    return artefacts.RUN_AUDIT.path(reports_dir, run=run_id, game="_").parent


def load_committed(audits_dir: Path | str, game: str) -> tuple[Optional[dict], Path, str]:
    """The committed audit of ``game`` in ``audits_dir`` (None when there is none or it cannot be
    read as an audit), its path, and why not when None."""
    path = artefacts.AUDIT.path(audits_dir, game=game)
    if path.parent.is_dir():
        atomic.recover(path.parent)  # a write killed after its commit point is finished first
    if not path.is_file():
        return None, path, f"no committed audit at {path}"
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, path, f"{path} cannot be read as an audit ({exc})"
    if not isinstance(data, dict) or data.get("schema") != artefacts.AUDIT.schema:
        return None, path, f"{path} is not a {artefacts.AUDIT.schema} report"
    return data, path, ""


def _rules(data: Mapping[str, Any]) -> dict[str, str]:
    return {str(r.get("id")): str(r.get("outcome")) for r in data.get("rules") or ()
            if isinstance(r, Mapping)}


def _faults(data: Mapping[str, Any]) -> Optional[dict[str, bool]]:
    rows = data.get("faults")
    if rows is None:
        return None
    return {str(f.get("fault")): bool(f.get("detected")) for f in rows if isinstance(f, Mapping)}


def _figure(value) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return "none" if value is None else str(value)


def compare(committed: Mapping[str, Any], run: Mapping[str, Any]) -> dict[str, Any]:
    """The run's verdicts against the committed audit's: ``same`` or ``differs``, each
    difference in words, and what only one of them holds (not compared)."""
    differences: list[str] = []
    not_compared: list[str] = []
    before, now = _rules(committed), _rules(run)
    for rule_id in before.keys() | now.keys():
        if rule_id not in now:
            differences.append(f"rule {rule_id}: {before[rule_id]} there, not audited here")
        elif rule_id not in before:
            differences.append(f"rule {rule_id}: {now[rule_id]} here, not in the committed audit")
        elif before[rule_id] != now[rule_id]:
            differences.append(f"rule {rule_id}: {before[rule_id]} there, {now[rule_id]} here")
    faults_before, faults_now = _faults(committed), _faults(run)
    if faults_before is not None and faults_now is not None:
        for name in faults_before.keys() | faults_now.keys():
            if name not in faults_now or name not in faults_before:
                where = "here" if name in faults_now else "there"
                differences.append(f"seeded fault {name}: run {where} only")
            elif faults_before[name] != faults_now[name]:
                said = {True: "detected", False: "missed"}
                differences.append(f"seeded fault {name}: {said[faults_before[name]]} there, "
                                   f"{said[faults_now[name]]} here")
    elif faults_before is not None or faults_now is not None:
        not_compared.append("seeded faults (run " + ("there" if faults_before is not None
                                                     else "here") + " only)")
    s_before, s_now = committed.get("summary") or {}, run.get("summary") or {}
    for key in FIGURES:
        a, b = s_before.get(key), s_now.get(key)
        if a is None and b is None:
            continue
        if a is None or b is None:
            not_compared.append(f"{key} (measured {'here' if a is None else 'there'} only)")
        elif a != b and not (key == "fault_detection" and faults_now is None):
            differences.append(f"{key}: {_figure(a)} there, {_figure(b)} here")
    if (committed.get("mutation") is None) != (run.get("mutation") is None):
        not_compared.append("mutation testing (run " + ("here" if committed.get("mutation") is None
                                                        else "there") + " only)")
    elif committed.get("mutation") is not None and \
            s_before.get("mutation_score") != s_now.get("mutation_score"):
        differences.append(f"mutation_score: {_figure(s_before.get('mutation_score'))} there, "
                           f"{_figure(s_now.get('mutation_score'))} here")
    stale = committed.get("code_hash") != run.get("code_hash")
    return {"verdicts": "differs" if differences else "same", "differences": sorted(differences),
            "not_compared": not_compared, "code_hash_committed": committed.get("code_hash"),
            "code_hash_run": run.get("code_hash"), "stale": stale}


def weaker_than_committed(path: Path, committed: Mapping[str, Any],
                          run: Mapping[str, Any]) -> Optional[str]:
    """Why the run's audit ``run`` may not replace the committed one at ``path`` (what it holds
    less of), or None when it is not weaker."""
    from alignment import cli_checks
    from alignment.audit.command import audit_measures

    try:
        cli_checks.check_not_weaker(path, audit_measures(dict(committed)),
                                    audit_measures(dict(run)), what="audit")
    except cli_checks.ReplaceRefused as err:
        # the check's advice names the audit command's options; a run's is said by the caller
        return str(err).split("; pass ", 1)[0]
    return None
