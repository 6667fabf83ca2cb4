"""The LLM auditor through the real anthropic/openai SDKs against a mocked HTTP transport."""

import dataclasses
import json
from pathlib import Path

import httpx
import pytest

from alignment.audit import core, report
from alignment.audit.llm_audit import RuleVerdict, check_citations, numbered
from tests.audit import toy
from tests.llm.support import PROVIDER_URLS, api_env, ok_response, router  # noqa: F401

TOY_SOURCE = "tests/toy_game.py"


def _line(text: str) -> int:
    src = (Path(__file__).parent.parent / "toy_game.py").read_text().splitlines()
    return next(i for i, line in enumerate(src, 1) if text in line)


def _answer(request: httpx.Request, provider: str) -> httpx.Response:
    """A model that cites the payout method for the payout rule, and lines past the file's end for
    the life rule; 'implemented' everywhere."""
    body = json.loads(request.content)
    prompt = body["messages"][-1]["content"]
    payout = _line("def payout")
    if prompt.startswith("Rule lives.loss-at-40"):
        lines = [{"file": TOY_SOURCE, "start": 900, "end": 910}]
    elif prompt.startswith("Rule termination.at-100"):
        lines = [{"file": TOY_SOURCE, "start": payout, "end": payout + 1}]
        return ok_response(provider, json.dumps({"verdict": "missing", "lines": lines,
                                                 "reason": "no end of game found"}))
    else:
        lines = [{"file": TOY_SOURCE, "start": payout, "end": payout + 1}]
    return ok_response(provider, json.dumps({"verdict": "implemented", "lines": lines,
                                             "reason": "the payout is the action id"}))


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_verdicts_through_the_sdks_checked_and_cached(provider, router, api_env, tmp_path):  # noqa: F811
    route = router.post(PROVIDER_URLS[provider]).mock(side_effect=lambda r: _answer(r, provider))
    result = core.audit(toy.subject(), llm=provider, llm_cache=tmp_path / "cache", faults=False)
    by_id = {r.id: r for r in result.rules}
    assert route.call_count == 6  # one request per reviewed rule
    payout = by_id["scoring.action-payout"].llm
    assert payout["verdict"] == "implemented" and payout["rejected"] is None
    (cited,) = payout["lines"]
    assert (cited["file"], cited["start"]) == (TOY_SOURCE, _line("def payout"))
    assert len(cited["sha256"]) == 64
    # citing lines past the end of the file: rejected, with the reason
    life = by_id["lives.loss-at-40"].llm
    assert life["verdict"] == "rejected" and life["claimed"] == "implemented"
    assert "tests/toy_game.py:900-910 does not exist" in life["rejected"]
    # a verdict never overrides a probe: the report names the disagreement, the rule still passes
    end = by_id["termination.at-100"]
    assert end.outcome == "pass" and "the probe stands" in end.llm["disagrees_with_probe"]
    md = report.render_markdown(report.to_json(result))
    assert "**LLM verdict rejected** `lives.loss-at-40`" in md
    assert "| LLM verdict |" in md

    # the same rules and code again: every answer from the cache, no HTTP request
    again = core.audit(toy.subject(), llm=provider, llm_cache=tmp_path / "cache", faults=False)
    assert route.call_count == 6
    assert all(r.llm["cached"] for r in again.rules)


def test_citations_outside_the_files_sent_are_problems(tmp_path):
    f = tmp_path / "g.py"
    f.write_text("a = 1\nb = 2\n")
    _, by_path = numbered([f])
    (path,) = by_path
    ok = RuleVerdict(verdict="partial", lines=[{"file": path, "start": 1, "end": 2}], reason="x")
    cited, problems = check_citations(ok, by_path)
    assert problems == [] and cited[0]["end"] == 2
    bad = RuleVerdict(verdict="partial", lines=[{"file": "elsewhere.py", "start": 1, "end": 1},
                                                {"file": path, "start": 2, "end": 1}], reason="x")
    _, problems = check_citations(bad, by_path)
    assert "names a file that was not sent" in problems[0]
    assert f"{path}:2-1 does not exist" in problems[1]


@pytest.mark.parametrize("provider, env", [("anthropic", "ANTHROPIC_API_KEY"),
                                           ("openai", "OPENAI_API_KEY")])
def test_a_missing_key_ends_the_audit_before_any_probe_runs(provider, env, monkeypatch, tmp_path):
    """The verdicts are asked first (they read the rule and the source only): without a key the
    audit stops before its probes, faults and mutants, not after them (issue 49: `run --llm`
    without a key failed after a 3.5-minute audit)."""
    from alignment.llm import MissingAPIKeyError

    monkeypatch.delenv(env, raising=False)
    probes = []
    subject = dataclasses.replace(toy.subject(), run_probe=lambda *a: probes.append(a))
    with pytest.raises(MissingAPIKeyError, match=env):
        core.audit(subject, llm=provider, llm_cache=tmp_path / "cache", faults=True)
    assert probes == []
