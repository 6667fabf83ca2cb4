"""What a committed robustness report says for the gate: a mod whose JAX and ALE PC differ by
more than the margin (the stress stage's "different") is a failure, like a stress verdict of
"different". Reads the report through its schema (:mod:`alignment.robustness.schema`)."""

from __future__ import annotations

import json
from pathlib import Path

from alignment.robustness.schema import SchemaError, check


def failures(report: dict) -> list[str]:
    """One line per mod whose modified games differ (JAX PC vs ALE PC beyond the margin)."""
    r = check(report)
    return [f"{r.game} {mod}: JAX and ALE PC differ beyond the margin ±{c.margin:g} ({c.detail})"
            for mod, c in sorted(r.comparison.items()) if c.label == "different"]


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
