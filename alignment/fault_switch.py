"""One compile for every seeded fault of a game.

Built alone, each seeded fault (a mod that breaks one rule, :mod:`alignment.audit.faults`) is a new
compile of the game: measured on Frostbite's quick audit, its 15 faults took 4 of the audit's 5
minutes on two cores, most of it compiling. A fault switch builds, once, a game that holds every
fault and plays the one an index picks, the index passed at run time:

- a Constants field that some fault changes is a traced input (the fault's value, or the game's);
- a swapped mechanic is a ``lax.switch`` between the game's own and the faults' versions;
- the faults' post-step rewrites are one post-step ``lax.switch``, the game's state unchanged
  (identity) for a fault that has none.

While a switch is active (:func:`activate`, the audit's fault stage), the JAX backend
(:class:`alignment.backends.JaxBackend`) and the v5 probes' runner (:mod:`alignment.audit.probes`)
give a fault's game from it, the same frames as the fault's own build (tests/audit/
test_fault_switch.py). A fault it cannot hold compiles a game of its own, as before: one setting a
Constants field to what cannot be traced with the same frames (not a whole number or a flag),
one whose build fails, or one whose field or mechanic does not trace with the rest (found by
tracing, halving the set).

Its programs are compiled ahead of time (:class:`Kept`), so
:meth:`alignment.audit.session.AuditSession.release_compiled`, called after every fault to keep the
process under the kernel's cap on memory mappings, leaves them: one set of programs per game mode,
for the whole stage. The active switch is the current audit session's
(:attr:`~alignment.audit.session.AuditSession.fault_switch`); it goes, and its programs with it,
when the stage ends (:func:`deactivate`) or the session does.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Optional, Sequence

import numpy as np

from jaxtari.variants import fits_int32, keyed_by_static_fields, select_fields

from alignment.audit import session


def activate(game: str, mods: Sequence) -> "FaultSwitch":
    """Serve the games of ``mods`` (one seeded fault each) from one switch of catalog ``game``; the
    switch already active when it holds these very mods."""
    from alignment import catalog

    here = session.current()
    name = catalog.entry(game).name
    now = here.fault_switch
    if now is None or now.game != name or len(now.mods) != len(mods) or any(
            a is not b for a, b in zip(now.mods, mods)):
        here.fault_switch = FaultSwitch(name, mods)
    return here.fault_switch


def deactivate() -> None:
    """No switch: every fault builds its own game; the switch's programs are let go."""
    session.current().fault_switch = None


def active() -> Optional["FaultSwitch"]:
    return session.current().fault_switch


def serving(game: str, mods: Sequence, mode: Optional[int], full_action_space: bool):
    """(the :class:`Variant`, its ``x`` for this fault) when the active switch holds the game of
    ``game`` built with ``mods`` in ``mode``; else None."""
    switch = active()
    if switch is None or switch.game != game:
        return None
    return switch.serve(mods, mode, full_action_space)


class Kept:
    """A function jitted, then compiled ahead of time for each signature it is called with: the
    compiled program is held here, so ``jax.clear_caches()`` does not take it."""

    def __init__(self, fn: Callable):
        import jax

        self._jitted = jax.jit(fn)
        self._compiled: dict = {}

    def __call__(self, *args):
        import jax

        leaves, tree = jax.tree_util.tree_flatten(args)
        signature = (tree, tuple(jax.typeof(leaf) for leaf in leaves))
        if signature not in self._compiled:
            self._compiled[signature] = self._jitted.lower(*args).compile()
        return self._compiled[signature](*args)


class FaultSwitch:
    """The seeded faults ``mods`` of catalog game ``game``, one :class:`Variant` per game mode and
    action set asked for."""

    def __init__(self, game: str, mods: Sequence):
        import jaxtari
        from alignment import catalog

        entry = catalog.entry(game)
        self.game, self.jax_game = entry.name, entry.jax_game
        self.game_cls = jaxtari.game_class(entry.jax_game)
        self.mods = tuple(mods)
        self._variants: dict = {}

    def slot(self, mods: Sequence) -> Optional[int]:
        """The index of the fault whose game ``mods`` build (that one mod object alone), or None."""
        mods = tuple(mods)
        if len(mods) != 1:
            return None
        return next((i for i, m in enumerate(self.mods) if m is mods[0]), None)

    def variant(self, mode: Optional[int], full_action_space: bool) -> "Variant":
        key = (mode, bool(full_action_space))
        if key not in self._variants:
            self._variants[key] = Variant(self.game, self.game_cls, self.mods, mode,
                                          bool(full_action_space))
        return self._variants[key]

    def serve(self, mods: Sequence, mode: Optional[int], full_action_space: bool):
        i = self.slot(mods)
        if i is None:
            return None
        v = self.variant(mode, full_action_space)
        return (v, v.x(i)) if i in v.slots else None


def _traced_kind(value) -> Optional[str]:
    """What a Constants value is as a traced input (a flag or a whole number), or None when it
    cannot be one with the frames of the static value. A whole number goes in weakly typed, as a
    Python int does, so it promotes as the static one would; a tuple's elements would not (taken
    as an array they would be weak, where the static tuple gives a strong one), so a tuple stays
    static and its faults compile their own games."""
    if isinstance(value, bool):
        return "flag"
    if isinstance(value, int) and fits_int32(value):  # a whole number goes in as a 32-bit one
        return "int"
    return None


def _differs(a, b) -> bool:
    try:
        return bool(a != b)
    except Exception:  # arrays: compared element by element, not as one value
        return not np.array_equal(np.asarray(a), np.asarray(b))


@dataclasses.dataclass
class _Fault:
    constants: dict  # field -> the fault's value, where it differs from the game's
    mechanics: dict  # mechanic name -> the fault's function
    post: Any  # the fault's PostStepMod, or None


class Variant:
    """The switch in one game mode and action set: :meth:`make` builds the game of the fault that
    ``x`` (:meth:`x`) picks, traceable; :attr:`slots` the faults it holds, :attr:`left_out` why
    the others are not (they compile their own)."""

    def __init__(self, game: str, game_cls, mods: Sequence, mode: Optional[int],
                 full_action_space: bool):
        from jaxtari.mods import InternalMod, PostStepMod, apply_internal

        self.game, self.game_cls, self.mode = game, game_cls, mode
        self.full_action_space = full_action_space
        base = game_cls.Constants()
        mode_mod = []
        if mode is not None:
            mode_mod = [InternalMod("ale-mode", f"ALE game mode {mode}",
                                    constants={"mode": int(mode)})]
            if any(f.name == "mode" for f in dataclasses.fields(base)):
                base = dataclasses.replace(base, mode=int(mode))
        self.left_out: dict[int, str] = {}
        faults: dict[int, _Fault] = {}
        for i, mod in enumerate(mods):
            try:
                consts, mechanics = apply_internal(game_cls, [mod] + mode_mod)
            except Exception as exc:  # its own build says what is wrong
                self.left_out[i] = f"does not build: {exc}"
                continue
            changed = {f.name: getattr(consts, f.name) for f in dataclasses.fields(consts)
                       if _differs(getattr(consts, f.name), getattr(base, f.name))}
            odd = [k for k, v in changed.items()
                   if _traced_kind(v) is None or _traced_kind(v) != _traced_kind(getattr(base, k))]
            if odd:
                self.left_out[i] = f"sets {', '.join(odd)} to what cannot be a traced input"
                continue
            faults[i] = _Fault(changed, dict(mechanics),
                               mod if isinstance(mod, PostStepMod) else None)
        self._base = base
        self.slots = self._holding(faults)
        self._setup({i: faults[i] for i in self.slots})
        self._kept: dict = {}

    # ---- which faults it holds -------------------------------------------------------------
    def _holding(self, faults: dict) -> list[int]:
        """The faults that trace together: all when they do, else halves, each fault that fails
        alone left out."""
        def ok(slots) -> bool:
            try:
                self._setup({i: faults[i] for i in slots})
                self._check()
                return True
            except Exception as exc:
                self._why = f"{type(exc).__name__}: {exc}"
                return False

        good = select_fields(sorted(faults), ok)
        for i in sorted(set(faults) - set(good)):
            self.left_out[i] = (f"does not trace under the switch ({self._why[:200]})" if not ok([i])
                                else "does not trace with the others")
        return good

    def _check(self) -> None:
        """Trace (not compile) a reset, a frame, a render and the end test: raises when the switch
        cannot be built."""
        import jax

        x = self.x(self._order[0]) if self._order else None

        def frame(x, key):
            game = self.make(x)
            state = game.reset(key)[1]
            out = game.step(state, 0)
            return out[1], out[2], game.render(out[1]), game.is_terminal(out[1])

        if x is not None:
            jax.eval_shape(frame, x, jax.random.key(0))

    def _setup(self, faults: dict) -> None:

        self._order = sorted(faults)
        self._slot_of = {i: n for n, i in enumerate(self._order)}
        self._traced = sorted({k for f in faults.values() for k in f.constants})
        self._values = {i: {k: faults[i].constants.get(k, getattr(self._base, k))
                            for k in self._traced} for i in self._order}
        self._keyed = (keyed_by_static_fields(self._base, self._traced) if self._traced
                       else self._base)
        # per mechanic: the functions (0: the game's own) and each slot's branch
        self._mechanics: dict[str, tuple[list, np.ndarray]] = {}
        for name in sorted({m for f in faults.values() for m in f.mechanics}):
            fns, table = [getattr(self.game_cls, name)], []
            for i in self._order:
                fn = faults[i].mechanics.get(name)
                if fn is not None and fn not in fns:
                    fns.append(fn)
                table.append(0 if fn is None else fns.index(fn))
            self._mechanics[name] = (fns, np.asarray(table, np.int32))
        posts = [faults[i].post for i in self._order]
        self._posts = [p for p in posts if p is not None]
        self._post_table = np.asarray([0 if p is None else 1 + self._posts.index(p) for p in posts],
                                      np.int32)

    # ---- the game -------------------------------------------------------------------------
    def x(self, fault: int) -> tuple:
        """What the switched programs take for fault ``fault`` (its index in the fault set)."""
        return (np.int32(self._slot_of[fault]), dict(self._values[fault]))

    def make(self, x):
        """The game of the fault ``x`` picks (traceable: ``x`` may be traced)."""
        import jax
        import jax.numpy as jnp

        from jaxtari.mods import PostStepMod

        slot, values = x
        consts = dataclasses.replace(self._keyed, **values) if values else self._keyed

        def switched_mechanic(fns, table):
            def mechanic(game, *args, **kwargs):
                branches = [lambda f=f: f(game, *args, **kwargs) for f in fns]
                return jax.lax.switch(jnp.asarray(table)[slot], branches)
            return mechanic

        overrides = {name: switched_mechanic(fns, table)
                     for name, (fns, table) in self._mechanics.items()}
        post = []
        if self._posts:
            posts, table = self._posts, self._post_table

            def rewrite(game, prev, state, reward):
                branches = [lambda: (state, reward)] + [
                    lambda p=p: p.apply(game, prev, state, reward) for p in posts]
                return jax.lax.switch(jnp.asarray(table)[slot], branches)

            post = [PostStepMod("seeded-fault", "the seeded fault the switch's index picks",
                                rewrite)]
        return self.game_cls(consts, full_action_space=self.full_action_space,
                             mechanic_overrides=overrides, post_step_mods=post)

    def kept(self, key, build: Callable[[], Any]):
        """What ``build`` makes, made once per ``key`` and held with the switch (programs)."""
        if key not in self._kept:
            self._kept[key] = build()
        return self._kept[key]


__all__ = ["FaultSwitch", "Kept", "Variant", "activate", "active", "deactivate", "serving"]
