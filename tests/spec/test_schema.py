"""The spec schema: span checks against documents, rule/probe validation, JSON schema export."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from alignment.docs.document import Document, sha256_text
from alignment.spec.schema import (
    ALE_ACTION_NAMES,
    GameSpec,
    Probe,
    Rule,
    Source,
    SourceRef,
    check_spans,
    json_schema,
    json_schema_text,
    quote_ref,
    span_ref,
)

TEXT = "SCORING\n\nFish are worth 150 points.\nEvery 4,000 points brings a\nbonus builder.\n"
DOC = Document(id="manual/frostbite", kind="manual", game="frostbite", url="https://example.invalid/m",
               retrieved="corpus", text=TEXT)
DOCS = {DOC.id: DOC}


def fish_rule(**over) -> dict:
    ref = quote_ref(DOC, "Fish are worth 150 points.")
    data = dict(id="scoring.fish", category="scoring", statement="A fish gives 150 points.",
                parameters={"points": {"value": 150, "unit": "points"}}, source=ref.model_dump())
    data.update(over)
    return data


def spec_data(*rules: dict) -> dict:
    return dict(game="frostbite", sources=[Source.of(DOC).model_dump()], rules=list(rules))


def test_quote_ref_points_at_the_verbatim_span():
    ref = quote_ref(DOC, "brings a bonus builder")  # the quote spans a line break
    assert ref is not None and DOC.text[ref.start:ref.end] == "brings a\nbonus builder"
    assert ref.sha256 == sha256_text("brings a\nbonus builder")
    assert quote_ref(DOC, "Fish are worth 999 points.") is None
    assert quote_ref(DOC, "   ") is None


def test_valid_spec_validates_against_its_documents():
    spec = GameSpec.model_validate(spec_data(fish_rule()), context={"documents": DOCS})
    assert spec.rule("scoring.fish").source.text(DOCS) == "Fish are worth 150 points."
    assert check_spans(spec, DOCS) == []


def test_invented_span_is_rejected():
    bad = fish_rule()
    bad["source"]["sha256"] = sha256_text("Fish are worth 500 points.")
    with pytest.raises(ValidationError, match="not in the document"):
        GameSpec.model_validate(spec_data(bad), context={"documents": DOCS})
    # without documents the model cannot know; check_spans then reports it
    spec = GameSpec.model_validate(spec_data(bad))
    (problem,) = check_spans(spec, DOCS)
    assert "scoring.fish" in problem and "line 3" in problem


def test_shifted_or_out_of_range_span_is_rejected():
    moved = fish_rule()
    moved["source"]["start"] += 1
    with pytest.raises(ValidationError, match="hashes to"):
        GameSpec.model_validate(spec_data(moved), context={"documents": DOCS})
    past = fish_rule()
    past["source"]["end"] = len(TEXT) + 5
    with pytest.raises(ValidationError, match="runs past the end"):
        GameSpec.model_validate(spec_data(past), context={"documents": DOCS})


def test_span_of_an_unlisted_document_is_rejected():
    other = fish_rule()
    other["source"]["document"] = "manual/pong"
    with pytest.raises(ValidationError, match="not listed in sources"):
        GameSpec.model_validate(spec_data(other))


def test_span_end_must_follow_start():
    with pytest.raises(ValidationError, match="must be after start"):
        SourceRef(document="d", start=5, end=5, sha256="0" * 64)


@pytest.mark.parametrize("over, message", [
    ({"id": "Scoring.Fish"}, "must look like"),
    ({"id": "points.fish"}, "must look like"),
    ({"id": "lives.fish"}, "its id must start with 'scoring.'"),
    ({"category": "magic"}, "Input should be"),
    ({"status": "approved"}, "Input should be"),
    ({"parameters": {"Points": {"value": 1, "unit": "points"}}}, "lower_snake_case"),
    ({"parameters": {"points": {"value": 1, "unit": ""}}}, "at least 1 character"),
    ({"source": None}, "cites no source span"),
    ({"surprise": 1}, "Extra inputs are not permitted"),
])
def test_rule_validation(over, message):
    with pytest.raises(ValidationError, match=message):
        Rule.model_validate(fish_rule(**over))


def test_duplicate_rule_ids_are_rejected():
    with pytest.raises(ValidationError, match="more than once: scoring.fish"):
        GameSpec.model_validate(spec_data(fish_rule(), fish_rule()))


PROBE = {"steps": [{"action": "noop", "frames": 120}, {"action": "DOWN", "frames": 8}],
         "expectations": [{"signal": "score", "op": "==", "value": 10},
                          {"signal": "igloo_blocks", "op": "increases"}]}


def test_probe_is_plain_data():
    probe = Probe.model_validate(PROBE)
    assert probe.seed == 0 and probe.start == "reset"
    assert [s.action for s in probe.steps] == ["NOOP", "DOWN"]  # names normalised
    assert probe.frames == 128
    assert probe.expectations[0].describe() == "score == 10"


@pytest.mark.parametrize("mutate, message", [
    (lambda p: p["steps"][0].update(action="JUMP"), "unknown ALE action 'JUMP'"),
    (lambda p: p["steps"][0].update(frames=0), "greater than or equal to 1"),
    (lambda p: p["expectations"][0].update(op="~="), "Input should be"),
    (lambda p: p["expectations"][0].pop("value"), "needs a value"),
    (lambda p: p["expectations"][1].update(value=3), "takes no value"),
    (lambda p: p["expectations"][0].update(signal="Score!"), "lower_snake_case"),
    (lambda p: p.update(start="Mid Game"), "save point name"),
    (lambda p: p.update(steps=[]), "at least 1 item"),
    (lambda p: p.update(code="import os"), "Extra inputs are not permitted"),
])
def test_probe_validation(mutate, message):
    data = json.loads(json.dumps(PROBE))
    mutate(data)
    with pytest.raises(ValidationError, match=message):
        Probe.model_validate(data)


def test_measured_rules_need_a_probe_and_a_note():
    base = dict(id="termination.first-to-21", category="termination",
                statement="A game ends at 21 points.", origin="measured")
    with pytest.raises(ValidationError, match="needs a probe"):
        Rule.model_validate(base)
    ok = Rule.model_validate({**base, "note": "measured on ALE 0.12.1", "probe": PROBE})
    assert ok.source is None
    with pytest.raises(ValidationError, match="must not cite"):
        Rule.model_validate({**fish_rule(), "origin": "measured", "note": "n", "probe": PROBE})


def test_spec_action_set_and_flavors_are_checked():
    with pytest.raises(ValidationError, match="unknown ALE action"):
        GameSpec(game="pong", actions=["NOOP", "SERVE"])
    with pytest.raises(ValidationError, match="twice"):
        GameSpec(game="pong", actions=["NOOP", "NOOP"])
    with pytest.raises(ValidationError, match="default mode 3"):
        GameSpec.model_validate({"game": "pong", "flavors": {"modes": [0, 1], "default_mode": 3}})
    with pytest.raises(ValidationError, match="lower_snake_case slug"):
        GameSpec(game="Ms Pacman")


def test_source_hash_must_match_the_document_now():
    data = spec_data(fish_rule())
    data["sources"][0]["sha256"] = "a" * 64
    with pytest.raises(ValidationError, match="re-extract the spec"):
        GameSpec.model_validate(data, context={"documents": DOCS})


def test_span_ref_checks_offsets():
    assert span_ref(DOC, 0, 7).sha256 == sha256_text("SCORING")
    with pytest.raises(ValueError, match="outside document"):
        span_ref(DOC, 10, len(TEXT) + 1)


def test_json_schema_export():
    schema = json_schema()
    assert schema["title"] == "jaxtari-align game spec"
    rule = schema["$defs"]["Rule"]
    assert {"id", "category", "statement", "source", "status", "probe"} <= set(rule["properties"])
    assert set(schema["$defs"]["Expectation"]["properties"]["op"]["enum"]) >= {
        "==", "increases_by", "unchanged"}
    assert json.loads(json_schema_text()) == schema


def test_action_names_match_jaxtari():
    from jaxtari.env import ACTION_NAMES

    assert ALE_ACTION_NAMES == ACTION_NAMES


# ---- probe kinds and save points ------------------------------------------------------------------

V5 = {"protocol": "v5", "seeds": 200, "steps": [{"action": "UP", "agent_steps": 1}],
      "expectations": [{"signal": "chicken_y", "op": "==", "value": 183, "rate": [0.6, 0.9]}]}


def test_v5_probe_counts_agent_steps_and_rates_over_seeds():
    probe = Probe.model_validate(V5)
    assert probe.frames == 4 and probe.seed_list == list(range(200))
    assert probe.expectations[0].describe() == "chicken_y == 183 on 60%..90% of seeds"


@pytest.mark.parametrize("mutate, message", [
    (lambda p: p["steps"][0].update(frames=4), "exactly one of 'frames'"),
    (lambda p: p["steps"][0].update(frames=4, agent_steps=None), "counts its steps in agent_steps"),
    (lambda p: p.pop("protocol"), "only a protocol: v5 probe counts agent steps"),
    (lambda p: p.update(start="igloo-complete"), "starts from reset"),
    (lambda p: p.update(seeds=None), "give the probe seeds"),
    (lambda p: p["expectations"][0].update(rate=[0.9, 0.6]), "low <= high"),
    (lambda p: p.update(protocol="v4"), "Input should be"),
    (lambda p: p["expectations"].append({"signal": "screen", "op": "matches_ale"}),
     "deterministic run"),
])
def test_v5_probe_validation(mutate, message):
    data = json.loads(json.dumps(V5))
    mutate(data)
    with pytest.raises(ValidationError, match=message):
        Probe.model_validate(data)


def test_screen_and_list_expectations():
    ok = {"steps": [{"action": "NOOP", "frames": 1}],
          "expectations": [{"signal": "screen", "op": "matches_ale"},
                           {"signal": "action_set", "op": "==", "value": ["NOOP", "UP"]},
                           {"signal": "floe_x", "op": "==", "value": [1, 2, 3, 4]}]}
    assert Probe.model_validate(ok).expectations[0].describe() == "screen matches ale"
    for bad, message in [({"signal": "screen", "op": "==", "value": 1}, "checked only with"),
                         ({"signal": "score", "op": "matches_ale"}, "checked only with"),
                         ({"signal": "screen", "op": "matches_ale", "value": 1}, "takes no value"),
                         ({"signal": "floe_x", "op": ">", "value": [1]}, "needs == or !=")]:
        with pytest.raises(ValidationError, match=message):
            Probe.model_validate({**ok, "expectations": [bad]})


def _point(**over) -> dict:
    data = {"steps": [{"action": "NOOP", "frames": 120}], "note": "measured on ALE",
            "reaches": [{"signal": "score", "op": "==", "value": 0}]}
    data.update(over)
    return data


def _probe_from(start: str) -> dict:
    return {"id": "scoring.x", "category": "scoring", "statement": "A rule.", "origin": "measured",
            "note": "measured on ALE", "probe": {**PROBE, "start": start}}


def test_save_points_chain_and_probes_name_them():
    spec = GameSpec.model_validate({"game": "frostbite", "rules": [_probe_from("later")],
                                    "save_points": {"early": _point(mode=2),
                                                    "later": _point(start="early", mode=2)}})
    mode, steps = spec.save_point_steps("later")
    assert mode == 2 and [s.frames for s in steps] == [120, 120]
    with pytest.raises(KeyError, match="unknown start 'castle'; starts of this spec: reset, early"):
        spec.save_point_steps("castle")


@pytest.mark.parametrize("points, rules, message", [
    ({"a": _point(start="b"), "b": _point(start="a")}, [], "in a loop: a -> b -> a"),
    ({"a": _point(start="nowhere")}, [], "starts from 'nowhere', which is not a save point"),
    ({"a": _point(mode=2), "b": _point(start="a")}, [], "modes must agree"),
    ({"a": _point()}, [_probe_from("b")], "probe starts from 'b', which is not a save point"),
    ({"reset": _point()}, [], "other than 'reset'"),
    ({"a": _point(steps=[{"action": "UP", "agent_steps": 2}])}, [], "count emulator frames"),
    ({"a": _point(reaches=[{"signal": "screen", "op": "matches_ale"}])}, [], "reaches signal values"),
])
def test_bad_save_points_are_named(points, rules, message):
    with pytest.raises(ValidationError, match=message):
        GameSpec.model_validate({"game": "frostbite", "rules": rules, "save_points": points})


def test_a_rule_has_a_probe_or_a_reason_not_both():
    base = dict(id="scoring.constant-after-9", category="scoring", statement="Level 9 values stay.",
                origin="measured", note="measured on ALE 0.12.1")
    with pytest.raises(ValidationError, match="has a probe and an 'unprobed' reason"):
        Rule.model_validate({**base, "probe": PROBE, "unprobed": "needs level 10"})


# ---- pokes: RAM-written starts ---------------------------------------------------------------------
POKE = {"steps": [{"poke": {"score": 4990}}, {"action": "NOOP", "frames": 120}],
        "expectations": [{"signal": "score", "op": "==", "value": 5000}]}


def test_a_poke_step_is_data_and_counts_no_frames():
    probe = Probe.model_validate(POKE)
    assert probe.steps[0].is_poke and probe.steps[0].poke == {"score": 4990}
    assert probe.steps[0].describe() == "poke score=4990" and probe.pokes
    assert probe.frames == 120
    dumped = probe.model_dump(mode="json", exclude_none=True)
    assert dumped["steps"][0] == {"poke": {"score": 4990}}
    assert Probe.model_validate(dumped) == probe


@pytest.mark.parametrize("mutate, message", [
    (lambda p: p["steps"][0].update(action="NOOP", frames=2), "a poke step only sets quantities"),
    (lambda p: p["steps"][0].update(poke={}), "names at least one quantity"),
    (lambda p: p["steps"][0].update(poke={"Score!": 1}), "lower_snake_case"),
    (lambda p: p["steps"][0].update(poke={"score": 49.5}), "must be an integer, got 49.5"),
    (lambda p: p["steps"][0].update(poke={"score": "4990"}), "must be an integer, got '4990'"),
    (lambda p: p["steps"][0].update(poke={"score": True}), "must be an integer, got True"),
    (lambda p: p["steps"].append({"frames": 3}), "a step is {action, frames}"),
])
def test_bad_poke_steps_are_named(mutate, message):
    data = json.loads(json.dumps(POKE))
    mutate(data)
    with pytest.raises(ValidationError, match=message):
        Probe.model_validate(data)


def test_a_v5_probe_refuses_a_poke_and_says_why():
    data = json.loads(json.dumps(V5))
    data["steps"].insert(0, {"poke": {"score": 10}})
    with pytest.raises(ValidationError, match="a protocol: v5 probe cannot poke: .* whole episodes"):
        Probe.model_validate(data)


def test_save_point_steps_may_poke_and_the_start_says_it_is_ram_written():
    spec = GameSpec(game="frostbite", save_points={
        "deep": {"steps": [{"poke": {"level": 10}}, {"action": "NOOP", "frames": 120}],
                 "reaches": [{"signal": "level", "op": "==", "value": 10}], "note": "a poked start"},
        "played": {"steps": [{"action": "NOOP", "frames": 120}],
                   "reaches": [{"signal": "level", "op": "==", "value": 1}], "note": "played"}})
    assert spec.save_points["deep"].frames == 120
    probe = {"steps": [{"action": "NOOP", "frames": 1}],
             "expectations": [{"signal": "level", "op": "==", "value": 10}]}
    assert spec.describe_start(Probe.model_validate({**probe, "start": "played"})) == \
        "save point played"
    assert spec.describe_start(Probe.model_validate({**probe, "start": "deep"})) == \
        "RAM-written start (poke level=10) from save point deep"
    assert spec.describe_start(Probe.model_validate(POKE)) == \
        "RAM-written start (poke score=4990) from reset"
