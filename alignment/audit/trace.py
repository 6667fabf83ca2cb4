"""Traceability: which code implements each rule, read from tags in the game's comments.

A game's source cites the rules it implements in comments, where the mechanic lives::

    block_points: int = 10  # rule: scoring.ice-block
    # rule: lives.bonus-every-5000, scoring.degree-bonus
    def bonus(self, state): ...

and marks what no document states but the emulator showed with ``measured:`` and how it was
measured::

    serve_delay: int = 63  # measured: RAM 11 counts 63 frames from a point to the serve

Tags are read from comment tokens only (never from strings or code), and nothing is executed. The
check runs both ways: a tag naming no rule of the spec (or a rejected one) is reported, and so is
a reviewed rule that no tag cites.

Structural precision (:func:`structure`) asks the same tags about every mechanic of the game (the
methods in ``Game.mechanics``) and every field of its ``Constants``: an item is justified when a
tag covers it - on its own line or in the comment lines right above it, anywhere in a mechanic's
body, or on the ``# ----`` section line a constant sits under.
"""

from __future__ import annotations

import dataclasses
import inspect
import io
import re
import tokenize
from pathlib import Path
from typing import Iterable, Optional

from alignment.audit.source import display_path
from alignment.spec.schema import GameSpec

RULE_TAG = re.compile(r"\brule:\s*(.+)$")
MEASURED_TAG = re.compile(r"\bmeasured:\s*(.+)$")
RULE_ID = re.compile(r"[a-z]+\.[a-z0-9]+(?:[-.][a-z0-9]+)*")
SECTION = re.compile(r"^\s*# ----")


@dataclasses.dataclass(frozen=True)
class Tag:
    kind: str  # "rule" or "measured"
    value: str  # the rule id, or the measurement's text
    file: Path
    line: int

    @property
    def at(self) -> str:
        return f"{display_path(self.file)}:{self.line}"


def read_tags(files: Iterable[Path]) -> list[Tag]:
    """Every ``rule:`` and ``measured:`` tag in the comments of ``files``."""
    tags: list[Tag] = []
    for path in files:
        text = Path(path).read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type != tokenize.COMMENT:
                continue
            line = tok.start[0]
            m = RULE_TAG.search(tok.string)
            if m:
                ids = RULE_ID.findall(m.group(1).split(" measured:")[0])
                tags += [Tag("rule", rid, Path(path), line) for rid in ids]
            m = MEASURED_TAG.search(tok.string)
            if m:
                tags.append(Tag("measured", m.group(1).strip(), Path(path), line))
    return tags


@dataclasses.dataclass
class Traceability:
    """Rule id -> where the code cites it; tags naming no rule; reviewed rules nothing cites."""

    locations: dict[str, list[str]]
    unknown_tags: list[dict]
    untraced: list[str]

    def to_json(self) -> dict:
        return {"unknown_tags": self.unknown_tags, "untraced_rules": self.untraced}


def trace(spec: GameSpec, tags: list[Tag]) -> Traceability:
    status = {r.id: r.status for r in spec.rules}
    locations: dict[str, list[str]] = {r.id: [] for r in spec.rules if r.status == "reviewed"}
    unknown = []
    for t in tags:
        if t.kind != "rule":
            continue
        if t.value not in status:
            unknown.append({"tag": t.value, "at": t.at, "problem": "names no rule of the spec"})
        elif status[t.value] == "rejected":
            unknown.append({"tag": t.value, "at": t.at, "problem": "names a rejected rule"})
        elif t.value in locations:
            locations[t.value].append(t.at)
    untraced = [rid for rid, at in locations.items() if not at]
    return Traceability(locations, unknown, untraced)


# ---- structural precision ------------------------------------------------------------------------


@dataclasses.dataclass
class Item:
    """A mechanic or a constant of the game, and what justifies it."""

    kind: str  # "mechanic" or "constant"
    name: str
    at: str
    rules: list[str]
    measured: Optional[str]

    @property
    def justified(self) -> bool:
        return bool(self.rules) or bool(self.measured)

    def to_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "at": self.at, "rules": self.rules,
                "measured": self.measured, "justified": self.justified}


def _covering(tags: list[Tag], file: Path, lines: set[int], reviewed: set[str]) -> tuple[list, Optional[str]]:
    here = [t for t in tags if t.file == file and t.line in lines]
    rules = sorted({t.value for t in here if t.kind == "rule" and t.value in reviewed})
    measured = "; ".join(t.value for t in here if t.kind == "measured") or None
    return rules, measured


def _comment_block_above(source_lines: list[str], index: int) -> list[int]:
    """0-based indices of the comment-only lines directly above ``index`` (not section lines)."""
    out = []
    i = index - 1
    while i >= 0 and source_lines[i].lstrip().startswith("#") and not SECTION.match(source_lines[i]):
        out.append(i)
        i -= 1
    return out


def structure(game_cls, tags: list[Tag], reviewed: set[str]) -> list[Item]:
    """Every mechanic and Constants field of ``game_cls``, each with the tags that justify it."""
    items: list[Item] = []
    for name in game_cls.mechanics:
        fn = getattr(game_cls, name)
        file = Path(inspect.getsourcefile(fn)).resolve()
        src, first = inspect.getsourcelines(fn)
        whole = file.read_text(encoding="utf-8").splitlines()
        lines = set(range(first, first + len(src)))
        lines |= {i + 1 for i in _comment_block_above(whole, first - 1)}
        rules, measured = _covering(tags, file, lines, reviewed)
        items.append(Item("mechanic", name, f"{display_path(file)}:{first}", rules, measured))

    consts = game_cls.Constants
    file = Path(inspect.getsourcefile(consts)).resolve()
    src, first = inspect.getsourcelines(consts)
    section_line: Optional[int] = None
    field_names = {f.name for f in dataclasses.fields(consts)}
    for offset, text in enumerate(src):
        lineno = first + offset
        if SECTION.match(text):
            section_line = lineno
            continue
        m = re.match(r"^\s+([A-Za-z_][A-Za-z0-9_]*)\s*:", text)
        if not m or m.group(1) not in field_names:
            continue
        lines = {lineno} | {first + i for i in _comment_block_above(src, offset)}
        if section_line is not None:
            lines.add(section_line)
        rules, measured = _covering(tags, file, lines, reviewed)
        items.append(Item("constant", m.group(1), f"{display_path(file)}:{lineno}", rules, measured))
    return items
