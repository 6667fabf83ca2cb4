"""``jaxtari-align spec``: names, documents, writing, reviews, the LLM path's span filter."""

from __future__ import annotations

import json

import pytest
import typer
import yaml
from typer.testing import CliRunner

from alignment import catalog
from alignment.spec.command import register
from alignment.spec.schema import Rule, SourceRef, UnsupportedClaim, quote_ref
from alignment.spec.store import load_spec
from tests.docs.paths import SHARED_DOCS, TEST_DOCS, needs_shared


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    # alignment.cli also imports other stages' commands; test this command on its own app
    app = typer.Typer()
    register(app)

    @app.callback()
    def _root() -> None:
        """jaxtari-align (test app)"""

    return app


@pytest.fixture()
def run(app, monkeypatch, tmp_path):
    monkeypatch.delenv("JAXTARI_ALIGN_DOCS", raising=False)
    monkeypatch.setenv("JAXTARI_ALIGN_CACHE", str(tmp_path / "cache"))
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, ["spec", *args], catch_exceptions=False)

    return invoke


@pytest.mark.parametrize("name", ["Frostbite", "frostbite", "ALE/Frostbite-v5", "FrostbiteNoFrameskip-v4"])
def test_any_spelling_writes_the_spec(run, tmp_path, name):
    result = run(name, "--docs", str(TEST_DOCS), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    spec = load_spec(tmp_path / "frostbite.yaml")
    assert spec.game == "frostbite" and spec.extractor == "offline"
    assert "scoring" in result.output and "wrote" in result.output
    assert "1 unsupported claim" in result.output


def test_env_variable_selects_the_corpus(run, tmp_path, monkeypatch):
    monkeypatch.setenv("JAXTARI_ALIGN_DOCS", str(TEST_DOCS))
    result = run("pong", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "missing:" in result.output and "no AtariAge manual for pong" in result.output
    assert [s.id for s in load_spec(tmp_path / "pong.yaml").sources] == ["farama/pong"]


def test_unknown_game_is_a_clear_error(run, tmp_path):
    result = run("Frostbyte", "--docs", str(TEST_DOCS), "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "unknown game 'Frostbyte'" in result.output and "Did you mean: frostbite" in result.output
    assert "ms_pacman" in result.output and "Traceback" not in result.output


def test_no_documents_at_all(run, tmp_path):
    result = run("seaquest", "--docs", str(TEST_DOCS), "--out", str(tmp_path))
    assert result.exit_code == 1 and "no documents found for seaquest" in result.output
    assert not (tmp_path / "seaquest.yaml").exists()


def test_bad_docs_dir_and_bad_provider(run, tmp_path):
    result = run("pong", "--docs", str(tmp_path / "missing"), "--out", str(tmp_path))
    assert result.exit_code == 1 and "does not exist" in result.output
    result = run("pong", "--docs", str(TEST_DOCS), "--llm", "gpt", "--out", str(tmp_path))
    assert result.exit_code == 1 and "--llm must be one of offline, anthropic, openai" in result.output


def test_schema_option_prints_json(run):
    result = run("--schema")
    assert result.exit_code == 0
    assert json.loads(result.output)["title"] == "jaxtari-align game spec"


def test_missing_game_argument(run):
    result = run()
    assert result.exit_code == 2 and "give a GAME" in result.output


def test_rerun_keeps_reviewed_rules_unless_forced(run, tmp_path):
    args = ("frostbite", "--docs", str(TEST_DOCS), "--out", str(tmp_path))
    assert run(*args).exit_code == 0
    path = tmp_path / "frostbite.yaml"
    data = yaml.safe_load(path.read_text())
    fish = next(r for r in data["rules"] if r.get("parameters", {}).get("points", {}).get("value") == 150)
    fish.update(id="scoring.fish", status="reviewed", statement="Catching a fish is worth 150 points.")
    path.write_text(yaml.safe_dump(data, sort_keys=False))

    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "kept 1 reviewed/rejected rule(s)" in result.output
    spec = load_spec(path)
    assert spec.rule("scoring.fish").statement == "Catching a fish is worth 150 points."
    assert sum(r.source.sha256 == spec.rule("scoring.fish").source.sha256 for r in spec.rules) == 1

    result = run(*args, "--force")
    assert result.exit_code == 0 and "discarded 1 reviewed" in result.output
    assert all(r.status == "extracted" for r in load_spec(path).rules)


def test_a_broken_existing_spec_is_not_overwritten_silently(run, tmp_path):
    path = tmp_path / "pong.yaml"
    path.write_text("game: pong\nrules: 3\n")
    result = run("pong", "--docs", str(TEST_DOCS), "--out", str(tmp_path))
    assert result.exit_code == 1 and "does not match the spec schema" in result.output
    assert path.read_text() == "game: pong\nrules: 3\n"
    assert run("pong", "--docs", str(TEST_DOCS), "--out", str(tmp_path), "--force").exit_code == 0


def test_llm_rules_without_a_real_span_become_unsupported(run, tmp_path, monkeypatch):
    """The LLM path keeps only rules whose spans are real; the extractor itself is stood in for."""
    from alignment.spec import llm_extract

    calls = []

    def fake_extract(game, documents, provider, model, cache_dir, deadline=None):
        calls.append((game, [d.id for d in documents], provider, model))
        manual = next(d for d in documents if d.kind == "manual")
        real = Rule(id="scoring.fish", category="scoring", statement="A fish gives 150 points.",
                    parameters={"points": {"value": 150, "unit": "points"}},
                    source=quote_ref(manual, "Each fish is worth 150 points."))
        invented = Rule(id="scoring.whale", category="scoring", statement="A whale gives 9000 points.",
                        source=SourceRef(document=manual.id, start=0, end=20, sha256="0" * 64))
        return [real, invented], [UnsupportedClaim(statement="x", reason="vague")]

    monkeypatch.setattr(llm_extract, "extract", fake_extract)
    result = run("frostbite", "--docs", str(TEST_DOCS), "--out", str(tmp_path),
                 "--llm", "anthropic", "--model", "some-model")
    assert result.exit_code == 0, result.output
    assert calls == [("frostbite", ["farama/frostbite", "manual/frostbite"], "anthropic", "some-model")]
    spec = load_spec(tmp_path / "frostbite.yaml")
    assert [r.id for r in spec.rules] == ["scoring.fish"]
    assert spec.extractor == "anthropic:some-model" and len(spec.actions) == 18
    assert any("A whale" in c.statement and "not in the document" in c.reason for c in spec.unsupported)


@needs_shared
def test_real_corpus_every_game_with_a_page(run, tmp_path):
    stems = [p.stem for p in sorted((SHARED_DOCS / "farama").glob("*.md"))
             if p.stem not in ("env_spec", "environments")]
    for stem in stems:
        result = run(stem, "--docs", str(SHARED_DOCS), "--out", str(tmp_path))
        assert result.exit_code == 0, (stem, result.output)
    assert len(list(tmp_path.glob("*.yaml"))) == len(stems)


@needs_shared
@pytest.mark.parametrize("game", catalog.games())
def test_rerun_on_a_reviewed_spec_changes_nothing(run, tmp_path, game):
    from tests.docs.paths import SPECS

    committed = (SPECS / f"{game}.yaml").read_text()
    (tmp_path / f"{game}.yaml").write_text(committed)
    result = run(game, "--docs", str(SHARED_DOCS), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "added 0 new candidate(s)" in result.output
    assert (tmp_path / f"{game}.yaml").read_text() == committed


def test_through_the_real_cli(tmp_path, monkeypatch):
    from alignment.cli import app as real_app

    monkeypatch.delenv("JAXTARI_ALIGN_DOCS", raising=False)
    result = CliRunner().invoke(real_app, ["spec", "ALE/Pong-v5", "--docs", str(TEST_DOCS),
                                           "--out", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert load_spec(tmp_path / "pong.yaml").env_id == "ALE/Pong-v5"
