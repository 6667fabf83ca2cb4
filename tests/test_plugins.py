"""A game is one plug-in on each side: ``jaxtari/games/<game>/`` and
``alignment/reference/games/<game>/``. Adding a game adds those two packages (and its artefacts:
specs/, audits/, playtest/, stress/) and edits nothing else, so no general module may name a game."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import jaxtari
from alignment import artefacts, catalog, deepplay
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


def addition_files(game: str) -> list[str]:
    """The files a game's addition touches, from the repository root: its two packages and its
    artefacts (each named by the artefact table), nothing shared."""
    own = [f"jaxtari/games/{game}/", f"alignment/reference/games/{game}/",
           f"{artefacts.PLAYTEST_SESSION.folder}/{game}/", f"tests/games/test_{game}"]
    own += [a.rel(game=game) for a in (artefacts.SPEC, artefacts.AUDIT, artefacts.AUDIT_MARKDOWN,
                                       artefacts.FAULTS, artefacts.ROBUSTNESS)]
    own += [f"{artefacts.AUDIT.folder}/{game}+", f"{artefacts.STRESS.folder}/{game}-",
            f"{artefacts.DEEP_PLAY.folder}/{game}-"]
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True,
                             check=True).stdout.splitlines()
    return sorted(f for f in tracked if f.startswith(tuple(own)))


# The trees a game's code hash and the catalog read (the rest of the repository is artefacts).
CODE_TREES = ("jaxtari", "alignment", artefacts.SPEC.folder, artefacts.FAULTS.folder)


def _without(game: str, root: Path) -> dict:
    """The games and the code hashes of a copy of the code trees with ``game``'s files removed."""
    for tree in CODE_TREES:
        shutil.copytree(REPO / tree, root / tree, ignore=shutil.ignore_patterns("__pycache__"))
    for rel in addition_files(game):
        (root / rel).unlink(missing_ok=True)  # an artefact outside the copied trees is not there
    for package in (root / "jaxtari" / "games" / game, root / "alignment" / "reference" / "games" / game):
        shutil.rmtree(package, ignore_errors=True)  # what git does not track (__init__ caches)
    code = ("import importlib, json, pkgutil, jaxtari, alignment\nfrom alignment import catalog\n"
            "for top in (jaxtari, alignment):\n"  # every module: an import of the game fails here
            "    for m in pkgutil.walk_packages(top.__path__, top.__name__ + '.'):\n"
            "        importlib.import_module(m.name)\n"
            "print(json.dumps({'jax': jaxtari.list_games(), 'catalog': catalog.games(), "
            "'hashes': {g: catalog.code_hash(g) for g in catalog.games()}}))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(root)}, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_game_addition_touches_only_its_own_files(tmp_path):
    # Removing exactly the files of one game's addition leaves a repository where every other game
    # is listed on both sides with the code hash it has here: no shared file names the game or
    # needs it, and no game's own file is in another's hash.
    game = catalog.games()[-1]
    files = addition_files(game)
    assert any(f.startswith(f"jaxtari/games/{game}/") for f in files)
    assert any(f.startswith(f"alignment/reference/games/{game}/") for f in files)
    assert artefacts.SPEC.rel(game=game) in files and artefacts.AUDIT.rel(game=game) in files
    others = [g for g in catalog.games() if g != game]
    got = _without(game, tmp_path)
    assert got["jax"] == others and got["catalog"] == others
    assert got["hashes"] == {g: catalog.code_hash(g) for g in others}
