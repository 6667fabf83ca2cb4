"""The offline extractor and its parsers, on the project's test documents and the real corpus."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alignment.docs.corpus import load_documents
from alignment.docs.document import Document, sha256_text
from alignment.docs.text import DocumentError
from alignment.spec.farama import parse_farama
from alignment.spec.offline import extract, extract_rules
from alignment.spec.quantities import find_quantities, parameters_of
from alignment.spec.schema import ALE_ACTION_NAMES
from tests.docs.paths import SHARED_DOCS, TEST_DOCS, needs_shared


def params(sentence: str) -> dict:
    return parameters_of(find_quantities(sentence))


@pytest.mark.parametrize("sentence, expected", [
    ("Each fish is worth 10 points.", {"points": (10, "points")}),
    ("The paddle deflects at 45 degrees.", {"degrees": (45, "degrees")}),
    ("A bonus comes every 5,000 points.", {"points_interval": (5000, "points")}),
    ("The round lasts 2 minutes 16 seconds.", {"duration": (136, "seconds")}),
    ("The round lasts 3 minutes and 5 seconds.", {"duration": (185, "seconds")}),
    ("Wait 30 seconds.", {"duration": (30, "seconds")}),
    ("You get a point for each crossing.", {"points": (1, "points")}),
    ("Advanced games start at level 5.", {"level": (5, "level")}),
    ("You start with three on reserve.", {"reserve": (3, "lives")}),
    ("Up to a maximum of nine builders.", {"maximum": (9, "count")}),
    ("Five balls per game.", {"balls": (5, "balls")}),
    ("A ball bounces.", {}),
    ("Nothing numeric here.", {}),
])
def test_quantities(sentence, expected):
    assert params(sentence) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("0123456789 ,.-abcxyz")
                               + ["points", " minutes ", " seconds", " level ", "every ",
                                  "maximum of ", " on reserve", "degrees", "nine", " a "]),
                max_size=30).map("".join))
def test_fuzz_quantities_offsets_lie_inside_the_sentence(sentence):
    for found in find_quantities(sentence):
        assert 0 <= found.start < found.end <= len(sentence)
        assert isinstance(found.value, (int, float))


@pytest.fixture(scope="module")
def test_frostbite():
    loaded = load_documents("frostbite", docs_dir=TEST_DOCS)
    return loaded, extract("frostbite", loaded.documents)


def test_structure_from_the_farama_page(test_frostbite):
    _, spec = test_frostbite
    assert spec.game == "frostbite" and spec.env_id == "ALE/Frostbite-v5" and spec.title == "Frostbite"
    assert len(spec.actions) == 18 and spec.actions[:3] == ["NOOP", "FIRE", "UP"]
    assert spec.observation_space == "Box(0, 255, (210, 160, 3), uint8)"
    assert spec.flavors.modes == [0, 2] and spec.flavors.difficulties == [0]
    assert [v.env_id for v in spec.variants] == ["FrostbiteNoFrameskip-v4", "ALE/Frostbite-v5"]
    assert spec.rule("action.minimal-set").parameters["action_count"].value == 18
    assert spec.rule("timing.frameskip-v5").parameters["frameskip"].value == 4
    assert spec.rule("action.sticky-v5").parameters["repeat_action_probability"].value == 0.25
    assert [s.id for s in spec.sources] == ["farama/frostbite", "manual/frostbite"]


def _with(spec, **values):
    """Rules whose parameters include all the given name=value pairs."""
    return [r for r in spec.rules
            if all(k in r.parameters and r.parameters[k].value == v for k, v in values.items())]


def test_manual_rules_are_categorised_with_numbers(test_frostbite):
    loaded, spec = test_frostbite
    docs = loaded.by_id()
    (fish,) = _with(spec, points=150)
    assert fish.category == "scoring" and fish.source.text(docs) == "Each fish is worth 150 points."
    (bonus,) = _with(spec, points_interval=4000)
    assert bonus.category == "lives" and bonus.parameters["maximum"].value == 8
    (reserve,) = _with(spec, reserve=3)
    assert reserve.category == "lives"
    (shift,) = _with(spec, duration=136)
    assert shift.category == "timing" and shift.parameters["duration"].unit == "seconds"
    (cold,) = _with(spec, degrees=45)
    assert cold.category == "timing" and cold.parameters["frames_interval"].value == 64
    lost = [r for r in spec.rules if r.source.text(docs).startswith("A builder is lost")]
    assert lost and lost[0].category == "lives"
    controls = [r for r in spec.rules if r.category == "action" and r.source.document.startswith("manual")]
    assert len(controls) == 2  # joystick up/down and the red button


def test_numeric_table_rows_become_rules(test_frostbite):
    loaded, spec = test_frostbite
    rows = [r for r in spec.rules if r.id.startswith("scoring.table-level-")]
    assert [(r.parameters["level"].value, r.parameters["points_per_block"].value,
             r.parameters["points_for_entering_igloo"].value) for r in rows] == [
        (1, 15, 200), (2, 25, 400), (3, 35, 600)]
    docs = loaded.by_id()
    assert re.fullmatch(r"1\s+15\s+200", rows[0].source.text(docs))


def test_setup_and_club_sections_are_not_rules(test_frostbite):
    loaded, spec = test_frostbite
    docs = loaded.by_id()
    cited = " ".join(r.source.text(docs) for r in spec.rules)
    assert "cartridge" not in cited and "emblem" not in cited and "50,000" not in cited


def test_vague_claims_are_unsupported(test_frostbite):
    loaded, spec = test_frostbite
    (claim,) = spec.unsupported
    assert claim.document == "manual/frostbite" and claim.quote is None  # no prose copied
    assert "certain high number" in claim.source.text(loaded.by_id())


def test_statements_are_generated_not_copied(test_frostbite):
    loaded, spec = test_frostbite
    docs = loaded.by_id()
    for rule in spec.rules:
        assert rule.statement != rule.source.text(docs)
        assert rule.status == "extracted"


def test_extraction_is_deterministic(test_frostbite):
    loaded, spec = test_frostbite
    assert extract("Frostbite", loaded.documents) == spec


def test_every_span_is_real(test_frostbite):
    loaded, spec = test_frostbite
    docs = loaded.by_id()
    for rule in spec.rules:
        text = docs[rule.source.document].text[rule.source.start:rule.source.end]
        assert sha256_text(text) == rule.source.sha256 and text == text.strip()


def test_page_only_game():
    loaded = load_documents("pong", docs_dir=TEST_DOCS)
    spec = extract("pong", loaded.documents)
    assert spec.actions == ["NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE"]
    assert spec.flavors.difficulties == [0, 1, 2, 3]
    scoring = [r for r in spec.rules if r.category == "scoring"]
    assert len(scoring) == 2 and all(r.parameters["points"].value == 1 for r in scoring)


# ---------------------------------------------------------------------------------------------
# Malformed pages name the document and the line.

GOOD_PAGE = (TEST_DOCS / "farama" / "pong.md").read_text()


def page(text: str) -> Document:
    return Document(id="farama/pong", kind="farama", game="pong", url="u", retrieved="r", text=text)


@pytest.mark.parametrize("old, new, message", [
    ("|       3 | LEFT      |", "|       7 | LEFT      |", "action index '7' should be 3"),
    ("|       3 | LEFT      |", "|       3 | SIDEWAYS  |", "unknown ALE action 'SIDEWAYS'"),
    ("Discrete(6)", "Discrete(7)", "lists 6 actions but the action space is Discrete(7)"),
    ("Discrete(6)", "Continuous", "is not Discrete(n)"),
    ("`[0, 1]`          |", "`zero`           |", "expected a list like [0, 2]"),
    ("`[0, ..., 3]`", "`[..., 3]`    ", "needs numbers on both sides"),
    ("`0.25`", "`lots`", "is not a number"),
])
def test_malformed_farama_page(old, new, message):
    assert old in GOOD_PAGE
    bad = GOOD_PAGE.replace(old, new, 1)
    with pytest.raises(DocumentError) as err:
        parse_farama(page(bad))
    text = str(err.value)
    assert "farama/pong" in text and message in text and "(line " in text
    line = bad.splitlines()[err.value.line - 1]
    if "Discrete(7)" in new:  # a count mismatch points at the actions table
        assert line.startswith("|       0 | NOOP")
    else:  # otherwise at the very line that is wrong
        assert new.strip(" |`").split()[0].strip("`[,") in line


def test_page_without_actions_section():
    with pytest.raises(DocumentError, match=r"'farama/pong': has no 'Actions' section"):
        parse_farama(page("# Pong\n\nNothing else.\n"))


# ---------------------------------------------------------------------------------------------
# Fuzzing the extractor: no crash, every span valid.

_words = st.sampled_from(
    "the fish is worth 10 points every 5,000 a bonus life lost game over level 4 joystick press "
    "button seconds 2 minutes appears turns blue speed . , ; ! ? \n \n\n SCORING\n * 1. | --- "
    "temperature reserve maximum of nine up to".split(" ")
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_words, st.text(max_size=8)), max_size=80).map(" ".join))
def test_fuzz_manual_extraction_spans_always_valid(body):
    text = body if body.strip() else "x"
    doc = Document(id="manual/fuzz", kind="manual", game="pong", url="u", retrieved="r", text=text)
    rules, unsupported = extract_rules([doc])
    for rule in rules:
        span = doc.text[rule.source.start:rule.source.end]
        assert sha256_text(span) == rule.source.sha256
    assert len({r.id for r in rules}) == len(rules)
    for claim in unsupported:
        assert sha256_text(doc.text[claim.source.start:claim.source.end]) == claim.source.sha256


# ---------------------------------------------------------------------------------------------
# The real corpus


@needs_shared
def test_real_corpus_every_farama_page_extracts():
    for path in sorted((SHARED_DOCS / "farama").glob("*.md")):
        if path.stem in ("env_spec", "environments"):
            continue
        loaded = load_documents(path.stem, docs_dir=SHARED_DOCS)
        spec = extract(loaded.game, loaded.documents)
        assert spec.actions and spec.rule("action.minimal-set"), path.stem
        assert len(spec.actions) == spec.rule("action.minimal-set").parameters["action_count"].value


@needs_shared
def test_real_frostbite_manual_candidates():
    loaded = load_documents("frostbite", docs_dir=SHARED_DOCS)
    spec = extract("frostbite", loaded.documents)
    docs = loaded.by_id()
    (fish,) = _with(spec, points=200)
    assert fish.category == "scoring" and "Fish" in fish.source.text(docs)
    (bonus,) = _with(spec, points_interval=5000)
    assert bonus.category == "lives" and bonus.parameters["maximum"].value == 9
    assert _with(spec, reserve=3)[0].category == "lives"
    table = [r for r in spec.rules if r.id.startswith("scoring.table-level-")]
    assert [r.parameters["points_per_iceblock"].value for r in table] == list(range(10, 100, 10))
    assert [r.parameters["points_for_entering_igloo"].value for r in table] == [
        160 * k for k in range(1, 10)]
    assert any("grizzl" in r.source.text(docs).lower() and r.parameters.get("level")
               and r.parameters["level"].value == 4 for r in spec.rules)
    # the club section's 40,000 points is not a rule
    assert not _with(spec, points=40000)
    assert any("certain high number" in c.source.text(docs) for c in spec.unsupported)


@needs_shared
def test_real_ms_pacman_and_breakout_manuals_extract():
    for game in ("ms_pacman", "breakout", "alien"):
        loaded = load_documents(game, docs_dir=SHARED_DOCS)
        assert len(loaded.documents) == 2, game
        spec = extract(game, loaded.documents)
        assert any(r.category == "scoring" and r.parameters for r in spec.rules), game


_LINES = GOOD_PAGE.splitlines(keepends=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_LINES) - 1),
                          st.sampled_from(["drop", "dup", "garble", "cells"])), max_size=6),
       st.text(alphabet="|`[]., -0123456789abcNOP", max_size=12))
def test_fuzz_damaged_farama_pages_fail_only_with_document_errors(edits, junk):
    lines = list(_LINES)
    for index, kind in edits:
        i = min(index, len(lines) - 1)
        if not lines:
            break
        if kind == "drop":
            del lines[i]
        elif kind == "dup":
            lines.insert(i, lines[i])
        elif kind == "garble":
            lines[i] = junk + "\n"
        else:
            lines[i] = lines[i].replace("|", f"| {junk} |", 1)
    text = "".join(lines) or "-"
    doc = page(text)
    try:
        parsed = parse_farama(doc)
    except DocumentError as err:
        assert "farama/pong" in str(err)
        return
    assert parsed.actions and set(parsed.actions) <= set(ALE_ACTION_NAMES)
    assert len(parsed.actions) == len(parsed.action_rows)
    rules, _ = extract_rules([doc])
    for rule in rules:
        assert sha256_text(doc.text[rule.source.start:rule.source.end]) == rule.source.sha256
