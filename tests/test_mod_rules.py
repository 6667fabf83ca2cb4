"""Every registered mod declares the spec rules it changes, by ids that exist in specs/<game>.yaml."""

from pathlib import Path

import pytest

import jaxtari
from jaxtari.mod_registry import registered_mods

from alignment.spec.store import load_spec

SPECS = Path(__file__).resolve().parents[1] / "specs"


@pytest.mark.parametrize("game", jaxtari.list_games())
def test_declared_rules_are_rules_of_the_games_spec(game):
    ids = {r.id for r in load_spec(SPECS / f"{game}.yaml").rules}
    for name, mod in registered_mods(game).items():
        assert isinstance(mod.rules, tuple), name
        unknown = set(mod.rules) - ids
        assert not unknown, f"{game} mod {name} declares rules not in its spec: {sorted(unknown)}"


def test_a_mod_that_changes_scoring_says_so():
    assert "scoring.point-against" in registered_mods("pong")["no_enemy_points"].rules
    # its audit found the serve rule's probe counting the computer's points, which it drops
    assert "physics.auto-serve" in registered_mods("pong")["no_enemy_points"].rules
    assert registered_mods("freeway")["all_black_cars"].rules == ()
