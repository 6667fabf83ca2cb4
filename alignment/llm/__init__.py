"""LLM providers behind one small protocol: ``offline`` (default; no model), ``anthropic``, ``openai``.

- :mod:`alignment.llm.base`: the :class:`Provider` protocol, :class:`StructuredRequest`, the errors
  (all :class:`LLMError`, whose message is meant for the user) and the on-disk response cache.
- :mod:`alignment.llm.anthropic_provider` / :mod:`alignment.llm.openai_provider`: the official SDKs
  with structured output into pydantic models, the SDKs' own retries, a timeout.
- :mod:`alignment.llm.offline`: the deterministic stand-in; no network, no key.

Answers are data, validated by pydantic; nothing a model returns is ever executed.
"""

from __future__ import annotations

from typing import Optional

from alignment.llm.base import (
    LLMError,
    LLMOutputError,
    LLMRequestError,
    MissingAPIKeyError,
    Provider,
    ResponseCache,
    StructuredRequest,
    default_cache_dir,
    default_llm_cache_dir,
    structured_call,
)

PROVIDERS: tuple[str, ...] = ("offline", "anthropic", "openai")

__all__ = [
    "PROVIDERS",
    "LLMError",
    "LLMOutputError",
    "LLMRequestError",
    "MissingAPIKeyError",
    "Provider",
    "ResponseCache",
    "StructuredRequest",
    "default_cache_dir",
    "default_llm_cache_dir",
    "default_model",
    "make_provider",
    "structured_call",
]


def make_provider(name: str, model: Optional[str] = None, **settings):
    """The provider called ``name`` ('offline', 'anthropic', 'openai'); ``settings`` go to it
    (``max_retries``, ``timeout``, ``api_key``). No key is needed until a request is actually sent."""
    if name == "anthropic":
        from alignment.llm.anthropic_provider import AnthropicProvider

        return AnthropicProvider(model, **settings)
    if name == "openai":
        from alignment.llm.openai_provider import OpenAIProvider

        return OpenAIProvider(model, **settings)
    if name == "offline":
        from alignment.llm.offline import OfflineProvider

        return OfflineProvider(model)
    raise LLMError(f"unknown --llm {name!r}; use one of: {', '.join(PROVIDERS)}")


def default_model(name: str) -> Optional[str]:
    """The model a provider uses when --model is not given (None for offline)."""
    if name == "anthropic":
        from alignment.llm.anthropic_provider import DEFAULT_MODEL

        return DEFAULT_MODEL
    if name == "openai":
        from alignment.llm.openai_provider import DEFAULT_MODEL

        return DEFAULT_MODEL
    if name == "offline":
        return None
    raise LLMError(f"unknown --llm {name!r}; use one of: {', '.join(PROVIDERS)}")
