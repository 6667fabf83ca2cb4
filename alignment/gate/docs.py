"""The docs' tables against the artefacts they are made from (:mod:`alignment.doc_tables`): a
figure edited by hand in a generated block, or a block the artefacts have moved past, fails the
gate; with a base, a generated block removed (its figures would no longer be checked) fails too.
Returns data: the problems, in words."""

from __future__ import annotations

from pathlib import Path
from typing import Optional


def problems(root: Path, then=None, base: Optional[str] = None) -> list[str]:
    """``then``: the base's :class:`~alignment.gate.core.Artefacts` (None: no comparison)."""
    from alignment import doc_tables

    out = [f"docs tables: {p}" for p in doc_tables.readme_tables_stale(Path(root))]
    if then is None:
        return out
    for doc in doc_tables.DOCUMENTS:
        old = then.read(doc)
        if old is None:
            continue
        path = Path(root) / doc
        try:
            before = {name for name, _, _ in doc_tables._blocks(old, doc)}
            after = ({name for name, _, _ in doc_tables._blocks(path.read_text(), doc)}
                     if path.exists() else set())
        except doc_tables.DocTablesError:
            continue  # the stale check above names an unreadable marker
        out += [f"docs tables: {doc}: the generated block {name} was removed against {base} "
                f"(its figures would no longer be checked against the artefacts)"
                for name in sorted(before - after)]
    return out
