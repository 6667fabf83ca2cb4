"""``specs/<game>.yaml``: reading, writing (atomic, stable, block style) and merging with reviews.

The YAML keeps the model's field order (game, sources, actions, ..., rules), one key per line in
block style, so a review shows up as a small diff. Writing goes through a temporary file in the
same directory and ``os.replace``, so a crash never leaves half a spec. Re-extracting a game whose
spec holds reviewed (or rejected) rules keeps those rules and adds only new extracted candidates
that do not overlap them; ``force`` discards the reviews and writes the fresh extraction.

When a document changed under a reviewed rule, the review follows its text: the cited passage (known
by its length and sha256) is looked for in the new text and the span moved there. A rule whose
passage is gone is kept as ``stale`` with a note, for a person to re-review; it is never dropped.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any, Mapping, Optional

import yaml
from pydantic import ValidationError

from alignment.docs.document import Document, sha256_text
from alignment.spec.schema import GameSpec, Rule, SourceRef, span_problem

KEPT_STATUSES = ("reviewed", "rejected", "stale")


class SpecFileError(ValueError):
    """A spec file that cannot be read or does not validate; the message names file and place."""


class _Dumper(yaml.SafeDumper):
    """Block style everywhere; multi-line strings as literal blocks."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str_representer)


def spec_path(out_dir: os.PathLike | str, game: str) -> Path:
    return Path(out_dir) / f"{game}.yaml"


def yaml_text(data: Any) -> str:
    """Plain data as YAML in the spec files' style (block style, literal multi-line strings)."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, default_flow_style=False,
                     allow_unicode=True, width=100, indent=2)


def dump_yaml(spec: GameSpec) -> str:
    data = spec.model_dump(mode="json", exclude_none=True)
    header = (
        f"# Rule specification of {spec.title or spec.game}, written by `jaxtari-align spec`.\n"
        "# Statements are in the project's words; each source span cites the documents verbatim.\n"
    )
    return header + yaml.dump(data, Dumper=_Dumper, sort_keys=False, default_flow_style=False,
                              allow_unicode=True, width=100, indent=2)


def _format_validation(err: ValidationError, where: str) -> str:
    lines = [f"{where} does not match the spec schema:"]
    for e in err.errors()[:12]:
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e["loc"]).lstrip(".")
        msg = e["msg"].removeprefix("Value error, ")
        lines.append(f"  - {loc or '(top level)'}: {msg}")
    if len(err.errors()) > 12:
        lines.append(f"  ... and {len(err.errors()) - 12} more")
    lines.append("Fix the file by hand, or re-extract it with `jaxtari-align spec GAME --force`.")
    return "\n".join(lines)


# A spec is a few levels deep (rules -> probe -> steps -> poke); far deeper nesting is not a spec
# and would otherwise end in a RecursionError inside the parser or the validator.
MAX_YAML_DEPTH = 32


class _StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader that refuses a key given twice in one mapping (PyYAML keeps the last:
    a second ``rules:`` silently drops every rule of the first) and nesting past MAX_YAML_DEPTH."""

    def compose_node(self, parent, index):
        self._depth = getattr(self, "_depth", 0) + 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.constructor.ConstructorError(
                    None, None, f"nested deeper than {MAX_YAML_DEPTH} levels", mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<:` merges may override: PyYAML's own semantics
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:
                continue  # an unhashable key: PyYAML's own error follows
            if first is not None:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} appears twice (lines {first + 1} and "
                    f"{key_node.start_mark.line + 1}); keep one", key_node.start_mark)
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


def strict_yaml_load(text: str):
    """``yaml.safe_load`` that refuses duplicate keys and runaway nesting (a YAMLError)."""
    loader = _StrictLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def parse_yaml(text: str, *, where: str = "spec",
               documents: Optional[Mapping[str, Document]] = None) -> GameSpec:
    try:
        data = strict_yaml_load(text)
    except RecursionError:
        raise SpecFileError(f"{where} is nested too deeply to be a spec (the bound is "
                            f"{MAX_YAML_DEPTH} levels)") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        pos = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(err, "problem", None) or str(err)
        raise SpecFileError(f"{where} is not valid YAML{pos}: {problem}") from None
    if not isinstance(data, dict):
        raise SpecFileError(f"{where} must hold a mapping (game:, sources:, rules:, ...), "
                            f"not {type(data).__name__}")
    try:
        context = {"documents": dict(documents)} if documents is not None else None
        return GameSpec.model_validate(data, context=context)
    except ValidationError as err:
        raise SpecFileError(_format_validation(err, where)) from None


def load_spec(path: os.PathLike | str, *,
              documents: Optional[Mapping[str, Document]] = None) -> GameSpec:
    """Read and validate a spec; with ``documents``, every span is checked against them."""
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise SpecFileError(f"no spec at {path}; create it with `jaxtari-align spec GAME`") from None
    except (OSError, UnicodeDecodeError) as err:
        raise SpecFileError(f"cannot read {path}: {err}") from None
    return parse_yaml(text, where=str(path), documents=documents)


def write_spec(spec: GameSpec, path: os.PathLike | str) -> Path:
    """Write atomically (temp file in the same directory, then ``os.replace``). A file that already
    holds this very spec is left as it is: a reviewer's own line wrapping survives a rerun that
    changes nothing, and the game's code hash (which covers the spec's bytes) does not move."""
    from alignment import atomic

    path = Path(path)
    if _holds(path, spec):
        return path
    return atomic.write_text(path, dump_yaml(spec))


def _holds(path: Path, spec: GameSpec) -> bool:
    """Whether ``path`` is a readable, valid spec file whose content equals ``spec``."""
    try:
        existing = parse_yaml(path.read_text("utf-8"), where=str(path))
    except (OSError, UnicodeDecodeError, SpecFileError):
        return False
    return (existing.model_dump(mode="json", exclude_none=True)
            == spec.model_dump(mode="json", exclude_none=True))


def write(result) -> Path:
    """The spec stage's writer: store a :class:`alignment.spec.core.SpecResult` at its path."""
    return write_spec(result.spec, result.path)


# --------------------------------------------------------------------------------------------------
# Merging a fresh extraction with a reviewed spec


@dataclasses.dataclass
class MergeResult:
    spec: GameSpec
    kept: list[str]  # ids of reviewed/rejected rules carried over
    added: list[str]  # ids of new extracted rules
    skipped: list[str]  # ids of extracted candidates already covered by a kept rule
    discarded_reviews: int  # reviewed/rejected rules dropped because of force
    reanchored: list[str] = dataclasses.field(default_factory=list)  # spans moved with their text
    stale: list[str] = dataclasses.field(default_factory=list)  # cited text gone: re-review


def _overlaps(a: Rule, b: Rule) -> bool:
    """Whether two rules cite overlapping text (a reviewed rule covers any candidate it overlaps)."""
    if a.source is None or b.source is None or a.source.document != b.source.document:
        return False
    return a.source.start < b.source.end and b.source.start < a.source.end


def find_passage(ref: SourceRef, document: Document) -> Optional[SourceRef]:
    """Where the passage ``ref`` cites now stands in ``document`` (same length and sha256), or None.

    Of several occurrences the one nearest the old offset wins.
    """
    length = ref.end - ref.start
    text = document.text
    best: Optional[int] = None
    for start in range(0, len(text) - length + 1):
        if sha256_text(text[start:start + length]) == ref.sha256:
            if best is None or abs(start - ref.start) < abs(best - ref.start):
                best = start
    if best is None:
        return None
    return ref.model_copy(update={"start": best, "end": best + length})


def _follow_documents(rules: list[Rule], documents: Mapping[str, Document]
                      ) -> tuple[list[Rule], list[str], list[str]]:
    """Kept rules with their spans moved to where their text now is, or marked stale."""
    out, moved, stale = [], [], []
    for rule in rules:
        if rule.source is None or rule.status == "stale" or not span_problem(rule.source, documents):
            out.append(rule)
            continue
        doc = documents.get(rule.source.document)
        found = find_passage(rule.source, doc) if doc is not None else None
        if found is not None:
            out.append(rule.model_copy(update={"source": found}))
            moved.append(rule.id)
        else:
            was = rule.status
            note = (f"re-review: the text this {was} rule cited ({rule.source.document} "
                    f"[{rule.source.start}, {rule.source.end})) is no longer in the document")
            out.append(rule.model_copy(update={
                "status": "stale", "note": note + (f"; earlier note: {rule.note}" if rule.note else "")}))
            stale.append(rule.id)
    return out, moved, stale


def merge(fresh: GameSpec, existing: Optional[GameSpec], *, force: bool = False,
          documents: Optional[Mapping[str, Document]] = None) -> MergeResult:
    """The spec to write: ``fresh``, keeping ``existing``'s reviewed, rejected and stale rules."""
    if existing is None or force:
        discarded = 0 if existing is None else sum(r.status in KEPT_STATUSES for r in existing.rules)
        return MergeResult(fresh, [], [r.id for r in fresh.rules], [], discarded)
    kept = [r for r in existing.rules if r.status in KEPT_STATUSES]
    moved: list[str] = []
    stale: list[str] = []
    if documents is not None and kept:
        kept, moved, stale = _follow_documents(kept, documents)
    kept_ids = {r.id for r in kept}
    added, skipped = [], []
    for rule in fresh.rules:
        if rule.id in kept_ids or any(_overlaps(rule, k) for k in kept if k.status != "stale"):
            skipped.append(rule.id)
        else:
            added.append(rule)
    sources = list(fresh.sources)
    fresh_ids = {s.id for s in sources}
    cited = {r.source.document for r in kept if r.source is not None}
    sources += [s for s in existing.sources if s.id in cited and s.id not in fresh_ids]
    data: dict[str, Any] = fresh.model_dump()
    data["sources"] = [s.model_dump() for s in sources]
    data["rules"] = [r.model_dump() for r in kept + added]
    # Save points were found on the emulator, not extracted: the reviewed spec's stay.
    data["save_points"] = {k: v.model_dump() for k, v in existing.save_points.items()}
    if kept and (not added or existing.extractor == fresh.extractor):
        data["extractor"] = existing.extractor  # the reviewed spec's history stays as it was
    elif kept:
        data["extractor"] = f"{existing.extractor}; new candidates: {fresh.extractor}"
    context = {"documents": dict(documents)} if documents is not None else None
    spec = GameSpec.model_validate(data, context=context)
    return MergeResult(spec, [r.id for r in kept], [r.id for r in added], skipped, 0,
                       reanchored=moved, stale=stale)
