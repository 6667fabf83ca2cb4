"""What `jaxtari-align run` says while and after it runs (issue 53): which audit it makes and the
command for the other one, and progress lines in output that is not a terminal."""

import dataclasses
import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from alignment.cli import app
from alignment.pipeline import execute, graph, progress, runs
from alignment.pipeline.configuration import Configuration
from tests.pipeline import toy_stages

ALL_RULES = [rid for rid, _, _ in toy_stages.EXTRACTED]
runner = CliRunner()


def test_progress_lines_keep_one_line_per_interval():
    now = [100.0]
    written = []
    lines = progress.ProgressLines(written.append, every=5.0, clock=lambda: now[0])
    kept = []
    for t, label in [(100, "probe 1/4"), (101, "probe 2/4"), (104.9, "probe 3/4"),
                     (105.0, "probe 4/4"), (106, "explore 1/2"), (171, "seeded fault 1/9")]:
        now[0] = t
        kept.append(lines("audit", label))
    assert kept == [True, False, False, True, False, True]
    assert written == ["[0:00] audit: probe 1/4", "[0:05] audit: probe 4/4",
                       "[1:11] audit: seeded fault 1/9"]


def test_elapsed_reads_as_minutes_and_hours():
    assert [progress.elapsed(s) for s in (0, 59.9, 61, 3599, 3600, 3725)] == [
        "0:00", "0:59", "1:01", "59:59", "1:00:00", "1:02:05"]


def test_the_audit_budget_is_quick_or_full():
    assert Configuration().audit_budget == "quick"
    with pytest.raises(ValueError, match="audit_budget must be one of quick, full, not 'medium'"):
        Configuration(audit_budget="medium")


def _waiting_toy_run(cfg, root):
    """The toy's run toy-1, stopped for review with every rule answered (resume runs the audit)."""
    with runs.open_store(root) as saver:
        info = execute.start(graph.compile(saver), "toy", cfg, root, run_id="toy-1")
    assert info.status == "waiting for review"
    runs.save_answer(root, "toy-1", {"accept": ALL_RULES[:3], "reject": ALL_RULES[3:]})


def test_a_log_gets_progress_lines_while_the_audit_runs(toy_cfg, tmp_path, monkeypatch):
    cfg, root = toy_cfg(), tmp_path / "state"
    _waiting_toy_run(cfg, root)
    monkeypatch.setattr(progress, "PROGRESS_EVERY_S", 0.0)  # every step gets its line
    out = runner.invoke(app, ["run", "toy", "--resume", "toy-1", "--state-dir", str(root)])
    assert out.exit_code == 0, out.output
    # CliRunner's output is no terminal: the spinner shows nothing there, the lines do
    steps = re.findall(r"^\[\d+:\d\d\] audit: (probe \d/\d: \S+)$", out.output, flags=re.M)
    assert steps == [f"probe {n}/3: {rule}" for n, rule in enumerate(ALL_RULES[:3], 1)]
    # the lines come while the audit runs: before its stage line, after the review's
    text = out.output
    assert text.index("review: done") < text.index("audit: probe 1/3") < text.index("audit: done")


def test_progress_lines_are_rate_limited_in_a_log(toy_cfg, tmp_path, monkeypatch):
    cfg, root = toy_cfg(), tmp_path / "state"
    _waiting_toy_run(cfg, root)
    monkeypatch.setattr(progress, "PROGRESS_EVERY_S", 3600.0)
    out = runner.invoke(app, ["run", "toy", "--resume", "toy-1", "--state-dir", str(root)])
    assert out.exit_code == 0, out.output
    assert re.findall(r"^\[\d+:\d\d\] .*$", out.output, flags=re.M) == [
        f"[0:00] audit: probe 1/3: {ALL_RULES[0]}"]


def _reviewed_toy(toy_cfg, tmp_path):
    """A toy configuration whose spec is reviewed, so a new run goes from spec to the audit."""
    cfg, root = toy_cfg(), tmp_path / "state"
    _waiting_toy_run(cfg, root)
    with runs.open_store(root) as saver:
        compiled = graph.compile(saver)
        assert execute.resume(compiled, runs.find_run(compiled, saver, "toy-1"), root).status == "done"
    return cfg, root


def _run_on_the_toy(monkeypatch, cfg, seen):
    """`run GAME` as typed, its stages the toy's: the command's configuration reaches the run."""
    real_start = execute.start

    def start(compiled, game, run_cfg, root, run_id=None, on_stage=None, on_progress=None):
        seen.append((game, run_cfg.audit_budget))
        toy = dataclasses.replace(cfg, audit_budget=run_cfg.audit_budget)
        return real_start(compiled, "toy", toy, root, run_id=run_id, on_stage=on_stage,
                          on_progress=on_progress)

    monkeypatch.setattr(execute, "start", start)


def _run_audit_file(output: str) -> Path:
    """The run's own audit, as the printed result names it."""
    [path] = re.findall(r"^audit: wrote (\S+/toy\.json)(?:;| and)", output, flags=re.M)
    return Path(path)


def test_run_makes_the_quick_audit_and_prints_the_full_audits_command(toy_cfg, tmp_path,
                                                                         monkeypatch):
    cfg, root = _reviewed_toy(toy_cfg, tmp_path)
    seen = []
    _run_on_the_toy(monkeypatch, cfg, seen)

    out = runner.invoke(app, ["run", "frostbite", "--state-dir", str(root)])
    assert out.exit_code == 0, out.output
    assert seen == [("frostbite", "quick")]
    audit_file = _run_audit_file(out.output)
    assert audit_file.parent.parent == root / "reports"  # <state dir>/reports/<run id>/toy.json
    quick = json.loads(audit_file.read_text())
    assert quick["explore"] == "quick" and quick["mutation"] is None  # what the core was given
    assert "audit: done" in out.output and "(quick audit)" in out.output
    said = re.findall(r"^audit: the quick one, a pull request's exploration budget .* without "
                      r"mutation testing; the full audit is `([^`]+)`$", out.output, flags=re.M)
    assert said == ["jaxtari-align run frostbite --full", "jaxtari-align run toy --full"]
    assert not Path(cfg.audits_dir).exists()  # nothing committed, and a quick run commits nothing

    # the printed command, run as printed, makes the full audit (with the audit command's
    # mutation sample), and with nothing committed it writes the committed audit too
    program, *args = shlex.split(said[0])
    assert program == "jaxtari-align"
    out = runner.invoke(app, [*args, "--state-dir", str(root)])
    assert out.exit_code == 0, out.output
    assert seen[-1] == ("frostbite", "full")
    full = json.loads(_run_audit_file(out.output).read_text())
    assert full["explore"] == "full" and full["mutation"] == {"sample": {"size": 24}}
    assert json.loads((Path(cfg.audits_dir) / "toy.json").read_text()) == full
    assert f"audit: wrote {Path(cfg.audits_dir) / 'toy.json'} too" in out.output
    assert "(full audit)" in out.output
    assert re.search(r"^audit: the full one .*; the quick one is `jaxtari-align run frostbite`$",
                     out.output, flags=re.M)


def test_full_on_the_resume_of_a_quick_run_is_refused(toy_cfg, tmp_path):
    cfg, root = toy_cfg(), tmp_path / "state"
    _waiting_toy_run(cfg, root)
    out = runner.invoke(app, ["run", "toy", "--resume", "toy-1", "--full", "--state-dir", str(root)])
    assert out.exit_code == 2
    assert "run toy-1 makes the quick audit" in out.output
    assert "`jaxtari-align run toy --full`" in out.output
    with runs.open_store(root) as saver:  # refused before anything ran
        assert runs.run_info(graph.compile(saver), "toy-1").status == "waiting for review"
