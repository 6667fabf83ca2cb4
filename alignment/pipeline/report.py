"""The run report: one markdown and one JSON file per run, written atomically under the reports dir."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from alignment import atomic
from alignment.pipeline.state import STAGES


def stage_rows(state: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(stage, status, detail) for every stage of the run, "not reached" where it did not run."""
    rows = []
    for stage in STAGES[:-1]:
        outcome = state.get(stage) or {}
        rows.append((stage, outcome.get("status", "not reached"), outcome.get("detail", "")))
    return rows


def markdown(state: Mapping[str, Any]) -> str:
    game, run_id = state.get("game", "?"), state.get("run_id", "?")
    lines = [f"# Pipeline run {run_id} ({game})", "", "| stage | status | detail |", "|---|---|---|"]
    for stage, status, detail in stage_rows(state):
        lines.append(f"| {stage} | {status} | {detail.replace('|', '/')} |")
    audit = state.get("audit") or {}
    against = audit.get("committed") or {}
    if audit.get("path"):
        lines += ["", "## The run's audit", "",
                  " and ".join(f"`{f}`" for f in audit.get("files") or [audit["path"]]) + ": "
                  + (against.get("said") or "not compared with a committed audit") + "."]
        lines += [f"- differs: {d}" for d in against.get("differences") or ()]
        if against.get("not_compared"):
            lines.append(f"- not compared: {', '.join(against['not_compared'])}")
        if against.get("kept"):
            lines += ["", against["kept"] + "."]
    sessions = (state.get("playtest") or {}).get("sessions") or []
    failed = [s for s in sessions if not s.get("passed")]
    if failed:
        lines += ["", "## Playtest sessions that no longer replay", ""]
        lines += [f"- `{s['path']}`: {s.get('failure')}" for s in failed]
    decisions = state.get("decisions") or {}
    if decisions:
        lines += ["", "## Review decisions", ""]
        lines += [f"- `{rule_id}`: {verdict}" for rule_id, verdict in sorted(decisions.items())]
    if state.get("errors"):
        lines += ["", "## Errors", ""] + [f"- {e}" for e in state["errors"]]
    return "\n".join(lines) + "\n"


def write_run_report(state: Mapping[str, Any], reports_dir: Path) -> Path:
    run_id = state.get("run_id") or "run"
    data = {k: v for k, v in state.items() if k != "settings"}
    paths = atomic.write_files(reports_dir, {
        f"{run_id}.json": json.dumps(data, indent=2, default=str) + "\n",
        f"{run_id}.md": markdown(state)})
    return paths[f"{run_id}.md"]
