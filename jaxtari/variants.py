"""A game's Constants as data: many variants of one game under one compile.

A game reads its numbers from its ``Constants``; built as usual they are baked into the compiled
step. :class:`Variants` builds the game inside the trace instead, with some Constants fields taken
from arrays passed at call time, so ``jax.vmap`` over a batch of values runs a batch of variants in
one compiled program (domain randomisation, several constant mods side by side)::

    v = Variants("pong", fields=("enemy_speed", "paddle_speed"))
    values = v.stack([{}, {"enemy_speed": 1}, v.mod_values(["slow_enemy"])])
    obs, state = jax.vmap(v.reset)(values, jax.random.split(jax.random.key(0), 3))
    obs, state, reward, done, info = jax.jit(jax.vmap(v.step))(values, state, actions)

Only whole-number and True/False fields (and tuples of them) that the game uses as values can be
data; a field that
decides an array's shape or a Python branch stays baked: :func:`traceable_fields` finds which.
``wrap`` puts each built game inside wrappers (``AtariWrapper`` for the v5 protocol, ...).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Optional, Sequence

import jax
import jax.numpy as jnp

import jaxtari
from jaxtari.env import Game


class VariantError(ValueError):
    """A variant asked for that cannot be data: the message names the field or mod and the fix."""


def _number_like(value, switches: bool = False) -> bool:
    if isinstance(value, bool):
        return switches
    if isinstance(value, int):
        return True
    return isinstance(value, tuple) and len(value) > 0 and all(
        _number_like(v, switches) for v in value)


def keyed_by_static_fields(consts, traced: Sequence[str]):
    """``consts`` as an instance of a subclass hashed and compared by its untraced fields only.

    A game may cache tables built from its constants (``functools.lru_cache`` keyed on them), and a
    traced field's value cannot be a key. Those tables never read a traced field: tracing would
    have failed, and :func:`traceable_fields` would have left the field baked."""
    cls = type(consts)
    static = [f.name for f in dataclasses.fields(consts) if f.name not in traced]

    def key(self):
        return tuple(getattr(self, n) for n in static)

    keyed = type(f"Traced{cls.__name__}", (cls,), {
        "__hash__": lambda self: hash(key(self)),
        "__eq__": lambda self, other: type(other) is type(self) and key(self) == key(other),
    })
    return keyed(**{f.name: getattr(consts, f.name) for f in dataclasses.fields(consts) if f.init})


def fits_int32(value: int) -> bool:
    """Whether the whole number ``value`` fits the 32-bit integers a game's traced Constants are."""
    return -(2**31) <= value <= 2**31 - 1


def _as_data(default, value, field: str):
    """``value`` for a field whose default is ``default``, as int32 arrays shaped like it."""
    if isinstance(default, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(default):
            raise VariantError(f"{field}: expected {len(default)} numbers like the default "
                               f"{default!r}, got {value!r}")
        return tuple(_as_data(d, v, f"{field}[{i}]") for i, (d, v) in enumerate(zip(default, value)))
    dtype = getattr(value, "dtype", None)
    if isinstance(default, bool):
        if not (isinstance(value, bool) or dtype == jnp.bool_):
            raise VariantError(f"{field}: expected True or False (default {default!r}), got {value!r}")
        return jnp.asarray(value, jnp.bool_)
    whole = (isinstance(value, int) and not isinstance(value, bool)) or (
        dtype is not None and jnp.issubdtype(dtype, jnp.integer))
    if not whole:
        raise VariantError(f"{field}: expected a whole number (default {default!r}), got {value!r}")
    if isinstance(value, int) and not fits_int32(value):
        raise VariantError(f"{field}: {value} does not fit the game's 32-bit integers")
    return jnp.asarray(value, jnp.int32)


class Variants:
    """One game with the Constants ``fields`` as data (default: every field that can be).

    ``mods`` are applied as in :func:`jaxtari.make` (their constants become the base values);
    ``wrap(game)`` returns what :meth:`reset`/:meth:`step` call (default: the game itself)."""

    def __init__(self, name: str, fields: Optional[Sequence[str]] = None, *, mods: Sequence = (),
                 full_action_space: bool = False, wrap: Optional[Callable[[Game], Any]] = None):
        from jaxtari.mod_registry import resolve
        from jaxtari.mods import PostStepMod, apply_internal

        self.name = jaxtari.canonical_name(name)
        self.game_cls = jaxtari.game_class(self.name)
        self._resolved = resolve(self.name, mods)
        consts, mechanics = apply_internal(self.game_cls, self._resolved)
        self._mechanics = mechanics
        self._post = [m for m in self._resolved if isinstance(m, PostStepMod)]
        self._full = full_action_space
        self._wrap = wrap or (lambda game: game)
        known = {f.name for f in dataclasses.fields(consts)}
        if fields is None:
            fields = traceable_fields(self.name, mods=mods)
        fields = tuple(fields)
        unknown = [f for f in fields if f not in known]
        if unknown:
            raise VariantError(f"{self.name}: no Constants field {', '.join(map(repr, unknown))}; "
                               f"its fields: {', '.join(sorted(known))}")
        baked = [f for f in fields if not _number_like(getattr(consts, f), True) or f == "mode"]
        if baked:
            raise VariantError(f"{self.name}: {', '.join(map(repr, baked))} cannot be data (not a "
                               f"whole number, a switch or a tuple of them, or the game mode); "
                               f"build a game per value with jaxtari.make and a mod instead")
        self.fields = fields
        self.base = keyed_by_static_fields(consts, fields)
        self._check()

    # ---- values ----------------------------------------------------------------------------
    def values(self, **overrides) -> dict[str, Any]:
        """One variant's values: the base Constants' with ``overrides`` (fields of this set)."""
        out = {}
        for f in self.fields:
            default = getattr(self.base, f)
            out[f] = _as_data(default, overrides.pop(f, default), f)
        if overrides:
            raise VariantError(f"{self.name}: {', '.join(map(repr, overrides))} not among the data "
                               f"fields {self.fields}; pass fields=... to Variants to add it")
        return out

    def mod_values(self, mods: Sequence) -> dict[str, Any]:
        """The values of a set of constant mods (on top of this object's own mods), as data.

        A mod that swaps a mechanic, acts after the step, or sets a field outside :attr:`fields`
        changes the program, not its numbers, and is refused by name."""
        from jaxtari.mod_registry import resolve
        from jaxtari.mods import InternalMod, apply_internal

        resolved = resolve(self.name, mods)
        for mod in resolved:
            if not isinstance(mod, InternalMod) or mod.mechanics:
                raise VariantError(f"{self.name}: mod {mod.name!r} changes the program, not its "
                                   f"constants: build it with jaxtari.make(..., mods=[...])")
            outside = [f for f in mod.constants if f not in self.fields]
            if outside:
                raise VariantError(f"{self.name}: mod {mod.name!r} sets {', '.join(outside)}, not "
                                   f"among the data fields {self.fields}")
        consts, _ = apply_internal(self.game_cls, list(self._resolved) + list(resolved))
        return self.values(**{f: getattr(consts, f) for f in self.fields})

    def stack(self, variants: Sequence[Mapping]) -> dict[str, Any]:
        """A batch (leading axis) of variants, each a mapping of overrides or of :meth:`values`."""
        if not variants:
            raise VariantError("stack needs at least one variant")
        rows = [self.values(**dict(v)) for v in variants]
        return jax.tree.map(lambda *xs: jnp.stack(xs), *rows)

    # ---- the game ----------------------------------------------------------------------------
    def game(self, values: Mapping[str, Any]) -> Game:
        """The unwrapped game with ``values``; call it inside a trace (values may be tracers)."""
        consts = dataclasses.replace(self.base, **dict(values))
        return self.game_cls(consts, full_action_space=self._full,
                             mechanic_overrides=self._mechanics, post_step_mods=self._post,
                             mod_names=[m.name for m in self._resolved])

    def build(self, values: Mapping[str, Any]):
        """The game with ``values``, wrapped by ``wrap``; call it inside a trace."""
        return self._wrap(self.game(values))

    def reset(self, values, key):
        return self.build(values).reset(key)

    def step(self, values, state, action):
        return self.build(values).step(state, action)

    def render(self, values, state):
        """The 210x160 RGB frame of a game state (the unwrapped game's)."""
        return self.game(values).render(state)

    def _check(self) -> None:
        """Trace (never compile or run) reset, step and render with the values as data."""
        values = self.values()
        try:
            state = jax.eval_shape(lambda vals, key: self.reset(vals, key)[1], values,
                                   jax.random.key(0))
            jax.eval_shape(lambda vals, s: self.step(vals, s, jnp.int32(0)), values, state)
            raw = jax.eval_shape(lambda vals, key: self.game(vals).reset(key)[1], values,
                                 jax.random.key(0))
            jax.eval_shape(self.render, values, raw)
        except Exception as e:  # noqa: BLE001 - a field the game needs as a Python value
            raise VariantError(f"{self.name}: the game cannot take {self.fields} as data "
                               f"({type(e).__name__}); jaxtari.variants.traceable_fields"
                               f"({self.name!r}) lists the fields that can") from None


def select_fields(candidates: Sequence[str], ok: Callable[[Sequence[str]], bool]) -> list[str]:
    """The largest set of ``candidates`` that ``ok`` accepts, as found by halving: a group that
    fails is split in halves until each field that fails alone is left out; then, if fields fine
    alone still fail together (rare), fields are dropped from the end until the set passes."""
    def split(fields) -> list[str]:
        if not fields or ok(fields):
            return list(fields)
        if len(fields) == 1:
            return []
        half = len(fields) // 2
        return split(fields[:half]) + split(fields[half:])

    good = split(list(candidates))
    while good and not ok(good):
        good.pop()
    return good


def candidate_fields(consts, switches: bool = False) -> list[str]:
    """The fields of a Constants instance that could be data: whole numbers and tuples of them
    (and with ``switches`` the True/False fields), the game mode aside (it picks the program)."""
    return [f.name for f in dataclasses.fields(consts)
            if _number_like(getattr(consts, f.name), switches) and f.name != "mode"]


def traceable_fields(name: str, mods: Sequence = ()) -> tuple[str, ...]:
    """The Constants fields of game ``name`` that can be data: the candidates the game traces
    through reset, step and render (:func:`select_fields` over :class:`Variants`' own check),
    switches (True/False fields, most constant mods) included."""
    consts = jaxtari.game_class(jaxtari.canonical_name(name)).Constants()

    def ok(fields) -> bool:
        try:
            Variants(name, fields, mods=mods)
            return True
        except VariantError:
            return False

    return tuple(select_fields(candidate_fields(consts, switches=True), ok))


__all__ = ["Variants", "VariantError", "candidate_fields", "fits_int32", "keyed_by_static_fields",
           "select_fields", "traceable_fields"]
