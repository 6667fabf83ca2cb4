"""The rule specification of a game: pydantic models, span checks, and the JSON schema.

A spec (``specs/<game>.yaml``) says what a game does, in the project's own words, rule by rule. Each
rule drawn from a document cites the exact span it came from (document id, character offsets and the
sha256 of the span text). When a spec is validated together with its documents (pass
``context={"documents": {...}}`` to ``model_validate``, or call :func:`check_spans`), a span whose text
does not hash to the stored sha256 is rejected: an extractor that cannot point at a real span has
invented the rule.

A probe is data, never code: a seed, a start, ``{action, frames}`` steps and expectations over named
signals. Nothing in a spec is ever executed.
"""

from __future__ import annotations

import collections
import json
import re
from typing import Any, Literal, Mapping, Optional, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from alignment.actions import ACTION_NAMES as ALE_ACTION_NAMES
from alignment.docs.document import Document, sha256_text

SCHEMA_VERSION = 1

CATEGORIES: tuple[str, ...] = (
    "action", "physics", "scoring", "lives", "termination",
    "progression", "spawning", "timing", "rendering",
)
Category = Literal[
    "action", "physics", "scoring", "lives", "termination",
    "progression", "spawning", "timing", "rendering",
]
# "stale": a reviewed rule whose cited text is no longer in its document. It keeps its old span (which
# is no longer checked) until a person re-reviews it; nothing a person reviewed is ever dropped.
Status = Literal["extracted", "reviewed", "rejected", "stale"]
SourceKind = Literal["farama", "manual"]
Origin = Literal["document", "measured"]

# Comparison operators take a value; change operators compare the end of the probe with its start.
VALUE_OPS: tuple[str, ...] = ("==", "!=", "<", "<=", ">", ">=", "increases_by", "decreases_by")
CHANGE_OPS: tuple[str, ...] = ("increases", "decreases", "changes", "unchanged")
Op = Literal[
    "==", "!=", "<", "<=", ">", ">=",
    "increases", "decreases", "changes", "unchanged", "increases_by", "decreases_by",
]

RULE_ID_RE = re.compile(r"^([a-z]+)\.[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$")
SIGNAL_RE = re.compile(r"^[a-z][a-z0-9_]*$")
PARAM_RE = re.compile(r"^[a-z][a-z0-9_]*$")
SAVE_POINT_RE = re.compile(r"^[a-z][a-z0-9_-]*$")
GAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")

Number = Union[int, float]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


# --------------------------------------------------------------------------------------------------
# Sources and spans


class Source(_Model):
    """A document a spec was extracted from."""

    id: str = Field(description="document id, e.g. 'farama/frostbite', 'manual/frostbite'")
    kind: SourceKind
    url: str
    retrieved: str = Field(description="ISO date of retrieval, or 'corpus' for an offline copy")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of the document text used")
    copied_from: Optional[str] = Field(
        default=None, description="where the text copy came from when not fetched from url "
        "(an offline corpus file and its provenance)",
    )

    @classmethod
    def of(cls, document: Document) -> "Source":
        return cls(
            id=document.id, kind=document.kind, url=document.url,
            retrieved=document.retrieved, sha256=document.sha256, copied_from=document.origin or None,
        )


class SourceRef(_Model):
    """A character span of a document: ``text[start:end]`` hashes to ``sha256``."""

    document: str = Field(description="id of a document listed in the spec's sources")
    start: int = Field(ge=0)
    end: int = Field(gt=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of text[start:end]")

    @model_validator(mode="after")
    def _ordered(self) -> "SourceRef":
        if self.end <= self.start:
            raise ValueError(f"span end {self.end} must be after start {self.start}")
        return self

    def text(self, documents: Mapping[str, Document]) -> str:
        """The cited text, from the given documents (checked)."""
        problem = span_problem(self, documents)
        if problem:
            raise ValueError(problem)
        return documents[self.document].text[self.start:self.end]


def span_ref(document: Document, start: int, end: int) -> SourceRef:
    """A :class:`SourceRef` to ``document.text[start:end]`` (offsets checked)."""
    return SourceRef(
        document=document.id, start=start, end=end, sha256=sha256_text(document.span(start, end))
    )


def quote_ref(document: Document, quote: str, *, after: int = 0) -> Optional[SourceRef]:
    """The span of the first verbatim occurrence of ``quote`` at or after ``after``, or None.

    Whitespace is matched loosely (any run of spaces/newlines in the quote matches any run in the
    document), so a quote copied across a line break is still found; the span is the document's own
    text. Returns None when the quote is not in the document: the caller must not invent a span.
    """
    words = quote.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    match = re.compile(pattern).search(document.text, after)
    if match is None:
        return None
    return span_ref(document, match.start(), match.end())


def span_problem(ref: SourceRef, documents: Mapping[str, Document]) -> Optional[str]:
    """Why ``ref`` does not point at a real span of ``documents``, or None when it does."""
    doc = documents.get(ref.document)
    if doc is None:
        known = ", ".join(sorted(documents)) or "none"
        return f"span cites document {ref.document!r}, which is not among the sources ({known})"
    if ref.end > len(doc.text):
        return (
            f"span [{ref.start}, {ref.end}) runs past the end of document {ref.document!r} "
            f"(length {len(doc.text)})"
        )
    actual = sha256_text(doc.text[ref.start:ref.end])
    if actual != ref.sha256:
        line, col = doc.line_col(ref.start)
        return (
            f"span [{ref.start}, {ref.end}) of {ref.document!r} (line {line}, column {col}) hashes to "
            f"{actual[:12]}..., not the stored {ref.sha256[:12]}...: the cited text is not in the "
            "document (an invented rule, or the document changed; re-extract the spec)"
        )
    return None


def _context_documents(info: ValidationInfo) -> Optional[Mapping[str, Document]]:
    ctx = info.context
    if not isinstance(ctx, Mapping):
        return None
    docs = ctx.get("documents")
    if docs is None:
        return None
    if isinstance(docs, Mapping):
        return docs
    return {d.id: d for d in docs}


# --------------------------------------------------------------------------------------------------
# Probes


class ProbeStep(_Model):
    """Hold one ALE action for a number of emulator frames (60 Hz, frameskip 1)."""

    action: str = Field(description="ALE action name, e.g. 'NOOP', 'DOWN', 'UPFIRE'")
    frames: int = Field(ge=1, le=108_000)

    @field_validator("action")
    @classmethod
    def _known_action(cls, v: str) -> str:
        name = v.strip().upper()
        if name not in ALE_ACTION_NAMES:
            raise ValueError(
                f"unknown ALE action {v!r}; use one of: {', '.join(ALE_ACTION_NAMES)}"
            )
        return name


class Expectation(_Model):
    """A check on one signal at the end of the probe (change ops compare with its start)."""

    signal: str = Field(description="signal name from alignment.catalog, e.g. 'score', 'igloo_blocks'")
    op: Op
    value: Optional[Union[bool, int, float]] = None

    @field_validator("signal")
    @classmethod
    def _signal_name(cls, v: str) -> str:
        if not SIGNAL_RE.match(v):
            raise ValueError(f"signal name {v!r} must be lower_snake_case, e.g. 'igloo_blocks'")
        return v

    @model_validator(mode="after")
    def _value_matches_op(self) -> "Expectation":
        if self.op in VALUE_OPS and self.value is None:
            raise ValueError(f"expectation '{self.signal} {self.op}' needs a value")
        if self.op in CHANGE_OPS and self.value is not None:
            raise ValueError(
                f"expectation '{self.signal} {self.op}' compares the end with the start and takes "
                f"no value (got {self.value!r}); use increases_by/decreases_by for an amount"
            )
        return self

    def describe(self) -> str:
        op = self.op.replace("_", " ")
        return f"{self.signal} {op}" + ("" if self.value is None else f" {self.value}")


class Probe(_Model):
    """A short scripted run whose outcome checks a rule on both backends."""

    seed: int = Field(default=0, ge=0, le=2**32 - 1, description="0..2**32-1, as ALE and numpy take")
    start: str = Field(default="reset", description="'reset' or the name of a save point")
    steps: list[ProbeStep] = Field(min_length=1)
    expectations: list[Expectation] = Field(min_length=1)

    @field_validator("start")
    @classmethod
    def _start_name(cls, v: str) -> str:
        if not SAVE_POINT_RE.match(v):
            raise ValueError(f"probe start {v!r} must be 'reset' or a save point name like 'on-floe'")
        return v

    @property
    def frames(self) -> int:
        return sum(s.frames for s in self.steps)


# --------------------------------------------------------------------------------------------------
# Rules


class Quantity(_Model):
    """A number with its unit ('points', 'degrees', 'seconds', 'frames', 'lives', 'level', ...)."""

    value: Number
    unit: str = Field(min_length=1, max_length=40)


class Rule(_Model):
    """One behaviour of the game, stated in the project's words, citing where it comes from."""

    id: str = Field(description="stable id '<category>.<slug>', e.g. 'scoring.ice-block'")
    category: Category
    statement: str = Field(min_length=3, description="the rule in the project's own words")
    parameters: dict[str, Quantity] = Field(default_factory=dict)
    source: Optional[SourceRef] = None
    origin: Origin = Field(
        default="document",
        description="'document': cites a span of a source; 'measured': observed on the emulator only "
        "(no span; must carry a probe and say in 'note' how it was measured)",
    )
    status: Status = "extracted"
    note: Optional[str] = None
    probe: Optional[Probe] = None
    unprobed: Optional[str] = Field(
        default=None, description="why this rule cannot be checked by a probe (a reviewed rule has "
        "a probe or this reason; audits list these)")

    @field_validator("id")
    @classmethod
    def _id_form(cls, v: str) -> str:
        m = RULE_ID_RE.match(v)
        if not m or m.group(1) not in CATEGORIES:
            raise ValueError(
                f"rule id {v!r} must look like '<category>.<slug>' with a category among "
                f"{', '.join(CATEGORIES)} and a lower-case dashed slug, e.g. 'scoring.ice-block'"
            )
        return v

    @field_validator("parameters")
    @classmethod
    def _param_names(cls, v: dict[str, Quantity]) -> dict[str, Quantity]:
        for name in v:
            if not PARAM_RE.match(name):
                raise ValueError(f"parameter name {name!r} must be lower_snake_case")
        return v

    @model_validator(mode="after")
    def _against_documents(self, info: ValidationInfo) -> "Rule":
        documents = _context_documents(info)
        if documents is not None and self.source is not None and self.status != "stale":
            problem = span_problem(self.source, documents)
            if problem:
                raise ValueError(problem)
        return self

    @model_validator(mode="after")
    def _consistent(self) -> "Rule":
        if self.id.split(".", 1)[0] != self.category:
            raise ValueError(
                f"rule {self.id!r} has category {self.category!r}; its id must start with "
                f"'{self.category}.'"
            )
        if self.origin == "document" and self.source is None:
            raise ValueError(
                f"rule {self.id!r} cites no source span; a rule taken from a document must point at "
                "its span (or be marked origin: measured, with a probe and a note)"
            )
        if self.unprobed is not None and self.probe is not None:
            raise ValueError(f"rule {self.id!r} has a probe and an 'unprobed' reason; keep one")
        if self.origin == "measured":
            if self.source is not None:
                raise ValueError(f"rule {self.id!r} is 'measured' and must not cite a document span")
            if self.probe is None or not self.note:
                raise ValueError(
                    f"rule {self.id!r} is 'measured' (no document span): it needs a probe that checks "
                    "it on the emulator and a note saying how it was measured"
                )
        return self


class UnsupportedClaim(_Model):
    """A claim an extractor found but could not turn into a rule with a real span."""

    statement: str
    reason: str
    document: Optional[str] = None
    quote: Optional[str] = Field(
        default=None, description="the extractor's quote when it matched no span of the document")
    source: Optional[SourceRef] = Field(
        default=None, description="the span the claim was read from, when it is a real one")


# --------------------------------------------------------------------------------------------------
# The game spec


class Flavors(_Model):
    """ALE modes and difficulties (a flavor is one of each)."""

    modes: list[int] = Field(default_factory=lambda: [0])
    default_mode: int = 0
    difficulties: list[int] = Field(default_factory=lambda: [0])
    default_difficulty: int = 0

    @model_validator(mode="after")
    def _defaults_listed(self) -> "Flavors":
        if self.modes and self.default_mode not in self.modes:
            raise ValueError(f"default mode {self.default_mode} is not among modes {self.modes}")
        if self.difficulties and self.default_difficulty not in self.difficulties:
            raise ValueError(
                f"default difficulty {self.default_difficulty} is not among {self.difficulties}"
            )
        return self


class Variant(_Model):
    """One registered environment id and its settings (from the Farama variants table)."""

    env_id: str
    obs_type: str
    frameskip: str
    repeat_action_probability: float


class GameSpec(_Model):
    """Everything the documents say a game does, rule by rule."""

    schema_version: int = SCHEMA_VERSION
    game: str = Field(description="canonical game slug, e.g. 'frostbite', 'ms_pacman'")
    title: str = ""
    env_id: str = Field(default="", description="the ALE v5 id, e.g. 'ALE/Frostbite-v5'")
    extractor: str = Field(default="offline", description="what produced the extracted rules")
    sources: list[Source] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list, description="minimal action set, in index order")
    observation_space: str = ""
    flavors: Flavors = Field(default_factory=Flavors)
    variants: list[Variant] = Field(default_factory=list)
    rules: list[Rule] = Field(default_factory=list)
    unsupported: list[UnsupportedClaim] = Field(default_factory=list)

    @field_validator("schema_version")
    @classmethod
    def _known_version(cls, v: int) -> int:
        if v > SCHEMA_VERSION:
            raise ValueError(
                f"schema_version {v} was written by a newer jaxtari-align; this one reads versions "
                f"up to {SCHEMA_VERSION}: upgrade jaxtari-align (pip install -U jaxtari-align)"
            )
        if v < 1:
            raise ValueError(f"schema_version {v} is not a version; versions start at 1")
        return v

    @field_validator("game")
    @classmethod
    def _game_slug(cls, v: str) -> str:
        if not GAME_RE.match(v):
            raise ValueError(f"game {v!r} must be a lower_snake_case slug like 'ms_pacman'")
        return v

    @field_validator("actions")
    @classmethod
    def _ale_actions(cls, v: list[str]) -> list[str]:
        bad = [a for a in v if a not in ALE_ACTION_NAMES]
        if bad:
            raise ValueError(f"unknown ALE action(s) {bad}; use names from {ALE_ACTION_NAMES}")
        if len(set(v)) != len(v):
            raise ValueError(f"action set {v} lists an action twice")
        return v

    @model_validator(mode="after")
    def _cross_checks(self, info: ValidationInfo) -> "GameSpec":
        ids = [r.id for r in self.rules]
        dupes = sorted(i for i, n in collections.Counter(ids).items() if n > 1)
        if dupes:
            raise ValueError(f"rule id(s) used more than once: {', '.join(dupes)}")
        source_ids = {s.id for s in self.sources}
        for rule in self.rules:
            if rule.source is not None and rule.source.document not in source_ids:
                raise ValueError(
                    f"rule {rule.id!r} cites document {rule.source.document!r}, which is not listed "
                    f"in sources ({', '.join(sorted(source_ids)) or 'none'})"
                )
        documents = _context_documents(info)
        if documents is not None:
            for src in self.sources:
                doc = documents.get(src.id)
                if doc is not None and doc.sha256 != src.sha256:
                    raise ValueError(
                        f"source {src.id!r} was extracted from text with sha256 {src.sha256[:12]}..., "
                        f"but the document now hashes to {doc.sha256[:12]}...; re-extract the spec"
                    )
        return self

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(f"no rule {rule_id!r} in the spec of {self.game}")

    def by_category(self) -> dict[str, list[Rule]]:
        out: dict[str, list[Rule]] = {c: [] for c in CATEGORIES}
        for r in self.rules:
            out[r.category].append(r)
        return out


def check_spans(spec: GameSpec, documents: Mapping[str, Document]) -> list[str]:
    """Every problem with the spec's spans against ``documents`` (empty when all are real)."""
    problems = []
    for rule in spec.rules:
        if rule.source is not None and rule.status != "stale":
            problem = span_problem(rule.source, documents)
            if problem:
                problems.append(f"rule {rule.id}: {problem}")
    return problems


def json_schema() -> dict[str, Any]:
    """The JSON schema of a spec file (what ``jaxtari-align spec --schema`` prints)."""
    schema = GameSpec.model_json_schema()
    schema["title"] = "jaxtari-align game spec"
    return schema


def json_schema_text() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=False) + "\n"
