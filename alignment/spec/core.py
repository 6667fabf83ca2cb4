"""Stage 1's core: build a game's rule spec from its documents, merged with ``specs/<game>.yaml``.

:func:`build` returns the merged spec and what changed as data (:class:`SpecResult`); it never
prints or writes. The ``jaxtari-align spec`` command (:mod:`alignment.spec.command`) and the graph
both call it and store the result with :func:`alignment.spec.store.write`. The offline
extractor is the default (deterministic, no keys, no network beyond fetching the pages when no
``docs`` corpus is given). ``llm="anthropic"|"openai"`` hands the documents to
:func:`alignment.spec.llm_extract.extract`, whose rules are accepted only where their spans are real.
An existing spec's reviewed and rejected rules are kept unless ``force``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional, Sequence

from pydantic import ValidationError

from alignment import artefacts, atomic, gamenames
from alignment.docs.cache import default_cache_dir
from alignment.docs.corpus import CorpusError, load_documents
from alignment.docs.document import Document
from alignment.docs.fetch import FetchError
from alignment.docs.text import DocumentError
from alignment.llm import PROVIDERS
from alignment.spec import offline
from alignment.spec.schema import GameSpec, Rule, UnsupportedClaim, span_problem
from alignment.spec.store import SpecFileError, load_spec, merge, spec_path


@dataclasses.dataclass
class SpecResult:
    """What :func:`build` made, and where :func:`alignment.spec.store.write` stores it."""

    path: Path
    spec: GameSpec
    added: list[str]  # ids of new extracted rules
    kept: list[str]  # ids of reviewed/rejected rules carried over from the existing spec
    changed: list[str]  # ids in both the existing and the new spec whose content differs
    skipped: list[str]  # ids of extracted candidates already covered by a kept rule
    discarded_reviews: int  # reviewed/rejected rules dropped because of force
    missing: list[str]  # documents that could not be found, one line each
    reanchored: list[str] = dataclasses.field(default_factory=list)  # kept spans moved with their text
    stale: list[str] = dataclasses.field(default_factory=list)  # kept rules whose cited text is gone


class SpecError(RuntimeError):
    """A spec that cannot be built or stored (the message says why; the command prints it)."""


def _llm_rules(game: str, documents: Sequence[Document], provider: str, model: Optional[str],
               deadline: Optional[float] = None) -> tuple[list[Rule], list[UnsupportedClaim]]:
    """Rules from an LLM, keeping only those whose spans are real (the rest become unsupported)."""
    from alignment.spec import llm_extract

    cache_dir = default_cache_dir() / "llm"
    try:
        rules, unsupported = llm_extract.extract(game, list(documents), provider, model, cache_dir,
                                                 deadline=deadline)
    except llm_extract.LLMError as err:
        raise SpecError(f"the {provider} extractor failed: {err}") from None
    by_id = {d.id: d for d in documents}
    accepted: list[Rule] = []
    unsupported = list(unsupported)
    for rule in rules:
        problem = span_problem(rule.source, by_id) if rule.source is not None else (
            "cites no source span" if rule.origin == "document" else None)
        if problem:
            unsupported.append(UnsupportedClaim(statement=rule.statement, reason=problem,
                                                document=rule.source.document if rule.source else None))
        else:
            accepted.append(rule)
    return accepted, unsupported


def build_spec(game: str, documents: Sequence[Document], *, llm: str = "offline",
               model: Optional[str] = None, deadline: Optional[float] = None) -> GameSpec:
    """A fresh spec of ``game`` from ``documents`` with the chosen extractor."""
    if llm == "offline":
        return offline.extract(game, documents)
    rules, unsupported = _llm_rules(game, documents, llm, model, deadline)
    skeleton = offline.skeleton(game, documents)
    data = skeleton.model_dump()
    data.update(rules=[r.model_dump() for r in rules],
                unsupported=[u.model_dump() for u in unsupported],
                extractor=f"{llm}:{model}" if model else llm)
    try:
        return GameSpec.model_validate(data, context={"documents": {d.id: d for d in documents}})
    except ValidationError as err:
        raise SpecError(f"the {llm} extractor produced an invalid spec: {err}") from None


def build(game: str, *, docs: Optional[str | Path] = None, llm: str = "offline",
          model: Optional[str] = None, out_dir: Path = Path(artefacts.SPEC.folder),
          force: bool = False, deadline: Optional[float] = None) -> SpecResult:
    """Extract ``game``'s spec from its documents and merge it with the one stored in ``out_dir``
    (checked writable first, so no extraction runs for a spec that cannot be stored).

    Raises :class:`SpecError` (a message for the user) for an unknown game, no documents, a bad
    provider or a broken existing spec (unless ``force``).
    """
    if llm not in PROVIDERS:
        raise SpecError(f"--llm must be one of {', '.join(PROVIDERS)}, not {llm!r}")
    try:
        slug = gamenames.resolve(game)
        loaded = load_documents(slug, docs_dir=None if docs is None else str(docs))
    except (gamenames.UnknownGameError, CorpusError, DocumentError, FetchError) as err:
        raise SpecError(str(err)) from None
    try:
        atomic.check_writable(spec_path(out_dir, slug), what="spec file")
    except atomic.OutputLocationError as err:
        raise SpecError(f"{err} (--out {str(out_dir)!r})") from None
    if not loaded.documents:
        raise SpecError(f"no documents found for {slug}:\n  - " + "\n  - ".join(loaded.missing))
    try:
        fresh = build_spec(slug, loaded.documents, llm=llm, model=model, deadline=deadline)
    except DocumentError as err:
        raise SpecError(str(err)) from None
    path = spec_path(out_dir, slug)
    existing = None
    if path.exists():
        try:
            existing = load_spec(path)
        except SpecFileError as err:
            if not force:
                raise SpecError(f"{err}\n(or pass --force to overwrite it)") from None
    result = merge(fresh, existing, force=force, documents=loaded.by_id())
    before = {r.id: r.model_dump() for r in existing.rules} if existing is not None else {}
    changed = [r.id for r in result.spec.rules if r.id in before and before[r.id] != r.model_dump()]
    return SpecResult(path, result.spec, list(result.added), list(result.kept), changed,
                      list(result.skipped), result.discarded_reviews, list(loaded.missing),
                      list(result.reanchored), list(result.stale))
