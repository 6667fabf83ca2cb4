"""A game is one plug-in on each side: ``jaxtari/games/<game>/`` and
``alignment/reference/games/<game>/``. Adding a game adds those two packages (and its artefacts:
specs/, audits/, playtest/, stress/) and edits nothing else, so no general module may name a game."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

import jaxtari
from alignment import catalog, deepplay
from alignment.playtest.keymap import CONTROLS
from alignment.plugin import SavePointTarget, ScriptedPolicy

REPO = Path(__file__).resolve().parents[1]
DEEP = REPO / "tests" / "data" / "deep"
# Modules that list games on purpose: the names of every ALE game (the catalog's spelling help).
GAME_LISTS = {"alignment/gamenames.py"}
# Where a game's own code lives (its two packages).
PLUGIN_DIRS = ("jaxtari/games/", "alignment/reference/games/")
# A game named on purpose: the drop-in keeps ale_py.env.AtariEnv's signature, whose game defaults
# to "pong".
SIGNATURE_DEFAULTS = {"jaxtari/gym.py": {"the string 'pong'"}, "jaxtari/vector.py": {"the string 'pong'"}}


def _names_a_game(path: Path, games: list[str]) -> list[str]:
    """Every string equal to a game's name, and every identifier containing one, in ``path``."""
    hits = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.strip().lower() in games:
                hits.append(f"{node.lineno}: the string {node.value!r}")
            continue
        name = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                else node.name if isinstance(node, (ast.FunctionDef, ast.ClassDef))
                else node.arg if isinstance(node, ast.arg) else None)
        if name and any(g in name.lower() for g in games):
            hits.append(f"{node.lineno}: the name {name}")
    return hits


def test_no_general_module_names_a_game():
    games = sorted(set(jaxtari.list_games()) | set(catalog.games()))
    offenders = []
    for top in ("jaxtari", "alignment"):
        for path in sorted((REPO / top).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            if rel.startswith(PLUGIN_DIRS) or rel in GAME_LISTS:
                continue
            allowed = SIGNATURE_DEFAULTS.get(rel, set())
            offenders += [f"{rel}:{hit}" for hit in _names_a_game(path, games)
                          if hit.split(": ", 1)[1] not in allowed]
    assert offenders == [], "game facts outside the game's two packages:\n" + "\n".join(offenders)


def test_the_check_sees_a_game_named_in_code(tmp_path):
    bad = tmp_path / "general.py"
    bad.write_text('"""Docs may say pong."""\nTARGETS = {"Pong": 1}\ndef play_freeway(): pass\n')
    assert sorted(_names_a_game(bad, ["pong", "freeway"])) == [
        "2: the string 'Pong'", "3: the name play_freeway"]


def test_every_game_is_a_package_on_each_side():
    assert jaxtari.list_games() == catalog.games()
    for game in jaxtari.list_games():
        assert (REPO / "jaxtari" / "games" / game / "__init__.py").is_file()
        assert (REPO / "alignment" / "reference" / "games" / game / "__init__.py").is_file()
        assert jaxtari.game_class(game).name == game
        assert not (REPO / "jaxtari" / "games" / f"{game}.py").exists()


def test_the_plugin_fields_have_their_types():
    for game in catalog.games():
        e = catalog.entry(game)
        assert isinstance(e.scripted_player, ScriptedPolicy) and e.scripted_player.name, game
        held = e.scripted_player.make()(e.ale_signals(np.zeros(128, np.uint8)), 0)
        assert isinstance(held, set) and held <= set(CONTROLS), game
        assert all(isinstance(t, SavePointTarget) for t in e.save_point_targets.values()), game
        assert e.deep_player is None or callable(e.deep_player), game
        assert e.observation_fields is None or callable(e.observation_fields), game
        assert set(e.control_aliases) | set(e.control_aliases.values()) <= set(CONTROLS), game


def test_a_deep_player_from_its_plugin_plays_the_stored_game_again():
    # pong-lose-s2 was recorded by the Pong player with win=False before it moved into the plug-in
    doc, stored = deepplay.load_actions(DEEP / "pong-lose-s2.json")
    assert doc["player"] == "play_pong(seed=2, win=False)"
    again = deepplay.play("pong", seed=2, win=False)
    np.testing.assert_array_equal(again, stored)
