"""The save-point search (ALE beam search over clone/restore): its output is data that reproduces."""

from __future__ import annotations

import pytest

from typer.testing import CliRunner

from alignment import catalog
from alignment.audit import savepoints
from alignment.cli import app
from alignment.spec.store import load_spec, write_spec
from tests.docs.paths import SPECS


def test_the_search_reproduces_a_stored_save_point():
    spec = load_spec(SPECS / "frostbite.yaml")
    found = savepoints.find(spec, "four-rows")
    stored = spec.save_points["four-rows"]
    assert [(s.action, s.frames) for s in found.steps] == [(s.action, s.frames) for s in stored.steps]
    assert found.reaches == stored.reaches and found.mode == stored.mode


def test_every_search_target_is_a_stored_save_point():
    searched = [g for g in catalog.games() if catalog.entry(g).save_point_targets]
    assert "frostbite" in searched
    for game in searched:
        stored = load_spec(SPECS / f"{game}.yaml").save_points
        assert set(catalog.entry(game).save_point_targets) <= set(stored), game


def _savepoint(*args):
    return CliRunner().invoke(app, ["savepoint", *args])


def test_write_stores_the_found_save_point_in_the_spec(tmp_path):
    spec = load_spec(SPECS / "frostbite.yaml")
    stale = spec.save_points["four-rows"].model_copy(update={"note": "an older search's"})
    write_spec(spec.model_copy(update={"save_points": {**spec.save_points, "four-rows": stale}}),
               tmp_path / "frostbite.yaml")
    r = _savepoint("frostbite", "four-rows", "--specs", str(tmp_path), "--write")
    assert r.exit_code == 0, r.output
    again = load_spec(tmp_path / "frostbite.yaml")
    assert again.save_points["four-rows"] == spec.save_points["four-rows"]
    assert again.rules == spec.rules
    assert "wrote save point 'four-rows'" in r.output


def test_bad_requests_are_clear_errors():
    r = _savepoint("frostbite", "castle", "--specs", str(SPECS))
    assert r.exit_code == 1 and "no search target 'castle'; targets: at-door" in r.output
    r = _savepoint("tetris", "x")
    assert r.exit_code == 1 and "unknown game 'tetris'" in r.output and "Traceback" not in r.output


def test_a_goal_out_of_reach_is_reported():
    import dataclasses

    target = dataclasses.replace(catalog.entry("frostbite").save_point_targets["four-rows"], max_depth=3)
    with pytest.raises(savepoints.SearchError, match="goal not reached in 3 macros"):
        savepoints.search("frostbite", target)


def test_a_search_from_a_poked_save_point_replays_its_pokes():
    from alignment.reference import AleGame
    from alignment.spec.schema import ProbeStep

    ale = AleGame("frostbite", full_action_space=True)
    savepoints._replay(ale, [ProbeStep(poke={"level": 10, "score": 4990}),
                             ProbeStep(action="NOOP", frames=120), ProbeStep(action="DOWN", frames=8),
                             ProbeStep(action="NOOP", frames=60)])
    s = ale.signals()
    assert (s["level"], s["score"], s["lives"]) == (10, 5080, 5)  # 90 a block, a bonus Bailey
    with pytest.raises(savepoints.SearchError, match="unknown poke 'lives'; quantities: level, score"):
        savepoints._replay(ale, [ProbeStep(poke={"lives": 1})])
    with pytest.raises(savepoints.SearchError, match="poke level is written only before the first"):
        savepoints._replay(ale, [ProbeStep(poke={"level": 3})])


def test_the_module_runs_the_same_command_the_stored_notes_name():
    import subprocess
    import sys

    assert "python -m alignment.audit.savepoints" in load_spec(SPECS / "frostbite.yaml").save_points[
        "four-rows"].note
    proc = subprocess.run([sys.executable, "-m", "alignment.audit.savepoints", "frostbite", "castle",
                           "--specs", str(SPECS)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "no search target 'castle'" in proc.stderr, proc.stderr
