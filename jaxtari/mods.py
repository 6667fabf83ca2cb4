"""Source-level modifications of a game.

- :class:`InternalMod` changes the game before compilation: it overrides fields of the game's
  ``Constants`` or swaps one of its named mechanics (a method listed in ``Game.mechanics``) for
  another function. The compiled step has no trace of the original, so the mod costs nothing at run
  time.
- :class:`PostStepMod` rewrites the state and/or the reward after every raw step (a function of
  ``(game, previous_state, new_state, reward) -> (new_state, reward)``), traced into the step.

Each game registers its mods in ``jaxtari/games/<game>/mods.py`` (a module-level ``MODS`` list,
found by :mod:`jaxtari.mod_registry`); ``jaxtari.make(name, mods=[...])`` takes registered names
or mod objects. A mod declares the rules
of the game's spec (``specs/<game>.yaml`` ids) it changes in ``rules``: an audit of the modified
game runs only the probes of the other rules.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Sequence

import numpy as np


class ModError(ValueError):
    """An unknown mod, a mod that names something the game lacks, or two mods that conflict."""


@dataclasses.dataclass(frozen=True)
class InternalMod:
    name: str
    description: str
    constants: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    mechanics: Mapping[str, Callable] = dataclasses.field(default_factory=dict)
    rules: tuple[str, ...] = ()  # ids of the game's spec rules this mod changes (none: it changes none)


@dataclasses.dataclass(frozen=True)
class PostStepMod:
    name: str
    description: str
    fn: Callable
    rules: tuple[str, ...] = ()  # ids of the game's spec rules this mod changes

    def apply(self, game, prev_state, state, reward):
        return self.fn(game, prev_state, state, reward)


Mod = InternalMod | PostStepMod


def _constant_problem(default, value) -> str | None:
    """Why ``value`` cannot stand in for a constant whose default is ``default``, or None.

    Caught when the game is made, not at the first ``step`` deep inside a trace.
    """
    try:
        want, got = np.asarray(default), np.asarray(value)
    except Exception:  # a value numpy cannot even read
        return f"{type(value).__name__} is not a number or array"
    if got.dtype == object or got.dtype.kind in "USV":
        return f"{type(value).__name__} is not a number or array"
    if want.shape != got.shape:
        return f"it has shape {want.shape}, not {got.shape}"
    if want.dtype.kind == "b" and got.dtype.kind != "b":
        return "it is a flag (True/False)"
    if want.dtype.kind in "iu" and got.dtype.kind not in "iub":
        return f"it is a whole number, not {got.dtype}"
    return None


def apply_internal(game_cls, mods: Sequence[Mod]):
    """Merge the InternalMods into (constants, mechanic overrides), refusing conflicts."""
    consts = game_cls.Constants()
    fields = {f.name for f in dataclasses.fields(consts)}
    const_owner: dict[str, str] = {}
    overrides: dict[str, Any] = {}
    mech_owner: dict[str, str] = {}
    mechanics: dict[str, Callable] = {}
    for mod in mods:
        if not isinstance(mod, InternalMod):
            continue
        for field, value in mod.constants.items():
            if field not in fields:
                raise ModError(
                    f"{game_cls.name}: mod {mod.name!r} sets unknown constant {field!r}; "
                    f"constants: {', '.join(sorted(fields))}"
                )
            if field in const_owner:
                raise ModError(
                    f"{game_cls.name}: mods {const_owner[field]!r} and {mod.name!r} both set "
                    f"constant {field!r}; use one of them"
                )
            problem = _constant_problem(getattr(consts, field), value)
            if problem:
                raise ModError(
                    f"{game_cls.name}: mod {mod.name!r} sets constant {field!r} to {value!r}, but "
                    f"{problem} (default {getattr(consts, field)!r})"
                )
            const_owner[field] = mod.name
            overrides[field] = value
        for mech, fn in mod.mechanics.items():
            if mech not in game_cls.mechanics:
                raise ModError(
                    f"{game_cls.name}: mod {mod.name!r} swaps unknown mechanic {mech!r}; "
                    f"mechanics: {', '.join(game_cls.mechanics) or '(none)'}"
                )
            if mech in mech_owner:
                raise ModError(
                    f"{game_cls.name}: mods {mech_owner[mech]!r} and {mod.name!r} both swap "
                    f"mechanic {mech!r}; use one of them"
                )
            mech_owner[mech] = mod.name
            mechanics[mech] = fn
    return dataclasses.replace(consts, **overrides), mechanics
