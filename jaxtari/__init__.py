"""Atari 2600 games as pure JAX functions.

>>> import jaxtari
>>> game = jaxtari.make("pong")
>>> obs, state = game.reset(jax.random.key(0))            # doctest: +SKIP
>>> obs, state, reward, done, info = game.step(state, 0)  # one emulator frame  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from pathlib import Path
from typing import Sequence

from jaxtari import games as games_package
from jaxtari import names
from jaxtari.env import ACTION_NAMES, Game, ObjectGroup, UnknownGameError
from jaxtari.mods import InternalMod, ModError, PostStepMod

__version__ = "0.1.0"

# A game is a package jaxtari/games/<name>/ exporting its Game subclass (whose ``name`` is <name>):
# adding one adds a package and edits nothing here. Listing them imports none of them.
_GAMES: tuple[str, ...] = tuple(sorted(
    info.name for info in pkgutil.iter_modules(games_package.__path__)
    if info.ispkg and not info.name.startswith("_")))


def canonical_name(name: str) -> str:
    """``"Frostbite"``, ``"frostbite"``, ``"ALE/Frostbite-v5"`` -> ``"frostbite"`` (the spellings
    :func:`jaxtari.names.key` reduces); raises if unknown."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name is a string, got {name!r}")
    key = names.key(name)
    for canon in _GAMES:
        if names.key(canon) == key:
            return canon
    known = ", ".join(list_games())
    if key in _ale_rom_keys():
        raise UnknownGameError(f"unknown game {name!r}: it is an Atari game in ALE, but jaxtari has not "
                               f"ported it yet; jaxtari's games: {known}")
    raise UnknownGameError(f"unknown game {name!r}; known games: {known}")


def ale_rom_ids() -> list[str]:
    """The ids of the ROMs ale-py ships (``"pong"``, ``"space_invaders"``, ...), or [] without it.

    Read from the file names of its ``roms`` folder, located without importing ale-py: importing
    it registers ALE's gymnasium ids, which ``import jaxtari`` must not do on a user's behalf.
    jaxtari does not need ale-py, so without it the messages that use this are plainer.
    """
    try:
        spec = importlib.util.find_spec("ale_py")
    except ImportError:  # an import hook that refuses it (the layering test's): as if not installed
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    roms = [Path(p) / "roms" for p in spec.submodule_search_locations]
    return sorted({f.stem for d in roms if d.is_dir() for f in d.glob("*.bin")})


def _ale_rom_keys() -> set[str]:
    return {names.key(rom) for rom in ale_rom_ids()}


def list_games() -> list[str]:
    """Canonical names of the games implemented in JAX."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The Game subclass of a game: the one class its package exports whose ``name`` is the game's."""
    canon = canonical_name(name)
    module = importlib.import_module(f"{games_package.__name__}.{canon}")
    found = {v for v in vars(module).values()
             if isinstance(v, type) and issubclass(v, Game) and v is not Game and v.name == canon}
    if len(found) != 1:
        raise TypeError(f"{module.__name__} must export one Game subclass named {canon!r}, "
                        f"found {len(found)}")
    return found.pop()


def make(name: str, mods: Sequence = (), *, full_action_space: bool = False) -> Game:
    """Build a game by name, with mods (registered names or mod objects) applied."""
    from jaxtari.mod_registry import resolve
    from jaxtari.mods import apply_internal

    canon = canonical_name(name)
    cls = game_class(canon)
    resolved = resolve(canon, mods)
    consts, mechanics = apply_internal(cls, resolved)
    post = [m for m in resolved if isinstance(m, PostStepMod)]
    return cls(
        consts,
        full_action_space=full_action_space,
        mechanic_overrides=mechanics,
        post_step_mods=post,
        mod_names=[m.name for m in resolved],
    )


__all__ = [
    "ACTION_NAMES", "Game", "ObjectGroup", "InternalMod", "PostStepMod", "ModError",
    "UnknownGameError", "make", "list_games", "canonical_name", "game_class", "ale_rom_ids",
]


def _register_gymnasium_ids() -> None:
    # gymnasium 1.x has no plugin entry points: ids exist once the package is imported, as ale-py's do
    from jaxtari import gym as _gym

    _gym.register()


_register_gymnasium_ids()
