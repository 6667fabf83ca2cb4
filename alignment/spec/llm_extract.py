"""Rules of a game extracted by an LLM, each one tied to a verbatim span of its source documents.

:func:`extract` sends the game's documents to a provider (``anthropic`` or ``openai``, through their
official SDKs with structured output; answers cached by content hash) and asks for rules: an id, a
category, a statement in neutral words, numeric parameters, and a *verbatim quote* of the supporting
text with the id of the document it is in. The quote is then looked up in the real text - exactly
first, then with whitespace runs matched loosely, mapped back to the document's own offsets:

- found: the rule gets a :class:`SourceRef` with the real start, end and sha256 of the span;
- not found (paraphrased, stitched or invented): the rule is dropped and reported as an
  :class:`UnsupportedClaim`, with the reason.

A parameter whose number is not written in the cited span is kept but named in the rule's note, for
the reviewer. The answer is data. A probe the model proposes is validated by :class:`Probe` and dropped (with a
note on the rule) when it does not fit; nothing the model wrote is ever executed.

``provider="offline"`` asks no model: it runs the project's deterministic offline extractor (see
:mod:`alignment.llm.offline`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

import pydantic
from pydantic import BaseModel, Field

from alignment.docs.document import Document
from alignment.llm import make_provider
from alignment.llm.base import LLMError, Provider, ResponseCache, StructuredRequest, structured_call
from alignment.spec.schema import (
    ALE_ACTION_NAMES,
    CATEGORIES,
    Category,
    Op,
    Probe,
    Quantity,
    Rule,
    SourceRef,
    UnsupportedClaim,
    quote_ref,
    span_ref,
)

__all__ = [
    "ExtractionDraft",
    "LLMError",
    "RuleDraft",
    "build_request",
    "extract",
    "extract_with",
    "locate_quote",
    "rules_from_draft",
]

PROMPT_VERSION = 1
# A quote shorter than this (after trimming) proves nothing: "points" is in every manual.
MIN_QUOTE_CHARS = 12
MAX_OUTPUT_TOKENS = 16_000


# --------------------------------------------------------------------------------------------------
# The answer the model must give (plain types, so both vendors' strict JSON schemas accept it; the
# project's own models then validate every value).


class ParameterDraft(BaseModel):
    name: str = Field(description="lower_snake_case role of the number, e.g. 'points', 'start_temperature'")
    value: float = Field(description="the number as stated in the quote (5,000 -> 5000; 'nine' -> 9)")
    unit: str = Field(description="e.g. 'points', 'degrees', 'lives', 'level', 'seconds', 'frames'")


class StepDraft(BaseModel):
    action: str = Field(description="ALE action name: " + ", ".join(ALE_ACTION_NAMES))
    frames: int = Field(description="emulator frames (60 per second) to hold the action")


class ExpectationDraft(BaseModel):
    signal: str = Field(description="signal name, e.g. 'score', 'lives', 'terminated', 'frame'")
    op: Op
    value: Union[bool, int, float, None] = Field(
        description="the value for ==, !=, <, <=, >, >=, increases_by, decreases_by; null for "
        "increases, decreases, changes, unchanged"
    )


class ProbeDraft(BaseModel):
    seed: int
    start: str = Field(description="'reset'")
    steps: list[StepDraft]
    expectations: list[ExpectationDraft]


class RuleDraft(BaseModel):
    id: str = Field(description="'<category>.<slug>', lower-case dashed slug, e.g. 'scoring.ice-block'")
    category: Category
    statement: str = Field(description="the rule in neutral words of your own, one sentence")
    parameters: list[ParameterDraft]
    quote: str = Field(description="verbatim, contiguous text copied from the document that supports the rule")
    document: str = Field(description="id of the document the quote is copied from")
    probe: Optional[ProbeDraft] = Field(
        description="a short scripted run from reset that would check the rule, or null"
    )


class ExtractionDraft(BaseModel):
    rules: list[RuleDraft]


# --------------------------------------------------------------------------------------------------
# The request

SYSTEM = """\
You turn the documentation of an Atari 2600 game into a list of precise, checkable rules.

Each rule is one behaviour of the game: what an action does, movement, scoring, lives, how the game
ends, how it progresses, what appears when, timing, what is drawn.

For every rule give:
- id: '<category>.<slug>' with a lower-case dashed slug, e.g. 'scoring.ice-block', 'lives.start'.
- category: one of {categories}.
- statement: the rule in neutral words of your own (do not copy the document's sentence).
- parameters: every number the rule depends on, as stated in the quote, with its unit.
- quote: the supporting text copied CHARACTER FOR CHARACTER from one document: one contiguous
  passage of one to three sentences. No ellipses, no paraphrase, no stitching of separate passages,
  no correction of typos. The quote is searched for in the document; a rule whose quote is not found
  there is rejected.
- document: the id attribute of the document the quote comes from.
- probe: null, or a short scripted run from 'reset' (seed 0) that would check the rule: steps of
  ALE action names ({actions}) held for a number of 60 Hz frames, and expectations on signals
  ('score', 'lives', 'terminated', 'frame', or a game-specific lower_snake_case name such as
  'level'). Give a probe only when you are confident the run shows the rule.

Only state what the documents say. Do not add knowledge from elsewhere. Skip installation
instructions, console switches that do not affect play, and marketing text.
"""


def system_text() -> str:
    return SYSTEM.format(categories=", ".join(CATEGORIES), actions=", ".join(ALE_ACTION_NAMES))


def build_prompt(game: str, documents: Sequence[Document]) -> str:
    parts = [
        f"Game: {game}",
        f"The {len(documents)} document(s) below are the sources. Extract the rules they state.",
        "",
    ]
    for doc in documents:
        parts.append(f'<document id="{doc.id}" kind="{doc.kind}" url="{doc.url}">')
        parts.append(doc.text)
        parts.append("</document>")
        parts.append("")
    return "\n".join(parts)


def build_request(game: str, documents: Sequence[Document]) -> StructuredRequest[ExtractionDraft]:
    return StructuredRequest(
        system=system_text(),
        prompt=build_prompt(game, documents),
        output_model=ExtractionDraft,
        max_tokens=MAX_OUTPUT_TOKENS,
        document_shas=tuple(d.sha256 for d in documents),
    )


# --------------------------------------------------------------------------------------------------
# Finding quotes


def locate_quote(quote: str, document: Document) -> Optional[SourceRef]:
    """The span of ``quote`` in ``document``: exact match first, then whitespace-insensitive.

    The whitespace-insensitive match lets any run of spaces/newlines in the quote match any run in the
    text (a quote copied across a line break); the span returned is always the document's own text.
    """
    trimmed = quote.strip()
    if not trimmed:
        return None
    start = document.text.find(trimmed)
    if start >= 0:
        return span_ref(document, start, start + len(trimmed))
    return quote_ref(document, trimmed)


def _find_anywhere(quote: str, named: str, documents: Sequence[Document]
                   ) -> tuple[Optional[SourceRef], Optional[str]]:
    """The span (and a note when the quote was in another document than the one named)."""
    by_id = {d.id: d for d in documents}
    first = [by_id[named]] if named in by_id else []
    for doc in first + [d for d in documents if d.id != named]:
        ref = locate_quote(quote, doc)
        if ref is not None:
            note = None if doc.id == named else (
                f"the model attributed the quote to {named!r}; it was found in {doc.id!r}"
            )
            return ref, note
    return None, None


# --------------------------------------------------------------------------------------------------
# From the model's answer to rules

_NOT_SNAKE = re.compile(r"[^a-z0-9]+")
_NOT_SLUG = re.compile(r"[^a-z0-9-]+")


def _snake(name: str) -> str:
    out = _NOT_SNAKE.sub("_", name.strip().lower()).strip("_")
    if out and not out[0].isalpha():
        out = "p_" + out
    return out or "value"


def _rule_id(draft: RuleDraft) -> str:
    """The model's id in canonical form: '<category>.<lower-dashed-slug>', category from the draft."""
    raw = draft.id.strip().lower().replace("_", "-").replace(" ", "-")
    head, dot, rest = raw.partition(".")
    if dot:  # whatever precedes the first dot was meant as the category: the draft's category wins
        slug = rest
    else:  # 'lives-start' for 'lives.start'
        slug = raw.removeprefix(draft.category + "-")
    parts = [re.sub(r"-{2,}", "-", _NOT_SLUG.sub("-", part)).strip("-") for part in slug.split(".")]
    slug = ".".join(p for p in parts if p) or "rule"
    return f"{draft.category}.{slug}"


def _plain_number(value: float) -> Union[int, float]:
    return int(value) if float(value).is_integer() else value


def _parameters(draft: RuleDraft) -> dict[str, Quantity]:
    params: dict[str, Quantity] = {}
    for p in draft.parameters:
        name = _snake(p.name)
        if name in params:
            continue  # the first statement of a parameter wins
        params[name] = Quantity(value=_plain_number(p.value), unit=p.unit.strip() or "count")
    return params


_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")
# Number words a manual spells out; enough to recognise "three on reserve" or "a maximum of nine".
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "fifty": 50,
    "hundred": 100, "thousand": 1000, "single": 1, "double": 2, "twice": 2, "once": 1,
}


def _numbers_in(text: str) -> set[float]:
    found = {float(m.group().replace(",", "")) for m in _DIGITS.finditer(text)}
    found |= {float(v) for w, v in _NUMBER_WORDS.items() if re.search(rf"\b{w}\b", text, re.I)}
    return found


def _unquoted_parameters(params: dict[str, Quantity], span_text: str) -> Optional[str]:
    """A note naming parameters whose value is not written in the cited span (a reviewer checks)."""
    present = _numbers_in(span_text)
    missing = [f"{name}={q.value}" for name, q in params.items() if float(q.value) not in present]
    if not missing:
        return None
    return f"not written in the cited text, check: {', '.join(missing)}"


def _probe(draft: RuleDraft) -> tuple[Optional[Probe], Optional[str]]:
    """The proposed probe validated as data by :class:`Probe`, or None and why it was dropped."""
    if draft.probe is None:
        return None, None
    try:
        return Probe.model_validate(draft.probe.model_dump()), None
    except pydantic.ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return None, f"the proposed probe was dropped ({where}: {first.get('msg', 'invalid')})"


def _unique_id(rule_id: str, taken: set[str]) -> str:
    if rule_id not in taken:
        return rule_id
    n = 2
    while f"{rule_id}-{n}" in taken:
        n += 1
    return f"{rule_id}-{n}"


def rules_from_draft(draft: ExtractionDraft, documents: Sequence[Document], *, extractor: str
                     ) -> tuple[list[Rule], list[UnsupportedClaim]]:
    """Rules whose quotes are real spans of ``documents``; the rest as unsupported claims."""
    rules: list[Rule] = []
    unsupported: list[UnsupportedClaim] = []
    taken: set[str] = set()
    for item in draft.rules:
        quote = item.quote.strip()

        def reject(reason: str) -> None:
            unsupported.append(UnsupportedClaim(
                statement=item.statement, reason=f"{extractor}: {reason}",
                document=item.document or None, quote=quote or None,
            ))

        if len(quote) < MIN_QUOTE_CHARS:
            reject(f"the quote {quote!r} is too short to support a rule (under {MIN_QUOTE_CHARS} characters)")
            continue
        ref, where_note = _find_anywhere(quote, item.document, documents)
        if ref is None:
            named = item.document if any(d.id == item.document for d in documents) else (
                f"{item.document!r}, which is not a source,"
            )
            reject(f"the quoted text is not in document {named} nor in any other source "
                   "(paraphrased or invented): no span to cite")
            continue
        probe, probe_note = _probe(item)
        span_text = next(d for d in documents if d.id == ref.document).text[ref.start:ref.end]
        try:
            params = _parameters(item)
            notes = [n for n in (where_note, _unquoted_parameters(params, span_text), probe_note) if n]
            rule = Rule(
                id=_unique_id(_rule_id(item), taken),
                category=item.category,
                statement=item.statement.strip(),
                parameters=params,
                source=ref,
                origin="document",
                status="extracted",
                note="; ".join(notes) or None,
                probe=probe,
            )
        except pydantic.ValidationError as err:
            first = err.errors()[0]
            reject(f"not a valid rule ({first.get('msg', 'invalid')})")
            continue
        taken.add(rule.id)
        rules.append(rule)
    return rules, unsupported


# --------------------------------------------------------------------------------------------------
# Entry points


def extract_with(provider: Provider, game: str, documents: Sequence[Document],
                 cache: Optional[ResponseCache]) -> tuple[list[Rule], list[UnsupportedClaim]]:
    """:func:`extract` with a provider object (and a cache, or None for no caching)."""
    if not documents:
        raise LLMError(f"no documents to extract rules of {game!r} from; load its documents first")
    result = structured_call(provider, build_request(game, documents), cache)
    return rules_from_draft(result.output, documents, extractor=f"{provider.name} ({provider.model})")


def extract(game: str, documents: Iterable[Document], provider: str, model: Optional[str] = None,
            cache_dir: Optional[Union[str, Path]] = None, deadline: Optional[float] = None,
            ) -> tuple[list[Rule], list[UnsupportedClaim]]:
    """Rules of ``game`` from ``documents`` by ``provider`` ('offline', 'anthropic', 'openai').

    ``model`` overrides the provider's default model; ``cache_dir`` is the directory of cached
    answers (default ``$JAXTARI_ALIGN_CACHE/llm``, else ``llm`` in the user cache dir). Raises :class:`LLMError` (with a message
    to show the user) for a missing key, a failed request, or an answer that does not fit the schema.
    """
    documents = list(documents)
    if provider == "offline":
        from alignment.llm.offline import offline_rules

        return offline_rules(game, documents)
    settings = {} if deadline is None else {"deadline": deadline}
    return extract_with(make_provider(provider, model, **settings), game, documents,
                        ResponseCache(cache_dir))
