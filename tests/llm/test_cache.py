"""The response cache: a re-run with the same inputs sends no HTTP at all; any input change asks again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignment.docs.document import Document
from alignment.llm import make_provider, structured_call
from alignment.llm.base import ResponseCache, default_llm_cache_dir
from alignment.spec.llm_extract import build_request
from tests.llm.support import (  # noqa: F401  (fixtures)
    KEY_ENVS,
    PROVIDER_URLS,
    api_env,
    draft_json,
    ok_response,
    pebble_manual,
    router,
    rule,
)

PROVIDERS = ("anthropic", "openai")

ANSWER = draft_json([
    rule("lives.start", "lives", "The player has three frogs at the start.",
         "You start with three frogs.", "manual/pebble_hopper",
         [{"name": "lives", "value": 3, "unit": "lives"}]),
])


def _call(provider: str, cache: ResponseCache, documents=None, model=None):
    request = build_request("pebble_hopper", documents or [pebble_manual()])
    return structured_call(make_provider(provider, model, max_retries=0), request, cache)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_second_run_is_served_from_disk_with_zero_http_calls(provider, router, api_env, monkeypatch):
    cache = ResponseCache(api_env / "llm")
    route = router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, ANSWER))
    first = _call(provider, cache)
    assert route.call_count == 1 and not first.from_cache
    files = list((api_env / "llm" / provider).glob("*.json"))
    assert [f.stem for f in files] == [first.key]
    assert json.loads(files[0].read_text())["output"] == ANSWER

    router.reset()  # forget the first run's calls (routes stay)
    monkeypatch.delenv(KEY_ENVS[provider])  # a hit needs no key: no client is even made
    second = _call(provider, cache)
    assert route.call_count == 0
    assert router.calls.call_count == 0
    assert second.from_cache
    assert second.output == first.output


@pytest.mark.parametrize("provider", PROVIDERS)
def test_changed_document_or_model_is_a_miss(provider, router, api_env):
    cache = ResponseCache(api_env / "llm")
    route = router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, ANSWER))
    _call(provider, cache)
    doc = pebble_manual()
    edited = Document(**{**doc.model_dump(exclude={"sha256"}), "text": doc.text + "\nA new line.\n"})
    _call(provider, cache, documents=[edited])
    assert route.call_count == 2
    _call(provider, cache, model="another-model")
    assert route.call_count == 3
    _call(provider, cache, model="another-model")
    assert route.call_count == 3  # and that one is now cached too


def test_key_covers_provider_model_prompt_documents_and_schema():
    doc = pebble_manual()
    base = build_request("pebble_hopper", [doc])
    key = ResponseCache.key("anthropic", "m1", base)
    assert key == ResponseCache.key("anthropic", "m1", build_request("pebble_hopper", [doc]))
    assert key != ResponseCache.key("openai", "m1", base)
    assert key != ResponseCache.key("anthropic", "m2", base)
    assert key != ResponseCache.key("anthropic", "m1", build_request("other_game", [doc]))
    from dataclasses import replace

    assert key != ResponseCache.key("anthropic", "m1", replace(base, document_shas=("0" * 64,)))
    assert key != ResponseCache.key("anthropic", "m1", replace(base, system=base.system + " "))


def test_corrupt_or_foreign_entry_is_a_miss(tmp_path: Path):
    cache = ResponseCache(tmp_path)
    request = build_request("pebble_hopper", [pebble_manual()])
    key = ResponseCache.key("openai", "m", request)
    cache.put("openai", "m", key, ANSWER)
    assert cache.get("openai", key) == ANSWER
    path = cache.path("openai", key)
    path.write_text("{not json", encoding="utf-8")
    assert cache.get("openai", key) is None
    path.write_text(json.dumps({"key": "something-else", "output": ANSWER}), encoding="utf-8")
    assert cache.get("openai", key) is None


@pytest.mark.parametrize("provider", PROVIDERS)
def test_entry_that_no_longer_fits_the_schema_is_asked_again(provider, router, api_env):
    cache = ResponseCache(api_env / "llm")
    request = build_request("pebble_hopper", [pebble_manual()])
    key = ResponseCache.key(provider, make_provider(provider).model, request)
    cache.put(provider, "m", key, '{"rules": [{"id": 7}]}')
    route = router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, ANSWER))
    result = structured_call(make_provider(provider, max_retries=0), request, cache)
    assert route.call_count == 1 and not result.from_cache
    assert cache.get(provider, key) == ANSWER


def test_cache_dir_comes_from_argument_then_env_then_platform(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("JAXTARI_ALIGN_CACHE", str(tmp_path / "env"))
    assert ResponseCache().dir == tmp_path / "env" / "llm"
    assert default_llm_cache_dir() == tmp_path / "env" / "llm"
    assert ResponseCache(tmp_path / "mine").dir == tmp_path / "mine"
    monkeypatch.delenv("JAXTARI_ALIGN_CACHE")
    import platformdirs

    assert ResponseCache().dir == Path(platformdirs.user_cache_dir("jaxtari-align")) / "llm"
