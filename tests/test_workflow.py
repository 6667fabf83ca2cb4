"""The CI workflow parses, and every command it runs exists and works (run here in a cheap form)."""

import importlib.util
import re
import shlex
import tomllib
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from alignment.cli import app
from tests.gate_fixtures import git, make_repo

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "fidelity.yml"
runner = CliRunner()
# Stage commands another issue builds: until their module is on the branch, say so plainly.
STAGE_MODULES = {"audit": "alignment.audit", "playtest": "alignment.playtest"}


def _steps() -> list[dict]:
    doc = yaml.safe_load(WORKFLOW.read_text())
    triggers = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` key as true
    assert "pull_request" in triggers
    [job] = doc["jobs"].values()
    return job["steps"]


def _commands(base: str) -> list[tuple[str, list[str]]]:
    """(step name, argv after `jaxtari-align`) for every jaxtari-align call the workflow makes."""
    out = []
    for step in _steps():
        run = step.get("run", "")
        run = run.replace("origin/${{ github.base_ref }}", base).replace('"$game"', "pong")
        for match in re.finditer(r"jaxtari-align ([^;|)&\n]+)", run):
            out.append((step["name"], shlex.split(match.group(1))))
    return out


def test_workflow_installs_like_the_readme_and_runs_the_tests():
    runs = {s.get("name"): s.get("run", "") for s in _steps()}
    assert runs["Install"] == 'python -m pip install -e ".[dev]"'
    assert 'pip install -e ".[dev]"' in (ROOT / "README.md").read_text()
    assert shlex.split(runs["Tests"]) == ["python", "-m", "pytest", "-q", "-m", "not slow"]
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert any(m.startswith("slow:") for m in markers["markers"])
    checkout = next(s for s in _steps() if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0  # the gate needs the target branch's history


def test_every_command_exists(monkeypatch):
    missing = []
    for _, argv in _commands("main"):
        words = [w for w in argv if not w.startswith("-")][:2]
        module = STAGE_MODULES.get(words[0])
        if module and importlib.util.find_spec(module) is None:
            missing.append(f"{words[0]} ({module} is not built yet)")
            continue
        sub = words[:2] if words[0] == "playtest" else words[:1]
        out = runner.invoke(app, [*sub, "--help"])
        assert out.exit_code == 0, (argv, out.output)
    if missing:
        pytest.skip("commands whose stage is not on this branch yet: " + ", ".join(missing))


def test_gate_commands_run_and_the_posted_markdown_is_the_gates(tmp_path, monkeypatch):
    repo = make_repo(tmp_path)
    git(repo, "checkout", "-qb", "change")
    (repo / "specs").mkdir()
    (repo / "specs" / "pong.yaml").write_text("game: pong\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "touch pong")
    monkeypatch.chdir(repo)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    commands = dict(_commands("main"))

    touched = runner.invoke(app, commands["Games this change touches"])
    assert touched.exit_code == 0 and touched.output.strip() == "pong"

    gate_argv = commands["Gate against the target branch"]
    out = runner.invoke(app, gate_argv)
    assert out.exit_code == 0, out.output
    markdown = Path(gate_argv[gate_argv.index("--markdown") + 1])
    assert markdown.read_text().startswith("## Fidelity gate: passed")

    post = next(s for s in _steps() if s.get("name") == "Post the gate's table on the pull request")
    posted = shlex.split(post["run"].replace("${{ github.event.pull_request.number }}", "1"))
    assert posted[:3] == ["gh", "pr", "comment"]
    assert posted[posted.index("--body-file") + 1] == str(markdown)
    assert "always()" in post["if"]  # a failing gate still posts its table
