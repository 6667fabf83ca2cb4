"""The structure of a Farama ALE page: make id, spaces, minimal action set, variants, flavors.

The page (Markdown source, or the rendered HTML after :func:`alignment.docs.text.html_to_text`) has a
summary table (Make / Action Space / Observation Space), an ``Actions`` section with an
``Index | Action`` table, a ``Variants`` table and a ``Difficulty and modes`` table. A page that lacks
the actions table, or whose tables do not parse, is a :class:`~alignment.docs.text.DocumentError`
naming the page and the line.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Optional

from alignment.docs.document import Document
from alignment.docs.text import DocumentError, Section, TableRow, pipe_tables, sections
from alignment.spec.schema import ALE_ACTION_NAMES, Flavors, Variant


@dataclasses.dataclass
class FaramaPage:
    title: str = ""
    make_id: str = ""
    make_row: Optional[TableRow] = None
    action_space_n: Optional[int] = None
    observation_space: str = ""
    observation_row: Optional[TableRow] = None
    actions: list[str] = dataclasses.field(default_factory=list)
    action_rows: list[TableRow] = dataclasses.field(default_factory=list)
    full_action_set: bool = False
    variants: list[Variant] = dataclasses.field(default_factory=list)
    variant_rows: list[TableRow] = dataclasses.field(default_factory=list)
    flavors: Optional[Flavors] = None
    flavor_row: Optional[TableRow] = None
    prose_sections: list[Section] = dataclasses.field(default_factory=list)


def _strip(cell: str) -> str:
    return cell.strip().strip("`").strip()


def parse_int_list(cell: str, doc: Document, line: int) -> list[int]:
    """``[0, 2]``, ``[0, ..., 7]``, ``[0, ..., 31, 128]`` -> the listed integers."""
    s = _strip(cell)
    if not (s.startswith("[") and s.endswith("]")):
        raise DocumentError(doc.id, f"expected a list like [0, 2] in the modes table, got {cell!r}",
                            line=line)
    items = [t.strip() for t in s[1:-1].split(",") if t.strip()]
    out: list[int] = []
    for i, item in enumerate(items):
        if item in ("...", "\u2026"):
            if not out or i + 1 >= len(items) or not items[i + 1].lstrip("-").isdigit():
                raise DocumentError(doc.id, f"a '...' range in {cell!r} needs numbers on both sides",
                                    line=line)
            out.extend(range(out[-1] + 1, int(items[i + 1])))
            continue
        if not item.lstrip("-").isdigit():
            raise DocumentError(doc.id, f"{item!r} in {cell!r} is not an integer", line=line)
        out.append(int(item))
    return out


def _section(secs: list[Section], *names: str) -> Optional[Section]:
    for s in secs:
        if s.title.strip().lower() in names:
            return s
    return None


def parse_farama(doc: Document) -> FaramaPage:
    text = doc.text
    secs = sections(text)
    page = FaramaPage()
    title = next((s for s in secs if s.level == 1 and s.title), None)
    page.title = title.title if title else ""

    for table in pipe_tables(text):
        for row in table:
            if len(row.cells) < 2:
                continue
            key, value = _strip(row.cells[0]).lower(), _strip(row.cells[1])
            if key == "make" and not page.make_id:
                m = re.search(r"make\(\s*[\"']([^\"']+)[\"']", value)
                page.make_id = m.group(1) if m else value
                page.make_row = row
            elif key == "action space" and page.action_space_n is None:
                m = re.fullmatch(r"Discrete\((\d+)\)", value)
                if not m:
                    raise DocumentError(doc.id, f"action space {value!r} is not Discrete(n)",
                                        line=row.line)
                page.action_space_n = int(m.group(1))
            elif key == "observation space" and not page.observation_space:
                page.observation_space = value
                page.observation_row = row

    actions_sec = _section(secs, "actions")
    if actions_sec is None:
        raise DocumentError(
            doc.id, "has no 'Actions' section", hint="is this a Farama ALE environment page?"
        )
    tables = [t for t in pipe_tables(text, actions_sec.body_start, actions_sec.end)
              if t and [c.lower() for c in map(_strip, t[0].cells)][:2] == ["index", "action"]]
    if not tables:
        line = text.count("\n", 0, actions_sec.start) + 1
        raise DocumentError(doc.id, "the Actions section has no 'Index | Action' table", line=line)
    rows = tables[0][1:]
    for expected, row in enumerate(rows):
        if len(row.cells) < 2:
            raise DocumentError(doc.id, f"action row {row.cells!r} has fewer than 2 cells",
                                line=row.line)
        index, name = _strip(row.cells[0]), _strip(row.cells[1]).upper()
        if not index.isdigit() or int(index) != expected:
            raise DocumentError(doc.id, f"action index {index!r} should be {expected}",
                                line=row.line, hint="the table must list indices 0, 1, 2, ...")
        if name not in ALE_ACTION_NAMES:
            raise DocumentError(doc.id, f"unknown ALE action {name!r}", line=row.line,
                                hint=f"expected one of {', '.join(ALE_ACTION_NAMES)}")
        page.actions.append(name)
    page.action_rows = rows
    if not rows:
        raise DocumentError(doc.id, "the actions table has no rows", line=tables[0][0].line)
    if page.action_space_n is not None and page.action_space_n != len(page.actions):
        raise DocumentError(
            doc.id, f"the actions table lists {len(page.actions)} actions but the action space is "
            f"Discrete({page.action_space_n})", line=rows[0].line,
        )
    body = text[actions_sec.body_start:actions_sec.end].lower()
    page.full_action_set = "uses the full set of actions" in body

    variants_sec = _section(secs, "variants")
    if variants_sec is not None:
        for table in pipe_tables(text, variants_sec.body_start, variants_sec.end):
            head = [c.lower() for c in map(_strip, table[0].cells)]
            if not head or not head[0].startswith("env-id"):
                continue
            for row in table[1:]:
                cells = [_strip(c) for c in row.cells]
                if len(cells) < 4:
                    raise DocumentError(doc.id, f"variant row {row.cells!r} has fewer than 4 cells",
                                        line=row.line)
                try:
                    rap = float(cells[3])
                except ValueError:
                    raise DocumentError(doc.id, f"repeat_action_probability {cells[3]!r} is not a "
                                        "number", line=row.line) from None
                page.variants.append(Variant(env_id=cells[0], obs_type=cells[1],
                                             frameskip=cells[2], repeat_action_probability=rap))
                page.variant_rows.append(row)

    modes_sec = _section(secs, "difficulty and modes")
    if modes_sec is not None:
        for table in pipe_tables(text, modes_sec.body_start, modes_sec.end):
            head = [c.lower() for c in map(_strip, table[0].cells)]
            if head[:1] != ["available modes"] or len(table) < 2:
                continue
            row = table[1]
            if len(row.cells) < 4:
                raise DocumentError(doc.id, "the modes table row needs 4 cells", line=row.line)
            try:
                page.flavors = Flavors(
                    modes=parse_int_list(row.cells[0], doc, row.line),
                    default_mode=int(_strip(row.cells[1])),
                    difficulties=parse_int_list(row.cells[2], doc, row.line),
                    default_difficulty=int(_strip(row.cells[3])),
                )
            except ValueError as err:
                if isinstance(err, DocumentError):
                    raise
                raise DocumentError(doc.id, f"modes table row does not parse: {err}",
                                    line=row.line) from None
            page.flavor_row = row

    page.prose_sections = [s for s in secs if s.title.strip().lower() in ("description", "reward")]
    return page
