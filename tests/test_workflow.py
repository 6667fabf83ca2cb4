"""The CI workflow, run locally as written: its steps in order, with their `if:` conditions, their
outputs and their shell options, on a throwaway repository whose committed audit fails."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
import yaml

from alignment import catalog
from tests.gate_fixtures import git, make_repo, write_audit

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "fidelity.yml"
# Steps the local run leaves out, and why: the package is installed here already; the tests are
# what is running; the artifact upload and the comment need GitHub.
NOT_RUN_LOCALLY = {"Install", "Tests", "Upload the regenerated reports",
                   "Post the gate's table on the pull request"}


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def _steps() -> list[dict]:
    [job] = _workflow()["jobs"].values()
    return job["steps"]


def test_triggers_pins_and_install():
    doc = _workflow()
    triggers = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` key as true
    assert "pull_request" in triggers and triggers["push"]["branches"] == ["main"]
    steps = {s.get("name") or s.get("uses"): s for s in _steps()}
    assert steps["actions/checkout@v4"]["with"]["fetch-depth"] == 0
    assert steps["actions/setup-python@v5"]["with"]["python-version"] == "3.11.7"
    assert steps["Install"]["run"] == 'python -m pip install -c constraints.txt -e ".[dev]"'
    # the README's install, CI's and the workflow's are the same pinned install
    assert 'pip install -c constraints.txt -e ".[dev]"' in (ROOT / "README.md").read_text()
    assert 'pip install -q -c constraints.txt -e ".[dev]"' in (ROOT / ".ci" / "run").read_text()
    assert shlex.split(steps["Tests"]["run"]) == ["python", "-m", "pytest", "-q", "-m", "not slow"]
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert any(m.startswith("slow:") for m in markers["markers"])
    gate = steps["Gate"]
    assert gate["if"].startswith("always()") and "set -euo pipefail" in gate["run"]
    upload = steps["Upload the regenerated reports"]
    assert "regenerated/" in upload["with"]["path"] and "always()" in upload["if"]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, ver = line.partition("==")
            pins[name.lower().replace("_", "-")] = ver
    return pins


def test_constraints_are_what_is_installed_and_what_the_artefacts_were_made_with():
    pins = _pins()
    stale = []
    for name, ver in pins.items():
        try:
            installed = version(name)
        except PackageNotFoundError:
            continue
        if installed != ver:
            stale.append(f"{name}: constraints {ver}, installed {installed}")
    assert not stale, ("installed packages are not constraints.txt's: " + "; ".join(stale)
                       + ' (install with `pip install -c constraints.txt -e ".[dev]"`, or, to move'
                       " the pins, update constraints.txt and re-make the artefacts)")
    assert f"{sys.version_info.major}.{sys.version_info.minor}" == "3.11"
    import json

    for path in [*ROOT.glob("audits/*.json"), *ROOT.glob("stress/*.json")]:
        made_with = json.loads(path.read_text())["versions"]
        for key in ("jax", "ale-py", "ale_py", "numpy"):
            if key in made_with:
                assert made_with[key] == pins[key.replace("_", "-")], (path.name, key)


# ---- the steps, run in order ------------------------------------------------------------------------

def _expr(text: str, ctx: dict) -> str:
    """A GitHub expression (the few forms the workflow uses), evaluated in Python."""
    def value(m):
        path = m.group(0)
        if path.startswith("steps."):
            _, step, kind, *rest = path.split(".")
            entry = ctx["steps"].get(step, {"outcome": "skipped", "outputs": {}})
            return repr(entry["outputs"].get(rest[0], "") if kind == "outputs" else entry["outcome"])
        return repr(ctx["github"].get(path.split(".", 1)[1], ""))

    py = re.sub(r"\b(steps|github)\.[A-Za-z_.]+", value, text)
    py = py.replace("always()", "True").replace("&&", " and ").replace("||", " or ")
    py = re.sub(r"hashFiles\('([^']+)'\)", lambda m: repr("h" if Path(m.group(1)).exists() else ""),
                py)
    py = re.sub(r"format\('([^']*)', ([^)]+)\)", lambda m: f"{m.group(1)!r}.format({m.group(2)})", py)
    return eval(py, {}, {})  # the workflow is this repository's own file


def _substitute(run: str, ctx: dict) -> str:
    return re.sub(r"\$\{\{(.+?)\}\}", lambda m: str(_expr(m.group(1).strip(), ctx)), run)


def run_workflow(repo: Path, jaxtari_align: Path) -> tuple[dict, str]:
    """Run the job's steps in order in ``repo``; returns the steps' outcomes and the log."""
    [job] = _workflow()["jobs"].values()
    ctx = {"steps": {}, "github": {"event_name": "pull_request", "base_ref": "main"}}
    env = {**os.environ, "PATH": f"{jaxtari_align.parent}:{os.environ['PATH']}"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    env.update({k: str(_expr(v.strip()[3:-2].strip(), ctx)) if v.strip().startswith("${{") else v
                for k, v in job.get("env", {}).items()})
    failed, log = False, []
    for step in job["steps"]:
        name = step.get("name") or step["uses"]
        if "uses" in step or name in NOT_RUN_LOCALLY:
            # done outside this run: installed (this venv), tested (this suite), GitHub's actions
            ctx["steps"][step.get("id", name)] = {"outcome": "success", "outputs": {}}
            continue
        cond = step.get("if", "success()").replace("success()", repr(not failed))
        if not _expr(cond, ctx):
            ctx["steps"][step.get("id", name)] = {"outcome": "skipped", "outputs": {}}
            log.append(f"skipped: {name}")
            continue
        output = repo / ".github_output"
        output.write_text("")
        script = _substitute(step["run"], ctx)
        out = subprocess.run(["bash", "-e", "-c", script], cwd=repo, capture_output=True, text=True,
                             env={**env, "GITHUB_OUTPUT": str(output)})
        outcome = "success" if out.returncode == 0 else "failure"
        failed |= out.returncode != 0
        outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        ctx["steps"][step.get("id", name)] = {"outcome": outcome, "outputs": outputs}
        log.append(f"{outcome}: {name}\n{out.stdout}{out.stderr}")
    return ctx["steps"], "\n".join(log)


@pytest.fixture
def jaxtari_align(tmp_path) -> Path:
    """`jaxtari-align` on PATH: this checkout's CLI (the installed entry point may be another's)."""
    path = tmp_path / "bin" / "jaxtari-align"
    path.parent.mkdir()
    # this checkout first on the path: the installed package may be another checkout's
    path.write_text(f"#!/bin/sh\nexport PYTHONPATH={ROOT}${{PYTHONPATH:+:$PYTHONPATH}}\n"
                    f"exec {sys.executable} -m alignment.cli \"$@\"\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def audit_fails(tmp_path, jaxtari_align) -> Path:
    """Stands in for the audit command only (a real audit takes minutes): it writes the re-made
    report of a failing audit and exits 1, as `audit` does when a rule fails on JAX. Every other
    command is the real one."""
    real = jaxtari_align.read_text()
    jaxtari_align.write_text(real.replace("exec ", """if [ "$1" = audit ]; then
  mkdir -p regenerated/audits
  cp "$FAILING_AUDIT" "regenerated/audits/$2.json"
  echo "fail timing.serve: the serve waits one frame longer on JAX" >&2
  exit 1
fi
exec """, 1))
    return jaxtari_align


def _pull_request(tmp_path) -> Path:
    """main: a passing pong audit; the change: pong's spec edited and its audit committed with a
    recall the rows do not give (a hand edit)."""
    (tmp_path / "repo").mkdir()
    repo = make_repo(tmp_path / "repo")  # with the spec its audit was made against
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(repo, "checkout", "-qb", "change")
    (repo / "specs" / "pong.yaml").write_text((repo / "specs" / "pong.yaml").read_text() + "\n")
    write_audit(repo, "pong", passed=12, failed=12, summary={"recall": 1.0})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "pong change")
    return repo


def test_the_workflow_run_locally_with_a_failing_audit_posts_a_table_and_fails(
        tmp_path, audit_fails, monkeypatch):
    repo = _pull_request(tmp_path)
    failing = tmp_path / "failing.json"
    shutil.copy(repo / "audits" / "pong.json", failing)
    monkeypatch.setenv("FAILING_AUDIT", str(failing))
    steps, log = run_workflow(repo, audit_fails)
    assert steps["touched"]["outcome"] == "success", log
    assert steps["touched"]["outputs"]["games"] == "pong", log
    assert steps["Audit the touched games again"]["outcome"] == "failure", log
    # the gate ran although the audit failed, and failed itself
    assert steps["Gate"]["outcome"] == "failure", log
    table = (repo / "fidelity-gate.md").read_text()
    # the fixture's stress report holds no full config, so it cannot be re-made: "artefacts"
    assert table.splitlines()[1] == "## Fidelity gate: failed for pong, artefacts"
    assert "| pong | 0.96 (≥ 0.90) | 0.50 (≥ 0.90) |" in table
    assert "summary.recall says 1.0 but its rows give 0.5000" in table
    assert "recall dropped against origin/main: 1.00 -> 0.50" in table


@pytest.mark.slow
def test_a_failing_touched_step_fails_its_step_and_the_gate_still_runs(
        tmp_path, jaxtari_align, monkeypatch):
    repo = _pull_request(tmp_path)
    # the base is not fetched: `gate --touched` fails, and `set -euo pipefail` fails the step
    # (the old `games=$(...)` swallowed it and succeeded with an empty list)
    git(repo, "update-ref", "-d", "refs/remotes/origin/main")
    steps, log = run_workflow(repo, jaxtari_align)
    assert steps["touched"]["outcome"] == "failure", log
    assert steps["Audit the touched games again"]["outcome"] == "skipped", log
    assert steps["Gate"]["outcome"] == "failure", log
    assert "--base 'origin/main' is not a git ref here" in log
