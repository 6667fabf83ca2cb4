"""The audit of a toy game whose spec, deviations and faults give known numbers."""

import json

import pytest

from alignment.audit import core, report


@pytest.fixture(scope="module")
def result(toy_audit):
    return toy_audit


def test_each_rule_gets_its_outcome(result):
    outcomes = {r.id: r.outcome for r in result.rules}
    assert outcomes == {
        "scoring.action-payout": "pass",
        "lives.loss-at-40": "fail",
        "termination.at-100": "pass",
        "timing.marker-glides": "wrong-probe",
        "rendering.marker": "unprobed",
        "physics.bounce": "unprobed",
    }
    by_id = {r.id: r for r in result.rules}
    assert by_id["lives.loss-at-40"].jax["failures"] == ["lives decreases by 1"]
    # a probe that fails on the reference is reported as such and never run against the game
    assert by_id["timing.marker-glides"].jax is None
    assert "wrong probe or a wrong rule" in by_id["timing.marker-glides"].detail
    assert by_id["rendering.marker"].no_probe_reason == "the marker's colour is no signal"


def test_summary_numbers(result):
    s = result.summary()
    # 6 reviewed rules; 3 with a probe that holds on the reference; 2 of them hold on the toy
    assert (s["reviewed_rules"], s["probed_rules"]) == (6, 3)
    assert s["coverage"] == 0.5
    assert s["recall"] == round(2 / 3, 4)
    # structure: payout, life_loss_frame, game_over_frame tagged; start_lives only by a tag naming
    # no rule. Behaviour: reward +1, lives -1, episode end on both; reward +51 only on the toy.
    assert s["structural_precision"] == 0.75
    assert s["behavioural_precision"] == 0.75
    assert s["precision"] == 0.75
    assert (s["seeded_faults"], s["seeded_faults_detected"], s["fault_detection"]) == (3, 2, round(2 / 3, 4))
    assert s["probes_failing_on_ale"] == 1
    assert (s["unprobed_rules"], s["unprobed_without_reason"]) == (2, 1)
    assert result.behaviour["unjustified"] == ["reward +51"]


def test_traceability_both_ways(result):
    t = result.traceability
    assert [u["tag"] for u in t.unknown_tags] == ["lives.three-frogs"]
    assert t.unknown_tags[0]["at"].endswith("toy_game.py:" + str(_line("lives.three-frogs")))
    assert sorted(t.untraced) == ["physics.bounce", "rendering.marker", "timing.marker-glides"]
    assert t.locations["termination.at-100"] == [f"tests/toy_game.py:{_line('termination.at-100')}"]
    unjustified = [i.name for i in result.structure if not i.justified]
    assert unjustified == ["start_lives"]


def _line(tag: str) -> int:
    from pathlib import Path

    lines = (Path(__file__).parent.parent / "toy_game.py").read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if f"rule: {tag}" in text)


def test_faults_flag_the_rule_they_break(result):
    faults = {f.fault: f for f in result.faults}
    assert faults["free_payout"].flagged == ["scoring.action-payout"]
    assert faults["endless"].flagged == ["termination.at-100"]
    assert not faults["five_lives"].detected and faults["five_lives"].flagged == []


def test_markdown_tables_and_failures_first(result, tmp_path):
    paths = report.write(result, tmp_path)
    assert [p.name for p in paths] == ["toy.json", "toy.md"]
    data = json.loads(paths[0].read_text())
    assert data["schema"] == "jaxtari-align/audit/v1"
    assert data["summary"]["coverage"] == 0.5
    md = paths[1].read_text()
    lines = md.splitlines()
    assert lines[2].startswith("| coverage | recall | precision | seeded faults detected | probes "
                               "failing on ALE | code hash | versions |")
    assert lines[4].startswith("| 50.0% (3/6) | 66.7% (2/3) | 75.0% | 2/3 (66.7%) | 1 |")
    assert md.index("## Failures") < md.index("## Rules")
    failures = md[md.index("## Failures"):md.index("## Rules")]
    assert "**FAIL** `lives.loss-at-40`" in failures
    assert "**wrong probe** `timing.marker-glides`" in failures
    assert "reward +51" in failures and "`five_lives`" in failures
    assert "`rule: lives.three-frogs` at tests/toy_game.py" in failures and "`physics.bounce`" in failures
    rules = md[md.index("## Rules"):]
    # every reviewed rule has a row, failures first
    rows = [ln for ln in rules.splitlines() if ln.startswith("| `")]
    assert rows[0].startswith("| `lives.loss-at-40` | **FAIL** |")
    assert len([r for r in rows if r.split("|")[1].strip().strip("`") in
                {x.id for x in result.rules}]) == 6


def test_against_shows_a_regression(result, tmp_path):
    before = report.to_json(result)
    fixed = json.loads(json.dumps(before))
    for r in fixed["rules"]:
        if r["id"] == "lives.loss-at-40":
            r["outcome"] = "pass"
    fixed["rules"].append({"id": "physics.gone", "outcome": "pass"})
    (tmp_path / "old.json").write_text(json.dumps(fixed))
    previous, ref = report.load_reference("toy", tmp_path, str(tmp_path / "old.json"))
    report.write(result, tmp_path, previous=previous, ref=ref)
    data = json.loads((tmp_path / "toy.json").read_text())
    c = data["changed_since"]
    assert c["regressions"] == ["lives.loss-at-40"]
    assert c["dropped_rules"] == ["physics.gone"]
    md = (tmp_path / "toy.md").read_text()
    assert f"## Changed since {ref}" in md
    assert "| `lives.loss-at-40` | pass | fail |" in md
    assert "**Regressions (pass -> not pass): lives.loss-at-40**" in md


def test_against_a_git_ref_reads_the_committed_report(result, tmp_path, monkeypatch):
    import subprocess

    repo = tmp_path / "repo"
    (repo / "audits").mkdir(parents=True)
    committed = report.to_json(result)
    for r in committed["rules"]:
        if r["id"] == "lives.loss-at-40":
            r["outcome"] = "pass"
    (repo / "audits" / "toy.json").write_text(json.dumps(committed))
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "audit"], check=True)
    (repo / "audits" / "toy.json").write_text("{}")  # the working copy differs from the commit
    monkeypatch.chdir(repo)
    previous, ref = report.load_reference("toy", report.Path("audits"), "HEAD")
    head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout
    assert ref == f"HEAD:audits/toy.json at commit {head[:12]}"
    assert report.changes(previous, report.to_json(result), ref)["regressions"] == ["lives.loss-at-40"]
    with pytest.raises(core.AuditError, match="neither a file nor a git ref"):
        report.load_reference("toy", report.Path("audits"), "no-such-ref")
    with pytest.raises(core.AuditError, match="cannot start with '-'"):
        report.load_reference("toy", report.Path("audits"), "--output=x")


def test_against_a_git_ref_reads_the_committed_report_whatever_the_out_folder(
        result, tmp_path, monkeypatch):
    import subprocess

    repo = tmp_path / "repo"
    (repo / "audits").mkdir(parents=True)
    committed = report.to_json(result)
    committed["code_hash"] = "0" * 64
    for r in committed["rules"]:
        if r["id"] == "lives.loss-at-40":
            r["outcome"] = "pass"
    (repo / "audits" / "toy.json").write_text(json.dumps(committed))
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "audit"], check=True)
    head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout
    monkeypatch.chdir(repo)
    out = repo / "regenerated" / "audits"
    previous, ref = report.load_reference("toy", out, "HEAD")
    report.write(result, out, previous=previous, ref=ref)
    md = (out / "toy.md").read_text()
    assert f"## Changed since HEAD:audits/toy.json at commit {head[:12]}" in md
    assert f"code hash changed: `000000000000` -> `{result.code_hash[:12]}`" in md
    assert "| `lives.loss-at-40` | pass | fail |" in md
