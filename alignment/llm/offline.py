"""The offline provider: no model, no key, no network - the project's deterministic extractor.

``--llm offline`` (the default) asks no language model. For spec extraction it runs
:func:`alignment.spec.offline.extract_rules`, which takes candidate rules sentence by sentence from
the documents, each citing its verbatim span; the same documents always give the same rules. It
answers no other structured request: :meth:`OfflineProvider.generate` says so rather than invent an
answer.
"""

from __future__ import annotations

from typing import Sequence

from alignment.docs.document import Document
from alignment.llm.base import LLMError, StructuredRequest

NAME = "offline"
MODEL = "offline-extractor"


class OfflineProvider:
    """Stands where a model would; extraction delegates to the offline extractor."""

    name = NAME
    model = MODEL

    def __init__(self, model: str | None = None) -> None:
        if model not in (None, "", MODEL):
            raise LLMError(
                f"--llm offline uses no model, so --model {model!r} means nothing there; drop --model, "
                "or choose --llm anthropic or --llm openai"
            )

    def extract_rules(self, game: str, documents: Sequence[Document]):
        return offline_rules(game, documents)

    def generate(self, request: StructuredRequest):
        raise LLMError(
            "--llm offline asks no model and cannot answer a free-form request "
            f"({request.output_model.__name__}); choose --llm anthropic or --llm openai for this step"
        )


def offline_rules(game: str, documents: Sequence[Document]):
    """The offline extractor's (rules, unsupported claims) for ``documents``."""
    from alignment.spec.offline import extract_rules

    if not documents:
        raise LLMError(f"no documents to extract rules of {game!r} from; load its documents first")
    return extract_rules(list(documents))
