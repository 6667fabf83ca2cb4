"""The rule specification of a game: pydantic models, span checks, and the JSON schema.

A spec (``specs/<game>.yaml``) says what a game does, in the project's own words, rule by rule. Each
rule drawn from a document cites the exact span it came from (document id, character offsets and the
sha256 of the span text). When a spec is validated together with its documents (pass
``context={"documents": {...}}`` to ``model_validate``, or call :func:`check_spans`), a span whose text
does not hash to the stored sha256 is rejected: an extractor that cannot point at a real span has
invented the rule.

A probe is data, never code: a seed, a start (``reset`` or a save point listed in the spec), steps
``{action, frames}`` (or ``{action, agent_steps}`` under the v5 protocol) and expectations over named
signals. A save point is data too: a named list of steps from reset (found once on the emulator by
``alignment.audit.savepoints``) with the signal values it reaches. Nothing in a spec is ever executed.
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

from jaxtari.env import action_position as position
from jaxtari.protocol import V5

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

# Comparison operators take a value; change operators compare the end of the probe with its start;
# ``matches_ale`` compares a raster of the backend with the emulator's at the same frame.
VALUE_OPS: tuple[str, ...] = ("==", "!=", "<", "<=", ">", ">=", "increases_by", "decreases_by")
CHANGE_OPS: tuple[str, ...] = ("increases", "decreases", "changes", "unchanged")
RASTER_OPS: tuple[str, ...] = ("matches_ale",)
Op = Literal[
    "==", "!=", "<", "<=", ">", ">=",
    "increases", "decreases", "changes", "unchanged", "increases_by", "decreases_by",
    "matches_ale",
]
# Rasters a ``matches_ale`` expectation may name: the 210x160 RGB screen. (The 84x84 grey raster is
# drawn directly from pre-scaled sprites and is not ALE's resized screen pixel for pixel, so it is
# not compared with ALE; see the probe runner.)
RASTERS: tuple[str, ...] = ("screen",)
# Signals read from the backend itself rather than from the catalog: the action set, in index order.
STATIC_SIGNALS: tuple[str, ...] = ("action_set",)
PROTOCOLS: tuple[str, ...] = ("frames", "v5")

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


POKE_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class ProbeStep(_Model):
    """Hold one ALE action for a number of emulator frames (60 Hz, frameskip 1), or, in a probe of
    the v5 protocol, for a number of agent steps (each one ``env.step``: 4 frames, sticky actions).

    Or a poke: ``{poke: {score: 4990}}`` sets quantities of the game's registry of writable
    quantities (``GameEntry.pokes`` in its ground-truth module: RAM bytes on ALE, state fields on
    JAX), in the order given, between frames. Names and ranges are the game's, checked against the
    catalog when the probe runs (:func:`alignment.audit.probes.poke_problems`).
    """

    action: Optional[str] = Field(default=None,
                                  description="ALE action name, e.g. 'NOOP', 'DOWN', 'UPFIRE'")
    frames: Optional[int] = Field(default=None, ge=1, le=V5.max_num_frames_per_episode,
                                  description="emulator frames (probes of the frame protocol)")
    agent_steps: Optional[int] = Field(default=None, ge=1, le=V5.max_agent_steps,
                                       description="agent steps (probes with protocol: v5)")
    poke: Optional[dict[str, int]] = Field(
        default=None, description="a RAM-written start: {quantity: value} of the game's registry "
        "(e.g. {score: 4990}), set on both backends before the next step")

    @model_validator(mode="after")
    def _one_count(self) -> "ProbeStep":
        if self.poke is not None:
            if self.action is not None or self.frames is not None or self.agent_steps is not None:
                raise ValueError("a poke step only sets quantities ({poke: {name: value}}); give "
                                 "its action and frames as a step of their own")
            if not self.poke:
                raise ValueError("a poke step names at least one quantity, e.g. {poke: {score: 4990}}")
            for name in self.poke:
                if not POKE_NAME_RE.match(name):
                    raise ValueError(f"poke name {name!r} must be lower_snake_case, e.g. 'score'")
            return self
        if self.action is None:
            raise ValueError("a step is {action, frames} (or agent_steps), or {poke: {name: value}}")
        if (self.frames is None) == (self.agent_steps is None):
            raise ValueError(
                f"step {self.action}: give exactly one of 'frames' (emulator frames) or "
                "'agent_steps' (agent steps of a protocol: v5 probe)"
            )
        return self

    @field_validator("action")
    @classmethod
    def _known_action(cls, v: Optional[str]) -> Optional[str]:
        if v is None:
            return v
        i = position(ALE_ACTION_NAMES, v)
        if i is None:
            raise ValueError(
                f"unknown ALE action {v!r}; use one of: {', '.join(ALE_ACTION_NAMES)}"
            )
        return ALE_ACTION_NAMES[i]

    @field_validator("poke", mode="before")
    @classmethod
    def _integer_values(cls, v):
        # pydantic would take 4990.0 or "4990" as an int; a poke value is written as an integer
        if isinstance(v, dict):
            for name, value in v.items():
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError(f"poke {name}: the value must be an integer, got {value!r}")
        return v

    @property
    def is_poke(self) -> bool:
        return self.poke is not None

    def describe(self) -> str:
        if self.poke is not None:
            return "poke " + ", ".join(f"{k}={v}" for k, v in self.poke.items())
        if self.frames is not None:
            return f"{self.action} x{self.frames}"
        return f"{self.action} x{self.agent_steps} agent steps"


class Expectation(_Model):
    """A check on one signal at the end of the probe (change ops compare with its start)."""

    signal: str = Field(description="signal name from alignment.catalog, e.g. 'score', 'igloo_blocks'; "
                        "'action_set' (the backend's action names in index order); or, with "
                        "op matches_ale, a raster: 'screen' (210x160 RGB)")
    op: Op
    value: Optional[Union[bool, int, float, list[Union[int, str]]]] = None
    rate: Optional[tuple[float, float]] = Field(
        default=None, description="[low, high]: in a probe run over several seeds, the share of seeds "
        "on which the expectation holds must lie within this range (without it: every seed)")

    @field_validator("signal")
    @classmethod
    def _signal_name(cls, v: str) -> str:
        if not SIGNAL_RE.match(v):
            raise ValueError(f"signal name {v!r} must be lower_snake_case, e.g. 'igloo_blocks'")
        return v

    @field_validator("rate")
    @classmethod
    def _rate_range(cls, v):
        if v is not None and not 0.0 <= v[0] <= v[1] <= 1.0:
            raise ValueError(f"rate {list(v)} must be [low, high] with 0 <= low <= high <= 1")
        return v

    @model_validator(mode="after")
    def _value_matches_op(self) -> "Expectation":
        if self.op in RASTER_OPS or self.signal in RASTERS:
            if self.op not in RASTER_OPS or self.signal not in RASTERS:
                raise ValueError(
                    f"expectation '{self.signal} {self.op}': the rasters ({', '.join(RASTERS)}) are "
                    f"checked only with {', '.join(RASTER_OPS)}, and {', '.join(RASTER_OPS)} only "
                    "checks a raster"
                )
            if self.value is not None:
                raise ValueError(f"expectation '{self.signal} {self.op}' takes no value")
            return self
        if isinstance(self.value, list) and self.op not in ("==", "!="):
            raise ValueError(f"expectation '{self.signal} {self.op}': a list value needs == or !=")
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
        text = f"{self.signal} {op}" + ("" if self.value is None else f" {self.value}")
        if self.rate is not None:
            text += f" on {self.rate[0]:.0%}..{self.rate[1]:.0%} of seeds"
        return text


def _start_name(v: str) -> str:
    if not SAVE_POINT_RE.match(v):
        raise ValueError(f"start {v!r} must be 'reset' or a save point name like 'on-floe'")
    return v


# The work one probe may ask of each backend (seeds x emulator frames), checked when the spec is
# read: 20x the largest committed probe (24,800), a minute or two of ALE, never a silent hour.
MAX_PROBE_FRAMES = 500_000


class Probe(_Model):
    """A short scripted run whose outcome checks a rule on both backends.

    ``protocol``: absent (or ``frames``) runs one emulator frame per frame with sticky actions off;
    ``v5`` runs the ALE v5 protocol on both sides (gymnasium's ``ALE/<Game>-v5`` and
    ``jaxtari.wrappers.AtariWrapper``: frameskip 4, sticky actions 0.25), its steps counted in agent
    steps. ``seeds``: run with seeds ``seed .. seed+seeds-1`` (a random protocol is checked as a rate
    over seeds, see ``Expectation.rate``). ``mode``: the ALE game mode (absent: the default one;
    a save point start brings its own).
    """

    seed: int = Field(default=0, ge=0, le=2**32 - 1, description="0..2**32-1, as ALE and numpy take")
    start: str = Field(default="reset", description="'reset' or the name of a save point of the spec")
    mode: Optional[int] = Field(default=None, ge=0, description="ALE game mode (absent: default)")
    protocol: Optional[Literal["frames", "v5"]] = Field(
        default=None, description="'frames' (default): emulator frames, sticky actions off; "
        "'v5': the ALE v5 protocol on both sides, steps in agent steps")
    seeds: Optional[int] = Field(default=None, ge=1, le=1000,
                                 description="number of seeds to run, from 'seed' on (default 1)")
    steps: list[ProbeStep] = Field(min_length=1)
    expectations: list[Expectation] = Field(min_length=1)

    @field_validator("start")
    @classmethod
    def _start(cls, v: str) -> str:
        return _start_name(v)

    @model_validator(mode="after")
    def _consistent(self) -> "Probe":
        v5 = self.protocol == "v5"
        for step in self.steps:
            if step.is_poke:
                if v5:
                    raise ValueError(
                        "a protocol: v5 probe cannot poke: it runs gymnasium's ALE/<Game>-v5 and "
                        "the JAX wrapper over its seeds as whole episodes from reset (one compiled "
                        "scan on the JAX side), with no point between agent steps to set a "
                        "quantity on both; put the poke in a frame-protocol probe")
                continue
            if v5 and step.agent_steps is None:
                raise ValueError(f"a protocol: v5 probe counts its steps in agent_steps "
                                 f"(step {step.action} gives frames)")
            if not v5 and step.frames is None:
                raise ValueError(f"step {step.action} gives agent_steps; only a protocol: v5 probe "
                                 "counts agent steps (others count emulator frames)")
        if v5 and self.start != "reset":
            raise ValueError("a protocol: v5 probe starts from reset (save points are frame lists)")
        work = (self.seeds or 1) * self.frames
        if work > MAX_PROBE_FRAMES:
            raise ValueError(f"the probe runs {self.seeds or 1} seed(s) x {self.frames:,} emulator "
                             f"frames = {work:,} frames per backend, past the bound of "
                             f"{MAX_PROBE_FRAMES:,}; use fewer seeds or shorter steps")
        raster = any(e.op in RASTER_OPS for e in self.expectations)
        if raster and (v5 or (self.seeds or 1) > 1):
            raise ValueError("a matches_ale expectation needs a deterministic run: the frame "
                             "protocol and one seed")
        for e in self.expectations:
            if e.rate is not None and (self.seeds or 1) < 2:
                raise ValueError(f"expectation '{e.describe()}' gives a rate over seeds; "
                                 "give the probe seeds: N (N >= 2)")
        return self

    @property
    def frames(self) -> int:
        """Emulator frames of the probe's own steps (agent steps x 4 under the v5 protocol)."""
        return sum(s.frames if s.frames is not None else 4 * s.agent_steps
                   for s in self.steps if not s.is_poke)

    @property
    def pokes(self) -> bool:
        """Whether the probe's own steps write a RAM start (see ``ProbeStep.poke``)."""
        return any(s.is_poke for s in self.steps)

    @property
    def seed_list(self) -> list[int]:
        return list(range(self.seed, self.seed + (self.seeds or 1)))


class SavePoint(_Model):
    """A named situation reached from reset by fixed steps: data, found once on the emulator.

    ``start`` chains save points (its steps run after the named one's); ``reaches`` lists what the
    steps reach (checked on both backends); ``note`` says how it was found.
    """

    start: str = Field(default="reset", description="'reset' or another save point of the spec")
    mode: Optional[int] = Field(default=None, ge=0, description="ALE game mode (absent: default)")
    steps: list[ProbeStep] = Field(min_length=1)
    reaches: list[Expectation] = Field(min_length=1, description="signal values at the end")
    note: str = Field(min_length=3, description="what the situation is and how it was found")

    @field_validator("start")
    @classmethod
    def _start(cls, v: str) -> str:
        return _start_name(v)

    @model_validator(mode="after")
    def _frames_only(self) -> "SavePoint":
        for step in self.steps:
            if not step.is_poke and step.frames is None:
                raise ValueError(f"a save point's steps count emulator frames (step {step.action})")
        for e in self.reaches:
            if e.op in RASTER_OPS or e.rate is not None:
                raise ValueError(f"a save point reaches signal values; '{e.describe()}' is not one")
        return self

    @property
    def frames(self) -> int:
        return sum(s.frames for s in self.steps if not s.is_poke)


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
    save_points: dict[str, SavePoint] = Field(
        default_factory=dict, description="named starts for probes: steps from reset, found on ALE")
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
        self._check_save_points()
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

    def _check_save_points(self) -> None:
        names = ", ".join(["reset", *sorted(self.save_points)])
        for name, point in self.save_points.items():
            if not SAVE_POINT_RE.match(name) or name == "reset":
                raise ValueError(f"save point name {name!r} must be a lower-case dashed name "
                                 "other than 'reset', like 'igloo-complete'")
            seen = [name]
            while point.start != "reset":
                if point.start not in self.save_points:
                    raise ValueError(f"save point {seen[-1]!r} starts from {point.start!r}, which "
                                     f"is not a save point of this spec ({names})")
                if point.start in seen:
                    raise ValueError(f"save points start from each other in a loop: "
                                     f"{' -> '.join(seen + [point.start])}")
                parent = self.save_points[point.start]
                if parent.mode != point.mode:
                    raise ValueError(f"save point {seen[-1]!r} (mode {point.mode}) starts from "
                                     f"{point.start!r} (mode {parent.mode}); modes must agree")
                seen.append(point.start)
                point = parent
        for rule in self.rules:
            probe = rule.probe
            if probe is None or probe.start == "reset":
                continue
            if probe.start not in self.save_points:
                raise ValueError(f"rule {rule.id!r}: probe starts from {probe.start!r}, which is not "
                                 f"a save point of this spec; starts: {names}")
            mode = self.save_points[probe.start].mode
            if probe.mode is not None and probe.mode != mode:
                raise ValueError(f"rule {rule.id!r}: probe mode {probe.mode} differs from the mode "
                                 f"{mode} of its save point {probe.start!r}")

    def save_point_steps(self, name: str) -> tuple[Optional[int], list[ProbeStep]]:
        """The mode and every step from reset of a save point (chained starts expanded)."""
        if name == "reset":
            return None, []
        if name not in self.save_points:
            known = ", ".join(["reset", *sorted(self.save_points)])
            raise KeyError(f"{self.game}: unknown start {name!r}; starts of this spec: {known}")
        point = self.save_points[name]
        _, before = self.save_point_steps(point.start)
        return point.mode, before + list(point.steps)

    def describe_start(self, probe: Probe) -> str:
        """Where a probe starts, in words: ``reset`` or a save point (played from reset); a start
        with pokes (in its save points or the probe's own steps) is called RAM-written, so that
        a reviewer knows it is not a played one."""
        chain, start = [], probe.start
        while start in self.save_points:
            chain.append(start)
            start = self.save_points[start].start
        steps = [s for name in reversed(chain) for s in self.save_points[name].steps]
        pokes = [s.describe() for s in steps + list(probe.steps) if s.is_poke]
        where = f"save point {probe.start}" if chain else "reset"
        if not pokes:
            return where
        return f"RAM-written start ({'; '.join(pokes)}) from {where}"

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
