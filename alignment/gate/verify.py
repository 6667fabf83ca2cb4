"""Committed artefacts against what the code produces now (CI's ``gate --verify-artefacts DIR``).

CI re-makes the audits into ``DIR/audits/`` (``jaxtari-align audit GAME --out DIR/audits``); each
is compared with the committed ``audits/<game>.json`` and ``.md``, ignoring only what cannot be
reproduced: times (the creation timestamp, how long the exploration took), and the "changed since"
section (a comparison with whichever report it was made against, not a product of the code). Stress reports cannot be retrained in CI;
their statistics, verdict and markdown are re-made from the committed per-seed returns
(:mod:`alignment.stress.remake`) and must come out identical. Returns data: the differences.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Iterator

AUDIT_IGNORED = ("created", "changed_since")  # top-level keys
TIME_KEYS = ("seconds", "elapsed_s", "wall_seconds")  # durations, at any depth
SPANS_NOT_CHECKED = "not checked"  # the audit's value when no corpus was given
MAX_SHOWN = 5  # differences named per file; the count says how many more
_CREATED = re.compile(r"Created \S+;")
_CHANGED = re.compile(r"^## Changed since .*?(?=^## )", re.S | re.M)
_DURATION = re.compile(r"\bin [0-9.]+ s\b")
_SPANS = re.compile(r"spans (?:checked against \S+|not checked)\.")


def differences(a: Any, b: Any, path: str = "") -> Iterator[str]:
    """Paths where two JSON values differ (committed ``a``, produced ``b``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted((set(a) | set(b)) - set(TIME_KEYS)):
            where = f"{path}.{k}" if path else k
            if k not in b:
                yield f"{where}: committed, not produced"
            elif k not in a:
                yield f"{where}: produced, not committed"
            else:
                yield from differences(a[k], b[k], where)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            yield f"{path}: {len(a)} committed items, {len(b)} produced"
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, f"{path}[{i}]")
    elif type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                         and not isinstance(a, bool) and not isinstance(b, bool)):
        yield f"{path}: committed {a!r}, produced {b!r}"
    elif a != b and not (isinstance(a, float) and isinstance(b, float) and math.isnan(a)
                         and math.isnan(b)):
        yield f"{path}: committed {a!r}, produced {b!r}"


def _summarise(rel: str, diffs: list[str]) -> list[str]:
    if not diffs:
        return []
    more = f" (and {len(diffs) - MAX_SHOWN} more)" if len(diffs) > MAX_SHOWN else ""
    return [f"{rel} differs from what the code produces: " + "; ".join(diffs[:MAX_SHOWN]) + more]


def audit_markdown_key(text: str, spans_unchecked: bool = False) -> str:
    key = _DURATION.sub("in - s", _CHANGED.sub("", _CREATED.sub("Created -;", text)))
    return _SPANS.sub("spans -.", key) if spans_unchecked else key


def _align_unchecked_spans(committed: dict, produced: dict) -> None:
    """A runner without the documents corpus re-makes the audit with the spans "not checked"; the
    span check is a property of the spec and the corpus, not of the code, and the gate cannot redo
    it there, so only that one field is taken from the committed report. Every rule row, figure,
    mutant and exploration result is still compared."""
    made, kept = produced.get("spec"), committed.get("spec")
    if (isinstance(made, dict) and isinstance(kept, dict)
            and made.get("spans") == SPANS_NOT_CHECKED and isinstance(kept.get("spans"), str)):
        made["spans"] = kept["spans"]


def verify_audits(regenerated: Path, root: Path = Path(".")) -> tuple[list[str], list[str]]:
    """(problems, games compared) for every ``regenerated/audits/<game>.json``."""
    problems, games = [], []
    for made in sorted((Path(regenerated) / "audits").glob("*.json")):
        game = made.stem
        games.append(game)
        rel = f"audits/{game}.json"
        committed = Path(root) / rel
        if not committed.is_file():
            problems.append(f"{rel} is not committed, but the code makes one: commit it")
            continue
        a = json.loads(committed.read_text("utf-8"))
        b = json.loads(made.read_text("utf-8"))
        unchecked = (b.get("spec") or {}).get("spans") == SPANS_NOT_CHECKED
        for key in AUDIT_IGNORED:
            a.pop(key, None)
            b.pop(key, None)
        _align_unchecked_spans(a, b)
        problems += _summarise(rel, list(differences(a, b)))
        md_made, md_committed = made.with_suffix(".md"), committed.with_suffix(".md")
        if md_made.is_file() and (not md_committed.is_file() or audit_markdown_key(
                md_committed.read_text("utf-8"), unchecked) != audit_markdown_key(
                md_made.read_text("utf-8"), unchecked)):
            problems.append(f"audits/{game}.md differs from what the code produces (timestamps "
                            "and the changed-since section aside)")
    return problems, games


def verify_stress(root: Path = Path("."), out: Path | None = None) -> tuple[list[str], list[str]]:
    """(problems, reports compared): each committed stress JSON re-made from its per-seed returns
    must equal the committed JSON and markdown. ``out``: where to write the re-made files."""
    from alignment.stress import report as stress_report
    from alignment.stress.remake import RemakeError, remake

    problems, names = [], []
    for path in sorted((Path(root) / "stress").glob("*.json")):
        if path.name.endswith("-transfer.json"):
            continue  # stage 4's transfer report (its own schema): not a learning-curve report
        rel = f"stress/{path.name}"
        names.append(rel)
        doc = json.loads(path.read_text("utf-8"))
        if not (doc.get("statistics") or {}).get("random_policy"):
            problems.append(f"{rel} records no random-policy return: re-make it with "
                            f"`jaxtari-align stress-remake {rel}`")
            continue
        try:
            result = remake(path)
        except (RemakeError, KeyError, TypeError, ValueError) as err:
            problems.append(f"{rel} cannot be re-made from its per-seed returns: {err}")
            continue
        made = stress_report.to_json(result)
        problems += _summarise(rel, list(differences(doc, json.loads(json.dumps(made)))))
        md = stress_report.to_markdown(result, made)
        committed_md = path.with_suffix(".md")
        if not committed_md.is_file() or committed_md.read_text("utf-8") != md:
            problems.append(f"stress/{committed_md.name} differs from the markdown its JSON makes")
        if out is not None:
            stress_report.write(result, Path(out) / "stress")
    return problems, names
