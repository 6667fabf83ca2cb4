"""Shared test support for the LLM providers: respx routes in each API's wire format, documents.

The JSON bodies below follow the public wire formats: the Anthropic Messages API (a ``message``
object whose content holds a text block with the structured JSON, ``stop_reason``, ``usage``) and
OpenAI Chat Completions (a ``chat.completion`` object with ``choices[].message.content``,
``finish_reason``, ``usage``), and each API's error envelope.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Optional

import httpx
import pytest
import respx

import tests.llm.respx_httpx2 as respx_httpx2
from tests.docs.paths import SHARED_DOCS
from alignment.docs.document import Document

ANTHROPIC_URL = "https://api.anthropic.com/v1/messages"
OPENAI_URL = "https://api.openai.com/v1/chat/completions"
PROVIDER_URLS = {"anthropic": ANTHROPIC_URL, "openai": OPENAI_URL}
KEY_ENVS = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
FAKE_KEYS = {"anthropic": "sk-ant-test-not-a-real-key", "openai": "sk-test-not-a-real-key"}

FROSTBITE_MANUAL = SHARED_DOCS / "atariage" / "frostbite.txt"

# A small manual of an imaginary game, written for these tests (so they run without ../shared).
# Its line breaks and double spaces are deliberate: quotes copied across them must still be found.
TEST_MANUAL_TEXT = """\
PEBBLE HOPPER - GAME MANUAL

Hop the frog across the pond on the floating lily pads.  Each hop onto a fresh pad
scores 15 points.

You start with three frogs. A frog is lost when it lands in the water or
when the clock runs out.

The clock starts at 60 and counts down once per second. Every 2,000 points
earn an extra frog, up to a maximum of six.
"""


def pebble_manual() -> Document:
    return Document(
        id="manual/pebble_hopper", kind="manual", game="pebble_hopper",
        url="https://example.invalid/pebble-hopper-manual", retrieved="2026-12-02",
        text=TEST_MANUAL_TEXT, origin="tests/llm/support.py",
    )


def frostbite_manual() -> Document:
    if not FROSTBITE_MANUAL.is_file():
        pytest.skip(f"the real corpus file {FROSTBITE_MANUAL} is not on this machine")
    return Document(
        id="manual/frostbite", kind="manual", game="frostbite",
        url="https://atariage.com/manual_html_page.php?SoftwareLabelID=199", retrieved="2026-12-02",
        text=FROSTBITE_MANUAL.read_text(encoding="utf-8"), origin=str(FROSTBITE_MANUAL),
    )


# --------------------------------------------------------------------------------------------------
# Wire formats


def anthropic_message(text: str, *, stop_reason: str = "end_turn", model: str = "claude-sonnet-5-5"
                      ) -> dict[str, Any]:
    return {
        "id": "msg_01TestTestTestTestTestTest",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 2100, "output_tokens": 640},
    }


def anthropic_tool_message(name: str, tool_input: Any, *, model: str = "claude-sonnet-5-5"
                           ) -> dict[str, Any]:
    """A Messages API answer that calls the forced tool (``stop_reason: tool_use``)."""
    return {
        **anthropic_message("", model=model, stop_reason="tool_use"),
        "content": [{"type": "tool_use", "id": "toolu_01TestTestTestTest", "name": name,
                     "input": tool_input}],
    }


def openai_completion(content: Optional[str], *, finish_reason: str = "stop",
                      refusal: Optional[str] = None, model: str = "gpt-5.5") -> dict[str, Any]:
    return {
        "id": "chatcmpl-TestTestTestTest",
        "object": "chat.completion",
        "created": 1796000000,
        "model": model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": refusal,
                        "annotations": []},
            "logprobs": None,
            "finish_reason": finish_reason,
        }],
        "usage": {"prompt_tokens": 2100, "completion_tokens": 640, "total_tokens": 2740},
        "service_tier": "default",
        "system_fingerprint": "fp_test",
    }


def ok_response(provider: str, text: Optional[str]) -> httpx.Response:
    body = anthropic_message(text or "") if provider == "anthropic" else openai_completion(text)
    return httpx.Response(200, json=body, headers={"request-id": "req_test"})


def error_response(provider: str, status: int, message: str) -> httpx.Response:
    """An API error with a 1 ms ``retry-after-ms`` so the SDK's retry waits no real time."""
    if provider == "anthropic":
        kind = {429: "rate_limit_error", 401: "authentication_error"}.get(status, "api_error")
        body: dict[str, Any] = {"type": "error", "error": {"type": kind, "message": message}}
    else:
        kind = {429: "rate_limit_exceeded", 401: "invalid_api_key"}.get(status, "server_error")
        body = {"error": {"message": message, "type": kind, "param": None, "code": kind}}
    return httpx.Response(status, json=body, headers={"retry-after-ms": "1"})


def draft_json(rules: list[dict[str, Any]]) -> str:
    return json.dumps({"rules": rules})


def rule(id: str, category: str, statement: str, quote: str, document: str,
         parameters: Optional[list[dict[str, Any]]] = None, probe: Optional[dict] = None
         ) -> dict[str, Any]:
    return {"id": id, "category": category, "statement": statement,
            "parameters": parameters or [], "quote": quote, "document": document, "probe": probe}


# --------------------------------------------------------------------------------------------------
# Fixtures (import them into a test module to use them)


def _sdks_send_through_httpx2() -> None:
    """Fail (never silently reach the network) if an SDK no longer sends through httpx2."""
    import anthropic._base_client
    import openai._base_client

    for sdk in (anthropic._base_client, openai._base_client):
        if not hasattr(sdk, "httpx2"):
            pytest.fail(f"{sdk.__name__} does not use httpx2; tests/llm/respx_httpx2.py cannot mock it "
                        "- use respx's own httpx mocker for this SDK version")


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    """respx over httpx2 (the SDKs' HTTP library): any request without a route fails the test."""
    _sdks_send_through_httpx2()
    with respx.mock(using=respx_httpx2.USING, assert_all_mocked=True, assert_all_called=False) as r:
        yield r


@pytest.fixture
def api_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Fake keys, the SDKs' default base URLs, and a private cache dir (returned)."""
    for provider, env in KEY_ENVS.items():
        monkeypatch.setenv(env, FAKE_KEYS[provider])
    for var in ("ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "ANTHROPIC_AUTH_TOKEN", "OPENAI_ORG_ID",
                "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(var, raising=False)
    cache = tmp_path / "cache"
    monkeypatch.setenv("JAXTARI_ALIGN_CACHE", str(cache))
    return cache
