"""The committed, reviewed specs: valid, every span real, every candidate decided, probes true on ALE."""

from __future__ import annotations

import pytest

from alignment import catalog
from alignment.docs.corpus import load_documents
from alignment.spec.offline import extract
from alignment.spec.schema import Probe
from alignment.spec.store import _overlaps, load_spec
from tests.docs.paths import SHARED_DOCS, SPECS, needs_shared

GAMES = catalog.games()

@pytest.mark.parametrize("game", GAMES)
def test_spec_is_reviewed(game):
    spec = load_spec(SPECS / f"{game}.yaml")
    assert spec.game == game
    assert {r.status for r in spec.rules} <= {"reviewed", "rejected"}
    reviewed = [r for r in spec.rules if r.status == "reviewed"]
    assert len(reviewed) >= 6
    for rule in spec.rules:
        if rule.origin == "measured":
            assert rule.probe is not None and "measured on ale" in rule.note.lower()
        if rule.status == "rejected":
            assert rule.note, rule.id  # a rejection says why


@needs_shared
@pytest.mark.parametrize("game", GAMES)
def test_spans_are_real_and_every_candidate_is_decided(game):
    loaded = load_documents(game, docs_dir=SHARED_DOCS)
    docs = loaded.by_id()
    spec = load_spec(SPECS / f"{game}.yaml", documents=docs)  # raises on any invented span
    candidates = extract(game, loaded.documents).rules
    for cand in candidates:  # a re-extraction would add nothing new for review
        assert any(_overlaps(cand, r) for r in spec.rules), cand.id
    for rule in spec.rules:
        if rule.source is not None and rule.status == "reviewed":
            assert rule.statement.strip() != rule.source.text(docs).strip()  # own words


def run_probe_on_ale(game: str, probe: Probe, spec=None) -> list[str]:
    """The expectations of ``probe`` that the real emulator does not meet (empty: all hold);
    ``spec`` gives the save points the probe may start from."""
    from alignment.audit.probes import run_on_ale

    return run_on_ale(game, probe, spec).failures


def _probed_rules():
    # v5-protocol probes (hundreds of gymnasium episodes) run, on both backends, as slow tests in
    # tests/audit/test_probes.py
    out = []
    for game in GAMES:
        out += [pytest.param(game, r.id, id=f"{game}:{r.id}")
                for r in load_spec(SPECS / f"{game}.yaml").rules
                if r.probe is not None and r.status == "reviewed" and r.probe.protocol != "v5"]
    return out


@pytest.mark.parametrize("game, rule_id", _probed_rules())
def test_probe_holds_on_the_emulator(game, rule_id):
    spec = load_spec(SPECS / f"{game}.yaml")
    assert run_probe_on_ale(game, spec.rule(rule_id).probe, spec) == []


def test_a_wrong_probe_fails_on_the_emulator():
    """The probe check can fail: a Frostbite block is worth 10 points at level 1, not 20."""
    probe = Probe.model_validate({
        "steps": [{"action": "NOOP", "frames": 120}, {"action": "DOWN", "frames": 8},
                  {"action": "NOOP", "frames": 60}],
        "expectations": [{"signal": "score", "op": "==", "value": 20}]})
    (failure,) = run_probe_on_ale("frostbite", probe)
    assert "end 10" in failure
