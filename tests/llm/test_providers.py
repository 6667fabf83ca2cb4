"""The Anthropic and OpenAI providers over their real SDKs, against respx-mocked HTTP (never the network)."""

from __future__ import annotations

import json

import pytest

from alignment.llm import (
    LLMError,
    LLMOutputError,
    LLMRequestError,
    MissingAPIKeyError,
    make_provider,
    structured_call,
)
from alignment.llm.base import ResponseCache
from alignment.spec.llm_extract import ExtractionDraft, build_request
from tests.llm.support import (  # noqa: F401  (fixtures)
    FAKE_KEYS,
    KEY_ENVS,
    PROVIDER_URLS,
    api_env,
    draft_json,
    error_response,
    ok_response,
    pebble_manual,
    router,
    rule,
)

PROVIDERS = ("anthropic", "openai")

GOOD = draft_json([
    rule("scoring.fresh-pad", "scoring", "Landing on a pad not yet visited adds 15 points.",
         "Each hop onto a fresh pad\nscores 15 points.", "manual/pebble_hopper",
         [{"name": "points", "value": 15, "unit": "points"}]),
])


def _request():
    return build_request("pebble_hopper", [pebble_manual()])


def _provider(name: str, **settings):
    # max_retries=2 and the 1 ms retry-after-ms of the mocked errors keep the SDK's retries fast
    settings.setdefault("max_retries", 2)
    return make_provider(name, **settings)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_good_answer_is_parsed_and_request_is_structured(provider, router, api_env):
    route = router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, GOOD))
    result = structured_call(_provider(provider), _request(), cache=None)

    assert isinstance(result.output, ExtractionDraft)
    assert [r.id for r in result.output.rules] == ["scoring.fresh-pad"]
    assert result.output.rules[0].parameters[0].value == 15
    assert not result.from_cache
    assert route.call_count == 1

    sent = route.calls.last.request
    body = json.loads(sent.content)
    assert "Each hop onto a fresh pad" in json.dumps(body)  # the document text is in the prompt
    if provider == "anthropic":
        # this SDK (anthropic 2.x) sends the API key as a bearer token
        auth = sent.headers.get("x-api-key") or sent.headers.get("authorization", "")
        assert auth.removeprefix("Bearer ") == FAKE_KEYS["anthropic"]
        assert body["model"] == "claude-sonnet-5-5"
        fmt = body["output_config"]["format"]
        assert fmt["type"] == "json_schema"
        assert fmt["schema"]["required"] == ["rules"]
        assert body["messages"][0]["role"] == "user"
        assert "CHARACTER FOR CHARACTER" in body["system"]
    else:
        assert sent.headers["authorization"] == f"Bearer {FAKE_KEYS['openai']}"
        assert body["model"] == "gpt-5.5"
        fmt = body["response_format"]
        assert fmt["type"] == "json_schema"
        assert fmt["json_schema"]["strict"] is True
        assert fmt["json_schema"]["schema"]["required"] == ["rules"]
        assert [m["role"] for m in body["messages"]] == ["system", "user"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_model_option_selects_the_model(provider, router, api_env):
    route = router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, GOOD))
    p = _provider(provider, model="my-chosen-model")
    structured_call(p, _request(), cache=None)
    assert json.loads(route.calls.last.request.content)["model"] == "my-chosen-model"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_429_and_500_are_retried_by_the_sdk_then_succeed(provider, router, api_env):
    route = router.post(PROVIDER_URLS[provider]).mock(side_effect=[
        error_response(provider, 429, "Rate limited, slow down"),
        error_response(provider, 500, "Internal server error"),
        ok_response(provider, GOOD),
    ])
    result = structured_call(_provider(provider, max_retries=2), _request(), cache=None)
    assert route.call_count == 3
    assert result.output.rules[0].id == "scoring.fresh-pad"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_persistent_5xx_is_a_clear_error_after_the_retries(provider, router, api_env):
    route = router.post(PROVIDER_URLS[provider]).mock(
        return_value=error_response(provider, 503, "Service overloaded")
    )
    with pytest.raises(LLMRequestError) as err:
        structured_call(_provider(provider, max_retries=1), _request(), cache=None)
    assert route.call_count == 2  # the first try and one retry
    msg = str(err.value)
    assert msg.startswith(provider)
    assert "503" in msg and "after 1 retries" in msg


@pytest.mark.parametrize("provider", PROVIDERS)
def test_rejected_key_is_not_retried_and_names_the_variable(provider, router, api_env):
    route = router.post(PROVIDER_URLS[provider]).mock(
        return_value=error_response(provider, 401, "invalid x-api-key")
    )
    with pytest.raises(LLMRequestError) as err:
        structured_call(_provider(provider), _request(), cache=None)
    assert route.call_count == 1
    assert KEY_ENVS[provider] in str(err.value) and "401" in str(err.value)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_missing_key_is_a_clear_message_and_sends_nothing(provider, router, api_env, monkeypatch):
    monkeypatch.delenv(KEY_ENVS[provider])
    route = router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, GOOD))
    with pytest.raises(MissingAPIKeyError) as err:
        structured_call(_provider(provider), _request(), cache=ResponseCache(api_env))
    msg = str(err.value)
    assert KEY_ENVS[provider] in msg
    assert "--llm offline" in msg
    assert f"--llm {provider}" in msg
    assert route.call_count == 0


@pytest.mark.parametrize("provider", PROVIDERS)
def test_invalid_json_is_asked_once_more_then_a_clear_error(provider, router, api_env):
    route = router.post(PROVIDER_URLS[provider]).mock(
        return_value=ok_response(provider, '{"rules": [{"id": "scoring.x", ')
    )
    with pytest.raises(LLMOutputError) as err:
        structured_call(_provider(provider), _request(), cache=ResponseCache(api_env))
    assert route.call_count == 2
    msg = str(err.value)
    assert msg.startswith(provider)
    assert "not valid JSON" in msg
    assert "after 2 attempts" in msg
    assert not list(api_env.rglob("*.json"))  # a bad answer is never cached


@pytest.mark.parametrize("provider", PROVIDERS)
def test_schema_mismatch_names_the_field(provider, router, api_env):
    bad = json.loads(GOOD)
    del bad["rules"][0]["quote"]
    bad["rules"][0]["category"] = "weather"
    router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, json.dumps(bad)))
    with pytest.raises(LLMOutputError) as err:
        structured_call(_provider(provider), _request(), cache=None)
    msg = str(err.value)
    assert "ExtractionDraft schema" in msg
    assert "rules.0.quote" in msg and "rules.0.category" in msg


@pytest.mark.parametrize("provider", PROVIDERS)
def test_one_malformed_answer_then_a_good_one_succeeds(provider, router, api_env):
    route = router.post(PROVIDER_URLS[provider]).mock(side_effect=[
        ok_response(provider, "Sure! Here are the rules: ..."),
        ok_response(provider, GOOD),
    ])
    result = structured_call(_provider(provider), _request(), cache=None)
    assert route.call_count == 2
    assert result.output.rules[0].id == "scoring.fresh-pad"


def test_anthropic_answer_cut_off_at_max_tokens_is_not_retried(router, api_env):
    from tests.llm.support import anthropic_message
    import httpx

    route = router.post(PROVIDER_URLS["anthropic"]).mock(return_value=httpx.Response(
        200, json=anthropic_message('{"rules": [', stop_reason="max_tokens")
    ))
    with pytest.raises(LLMOutputError) as err:
        structured_call(_provider("anthropic"), _request(), cache=None)
    assert route.call_count == 1
    assert "token limit" in str(err.value)


def test_openai_answer_cut_off_at_length_is_not_retried(router, api_env):
    from tests.llm.support import openai_completion
    import httpx

    route = router.post(PROVIDER_URLS["openai"]).mock(return_value=httpx.Response(
        200, json=openai_completion('{"rules": [', finish_reason="length")
    ))
    with pytest.raises(LLMOutputError) as err:
        structured_call(_provider("openai"), _request(), cache=None)
    assert route.call_count == 1
    assert "token limit" in str(err.value)


def test_openai_refusal_is_reported(router, api_env):
    from tests.llm.support import openai_completion
    import httpx

    router.post(PROVIDER_URLS["openai"]).mock(return_value=httpx.Response(
        200, json=openai_completion(None, refusal="I can't help with that.")
    ))
    with pytest.raises(LLMOutputError) as err:
        structured_call(_provider("openai"), _request(), cache=None)
    assert "declined" in str(err.value) and "I can't help with that." in str(err.value)


def test_unknown_provider_and_offline_model_are_clear_errors():
    with pytest.raises(LLMError, match="unknown --llm 'gemini'; use one of: offline, anthropic, openai"):
        make_provider("gemini")
    with pytest.raises(LLMError, match="--llm offline uses no model"):
        make_provider("offline", model="gpt-5.5")
    with pytest.raises(LLMError, match="asks no model"):
        make_provider("offline").generate(_request())


def test_anthropic_tool_mode_reads_the_forced_tool_use_block(router, api_env):
    from tests.llm.support import anthropic_tool_message
    import httpx

    route = router.post(PROVIDER_URLS["anthropic"]).mock(return_value=httpx.Response(
        200, json=anthropic_tool_message("record_answer", json.loads(GOOD))
    ))
    result = structured_call(_provider("anthropic", mode="tool"), _request(), cache=None)
    assert result.output.rules[0].id == "scoring.fresh-pad"
    body = json.loads(route.calls.last.request.content)
    assert body["tool_choice"] == {"type": "tool", "name": "record_answer"}
    assert body["tools"][0]["input_schema"]["required"] == ["rules"]
    assert "output_config" not in body


def test_anthropic_falls_back_to_a_forced_tool_when_the_model_lacks_structured_output(router, api_env):
    from tests.llm.support import anthropic_tool_message
    import httpx

    rejected = httpx.Response(400, json={"type": "error", "error": {
        "type": "invalid_request_error",
        "message": "output_config.format: structured outputs are not supported by this model"}})
    route = router.post(PROVIDER_URLS["anthropic"]).mock(side_effect=[
        rejected, httpx.Response(200, json=anthropic_tool_message("record_answer", json.loads(GOOD))),
    ])
    result = structured_call(_provider("anthropic", model="claude-older"), _request(), cache=None)
    assert route.call_count == 2
    first, second = (json.loads(c.request.content) for c in route.calls)
    assert "output_config" in first and "tools" not in first
    assert second["tool_choice"]["name"] == "record_answer" and "output_config" not in second
    assert result.output.rules[0].id == "scoring.fresh-pad"


def test_anthropic_other_bad_request_is_reported_not_retried(router, api_env):
    import httpx

    route = router.post(PROVIDER_URLS["anthropic"]).mock(return_value=httpx.Response(400, json={
        "type": "error", "error": {"type": "invalid_request_error",
                                   "message": "prompt is too long: 250000 tokens > 200000 maximum"}}))
    with pytest.raises(LLMRequestError) as err:
        structured_call(_provider("anthropic"), _request(), cache=None)
    assert route.call_count == 1
    assert "prompt is too long" in str(err.value) and "400" in str(err.value)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_server_that_never_answers_meets_the_deadline(provider, router, api_env):
    """A network that accepts and then holds the request (here: 2 s per attempt, retried) must not
    hold the user past the total deadline, whatever the per-attempt timeout and retries say."""
    import time

    def hang(request):
        time.sleep(2.0)
        return ok_response(provider, GOOD)

    router.post(PROVIDER_URLS[provider]).mock(side_effect=hang)
    started = time.monotonic()
    with pytest.raises(LLMRequestError, match=r"no answer within the 0\.5 s deadline.*--timeout"):
        structured_call(_provider(provider, max_retries=4, timeout=60, deadline=0.5), _request(),
                        cache=None)
    assert time.monotonic() - started < 1.5


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_answer_inside_the_deadline_is_used(provider, router, api_env):
    router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, GOOD))
    result = structured_call(_provider(provider, deadline=30), _request(), cache=None)
    assert result.output.rules[0].id == "scoring.fresh-pad"
