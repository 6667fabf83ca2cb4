"""What every LLM provider shares: the provider protocol, the errors, and the response cache.

A provider turns one :class:`StructuredRequest` (a system text, a prompt, and the pydantic model the
answer must fit) into an instance of that model, using its vendor's structured-output facility. The
answer is data: it is validated against the model and never executed.

:func:`structured_call` puts the on-disk :class:`ResponseCache` in front of a provider: the cache key
is a content hash of (provider, model, system text, prompt, the sha256 of every document the prompt
quotes, the JSON schema asked for), so a re-run with the same inputs makes no HTTP request at all,
and any change to the prompt, the documents, the model or the schema asks again.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Generic, Optional, Protocol, TypeVar, runtime_checkable

import platformdirs
import pydantic
from pydantic import BaseModel

from alignment import atomic

APP_NAME = "jaxtari-align"
CACHE_ENV = "JAXTARI_ALIGN_CACHE"
CACHE_SUBDIR = "llm"
CACHE_FORMAT = 1

# One retry when the model's answer does not fit the schema: structured output makes it rare, and a
# second bad answer means the request itself is the problem, so asking a third time only costs money.
MALFORMED_OUTPUT_RETRIES = 1

T = TypeVar("T", bound=BaseModel)


# --------------------------------------------------------------------------------------------------
# Errors: each message names the provider, what went wrong, and what to do about it.


class LLMError(Exception):
    """A failure the user can act on; the CLI prints the message (no traceback) and exits non-zero."""


class MissingAPIKeyError(LLMError):
    """The provider's API key variable is unset."""

    def __init__(self, provider: str, env_var: str) -> None:
        self.provider = provider
        self.env_var = env_var
        super().__init__(
            f"--llm {provider} needs an API key, and {env_var} is not set. "
            f"Set it (export {env_var}=...), or use --llm offline for the deterministic offline "
            "extractor, which needs no key and no network."
        )


class LLMRequestError(LLMError):
    """The API refused or failed the request (after the SDK's own retries)."""


class LLMOutputError(LLMError):
    """The model answered, but not with data that fits the requested schema.

    ``retryable`` is False when asking again cannot help (the answer was cut off at the token limit,
    or the model declined); :func:`structured_call` then reports it at once.
    """

    def __init__(self, message: str, *, retryable: bool = True) -> None:
        super().__init__(message)
        self.retryable = retryable


# --------------------------------------------------------------------------------------------------
# Requests and providers


@dataclasses.dataclass(frozen=True)
class StructuredRequest(Generic[T]):
    """One question whose answer must be an instance of ``output_model``."""

    system: str
    prompt: str
    output_model: type[T]
    max_tokens: int = 16_000
    # sha256 of every document the prompt contains: part of the cache key
    document_shas: tuple[str, ...] = ()

    def schema(self) -> dict:
        return self.output_model.model_json_schema()


@runtime_checkable
class Provider(Protocol):
    """An LLM behind its official SDK."""

    name: str  # 'anthropic', 'openai'
    model: str  # the model id the requests go to
    # optional ``deadline``: seconds the whole call may take, retries included (None: no limit)

    def generate(self, request: StructuredRequest[T]) -> tuple[T, str]:
        """The validated answer and the JSON text it was parsed from.

        Raises :class:`MissingAPIKeyError`, :class:`LLMRequestError` or :class:`LLMOutputError`.
        """
        ...


def parse_output(provider: str, model: str, text: Optional[str], output_model: type[T]) -> T:
    """``text`` validated as ``output_model``, or an :class:`LLMOutputError` saying what is wrong."""
    if text is None or not text.strip():
        raise LLMOutputError(f"{provider} ({model}) returned no structured output (empty answer)")
    try:
        return output_model.model_validate_json(text)
    except pydantic.ValidationError as err:
        raise LLMOutputError(describe_validation_error(provider, model, err, text)) from None


def describe_validation_error(provider: str, model: str, err: pydantic.ValidationError,
                              text: Optional[str] = None) -> str:
    """A short, readable account of why an answer does not fit the schema."""
    problems = []
    for item in err.errors()[:5]:
        where = ".".join(str(p) for p in item.get("loc", ())) or "the answer"
        problems.append(f"{where}: {item.get('msg', 'invalid')}")
    more = err.error_count() - len(problems)
    if more > 0:
        problems.append(f"... and {more} more")
    invalid_json = any(e.get("type") == "json_invalid" for e in err.errors())
    what = "is not valid JSON" if invalid_json else f"does not fit the {err.title} schema"
    excerpt = ""
    if text is not None:
        flat = " ".join(text.split())
        excerpt = f" (answer began: {flat[:120]!r})"
    return f"{provider} ({model}) returned output that {what}: {'; '.join(problems)}{excerpt}"


# --------------------------------------------------------------------------------------------------
# The response cache


def default_cache_dir() -> Path:
    """``$JAXTARI_ALIGN_CACHE`` or the platform's user cache dir (e.g. ~/.cache/jaxtari-align)."""
    env = os.environ.get(CACHE_ENV)
    return Path(env) if env else Path(platformdirs.user_cache_dir(APP_NAME))


def default_llm_cache_dir() -> Path:
    """Where answers are kept by default: ``<default_cache_dir()>/llm``."""
    return default_cache_dir() / CACHE_SUBDIR


class ResponseCache:
    """Answers stored as JSON files ``<directory>/<provider>/<key>.json``.

    ``directory`` defaults to :func:`default_llm_cache_dir` (``$JAXTARI_ALIGN_CACHE/llm``, else the
    user cache dir's ``llm``).
    """

    def __init__(self, directory: Optional[os.PathLike | str] = None) -> None:
        self.dir = Path(directory) if directory not in (None, "") else default_llm_cache_dir()

    @staticmethod
    def key(provider: str, model: str, request: StructuredRequest) -> str:
        material = {
            "format": CACHE_FORMAT,
            "provider": provider,
            "model": model,
            "system": request.system,
            "prompt": request.prompt,
            "documents": sorted(request.document_shas),
            "schema": request.schema(),
            "max_tokens": request.max_tokens,
        }
        blob = json.dumps(material, sort_keys=True, ensure_ascii=False).encode("utf-8")
        return hashlib.sha256(blob).hexdigest()

    def path(self, provider: str, key: str) -> Path:
        return self.dir / provider / f"{key}.json"

    def get(self, provider: str, key: str) -> Optional[str]:
        """The stored answer text, or None (a missing, unreadable or foreign entry is a miss)."""
        path = self.path(provider, key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        text = entry.get("output")
        return text if isinstance(text, str) else None

    def put(self, provider: str, model: str, key: str, text: str) -> Path:
        path = self.path(provider, key)
        entry = {
            "key": key,
            "provider": provider,
            "model": model,
            "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "output": text,
        }
        atomic.write_bytes(path, json.dumps(entry, indent=1, ensure_ascii=False).encode("utf-8"))
        return path


@dataclasses.dataclass(frozen=True)
class CallResult(Generic[T]):
    output: T
    from_cache: bool
    key: str


def structured_call(provider: Provider, request: StructuredRequest[T],
                    cache: Optional[ResponseCache]) -> CallResult[T]:
    """The provider's answer to ``request``, from ``cache`` when it holds one (no HTTP at all).

    An answer that does not fit the schema is asked for once more, then reported as an
    :class:`LLMOutputError`; only answers that validate are cached.
    """
    key = ResponseCache.key(provider.name, provider.model, request)
    if cache is not None:
        text = cache.get(provider.name, key)
        if text is not None:
            try:
                return CallResult(request.output_model.model_validate_json(text), True, key)
            except pydantic.ValidationError:
                pass  # an entry from an older schema: ask again and overwrite it
    attempts = 1 + MALFORMED_OUTPUT_RETRIES
    deadline = getattr(provider, "deadline", None)
    started = time.monotonic()
    for attempt in range(attempts):
        try:
            left = None if deadline is None else deadline - (time.monotonic() - started)
            output, text = _within(provider, request, left)
            break
        except LLMOutputError as err:
            if not err.retryable:
                raise
            if attempt + 1 == attempts:
                raise LLMOutputError(f"{err} [after {attempts} attempts]") from None
    if cache is not None:
        cache.put(provider.name, provider.model, key, text)
    return CallResult(output, False, key)


def _within(provider: Provider, request: StructuredRequest[T], seconds: Optional[float]
            ) -> tuple[T, str]:
    """``provider.generate(request)``, given up on after ``seconds`` (None: no limit).

    The SDKs bound each HTTP attempt but retry on their own, honouring a server's retry-after; a
    network that accepts and never answers would hold the user for attempts x timeout. A daemon
    thread is abandoned at the deadline (its own timeout ends it later) and the process can exit.
    """
    if seconds is None:
        return provider.generate(request)
    if seconds <= 0:
        raise _deadline_error(provider)
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["result"] = provider.generate(request)
        except BaseException as err:  # handed to the caller's thread
            box["error"] = err

    worker = threading.Thread(target=work, name=f"{provider.name}-request", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise _deadline_error(provider)
    if "error" in box:
        raise box["error"]
    return box["result"]


def _deadline_error(provider: Provider) -> LLMRequestError:
    return LLMRequestError(
        f"{provider.name} ({provider.model}) gave no answer within the {provider.deadline:g} s "
        "deadline; re-run later, or allow more with --timeout SECONDS"
    )


def require_key(provider: str, env_var: str, api_key: Optional[str]) -> str:
    """``api_key`` or the value of ``env_var``; a :class:`MissingAPIKeyError` when neither is set."""
    key = api_key if api_key else os.environ.get(env_var, "").strip()
    if not key:
        raise MissingAPIKeyError(provider, env_var)
    return key


def request_error(provider: str, model: str, env_var: str, status: Optional[int], detail: str,
                  *, max_retries: int, timeout: float) -> LLMRequestError:
    """An :class:`LLMRequestError` for an API failure, saying what to do about it."""
    detail = " ".join(str(detail).split())[:300]
    if status is None:
        if "timed out" in detail.lower() or "timeout" in detail.lower():
            hint = f"the request timed out after {timeout:g} s (and {max_retries} retries)"
        else:
            hint = f"could not reach the API after {max_retries} retries ({detail})"
        return LLMRequestError(f"{provider} ({model}): {hint}; check the network, or use --llm offline")
    if status == 401:
        hint = f"the API rejected the key in {env_var} (401): check that it is valid"
    elif status == 403:
        hint = f"the key in {env_var} may not use this model or API (403: {detail})"
    elif status == 404:
        hint = f"the API does not know model {model!r} (404: {detail}); choose another with --model"
    elif status == 429:
        hint = f"still rate-limited after {max_retries} retries (429: {detail}); wait and re-run"
    elif status >= 500:
        hint = f"the API failed with {status} after {max_retries} retries ({detail}); re-run later"
    else:
        hint = f"the API refused the request ({status}: {detail})"
    return LLMRequestError(f"{provider} ({model}): {hint}")
