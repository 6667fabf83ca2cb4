"""The pipeline graph end to end on the toy game: review interrupts, ALE-failing probes, stress."""

import json
from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from alignment.pipeline import graph
from alignment.spec.store import load_spec
from tests.pipeline import toy_stages

ALL_RULES = [rid for rid, _, _ in toy_stages.EXTRACTED]


def _run(compiled, payload, cfg, thread="t1"):
    return compiled.invoke(payload, {"configurable": {"thread_id": thread}}, context=cfg)


def _waiting(result):
    return [i.value for i in result.get("__interrupt__", ())]


def test_end_to_end_review_audit_back_to_review_and_report(toy_cfg):
    cfg = toy_cfg()
    toy_stages.record_session(Path(cfg.playtest_dir), "s1", [["FIRE", 20], ["RIGHT", 5]])
    compiled = graph.compile(InMemorySaver())

    # spec extracts four rules; review stops the run and shows them with their probes
    result = _run(compiled, {"game": "toy", "run_id": "t1"}, cfg)
    [shown] = _waiting(result)
    assert shown["kind"] == "review"
    assert [r["id"] for r in shown["rules"]] == ALL_RULES
    assert all(r["why"] == "new" and r["probe"]["steps"] for r in shown["rules"])

    # accepting everything writes "reviewed" into the spec file; the audit then finds that
    # fire-pays-ten fails on the toy's ground truth and routes back to review with that rule only
    result = _run(compiled, Command(resume={"accept": ALL_RULES}), cfg)
    spec = load_spec(Path(cfg.specs_dir) / "toy.yaml")
    assert {r.id: r.status for r in spec.rules} == {r: "reviewed" for r in ALL_RULES}
    [shown] = _waiting(result)
    assert [r["id"] for r in shown["rules"]] == ["scoring.fire-pays-ten"]
    assert shown["rules"][0]["why"].startswith("probe fails on ALE: score increases_by 10")
    # the run's audit is in the run's own folder; nothing was committed, and a quick run commits
    # nothing
    assert Path(result["audit"]["path"]) == Path(cfg.reports_dir) / "t1" / "toy.json"
    audit = json.loads(Path(result["audit"]["path"]).read_text())
    assert audit["summary"]["probes_failing_on_ale"] == 1
    assert not Path(cfg.audits_dir).exists()

    # rejecting it keeps it in the spec as rejected; the re-audit is clean; the run completes
    result = _run(compiled, Command(resume={"reject": ["scoring.fire-pays-ten"]}), cfg)
    assert "__interrupt__" not in result
    rejected = load_spec(Path(cfg.specs_dir) / "toy.yaml").rule("scoring.fire-pays-ten")
    assert rejected.status == "rejected" and "probe fails on ALE" in rejected.note
    assert result["audit"]["status"] == "done" and result["audit"]["ale_failures"] == {}
    assert result["audit"]["summary"]["recall"] == 1.0
    assert result["audit"]["summary"]["coverage"] == 1.0
    assert result["playtest"]["status"] == "done"
    assert result["playtest"]["sessions"][0]["passed"] and result["playtest"]["sessions"][0]["frames"] == 25
    assert result["stress"]["status"] == "skipped"
    assert result["decisions"] == {**{r: "accept" for r in ALL_RULES},
                                   "scoring.fire-pays-ten": "reject"}
    report = Path(result["report"]["path"]).read_text()
    assert "| audit | done |" in report and "`scoring.fire-pays-ten`: reject" in report


def test_accepting_an_ale_failing_rule_keeps_it_and_moves_on(toy_cfg):
    cfg = toy_cfg()
    compiled = graph.compile(InMemorySaver())
    _run(compiled, {"game": "toy", "run_id": "t1"}, cfg)
    _run(compiled, Command(resume={"accept": ALL_RULES}), cfg)
    result = _run(compiled, Command(resume={"accept": ["scoring.fire-pays-ten"]}), cfg)
    assert "__interrupt__" not in result
    assert result["acknowledged"] == ["scoring.fire-pays-ten"]
    assert load_spec(Path(cfg.specs_dir) / "toy.yaml").rule("scoring.fire-pays-ten").status == "reviewed"
    # nothing was written to the spec, so the audit in hand stands (it still reports the failure)
    assert list(result["audit"]["ale_failures"]) == ["scoring.fire-pays-ten"]
    assert result["playtest"]["status"] == "not playtested"


def test_skipped_rules_keep_the_run_waiting(toy_cfg):
    cfg = toy_cfg()
    compiled = graph.compile(InMemorySaver())
    _run(compiled, {"game": "toy", "run_id": "t1"}, cfg)
    result = _run(compiled, Command(resume={"accept": ALL_RULES[:1]}), cfg)
    [shown] = _waiting(result)
    assert [r["id"] for r in shown["rules"]] == ALL_RULES[1:]
    statuses = {r.id: r.status for r in load_spec(Path(cfg.specs_dir) / "toy.yaml").rules}
    assert statuses[ALL_RULES[0]] == "reviewed" and statuses[ALL_RULES[1]] == "extracted"


def test_an_answer_naming_an_unknown_rule_changes_nothing_and_asks_again(toy_cfg):
    cfg = toy_cfg()
    compiled = graph.compile(InMemorySaver())
    _run(compiled, {"game": "toy", "run_id": "t1"}, cfg)
    before = (Path(cfg.specs_dir) / "toy.yaml").read_text()
    result = _run(compiled, Command(resume={"accept": ["scoring.nope"]}), cfg)
    assert _waiting(result)
    assert "no rule scoring.nope is waiting for review" in result["errors"][0]
    assert "scoring.action-payout" in result["errors"][0]
    assert (Path(cfg.specs_dir) / "toy.yaml").read_text() == before


def test_stress_runs_only_at_the_budget_asked(toy_cfg, tmp_path):
    for budget, status in ((None, "skipped"), ("smoke", "done")):
        cfg = toy_cfg(stress_budget=budget)
        compiled = graph.compile(InMemorySaver())
        _run(compiled, {"game": "toy", "run_id": "t1"}, cfg)
        _run(compiled, Command(resume={"accept": ALL_RULES[:3], "reject": ALL_RULES[3:]}), cfg)
        result = compiled.get_state({"configurable": {"thread_id": "t1"}}).values
        assert result["stress"]["status"] == status
        assert (Path(cfg.stress_dir) / "toy-objects.json").exists() == (budget is not None)
    assert result["stress"]["verdict"]["label"] == "equivalent"


def test_no_playtest_interrupts_when_asked_and_resumes_once_recorded(toy_cfg):
    cfg = toy_cfg(playtest_missing="interrupt")
    compiled = graph.compile(InMemorySaver())
    _run(compiled, {"game": "toy", "run_id": "t1"}, cfg)
    result = _run(compiled, Command(resume={"accept": ALL_RULES[:3], "reject": ALL_RULES[3:]}), cfg)
    [shown] = _waiting(result)
    assert shown["kind"] == "playtest" and shown["command"] == "jaxtari-align play toy"
    toy_stages.record_session(Path(cfg.playtest_dir), "late", [["UP", 3]])
    result = _run(compiled, Command(resume="checked"), cfg)
    assert result["playtest"]["status"] == "done"


def test_a_stage_whose_module_is_missing_fails_the_run_naming_it(toy_cfg):
    import pytest

    cfg = toy_cfg(stage_modules={**toy_cfg().stage_modules, "audit": "alignment.no_such_stage.core"})
    compiled = graph.compile(InMemorySaver())
    _run(compiled, {"game": "toy", "run_id": "t1"}, cfg)
    with pytest.raises(ModuleNotFoundError, match="alignment.no_such_stage"):
        _run(compiled, Command(resume={"accept": ALL_RULES}), cfg)
    assert not (Path(cfg.reports_dir) / "t1" / "toy.json").exists()


def test_without_a_spec_or_documents_the_run_says_what_to_pass(toy_cfg, monkeypatch):
    monkeypatch.delenv("JAXTARI_ALIGN_DOCS", raising=False)
    cfg = toy_cfg(docs=None)
    result = _run(graph.compile(InMemorySaver()), {"game": "toy", "run_id": "t1"}, cfg)
    assert result["spec"]["status"] == "failed"
    assert "no committed spec for toy and no documents offline: pass --docs DIR" in \
        result["spec"]["detail"]
    assert "review" not in result and result["report"]["status"] == "done"
    assert not (Path(cfg.specs_dir) / "toy.yaml").exists()


def test_review_shows_rules_of_the_real_extractor_with_their_cited_text(tmp_path):
    from alignment.docs.corpus import load_documents
    from alignment.pipeline.configuration import Configuration

    docs = Path(__file__).resolve().parents[1] / "data" / "docs"
    cfg = Configuration(specs_dir=str(tmp_path / "specs"), docs=str(docs),
                        reports_dir=str(tmp_path / "reports"), playtest_dir=str(tmp_path / "playtest"),
)
    # stop where review hands over: this test is about review, not the (minutes long) real audit
    compiled = graph.build().compile(checkpointer=InMemorySaver(), interrupt_before=["audit"])
    result = _run(compiled, {"game": "frostbite", "run_id": "f1"}, cfg)
    [shown] = _waiting(result)
    by_id = load_documents("frostbite", docs_dir=docs).by_id()
    assert len(shown["rules"]) >= 5 and all(r["why"] == "new" for r in shown["rules"])
    for rule in shown["rules"]:
        span = rule["span"]
        assert span["text"] == by_id[span["document"]].text[span["start"]:span["end"]]
    first, *rest = [r["id"] for r in shown["rules"]]
    result = _run(compiled, Command(resume={"reject": [first], "accept": rest}), cfg)
    spec = load_spec(Path(cfg.specs_dir) / "frostbite.yaml")
    assert spec.rule(first).status == "rejected" and "rejected in review (run f1)" in spec.rule(first).note
    assert all(spec.rule(i).status == "reviewed" for i in rest)
    assert "audit" not in result and result["review"]["status"] == "done"
