"""The mods each game registers, by name: the ``MODS`` list of ``jaxtari/games/<game>/mods.py``.

A module of its own, apart from the mod classes in :mod:`jaxtari.mods`: each game's ``mods.py``
imports those classes, and finding a game's mods imports that ``mods.py``, so one module doing both
would import itself back through every game (tests/test_imports.py).
"""

from __future__ import annotations

import importlib
from typing import Sequence

from jaxtari.mods import InternalMod, Mod, ModError, PostStepMod


def registered_mods(game_name: str) -> dict[str, Mod]:
    """The mods registered for a game (by its canonical name), keyed by mod name: the ``MODS`` of
    ``jaxtari/games/<game>/mods.py`` (a game without that module has none)."""
    module_name = f"jaxtari.games.{game_name}.mods"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # no such game package or no mods module: no mods; a module the mods import is missing: a bug
        if exc.name is None or not module_name.startswith(exc.name):
            raise
        return {}
    return {m.name: m for m in getattr(module, "MODS", ())}


def resolve(game_name: str, mods: Sequence[str | Mod]) -> list[Mod]:
    """Turn names and mod objects into mod objects, with a clear error for unknown names."""
    available = registered_mods(game_name)
    if isinstance(mods, (str, InternalMod, PostStepMod)):
        mods = [mods]  # one mod given on its own, not a sequence of its characters
    out: list[Mod] = []
    mods = list(mods)
    for m in mods:
        if isinstance(m, (InternalMod, PostStepMod)):
            out.append(m)
            continue
        if not isinstance(m, str):
            raise ModError(f"{game_name}: a mod is a registered name or an InternalMod/PostStepMod, got {m!r}")
        key = m.strip().lower().replace("-", "_")
        if key not in available:
            known = ", ".join(sorted(available)) or "(none)"
            raise ModError(f"{game_name}: unknown mod {m!r}; mods for this game: {known}")
        out.append(available[key])
    names = [m.name for m in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ModError(f"{game_name}: mod(s) given twice: {', '.join(dupes)}")
    return out
