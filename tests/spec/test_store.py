"""specs/<game>.yaml: round trip, stable layout, atomic write, clear errors, merging with reviews."""

from __future__ import annotations

import pytest
import yaml

from alignment.docs.corpus import load_documents
from alignment.docs.document import Document
from alignment.spec.offline import extract
from alignment.spec.schema import GameSpec
from alignment.spec.store import (
    SpecFileError,
    dump_yaml,
    load_spec,
    merge,
    parse_yaml,
    spec_path,
    write_spec,
)
from tests.docs.paths import TEST_DOCS


@pytest.fixture(scope="module")
def fresh():
    loaded = load_documents("frostbite", docs_dir=TEST_DOCS)
    return loaded, extract("frostbite", loaded.documents)


def test_round_trip_is_exact_and_stable(fresh, tmp_path):
    loaded, spec = fresh
    path = write_spec(spec, spec_path(tmp_path, "frostbite"))
    assert path.name == "frostbite.yaml"
    back = load_spec(path, documents=loaded.by_id())
    assert back == spec
    assert dump_yaml(back) == path.read_text()  # writing again changes nothing
    assert not list(tmp_path.glob(".*.tmp"))


def test_layout_is_block_style_in_model_order(fresh):
    _, spec = fresh
    text = dump_yaml(spec)
    data = yaml.safe_load(text)
    assert list(data)[:6] == ["schema_version", "game", "title", "env_id", "extractor", "sources"]
    assert list(data)[-2:] == ["rules", "unsupported"]
    assert list(data["rules"][0])[:3] == ["id", "category", "statement"]
    assert "{" not in text.split("rules:")[1].replace("parameters: {}", "")  # no flow mappings


def test_write_replaces_atomically(fresh, tmp_path):
    _, spec = fresh
    path = spec_path(tmp_path, "frostbite")
    path.write_text("old contents\n")
    write_spec(spec, path)
    assert path.read_text().startswith("# Rule specification of Frostbite")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frostbite.yaml"]


def test_a_file_holding_the_same_spec_keeps_its_own_wrapping(fresh, tmp_path):
    _, spec = fresh
    path = spec_path(tmp_path, "frostbite")
    # A reviewer's hand wrapping: the first folded statement's last word moved to its next line,
    # the same string to YAML.
    ours = dump_yaml(spec)
    lines = ours.splitlines(keepends=True)
    i = next(i for i, line in enumerate(lines)
             if line.startswith("  statement:") and lines[i + 1].startswith("    "))
    head, word = lines[i].rstrip("\n").rsplit(" ", 1)
    lines[i:i + 2] = [head + "\n", "    " + word + " " + lines[i + 1][4:]]
    hand = "".join(lines)
    assert hand != ours and parse_yaml(hand) == spec
    path.write_text(hand)
    write_spec(spec, path)
    assert path.read_text() == hand  # same content: the bytes (and the code hash) stay
    changed = spec.model_copy(update={"title": "Frostbite (renamed)"})
    write_spec(changed, path)
    assert path.read_text() == dump_yaml(changed)  # new content: written in the writer's style


def test_invalid_yaml_names_line_and_column(tmp_path):
    path = tmp_path / "pong.yaml"
    path.write_text("game: pong\nrules: [\n  - id: x\n")
    with pytest.raises(SpecFileError, match=r"pong.yaml is not valid YAML at line \d+, column \d+"):
        load_spec(path)


def test_schema_errors_name_the_field(fresh, tmp_path):
    _, spec = fresh
    data = yaml.safe_load(dump_yaml(spec))
    data["rules"][2]["category"] = "magic"
    data["rules"][4]["probe"] = {"steps": [{"action": "WARP", "frames": 3}],
                                 "expectations": [{"signal": "score", "op": "increases"}]}
    with pytest.raises(SpecFileError) as err:
        parse_yaml(yaml.safe_dump(data), where="specs/frostbite.yaml")
    message = str(err.value)
    assert "specs/frostbite.yaml does not match the spec schema" in message
    assert "rules[2].category" in message and "rules[4].probe.steps[0].action" in message
    assert "unknown ALE action 'WARP'" in message and "--force" in message


def test_not_a_mapping_and_missing_file(tmp_path):
    with pytest.raises(SpecFileError, match="must hold a mapping"):
        parse_yaml("- a\n- b\n")
    with pytest.raises(SpecFileError, match="no spec at .*jaxtari-align spec GAME"):
        load_spec(tmp_path / "none.yaml")


def test_spans_are_checked_when_loading_with_documents(fresh, tmp_path):
    loaded, spec = fresh
    path = write_spec(spec, tmp_path / "frostbite.yaml")
    text = path.read_text()
    first = spec.rules[5].source
    path.write_text(text.replace(f"start: {first.start}\n", f"start: {first.start + 2}\n", 1))
    with pytest.raises(SpecFileError, match="not in the document"):
        load_spec(path, documents=loaded.by_id())


def _reviewed(spec: GameSpec, rule_id: str, **changes) -> GameSpec:
    rules = [r.model_copy(update={"status": "reviewed", **changes}) if r.id == rule_id else r
             for r in spec.rules]
    return spec.model_copy(update={"rules": rules})


def test_merge_keeps_reviewed_rules_and_adds_new_candidates(fresh):
    loaded, spec = fresh
    fish = next(r for r in spec.rules if r.parameters.get("points") and r.parameters["points"].value == 150)
    edited = _reviewed(spec, fish.id, id="scoring.fish", statement="A fish is worth 150 points.")
    rejected = spec.rules[-1].model_copy(update={"status": "rejected", "note": "not a rule"})
    existing = edited.model_copy(update={"rules": [edited.rule("scoring.fish"), rejected]})
    result = merge(spec, existing, documents=loaded.by_id())
    assert result.kept == ["scoring.fish", rejected.id]
    assert fish.id in result.skipped and rejected.id in result.skipped  # covered by the review
    assert result.spec.rule("scoring.fish").statement == "A fish is worth 150 points."
    assert len(result.spec.rules) == len(spec.rules)  # every other candidate is added back
    assert all(r.status == "extracted" for r in result.spec.rules[2:])


def test_force_discards_reviews(fresh):
    loaded, spec = fresh
    existing = _reviewed(spec, spec.rules[0].id)
    result = merge(spec, existing, force=True, documents=loaded.by_id())
    assert result.discarded_reviews == 1 and result.kept == []
    assert all(r.status == "extracted" for r in result.spec.rules)


def test_reviews_follow_their_text_when_a_document_changes(fresh):
    """An edit elsewhere in the page moves the cited passage: the review moves with it."""
    loaded, spec = fresh
    existing = _reviewed(spec, "action.minimal-set", note="checked by hand")
    farama = loaded.documents[0]
    old_ref = existing.rule("action.minimal-set").source
    cited = farama.text[old_ref.start:old_ref.end]
    inserted = "An editor's sentence added at the top of the page.\n"
    changed = Document(**{**farama.model_dump(exclude={"sha256"}), "text": inserted + farama.text})
    docs = {**loaded.by_id(), farama.id: changed}
    result = merge(extract("frostbite", list(docs.values())), existing, documents=docs)
    assert result.reanchored == ["action.minimal-set"] and result.stale == []
    rule = result.spec.rule("action.minimal-set")
    assert rule.status == "reviewed" and rule.note == "checked by hand"
    assert rule.source.start == old_ref.start + len(inserted)
    assert changed.text[rule.source.start:rule.source.end] == cited
    assert rule.source.sha256 == old_ref.sha256


def test_reviews_whose_text_is_gone_are_kept_for_re_review(fresh):
    loaded, spec = fresh
    existing = _reviewed(spec, "action.minimal-set")
    farama = loaded.documents[0]
    ref = existing.rule("action.minimal-set").source
    cited = farama.text[ref.start:ref.end]
    reworded = cited.replace("|       0 | NOOP", "|   0 | NOOP  ", 1)
    assert reworded != cited
    changed = Document(**{**farama.model_dump(exclude={"sha256"}),
                          "text": farama.text.replace(cited, reworded, 1)})
    docs = {**loaded.by_id(), farama.id: changed}
    refreshed = extract("frostbite", list(docs.values()))
    result = merge(refreshed, existing, documents=docs)
    assert result.stale == ["action.minimal-set"] and result.reanchored == []
    rule = result.spec.rule("action.minimal-set")
    assert rule.status == "stale" and rule.note.startswith("re-review:")
    assert rule.statement == existing.rule("action.minimal-set").statement
    # the stale rule survives a second merge, and a round trip through the file
    again = merge(refreshed, result.spec, documents=docs)
    assert again.spec.rule("action.minimal-set").status == "stale"
    back = parse_yaml(dump_yaml(again.spec), documents=docs)
    assert back.rule("action.minimal-set").status == "stale"


def test_spec_from_a_newer_tool_is_refused(fresh):
    _, spec = fresh
    data = yaml.safe_load(dump_yaml(spec))
    data["schema_version"] = 2
    with pytest.raises(SpecFileError, match="newer jaxtari-align.*upgrade"):
        parse_yaml(yaml.safe_dump(data), where="frostbite.yaml")
    data["schema_version"] = 0
    with pytest.raises(SpecFileError, match="schema_version 0"):
        parse_yaml(yaml.safe_dump(data), where="frostbite.yaml")
