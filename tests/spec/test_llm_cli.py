"""``jaxtari-align spec GAME --llm anthropic|openai`` end to end, the HTTP mocked by respx.

Uses the real corpus in ../shared/docs (skipped when absent): the documents are loaded by the
project's corpus loader, the mocked model quotes the manual, and the written spec must cite real
spans of the loaded text.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import typer
import yaml
from typer.testing import CliRunner

from alignment.spec import command
from tests.docs.paths import SHARED_DOCS
from tests.llm.support import (  # noqa: F401  (fixtures)
    KEY_ENVS,
    PROVIDER_URLS,
    api_env,
    draft_json,
    ok_response,
    router,
    rule,
)

CORPUS = SHARED_DOCS
LIVES_QUOTE = "You begin the game with one active Frostbite Bailey (TM) and three on reserve."
INVENTED_QUOTE = "Polar bears are worth 1,000 points when caught on the shore."


@pytest.fixture
def cli() -> typer.Typer:
    if not (CORPUS / "atariage" / "frostbite.txt").is_file():
        pytest.skip(f"the real corpus {CORPUS} is not on this machine")
    app = typer.Typer()

    @app.callback()
    def _root() -> None:  # keeps 'spec' a subcommand
        pass

    command.register(app)
    return app


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_spec_command_with_llm_writes_rules_with_real_spans(provider, cli, router, api_env, tmp_path):
    answer = draft_json([
        rule("lives.start", "lives", "A game starts with one player in play and three in reserve.",
             LIVES_QUOTE, "manual/frostbite", [{"name": "reserve", "value": 3, "unit": "lives"}]),
        rule("scoring.bear", "scoring", "Catching a bear scores.", INVENTED_QUOTE, "manual/frostbite"),
    ])
    route = router.post(PROVIDER_URLS[provider]).mock(return_value=ok_response(provider, answer))
    out = tmp_path / "specs"
    args = ["spec", "frostbite", "--llm", provider, "--docs", str(CORPUS), "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert route.call_count == 1

    spec = yaml.safe_load((out / "frostbite.yaml").read_text(encoding="utf-8"))
    manual = (CORPUS / "atariage" / "frostbite.txt").read_text(encoding="utf-8")
    (lives,) = [r for r in spec["rules"] if r["id"] == "lives.start"]
    assert lives["source"]["document"] == "manual/frostbite"
    assert lives["source"]["sha256"] == hashlib.sha256(LIVES_QUOTE.encode()).hexdigest()
    assert LIVES_QUOTE in manual
    assert [c["quote"] for c in spec["unsupported"]] == [INVENTED_QUOTE]

    # the same command again: answered from the cache, no HTTP
    router.reset()
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 0, again.output
    assert router.calls.call_count == 0


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_spec_command_without_key_is_a_message_not_a_traceback(provider, cli, router, api_env,
                                                               monkeypatch, tmp_path):
    monkeypatch.delenv(KEY_ENVS[provider])
    args = ["spec", "frostbite", "--llm", provider, "--docs", str(CORPUS), "--out", str(tmp_path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    text = result.output
    assert KEY_ENVS[provider] in text and "--llm offline" in text
    assert "Traceback" not in text
    assert router.calls.call_count == 0
