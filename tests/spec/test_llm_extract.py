"""The LLM extractor end to end: real SDK code paths against respx-mocked HTTP, spans checked in the text.

The rules the mocked model "returns" quote the real Frostbite manual (../shared/docs, skipped when
absent) or the small test manual of tests/llm/support.py. Every expected span is computed here from
the document text itself, never taken from the code under test.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from alignment.docs.document import Document
from alignment.llm import LLMError, LLMOutputError, MissingAPIKeyError
from alignment.spec.llm_extract import extract, locate_quote
from alignment.spec.schema import GameSpec, Probe, Source, span_problem
from tests.llm.support import (  # noqa: F401  (fixtures)
    KEY_ENVS,
    PROVIDER_URLS,
    api_env,
    draft_json,
    frostbite_manual,
    ok_response,
    pebble_manual,
    router,
    rule,
)

PROVIDERS = ("anthropic", "openai")
MANUAL = "manual/frostbite"

# Quotes as they are in the manual (typos included) ...
LIVES_QUOTE = "You begin the game with one active Frostbite Bailey (TM) and three on reserve."
TEMPERATURE_QUOTE = "Frostbite always starts working when it's 45 outside."
# ... and one copied across a line break with doubled spaces: found by the whitespace-loose match.
BONUS_QUOTE_AS_SENT = ("With each increase of 5,000 points, a bonus Frostbite is added\n"
                       "to your  reserves (up to a maximum of nine).")
BONUS_QUOTE_IN_TEXT = ("With each increase of 5,000 points, a bonus Frostbite is added to your "
                       "reserves (up to a maximum of nine).")
INVENTED_QUOTE = "Each fish caught during the night shift is worth 500 points."
STITCHED_QUOTE = "You begin the game with one active Frostbite Bailey (TM) ... maximum of nine)."


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _expected_span(doc: Document, quote_in_text: str) -> tuple[int, int]:
    start = doc.text.index(quote_in_text)
    return start, start + len(quote_in_text)


def _frostbite_answer() -> str:
    return draft_json([
        rule("lives.start", "lives", "A game starts with one player in play and three in reserve.",
             LIVES_QUOTE, MANUAL, [{"name": "reserve", "value": 3, "unit": "lives"}]),
        rule("timing.start-temperature", "timing", "The temperature starts at 45 degrees.",
             TEMPERATURE_QUOTE, MANUAL, [{"name": "start_temperature", "value": 45, "unit": "degrees"}]),
        rule("lives.bonus", "lives", "Every 5000 points add one reserve life, to at most nine.",
             BONUS_QUOTE_AS_SENT, MANUAL,
             [{"name": "points_interval", "value": 5000, "unit": "points"},
              {"name": "maximum", "value": 9, "unit": "lives"}]),
        rule("scoring.night-fish", "scoring", "Fish are worth more at night.", INVENTED_QUOTE, MANUAL),
        rule("lives.bonus-cap", "lives", "Reserves are capped.", STITCHED_QUOTE, MANUAL),
    ])


@pytest.mark.parametrize("provider", PROVIDERS)
def test_frostbite_rules_cite_real_spans_and_the_invented_ones_are_reported(provider, router, api_env):
    doc = frostbite_manual()
    route = router.post(PROVIDER_URLS[provider]).mock(
        return_value=ok_response(provider, _frostbite_answer())
    )
    rules, unsupported = extract("frostbite", [doc], provider)
    assert route.call_count == 1

    by_id = {r.id: r for r in rules}
    assert sorted(by_id) == ["lives.bonus", "lives.start", "timing.start-temperature"]
    for rule_id, quote_in_text in [("lives.start", LIVES_QUOTE),
                                   ("timing.start-temperature", TEMPERATURE_QUOTE),
                                   ("lives.bonus", BONUS_QUOTE_IN_TEXT)]:
        ref = by_id[rule_id].source
        start, end = _expected_span(doc, quote_in_text)
        assert (ref.document, ref.start, ref.end) == (MANUAL, start, end)
        assert ref.sha256 == _sha(quote_in_text)
        assert span_problem(ref, {doc.id: doc}) is None
        assert by_id[rule_id].status == "extracted"
        assert by_id[rule_id].note is None  # every number is written in its quote ("three", "5,000")
    assert by_id["lives.start"].parameters["reserve"].value == 3
    assert by_id["lives.bonus"].parameters["points_interval"].value == 5000
    assert by_id["lives.bonus"].parameters["maximum"].unit == "lives"

    assert [(u.statement, u.quote) for u in unsupported] == [
        ("Fish are worth more at night.", INVENTED_QUOTE),
        ("Reserves are capped.", STITCHED_QUOTE),
    ]
    for claim in unsupported:
        assert provider in claim.reason
        assert "not in document manual/frostbite" in claim.reason
        assert claim.document == MANUAL

    # the result drops straight into a spec that validates against the real document
    spec = GameSpec.model_validate(
        {"game": "frostbite", "extractor": provider, "sources": [Source.of(doc).model_dump()],
         "rules": [r.model_dump() for r in rules], "unsupported": [u.model_dump() for u in unsupported]},
        context={"documents": {doc.id: doc}},
    )
    assert len(spec.rules) == 3


@pytest.mark.parametrize("provider", PROVIDERS)
def test_rerun_costs_nothing_and_gives_the_same_rules(provider, router, api_env):
    doc = pebble_manual()
    answer = draft_json([rule("scoring.fresh-pad", "scoring", "A fresh pad scores 15.",
                              "Each hop onto a fresh pad scores 15 points.", doc.id,
                              [{"name": "points", "value": 15, "unit": "points"}])])
    route = router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, answer))
    first = extract("pebble_hopper", [doc], provider, cache_dir=api_env / "answers")
    router.reset()
    second = extract("pebble_hopper", [doc], provider, cache_dir=api_env / "answers")
    assert router.calls.call_count == 0 and route.call_count == 0
    assert first == second
    (rule_,) = first[0]
    # the quote has one space where the text has a line break: the span is the text's own
    assert doc.text[rule_.source.start:rule_.source.end] == "Each hop onto a fresh pad\nscores 15 points."


@pytest.mark.parametrize("provider", PROVIDERS)
def test_missing_key_through_extract(provider, router, api_env, monkeypatch):
    monkeypatch.delenv(KEY_ENVS[provider])
    with pytest.raises(MissingAPIKeyError) as err:
        extract("pebble_hopper", [pebble_manual()], provider)
    assert f"export {KEY_ENVS[provider]}=" in str(err.value) and "--llm offline" in str(err.value)
    assert router.calls.call_count == 0


@pytest.mark.parametrize("provider", PROVIDERS)
def test_malformed_answer_through_extract_names_provider_and_problem(provider, router, api_env):
    route = router.post(PROVIDER_URLS[provider]).mock(
        return_value=ok_response(provider, json.dumps({"rules": "none found"}))
    )
    with pytest.raises(LLMOutputError) as err:
        extract("pebble_hopper", [pebble_manual()], provider)
    assert route.call_count == 2
    assert str(err.value).startswith(provider) and "rules:" in str(err.value)


def test_probes_are_validated_as_data_or_dropped(router, api_env):
    doc = pebble_manual()
    quote = "You start with three frogs."
    good_probe = {"seed": 0, "start": "reset", "steps": [{"action": "noop", "frames": 60}],
                  "expectations": [{"signal": "lives", "op": "==", "value": 3}]}
    bad_action = {**good_probe, "steps": [{"action": "JUMP", "frames": 10}]}
    code_as_signal = {**good_probe,
                      "expectations": [{"signal": "__import__('os').system('id')", "op": "==", "value": 1}]}
    answer = draft_json([
        rule("lives.start", "lives", "Three frogs at the start.", quote, doc.id, probe=good_probe),
        rule("lives.start-b", "lives", "Three frogs at the start.", quote, doc.id, probe=bad_action),
        rule("lives.start-c", "lives", "Three frogs at the start.", quote, doc.id, probe=code_as_signal),
    ])
    router.post(PROVIDER_URLS["anthropic"]).mock(return_value=ok_response("anthropic", answer))
    rules, unsupported = extract("pebble_hopper", [doc], "anthropic")
    assert unsupported == []
    kept, no_action, no_code = rules
    assert isinstance(kept.probe, Probe)
    assert kept.probe.steps[0].action == "NOOP" and kept.probe.expectations[0].value == 3
    assert no_action.probe is None and "probe was dropped" in no_action.note and "JUMP" in no_action.note
    assert no_code.probe is None and "lower_snake_case" in no_code.note


def test_ids_are_normalised_made_unique_and_bad_rules_reported(router, api_env):
    doc = pebble_manual()
    q1 = "You start with three frogs."
    q2 = "The clock starts at 60 and counts down once per second."
    answer = draft_json([
        rule("Lives_Start", "lives", "Three frogs at the start.", q1, doc.id),
        rule("lives.start", "lives", "Three frogs, said again.", q1, doc.id),
        rule("points.clock start", "timing", "The clock starts at 60.", q2, doc.id,
             [{"name": "Start Value", "value": 60, "unit": "seconds"},
              {"name": "start_value", "value": 61, "unit": "seconds"}]),
        rule("timing.tick", "timing", "x", q2, doc.id),  # statement too short for a Rule
        rule("scoring.pad", "scoring", "Pads score.", "points", doc.id),  # quote too short to prove anything
        rule("lives.elsewhere", "lives", "Three frogs.", q1, "manual/other"),  # wrong document id
    ])
    router.post(PROVIDER_URLS["openai"]).mock(return_value=ok_response("openai", answer))
    rules, unsupported = extract("pebble_hopper", [doc], "openai")
    assert [r.id for r in rules] == ["lives.start", "lives.start-2", "timing.clock-start", "lives.elsewhere"]
    clock = rules[2]
    assert list(clock.parameters) == ["start_value"] and clock.parameters["start_value"].value == 60
    assert "manual/other" in rules[3].note and rules[3].source.document == doc.id
    reasons = [u.reason for u in unsupported]
    assert len(reasons) == 2
    assert "not a valid rule" in reasons[0]
    assert "too short" in reasons[1]


def test_locate_quote_exact_then_whitespace_loose_with_original_offsets():
    doc = pebble_manual()
    exact = "You start with three frogs."
    ref = locate_quote(exact, doc)
    assert (ref.start, ref.end) == _expected_span(doc, exact)
    in_text = "A frog is lost when it lands in the water or\nwhen the clock runs out."
    ref = locate_quote("  A frog is lost when it lands in the water   or when the clock runs out. ", doc)
    assert (ref.start, ref.end) == _expected_span(doc, in_text)
    assert ref.sha256 == _sha(in_text)
    assert locate_quote("A frog is lost when it lands in lava.", doc) is None
    assert locate_quote("   ", doc) is None


def test_offline_provider_uses_the_offline_extractor_without_any_http(router, api_env, monkeypatch):
    for env in KEY_ENVS.values():
        monkeypatch.delenv(env)
    doc = frostbite_manual()
    rules, _ = extract("frostbite", [doc], "offline")
    assert rules, "the offline extractor found no rules in the Frostbite manual"
    for r in rules:
        assert r.source is not None and span_problem(r.source, {doc.id: doc}) is None
    assert router.calls.call_count == 0
    assert extract("frostbite", [doc], "offline") == (rules, _)  # deterministic


def test_no_documents_or_unknown_provider_is_a_clear_error(api_env):
    with pytest.raises(LLMError, match="no documents"):
        extract("pebble_hopper", [], "anthropic")
    with pytest.raises(LLMError, match="unknown --llm 'llama'"):
        extract("pebble_hopper", [pebble_manual()], "llama")


def test_a_number_not_in_the_quote_is_flagged_for_review(router, api_env):
    doc = pebble_manual()
    answer = draft_json([rule(
        "progression.extra-frog", "progression", "Points earn extra frogs, up to six.",
        "Every 2,000 points\nearn an extra frog, up to a maximum of six.", doc.id,
        [{"name": "points_interval", "value": 2000, "unit": "points"},
         {"name": "maximum", "value": 6, "unit": "lives"},
         {"name": "start_lives", "value": 4, "unit": "lives"}],
    )])
    router.post(PROVIDER_URLS["openai"]).mock(return_value=ok_response("openai", answer))
    (r,), unsupported = extract("pebble_hopper", [doc], "openai")
    assert unsupported == []
    assert r.note == "not written in the cited text, check: start_lives=4"
    assert set(r.parameters) == {"points_interval", "maximum", "start_lives"}
