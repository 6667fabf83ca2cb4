"""Replay reports (markdown + JSON, written atomically) and the summaries ``list``/``show`` print."""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Sequence

from alignment import artefacts, atomic
from alignment.playtest.core import ReplayResult
from alignment.provenance import PLAYTEST_STACK, versions
from alignment.playtest.session import Session

SCHEMA = artefacts.PLAYTEST_REPLAY.schema


def status(r: ReplayResult) -> str:
    if r.error:
        return "error"
    return "pass" if r.passed else "FAIL"


def detail(r: ReplayResult) -> str:
    """One line saying why a session failed (or what to know about a pass)."""
    parts = []
    if r.error:
        parts.append(r.error)
    if r.failure:
        parts.append(r.failure.describe())
    if r.read_problem:
        parts.append(f"unreadable from line {r.read_problem.line} ({r.read_problem.message}); "
                     f"the {r.frames} frames before it were replayed")
    parts.extend(r.notes)
    return "; ".join(parts)


def to_json(results: Sequence[ReplayResult]) -> dict:
    return {
        "schema": SCHEMA,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "versions": versions(PLAYTEST_STACK),
        "passed": all(r.passed for r in results),
        "sessions": [r.to_json() for r in results],
    }


def to_markdown(results: Sequence[ReplayResult]) -> str:
    lines = ["# Playtest replay", "",
             f"{sum(r.passed for r in results)} of {len(results)} sessions replay clean.", "",
             "| session | game | frames | result | detail |", "|---|---|---:|---|---|"]
    for r in results:
        lines.append(f"| {r.path.name} | {r.game or '?'} | {r.frames}/{r.recorded_frames} | "
                     f"{status(r)} | {detail(r).replace('|', '/')} |")
    for r in results:
        if len(r.differences) > 1:
            lines += ["", f"## {r.path.name}: every signal that replays differently", ""]
            lines += [f"- {d.describe()} ({d.frames_differing} frames)" for d in r.differences]
    return "\n".join(lines) + "\n"


def write(results: Sequence[ReplayResult], out_dir: Path, name: str = "replay") -> tuple[Path, Path]:
    """``<out_dir>/<name>.json`` and ``.md``, written as one unit (both new or both old)."""
    paths = atomic.write_files(out_dir, {f"{name}.json": json.dumps(to_json(results), indent=2) + "\n",
                                         f"{name}.md": to_markdown(results)})
    return paths[f"{name}.json"], paths[f"{name}.md"]


def session_summary(s: Session) -> dict:
    """What ``playtest list`` and ``show`` print about one session."""
    h = s.header
    first = s.first_divergence()
    diverged: dict[str, int] = {}
    for f in s.frames:
        for k in f.get("diverged", ()):
            diverged[k] = diverged.get(k, 0) + 1
    return {
        "path": str(s.path), "session_id": h.get("session_id"), "game": h.get("game"),
        "player": h.get("player", {}), "started": h.get("started"), "seed": h.get("seed"),
        "mode": h.get("mode"), "mods": h.get("mods", []), "frames": s.ticks,
        "episodes": len(s.episodes()), "ended": (s.end or {}).get("reason", "no end record (killed?)"),
        "finished": s.end is not None,
        "marks": s.marks, "code_hash": h.get("code_hash"),
        "first_divergence": None if first is None else {
            "tick": first["tick"], "signals": first.get("diverged", []),
            "ale": {k: first["ale"].get(k) for k in first.get("diverged", [])},
            "jax": {k: first["jax"].get(k) for k in first.get("diverged", [])}},
        "frames_diverged_by_signal": diverged,
        "read_problem": str(s.problem) if s.problem else None,
    }
