"""Which source files the audit traces for a game, and how it names them.

The game's own files and their hash are :func:`alignment.catalog.game_source_files` and
:func:`alignment.catalog.code_hash` (what every artefact records); the audit adds the code every game runs through
(:func:`shared_source_files`: the v5 protocol's numbers in ``jaxtari/protocol.py``, the wrappers that
apply them), traced with each game (and, like all of jaxtari, part of its code hash).
"""

from __future__ import annotations

from pathlib import Path

import jaxtari
from alignment.artefacts import REPO_ROOT, repo_relative  # noqa: F401  (one home of the root)
from alignment.catalog import code_hash, game_source_files, hash_files  # noqa: F401  (one home)

JAXTARI_DIR = Path(jaxtari.__file__).resolve().parent


def shared_source_files() -> list[Path]:
    """Code every game runs through, traced with each game."""
    return [JAXTARI_DIR / "protocol.py", JAXTARI_DIR / "wrappers.py"]


def display_path(path: Path) -> str:
    """A path as reports show it: relative to the repository when it is inside it."""
    return repo_relative(path) or Path(path).as_posix()
