"""The jaxtari source files of a game, and their hash (what an audit was computed from).

A game's files are ``jaxtari/games/<game>.py``, every ``jaxtari/games/<game>_*.py`` beside it, and
every ``.py`` of a ``jaxtari/games/<game>/`` package. :func:`code_hash` is the stand-in for
``alignment.catalog.code_hash`` (contract 5) until that lands; it hashes the same files.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import jaxtari

GAMES_DIR = Path(jaxtari.__file__).resolve().parent / "games"
REPO_ROOT = GAMES_DIR.parent.parent


def game_source_files(game: str, games_dir: Path = GAMES_DIR) -> list[Path]:
    """The source files of ``game`` (a jaxtari canonical name), sorted; empty when it has none."""
    files = [games_dir / f"{game}.py", *games_dir.glob(f"{game}_*.py")]
    package = games_dir / game
    if package.is_dir():
        files += package.rglob("*.py")
    return sorted({f.resolve() for f in files if f.is_file()})


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


def hash_files(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(display_path(f).encode())
        h.update(b"\0")
        h.update(f.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def code_hash(game: str) -> str:
    """sha256 over the game's jaxtari source files (names and bytes)."""
    try:
        from alignment.catalog import code_hash as shared  # contract 5, once it has landed
    except ImportError:
        return hash_files(game_source_files(game))
    return shared(game)
