"""``jaxtari-align probe GAME --mods ...``: the modified game against the probes of the rules its
mods do not change, on ALE too where every mod has an ALE counterpart (else JAX-only)."""

import pytest
import typer
from typer.testing import CliRunner

from alignment.audit import command


def _invoke(*args):
    app = typer.Typer()
    command.register(app)
    return CliRunner().invoke(app, ["probe", *args])


@pytest.mark.slow  # every Freeway probe on the JAX side (200 s on the loaded 2-core box)
def test_probe_with_a_mod_skips_the_rules_it_changes_and_the_others_hold():
    r = _invoke("freeway", "--mods", "invincible", "--backend", "jax")
    assert r.exit_code == 0, r.output
    assert "left out, the rules they change: physics.collision-push-back" in r.output
    assert "physics.collision-push-back" not in r.output.split("left out")[1].split("\n", 1)[1]
    assert "scoring.crossing" in r.output and "fail" not in r.output


def test_probe_refuses_an_unknown_mod_listing_the_games_mods():
    r = _invoke("pong", "--mods", "zero_gravity")
    assert r.exit_code == 1
    assert "unknown mod 'zero_gravity'" in r.output and "no_enemy_points" in r.output


def test_probe_with_a_mod_without_counterpart_runs_jax_only():
    r = _invoke("freeway", "--mods", "invincible", "--backend", "ale")
    assert r.exit_code == 1
    assert "invincible have no ALE counterpart" in r.output and "use --backend jax" in r.output


@pytest.mark.slow  # every Freeway probe on both modified games
def test_probe_with_a_counterpart_plays_the_modified_game_on_ale_too():
    r = _invoke("freeway", "--mods", "stop_cars")
    assert r.exit_code == 0, r.output
    assert "mods stop_cars on both backends (ALE: their RAM-write counterparts" in r.output
    assert "physics.car-speeds" not in r.output.split("left out")[1].split("\n", 1)[1]
    rows = [line for line in r.output.splitlines() if "scoring.crossing" in line]
    assert rows and rows[0].count("pass") == 2  # the ALE and the JAX column
