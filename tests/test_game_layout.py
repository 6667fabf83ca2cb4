"""Every game of ``jaxtari.list_games()`` has the one package skeleton (issue 46; the list is
docs/adding-a-game.md's section 2): a newcomer who has read one game knows where every fact of the
next one lives. Checked without naming a game, so a new game passes these or is not done."""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import jax
import pytest

import jaxtari
from jaxtari import games as games_package

GAMES = jaxtari.list_games()
ROOT = Path(games_package.__path__[0])

# What each file holds: __init__.py the exports (a short docstring), README.md how the real game
# works, how close this is and where it differs, constants.py the <Game>Constants frozen dataclass,
# state.py the state, game.py the Game subclass (its _step as named phases), objects.py what
# Game.objects and Game.signals compute, draw.py the picture, mods.py the game's mods.
REQUIRED = {"__init__.py", "README.md", "constants.py", "state.py", "game.py", "objects.py",
            "draw.py", "mods.py"}
# art.py: graphics tables read off the ROM; logic/: a package for everything else.
OPTIONAL = {"art.py", "logic"}
MAX_DOCSTRING_LINES = 15
IGNORED = {"__pycache__"}


def _entries(game: str) -> set[str]:
    return {p.name for p in (ROOT / game).iterdir() if p.name not in IGNORED and not p.name.startswith(".")}


@pytest.mark.parametrize("game", GAMES)
def test_the_package_has_the_skeletons_files_and_no_others(game):
    entries = _entries(game)
    missing, extra = REQUIRED - entries, entries - REQUIRED - OPTIONAL
    assert not missing and not extra, (f"jaxtari/games/{game}/: missing {sorted(missing)}, not in "
                                       f"the skeleton {sorted(extra)} (move them into logic/)")
    logic = ROOT / game / "logic"
    if logic.exists():
        assert (logic / "__init__.py").is_file(), f"jaxtari/games/{game}/logic/ is a package"
    if (ROOT / game / "art.py").exists():
        assert (ROOT / game / "art.py").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_the_package_docstring_is_short_and_the_long_story_is_its_readme(game):
    init = ROOT / game / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")), clean=True)
    assert doc, f"jaxtari/games/{game}/__init__.py has a docstring"
    lines = doc.splitlines()
    assert len(lines) <= MAX_DOCSTRING_LINES, (
        f"jaxtari/games/{game}/__init__.py's docstring is {len(lines)} lines (at most "
        f"{MAX_DOCSTRING_LINES}: the long description belongs in README.md)")
    readme = ROOT / game / "README.md"
    assert readme.is_file() and readme.read_text(encoding="utf-8").strip(), \
        f"jaxtari/games/{game}/README.md says how the real game works"


@pytest.mark.parametrize("game", GAMES)
def test_the_game_and_its_constants_live_where_the_skeleton_says(game):
    cls = jaxtari.game_class(game)
    package = f"{games_package.__name__}.{game}"
    assert cls.__module__ == f"{package}.game", f"{cls.__name__} is defined in {cls.__module__}"
    consts = cls.Constants
    assert dataclasses.is_dataclass(consts) and consts.__dataclass_params__.frozen, \
        f"{cls.__name__}.Constants ({consts.__name__}) is a frozen dataclass"
    assert consts.__module__ == f"{package}.constants", \
        f"{cls.__name__}.Constants is defined in {consts.__module__}, not {package}.constants"
    state = jax.eval_shape(lambda k: cls()._reset(k), jax.random.key(0))
    assert type(state).__module__ == f"{package}.state", \
        f"{game}'s state class {type(state).__name__} is defined in {type(state).__module__}"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("method", ["objects", "signals"])
def test_objects_and_signals_are_computed_in_objects_py(game, method, monkeypatch):
    check_computed_in(jaxtari.game_class(game),
                      importlib.import_module(f"{games_package.__name__}.{game}.objects"), method,
                      monkeypatch)


def check_computed_in(cls, module, method, monkeypatch):
    """``cls().method(state)`` returns what ``module.method(game, state)`` computes (also run on
    games still being ported)."""
    assert callable(getattr(module, method, None)), f"{module.__name__} defines {method}(game, state)"
    calls = []

    def stand_in(g, state):
        calls.append((g, state))
        return "from objects.py"

    monkeypatch.setattr(module, method, stand_in)
    game_obj, state = cls(), object()
    assert getattr(game_obj, method)(state) == "from objects.py", \
        f"{cls.__name__}.{method} returns what {module.__name__}.{method} computes"
    assert calls == [(game_obj, state)]
