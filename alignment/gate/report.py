"""The gate's table and markdown (the sticky pull-request comment), and writing it atomically."""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from alignment import atomic
from alignment.gate.core import GameVerdict
from alignment.gate.figures import AUDIT_FIGURES

TABLE_HEADER = ["game", "coverage", "recall", "precision", "fault detection", "mutation score",
                "playtest", "stress", "result"]
# The first line of the comment: the workflow finds its own earlier comment by it and edits it.
STICKY_MARKER = "<!-- jaxtari-align fidelity gate -->"


def _fmt(value: Optional[float], threshold: Optional[float] = None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" + ("" if threshold is None else f" (≥ {threshold:.2f})")


def table_rows(verdicts: Sequence[GameVerdict]) -> list[list[str]]:
    rows = []
    for v in verdicts:
        t = v.thresholds
        rows.append([v.game, *[_fmt(v.figures[k], getattr(t, k)) for k in AUDIT_FIGURES],
                     _fmt(v.figures["mutation_score"], t.mutation_score
                          if v.figures["mutation_score"] is not None else None),
                     v.playtest, v.stress, "pass" if v.passed else "FAIL"])
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(verdicts: Sequence[GameVerdict], *, base: Optional[str] = None,
             commit: Optional[str] = None, artefact_problems: Sequence[str] = (),
             protected: Sequence[str] = ()) -> str:
    failed = [v for v in verdicts if not v.passed]
    failing = [v.game for v in failed] + (["artefacts"] if artefact_problems else [])
    title = "passed" if not failing else f"failed for {', '.join(failing)}"
    lines = [STICKY_MARKER, f"## Fidelity gate: {title}", ""]
    if base:
        lines += [f"Compared with `{base}`: a figure that dropped fails even above its threshold.", ""]
    if commit:
        lines += [f"Commit `{commit}`; the figures are recomputed from the artefacts' rows.", ""]
    lines += ["| " + " | ".join(TABLE_HEADER) + " |", "|" + "---|" * len(TABLE_HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(verdicts)]
    for v in failed:
        lines += ["", f"**{v.game}** fails:", ""] + [f"- {reason}" for reason in v.failures]
        lines += [f"- {note}" for note in v.notes if note.startswith("rules failing")]
    if protected:
        lines += ["", "**This change edits what protects the gate** (CODEOWNERS asks their owners "
                      "to review; the gate ran from the base branch's code):", ""]
        lines += [f"- `{path}`" for path in protected]
    for v in verdicts:
        if v.weakenings:
            allowed = sum(reason is not None for _, _, reason in v.weakenings)
            lines += ["", f"**{v.game}**: weaker than the base in {len(v.weakenings)} item(s), "
                          f"{allowed} with a reason this change gives (reviewer: judge each "
                          f"one):", "", "| item | what | reason |", "|---|---|---|"]
            lines += [f"| `{key}` | {_cell(what)} | "
                      f"{_cell(reason) if reason else '**none: fails**'} |"
                      for key, what, reason in v.weakenings]
    for v in verdicts:
        if v.unaudited:
            lines += ["", f"**{v.game}**: mods without an audit of the modified game "
                          f"(fidelity.toml `[unaudited_mods.{v.game}]`):", ""]
            lines += [f"- `{mod}`: {why}" for mod, why in sorted(v.unaudited.items())]
    notes = [(v.game, n) for v in verdicts for n in v.notes]
    if notes:
        lines += ["", "Notes:", ""] + [f"- {g}: {n}" for g, n in notes]
    text = "\n".join(lines) + "\n"
    if artefact_problems:
        text += ("\n**Committed artefacts or the docs' tables differ from what the code and the "
                 "artefacts produce** (the re-made ones are in the workflow's artifact; "
                 "`jaxtari-align docs-tables` rewrites the tables):\n\n"
                 + "\n".join(f"- {p}" for p in artefact_problems) + "\n")
    return text


def write(verdicts: Sequence[GameVerdict], path: Path, **options) -> Path:
    """Write the markdown of :func:`markdown` (same ``options``) to ``path`` atomically."""
    return atomic.write_text(Path(path), markdown(verdicts, **options))
