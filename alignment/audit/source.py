"""The jaxtari source files of a game and their hash (what an audit was computed from), as the
catalog defines them (:func:`alignment.catalog.code_hash`, contract 5), and how a report shows a path.
"""

from __future__ import annotations

from pathlib import Path

import jaxtari

from alignment.catalog import code_hash, game_source_files, hash_files  # noqa: F401  (one home)

GAMES_DIR = Path(jaxtari.__file__).resolve().parent / "games"
REPO_ROOT = GAMES_DIR.parent.parent


def shared_source_files(games_dir: Path = GAMES_DIR) -> list[Path]:
    """Code every game runs through, traced with each game (the v5 protocol lives in the wrappers).
    Not part of a game's code hash."""
    return [games_dir.parent / "wrappers.py"]


def display_path(path: Path) -> str:
    """A path as the report shows it: relative to the repository when it is inside it."""
    try:
        return Path(path).resolve().relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return Path(path).as_posix()
