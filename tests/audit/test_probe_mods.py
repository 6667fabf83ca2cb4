"""``jaxtari-align probe GAME --mods ...``: the modified JAX game against the probes of the rules
its mods do not change (ALE, the probes' reference, plays the original)."""

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
