"""`jaxtari-align run` never writes a weaker audit over the committed one (issue 53): its audit goes
into the run's own reports folder, the printed result names it and says whether its verdicts are
the committed audit's; `--full` writes the committed audit only when it is not weaker."""

import copy
import json
import re
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from alignment.audit import mutants
from alignment.cli import app
from alignment.pipeline import committed
from tests.pipeline import toy_stages
from tests.pipeline.test_run_output import _reviewed_toy, _run_audit_file, _run_on_the_toy

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)


def _committed_toy_audit(tmp_path, cfg, *, explore="quick", sample=8, change=None) -> Path:
    """A git repository whose audits/toy.json is committed: the toy's audit of the reviewed spec
    (at ``explore``, with a mutation sample of ``sample``), changed by ``change`` when given."""
    repo = tmp_path / "repo"
    (repo / "audits").mkdir(parents=True)
    result = toy_stages.run_audit("toy", specs_dir=Path(cfg.specs_dir), explore=explore,
                                  mutants=None if sample is None else mutants.Sample(size=sample))
    if change is not None:
        change(result)
    toy_stages.write(result, repo / "audits")
    (repo / "audits" / "toy.md").write_text("# the committed markdown\n")
    for args in (("init", "-q"), ("add", "audits"),
                 ("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "audits")):
        assert _git(repo, *args).returncode == 0
    return repo


def _unchanged(repo: Path) -> bool:
    """`git diff --quiet -- audits/` holds and nothing new is there."""
    return (_git(repo, "diff", "--quiet", "--", "audits/").returncode == 0
            and _git(repo, "status", "--porcelain", "--", "audits/").stdout == "")


def _run(monkeypatch, cfg, root, *args):
    _run_on_the_toy(monkeypatch, cfg, [])
    out = runner.invoke(app, ["run", "frostbite", *args, "--state-dir", str(root)])  # the toy plays
    assert out.exit_code == 0, out.output
    return out.output


def test_a_run_leaves_the_committed_audit_and_says_its_verdicts_are_the_same(toy_cfg, tmp_path,
                                                                           monkeypatch):
    cfg, root = _reviewed_toy(toy_cfg, tmp_path)
    repo = _committed_toy_audit(tmp_path, cfg)
    cfg = toy_cfg(audits_dir=str(repo / "audits"))

    output = _run(monkeypatch, cfg, root)
    assert _unchanged(repo)
    own = _run_audit_file(output)
    assert own.is_file()
    assert own.parent.parent == root / "reports"
    assert json.loads(own.read_text())["changed_since"] == {"ref": str(repo / "audits/toy.json")}
    assert f"same verdicts as the committed {repo / 'audits/toy.json'}" in output
    assert "not compared: mutation testing (run there only)" in output
    assert f"audit: {repo / 'audits/toy.json'} is left as it is" in output
    # the run's report says it too
    [report] = re.findall(r"^report: (\S+\.md)$", output, flags=re.M)
    text = Path(report).read_text()
    assert f"`{own}`" in text and "same verdicts as the committed" in text


def test_a_run_whose_verdicts_differ_says_which(toy_cfg, tmp_path, monkeypatch):
    cfg, root = _reviewed_toy(toy_cfg, tmp_path)
    rule = toy_stages.run_audit("toy", specs_dir=Path(cfg.specs_dir))["rules"][0]["id"]

    def failed_there(result):
        result["rules"][0]["outcome"] = "fail"

    repo = _committed_toy_audit(tmp_path, cfg, change=failed_there)
    output = _run(monkeypatch, toy_cfg(audits_dir=str(repo / "audits")), root)
    assert _unchanged(repo)
    assert "verdicts differ from the committed" in output
    assert f"  differs: rule {rule}: fail there, pass here" in output


def test_a_full_run_keeps_a_stronger_committed_audit(toy_cfg, tmp_path, monkeypatch):
    cfg, root = _reviewed_toy(toy_cfg, tmp_path)
    repo = _committed_toy_audit(tmp_path, cfg, explore="full", sample=100)  # more than 24 mutants
    output = _run(monkeypatch, toy_cfg(audits_dir=str(repo / "audits")), root, "--full")
    assert _unchanged(repo)
    assert re.search(r"^audit: \S+/audits/toy\.json is left as it is: \S+ holds a stronger audit "
                     r"than this run would write \(mutation testing \(source mutants sampled\): "
                     r"100 now, 24 in this run\)$", output, flags=re.M), output
    assert json.loads(_run_audit_file(output).read_text())["explore"] == "full"


def test_a_full_run_replaces_a_weaker_committed_audit(toy_cfg, tmp_path, monkeypatch):
    cfg, root = _reviewed_toy(toy_cfg, tmp_path)
    repo = _committed_toy_audit(tmp_path, cfg)  # quick, 8 mutants
    output = _run(monkeypatch, toy_cfg(audits_dir=str(repo / "audits")), root, "--full")
    written = json.loads((repo / "audits" / "toy.json").read_text())
    assert written == json.loads(_run_audit_file(output).read_text())
    assert written["explore"] == "full" and written["mutation"] == {"sample": {"size": 24}}
    assert "this full audit is not weaker than the one there" in output


# ---- the comparison on a real audit ---------------------------------------------------------------


@pytest.fixture(scope="module")
def frostbite():
    return json.loads((REPO / "audits" / "frostbite.json").read_text())


def test_the_committed_audit_compared_with_itself_is_the_same(frostbite):
    found = committed.compare(frostbite, frostbite)
    assert found["verdicts"] == "same" and found["differences"] == [] and not found["stale"]
    assert found["not_compared"] == []


def test_a_quick_run_without_mutants_compares_everything_else(frostbite):
    run = copy.deepcopy(frostbite)
    run["mutation"] = None
    run["summary"]["mutation_score"] = None
    found = committed.compare(frostbite, run)
    assert found["verdicts"] == "same"
    assert found["not_compared"] == ["mutation testing (run there only)"]


def test_every_kind_of_verdict_that_moves_is_named(frostbite):
    run = copy.deepcopy(frostbite)
    rule = run["rules"][3]
    rule["outcome"] = "fail"
    run["faults"][0]["detected"] = not run["faults"][0]["detected"]
    run["summary"]["spec_gaps"] = 2
    run["code_hash"] = "another"
    dropped = run["rules"].pop()
    found = committed.compare(frostbite, run)
    assert found["verdicts"] == "differs" and found["stale"]
    fault = frostbite["faults"][0]
    said = {True: "detected", False: "missed"}
    assert found["differences"] == sorted([
        f"rule {rule['id']}: {frostbite['rules'][3]['outcome']} there, fail here",
        f"rule {dropped['id']}: {dropped['outcome']} there, not audited here",
        f"seeded fault {fault['fault']}: {said[fault['detected']]} there, "
        f"{said[not fault['detected']]} here",
        f"spec_gaps: {frostbite['summary']['spec_gaps']} there, 2 here"])


def test_without_faults_here_the_faults_are_not_compared(frostbite):
    run = copy.deepcopy(frostbite)
    run["faults"] = None
    run["summary"].update(fault_detection=None, seeded_faults=0)
    found = committed.compare(frostbite, run)
    assert found["verdicts"] == "same"
    assert found["not_compared"] == ["seeded faults (run there only)",
                                     "fault_detection (measured there only)"]


def test_a_committed_file_that_is_no_audit_is_named(tmp_path):
    (tmp_path / "toy.json").write_text("{\"schema\": \"something/else\"}")
    data, path, why = committed.load_committed(tmp_path, "toy")
    assert data is None and path == tmp_path / "toy.json"
    assert why == f"{path} is not a jaxtari-align/audit/v1 report"
    assert committed.load_committed(tmp_path, "pong")[2] == f"no committed audit at {tmp_path / 'pong.json'}"
