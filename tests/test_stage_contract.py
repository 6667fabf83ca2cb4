"""The stage contract (alignment/stages.py), checked for every stage: the core returns data and
writes no report, a report writer writes it, the command module registers its commands."""

from __future__ import annotations

import ast
import importlib
import inspect

import pytest
import typer

from alignment.stages import STAGES

# Calls that write a file. A core that resumes keeps working state (the stress stage's checkpoints,
# written by alignment/learning/checkpoints.py), never through these calls in the core itself.
WRITERS = {"write_text", "write_bytes", "write_files", "write_spec", "dump"}


def _tree(module: str) -> ast.Module:
    return ast.parse(inspect.getsource(importlib.import_module(module)))


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_the_core_writes_no_report_and_imports_no_writer(stage):
    s = STAGES[stage]
    tree = _tree(s.core)
    modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names = {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
             and n.module for a in n.names}
    package, _, writer = s.report.rpartition(".")
    assert s.report not in modules and f"{package}.{writer}" not in names, \
        f"{s.core} imports its report writer {s.report}"  # (stress's did: an import cycle)
    assert f"{s.report}.write" not in names and "alignment.atomic.write_files" not in names
    calls = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
             for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert not calls & WRITERS, f"{s.core} writes files itself: {sorted(calls & WRITERS)}"


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_a_report_writer_and_a_command(stage):
    s = STAGES[stage]
    assert callable(importlib.import_module(s.report).write)
    app = typer.Typer()
    importlib.import_module(s.command).register(app)
    assert app.registered_commands or app.registered_groups


def test_the_command_line_and_the_pipeline_take_the_stages_from_the_contract():
    from alignment import cli
    from alignment.pipeline.configuration import DEFAULT_STAGE_MODULES

    assert {s.command for s in STAGES.values()} <= set(cli.COMMAND_MODULES)
    for key, module in DEFAULT_STAGE_MODULES.items():
        stage, _, part = key.partition("_")
        assert module == (STAGES[stage].report if part else STAGES[stage].core)
