"""ALE and JAX behind one lockstep API: reset, act, signals, frames, clone/restore.

>>> ale = make_backend("ale", "frostbite")          # doctest: +SKIP
>>> jax_side = make_backend("jax", "frostbite")     # doctest: +SKIP
>>> for b in (ale, jax_side):                       # doctest: +SKIP
...     b.reset(seed=0); b.act("DOWN", frames=8); print(b.signals()["row"])

Both kinds advance one emulator frame per frame with sticky actions off, so the same actions give
the same frames on both sides, and both report every catalog signal (:mod:`alignment.catalog`) as
plain python/numpy values. After game over both stand still (no frame advances, reward 0) until
:meth:`Backend.reset`. :meth:`Backend.run` is the fast path for long action sequences: per-frame
signal traces and rewards; on the JAX side a compiled ``lax.scan`` over fixed-size chunks (one
compile per game serves every length; a shorter chunk is masked, not recompiled).

Actions are indices into :attr:`Backend.action_names` (the game's minimal set in ALE's order, or all
18 with ``full_action_space=True``) or ALE action names. The JAX side's compiled functions are kept
per (game, mods, mode, action set) in the current :class:`~alignment.audit.session.AuditSession`
(an audit's, else the process's), so probes, compare and the playtest recorder share one compile.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Iterable, Sequence

import numpy as np

from jaxtari.env import action_position as position

from alignment import catalog
from alignment.audit import session
from alignment.reference.ale import AleError, AleGame, AleSnapshot
from alignment import plain
from alignment.plain import to_python
from alignment.signals import RamWriteConflict, apply_ram_writes, merge_ram_writes

BACKENDS = ("ale", "jax")
REWARD = "reward"  # the key of the per-frame rewards in :meth:`Backend.run`'s traces

# Frames per compiled call on the JAX side: act() and run() pad the last chunk with masked frames.
ACT_CHUNK = 64
RUN_CHUNK = 1024
RENDER_BATCH = 32  # screens rendered per compiled call of run_screens (padded: one compile)


class BackendError(ValueError):
    """A backend that cannot be built or driven as asked (the message says what to change)."""


SEED_MAX = 2**32 - 1  # ALE takes 32-bit unsigned seeds


def whole_number(value, what: str, *, hint: str) -> int:
    """:func:`alignment.plain.whole_number` raising :class:`BackendError`: the check the ALE game
    under :class:`AleBackend` (:class:`alignment.reference.ale.AleGame`) makes too."""
    return plain.whole_number(value, what, hint=hint, error=BackendError)


def make_backend(kind: str, game: str, *, mods: Sequence = (), mode: int | None = None,
                 full_action_space: bool = False) -> "Backend":
    """An ALE (``"ale"``) or JAX (``"jax"``) backend of a catalog game, reset with seed 0."""
    if kind == "ale":
        return AleBackend(game, mods=mods, mode=mode, full_action_space=full_action_space)
    if kind == "jax":
        return JaxBackend(game, mods=mods, mode=mode, full_action_space=full_action_space)
    raise BackendError(f"unknown backend {kind!r}; backends: {', '.join(BACKENDS)}")


class Backend:
    """What both kinds share: action lookup and the trace layout of :meth:`run`."""

    kind: str
    game: str
    entry: catalog.GameEntry
    action_names: tuple[str, ...]

    def action_index(self, action: int | str) -> int:
        """The index in :attr:`action_names` of an index or an ALE action name."""
        if isinstance(action, str):
            i = position(self.action_names, action)
            if i is None:
                raise BackendError(f"{self.game}: unknown action {action!r}; this backend's actions "
                                   f"are: {', '.join(self.action_names)}")
            return i
        i = whole_number(action, f"{self.game}: action", hint=(
            f"give an index 0..{len(self.action_names) - 1} or a name "
            f"({', '.join(self.action_names)})"))
        if not 0 <= i < len(self.action_names):
            raise BackendError(f"{self.game}: action index {action!r} out of range "
                               f"0..{len(self.action_names) - 1} ({', '.join(self.action_names)})")
        return i

    def action_indices(self, frame_actions: Iterable[int | str]) -> np.ndarray:
        if isinstance(frame_actions, (str, bytes)):
            raise BackendError(f"{self.game}: frame actions {frame_actions!r} is one string; give a "
                               "list with one action (index or name) per frame")
        return np.asarray([self.action_index(a) for a in frame_actions], np.int32)

    def _check_frames(self, frames: int) -> int:
        n = whole_number(frames, "frames", hint="give a whole number of emulator frames >= 0")
        if n < 0:
            raise BackendError(f"frames must be >= 0, got {frames!r}")
        return n

    def _screen_frames(self, at: Sequence[int], n: int) -> list[int]:
        """The frame indices of :meth:`run_screens`'s ``at``, each a whole number 0..n-1, sorted
        and once each (both kinds return one screen per index, in frame order)."""
        if isinstance(at, (str, bytes)):
            raise BackendError(f"at {at!r} is one string; give a list of frame indices")
        hint = f"give frame indices 0..{n - 1}"
        wanted = sorted({whole_number(i, "screen frame", hint=hint) for i in at})
        outside = [i for i in wanted if not 0 <= i < n]
        if outside:
            raise BackendError(f"screen frames {outside} are outside the {n} frames run; {hint}")
        return wanted

    def _check_seed(self, seed: int) -> int:
        n = whole_number(seed, "seed", hint=f"give a whole number 0..{SEED_MAX}")
        if not 0 <= n <= SEED_MAX:
            raise BackendError(f"seed {seed!r} is out of range: give a whole number 0..{SEED_MAX}")
        return n

    def _poke_of(self, name: str, value):
        """The registry entry of a poke and its checked value (BackendError naming the fix)."""
        poke = self.entry.pokes.get(name)
        if poke is None:
            known = ", ".join(sorted(self.entry.pokes)) or "none"
            raise BackendError(f"{self.game}: unknown poke {name!r}; quantities a probe can set "
                               f"on {self.game}: {known}")
        try:
            value = poke.check(value)
        except ValueError as exc:
            raise BackendError(f"{self.game}: {exc}") from None
        problem = poke.when_problem(self.frame)
        if problem:
            raise BackendError(f"{self.game}: {problem}")
        return poke, value

    def _empty_traces(self) -> dict[str, np.ndarray]:
        out = {k: np.zeros((0, *s.shape)) for k, s in self.entry.signals.items()}
        out[REWARD] = np.zeros(0, np.float64)
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game!r}, frame={self.frame})"

    # the API both kinds implement: reset, act, poke, signals, rgb, clone, restore, run,
    # terminated, frame. poke(name, value) sets a quantity of the game's registry
    # (GameEntry.pokes): RAM bytes on ALE, state fields on JAX, the same game state on both.


# ---- ALE ---------------------------------------------------------------------------------------
class AleBackend(Backend):
    """The real emulator (:class:`~alignment.reference.ale.AleGame`), sticky actions off.

    A mod runs here when the game's ground-truth module gives its ALE counterpart (``ale_mods``: RAM
    writes applied after reset and/or after every frame, see :class:`~alignment.signals.RamWrite`);
    any other mod is JAX-only and refused, and so are two mods that write one RAM byte.
    """

    kind = "ale"

    def __init__(self, game: str, *, mods: Sequence = (), mode: int | None = None,
                 full_action_space: bool = False):
        self.entry = catalog.entry(game)
        self.game = self.entry.name
        keys = mods_key(mods)
        missing = [k for k in keys if k not in self.entry.ale_mods]
        if missing:
            have = ", ".join(sorted(self.entry.ale_mods)) or "none"
            why = "; ".join(f"{k}: {self.entry.jax_only_mods[k]}" for k in missing
                            if k in self.entry.jax_only_mods)
            raise BackendError(f"{self.game}: mods ({', '.join(missing)}) have no ALE counterpart "
                               f"(RAM writes) yet; they are JAX-only, so run them on the jax backend "
                               f"(mods with one: {have})" + (f". Why not: {why}" if why else ""))
        self.mods = tuple(mods)
        try:
            self._writes = merge_ram_writes(self.game, {k: self.entry.ale_mods[k] for k in keys})
        except RamWriteConflict as exc:
            raise BackendError(str(exc)) from None
        self.mode = mode
        self.full_action_space = bool(full_action_space)
        self._ale = self._new(seed=0)
        self.action_names = self._ale.action_names

    def _new(self, seed: int) -> AleGame:
        try:
            ale = AleGame(self.game, seed=seed, sticky=0.0, mode=self.mode,
                          full_action_space=self.full_action_space)
        except AleError as exc:
            raise BackendError(str(exc)) from None
        self._write_mods(ale, "reset")
        self._at_load = ale.clone()
        return ale

    @property
    def ram_writes(self) -> tuple:
        """The RAM writes of this backend's mods (their ALE counterparts), applied after reset and
        after every frame."""
        return self._writes

    def _write_mods(self, ale: AleGame, event: str) -> None:
        if self._writes:
            apply_ram_writes(self._writes, event, ale.ram, ale.set_ram)

    def _step(self, index: int) -> int:
        reward = self._ale.step(index)
        self._write_mods(self._ale, "frame")
        return reward

    def reset(self, seed: int = 0) -> None:
        # ALE's reset_game is not a clean start: the console state after it depends on how many
        # resets came before (Frostbite: frame counter 71 or 72 and random byte 204 or 101 on the
        # first frame, so a save point's steps lead elsewhere; measured on ale-py 0.12.1). Restoring
        # the state saved right after loading the ROM is one.
        seed = self._check_seed(seed)
        if seed != self._ale.seed:
            self._ale = self._new(seed)
        self._ale.restore(self._at_load)

    def act(self, action: int | str, frames: int = 1) -> float:
        i, total = self.action_index(action), 0
        for _ in range(self._check_frames(frames)):
            if self._ale.terminated:
                break
            total += self._step(i)
        return float(total)

    def poke(self, name: str, value: int) -> None:
        """Write a registered quantity (:class:`~alignment.signals.Poke`) into the console RAM."""
        self._ale.poke(*self._poke_of(name, value))

    def run(self, frame_actions) -> dict[str, np.ndarray]:
        actions = self.action_indices(frame_actions)
        if not len(actions):
            return self._empty_traces()
        rows, rewards = [], np.zeros(len(actions), np.float64)
        for t, a in enumerate(actions):
            rewards[t] = self._step(int(a))
            rows.append(self._ale.signals())
        out = {k: np.asarray([row[k] for row in rows]) for k in self.entry.signals}
        out[REWARD] = rewards
        return out

    def run_screens(self, frame_actions, at: Sequence[int]) -> tuple[dict[str, np.ndarray], list]:
        """:meth:`run`, and the 210x160 RGB screen after each frame whose index is in ``at``
        (in that order): the lockstep audit's path (:mod:`alignment.audit.lockstep`)."""
        actions = self.action_indices(frame_actions)
        if not len(actions):
            return self._empty_traces(), []
        wanted = set(self._screen_frames(at, len(actions)))
        rows, rewards, screens = [], np.zeros(len(actions), np.float64), []
        for t, a in enumerate(actions):
            rewards[t] = self._step(int(a))
            rows.append(self._ale.signals())
            if t in wanted:
                screens.append(self._ale.rgb())
        out = {k: np.asarray([row[k] for row in rows]) for k in self.entry.signals}
        out[REWARD] = rewards
        return out, screens

    def signals(self) -> dict[str, Any]:
        return self._ale.signals()

    def rgb(self) -> np.ndarray:
        return self._ale.rgb()

    def gray(self) -> np.ndarray:
        """ALE's 210x160 grey screen (what pixel agents on ALE see, reduced to 84x84)."""
        return self._ale.gray()

    def ram(self) -> np.ndarray:
        return self._ale.ram

    def clone(self) -> AleSnapshot:
        return self._ale.clone()

    def restore(self, snapshot: AleSnapshot) -> None:
        if not isinstance(snapshot, AleSnapshot):
            raise BackendError(f"restore() takes what this ale backend's clone() returned, got "
                               f"{type(snapshot).__name__}")
        self._ale.restore(snapshot)

    @property
    def terminated(self) -> bool:
        return self._ale.terminated

    @property
    def frame(self) -> int:
        return self._ale.frame


# ---- JAX ---------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class JaxSnapshot:
    """A JAX game state (immutable, so holding it is a snapshot) and the game it belongs to."""

    key: tuple
    state: Any


@dataclasses.dataclass
class _Compiled:
    """One JAX game built with its mods and mode, and its compiled functions."""

    game: Any  # jaxtari Game
    reset: Any
    signals: Any
    render: Any
    advance: Any  # (state, actions[ACT_CHUNK], n) -> (state, summed reward)
    trace: Any  # (state, actions[RUN_CHUNK], n) -> (state, (signals per frame, rewards))
    step: Any  # (state, action) -> (state, reward): one frame, for interactive play
    terminal: Any  # state -> bool
    trace_states: Any = None  # like trace, and the state after every frame (for screens)
    render_many: Any = None  # (states per frame, indices[RENDER_BATCH]) -> screens


def mods_key(mods: Sequence) -> tuple:
    """``mods`` (registered names or mod objects) by name, as the caches key a build: registered
    and fault mod names are unique, and a fault audit builds its mod objects afresh for each run,
    which must not cost a compile each."""
    return tuple(m.strip().lower().replace("-", "_") if isinstance(m, str) else m.name for m in mods)


def _game(entry: catalog.GameEntry, mods: Sequence, mode: int | None, full_action_space: bool):
    """The JAX game built with ``mods`` and ALE game ``mode``, checked against the catalog (its
    actions and the shapes of its signals): BackendError naming what to change otherwise."""
    import jax
    import jax.numpy as jnp

    import jaxtari
    from jaxtari.mods import InternalMod, ModError

    all_mods = list(mods)
    if mode is not None:
        consts = jaxtari.game_class(entry.jax_game).Constants()
        if not any(f.name == "mode" for f in dataclasses.fields(consts)):
            raise BackendError(f"{entry.name}: the JAX game has no game modes, so ALE mode {mode} "
                               f"cannot be selected on it (leave mode unset)")
        all_mods.append(InternalMod("ale-mode", f"ALE game mode {mode}", constants={"mode": int(mode)}))
    try:
        game = jaxtari.make(entry.jax_game, all_mods, full_action_space=full_action_space)
        state0 = jax.eval_shape(lambda k: game.reset(k)[1], jax.random.key(0))
    except (ModError, ValueError) as exc:
        raise BackendError(f"{entry.name}: the JAX game could not be built: {exc}") from None
    if not full_action_space and tuple(game.action_names) != tuple(entry.minimal_actions):
        raise BackendError(
            f"{entry.name}: the JAX game's actions ({', '.join(game.action_names)}) differ from the "
            f"catalog's minimal action set ({', '.join(entry.minimal_actions)})")

    try:
        shapes = jax.eval_shape(
            lambda s: {k: jnp.asarray(sig.jax(game, s)) for k, sig in entry.signals.items()}, state0)
    except KeyError as exc:
        raise BackendError(f"{entry.name}: the JAX game's signals(state) lacks the catalog signal "
                           f"{exc}; catalog signals: {', '.join(entry.signals)}") from None
    for k, sig in entry.signals.items():
        if tuple(shapes[k].shape) != tuple(sig.shape):
            raise BackendError(f"{entry.name}: JAX signal {k!r} has shape {tuple(shapes[k].shape)}, "
                               f"the catalog says {tuple(sig.shape)}")
    return game


def _programs(entry: catalog.GameEntry, game_of, jit=None) -> dict:
    """The backend's jitted functions, each taking first ``x``, from which ``game_of(x)`` builds
    the game: () for a game of its own, a seeded fault's index and values under a fault switch
    (:mod:`alignment.fault_switch`), where one compile serves every fault. ``jit``: how each is
    compiled (default ``jax.jit``)."""
    import jax
    import jax.numpy as jnp

    from jaxtari.xla import select_tree

    jit = jit or jax.jit

    def signals_of(game, state):
        return {k: jnp.asarray(s.jax(game, state)) for k, s in entry.signals.items()}

    def frame(game, state, t_and_action, n):
        # one emulator frame where t < n and the game is not over; otherwise the state stands still
        t, a = t_and_action
        _, new, reward, _, _ = game.step(state, a)
        live = (t < n) & ~jnp.asarray(game.is_terminal(state))
        new = select_tree(live, new, state)
        return new, jnp.where(live, reward, 0.0)

    def reset(x, key):
        return game_of(x).reset(key)[1]

    def signals(x, state):
        return signals_of(game_of(x), state)

    def render(x, state):
        return game_of(x).render(state)

    def advance(x, state, actions, n):
        game = game_of(x)

        def body(carry, ta):
            s, total = carry
            s, r = frame(game, s, ta, n)
            return (s, total + r), None

        (state, total), _ = jax.lax.scan(body, (state, jnp.float32(0)),
                                         (jnp.arange(actions.shape[0]), actions))
        return state, total

    def trace(x, state, actions, n):
        game = game_of(x)

        def body(s, ta):
            s, r = frame(game, s, ta, n)
            return s, (signals_of(game, s), r)

        return jax.lax.scan(body, state, (jnp.arange(actions.shape[0]), actions))

    def step(x, state, action):
        return frame(game_of(x), state, (jnp.int32(0), action), jnp.int32(1))

    def terminal(x, state):
        return game_of(x).is_terminal(state)

    def trace_states(x, state, actions, n):
        game = game_of(x)

        def body(s, ta):
            s, r = frame(game, s, ta, n)
            return s, (signals_of(game, s), r, s)

        return jax.lax.scan(body, state, (jnp.arange(actions.shape[0]), actions))

    def render_many(x, states, idx):
        return jax.vmap(game_of(x).render)(jax.tree_util.tree_map(lambda s: s[idx], states))

    fns = dict(reset=reset, signals=signals, render=render, advance=advance, trace=trace,
               step=step, terminal=terminal, trace_states=trace_states, render_many=render_many)
    return {name: jit(fn) for name, fn in fns.items()}


def _bound(game, programs: dict, x) -> _Compiled:
    """The backend's functions of one game: ``programs`` (:func:`_programs`) given its ``x``."""
    return _Compiled(game, **{name: functools.partial(fn, x) for name, fn in programs.items()})


def _build(entry: catalog.GameEntry, mods: Sequence, mode: int | None,
           full_action_space: bool) -> _Compiled:
    game = _game(entry, mods, mode, full_action_space)
    return _bound(game, _programs(entry, lambda x: game), ())


def _switched(entry: catalog.GameEntry, mods: Sequence, mode: int | None,
              full_action_space: bool):
    """The functions of a seeded fault's game from the active fault switch's one compile, or None
    when no switch holds this fault (it then compiles a game of its own)."""
    from alignment import fault_switch

    served = fault_switch.serving(entry.name, mods, mode, full_action_space)
    if served is None:
        return None
    variant, x = served
    game = _game(entry, mods, mode, full_action_space)  # the fault's own game, for its checks
    programs = variant.kept(("backend", entry.name),
                            lambda: _programs(entry, variant.make, jit=fault_switch.Kept))
    return _bound(game, programs, x)


class JaxBackend(Backend):
    """A jaxtari game, one raw ``step`` (one emulator frame) per frame."""

    kind = "jax"

    def __init__(self, game: str, *, mods: Sequence = (), mode: int | None = None,
                 full_action_space: bool = False):
        self.entry = catalog.entry(game)
        self.game = self.entry.name
        ok, why = self.entry.jax_available()
        if not ok:
            raise BackendError(why)
        self.mods = tuple(mods)
        self.mode = mode
        self.full_action_space = bool(full_action_space)
        self.cache_key = (self.game, self.entry.jax_game, mods_key(mods), mode, self.full_action_space)
        compiled = session.current().compiled
        if self.cache_key not in compiled:
            compiled[self.cache_key] = (
                _switched(self.entry, mods, mode, self.full_action_space)
                or _build(self.entry, mods, mode, self.full_action_space))
        self._fns = compiled[self.cache_key]
        self.jax_game = self._fns.game
        self.action_names = tuple(self.jax_game.action_names)
        self.reset(0)

    def reset(self, seed: int = 0) -> None:
        import jax

        self.state = self._fns.reset(jax.random.key(self._check_seed(seed)))

    def _chunks(self, actions: np.ndarray, size: int):
        for start in range(0, len(actions), size):
            part = actions[start:start + size]
            padded = np.zeros(size, np.int32)
            padded[:len(part)] = part
            yield padded, len(part)

    def act(self, action: int | str, frames: int = 1) -> float:
        n = self._check_frames(frames)
        if n == 1:  # the play window's path: a chunk would compute ACT_CHUNK frames for one
            self.state, r = self._fns.step(self.state, np.int32(self.action_index(action)))
            return float(r)
        chunk = np.full(ACT_CHUNK, self.action_index(action), np.int32)
        total, left = 0.0, n
        # chunk by chunk, without an array of n actions; after game over the state stands still,
        # as ALE's act() loop stops there, so a huge ``frames`` ends there too
        while left > 0 and not self.terminated:
            k = min(left, ACT_CHUNK)
            self.state, r = self._fns.advance(self.state, chunk, np.int32(k))
            total += float(r)
            left -= k
        return total

    def poke(self, name: str, value: int) -> None:
        """Replace the state fields of a registered quantity (:class:`~alignment.signals.Poke`)."""
        poke, value = self._poke_of(name, value)
        self.state = poke.jax(self.state, value)

    def run(self, frame_actions) -> dict[str, np.ndarray]:
        actions = self.action_indices(frame_actions)
        if not len(actions):
            return self._empty_traces()
        parts = []
        for padded, k in self._chunks(actions, RUN_CHUNK):
            self.state, (sig, rewards) = self._fns.trace(self.state, padded, np.int32(k))
            part = {name: np.asarray(v)[:k] for name, v in sig.items()}
            part[REWARD] = np.asarray(rewards, np.float64)[:k]
            parts.append(part)
        return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}

    def run_screens(self, frame_actions, at: Sequence[int]) -> tuple[dict[str, np.ndarray], list]:
        """:meth:`run`, and the screen after each frame whose index is in ``at`` (sorted): one
        compiled scan per chunk that keeps every frame's state, then batched renders of the
        wanted ones (the lockstep audit's path, :mod:`alignment.audit.lockstep`)."""
        actions = self.action_indices(frame_actions)
        if not len(actions):
            return self._empty_traces(), []
        at = self._screen_frames(at, len(actions))
        parts, screens, base = [], [], 0
        for padded, k in self._chunks(actions, RUN_CHUNK):
            self.state, (sig, rewards, states) = self._fns.trace_states(self.state, padded,
                                                                        np.int32(k))
            part = {name: np.asarray(v)[:k] for name, v in sig.items()}
            part[REWARD] = np.asarray(rewards, np.float64)[:k]
            parts.append(part)
            local = [i - base for i in at if base <= i < base + k]
            for j in range(0, len(local), RENDER_BATCH):
                idx = local[j:j + RENDER_BATCH]
                padded_idx = np.zeros(RENDER_BATCH, np.int32)
                padded_idx[:len(idx)] = idx
                batch = np.asarray(self._fns.render_many(states, padded_idx), np.uint8)
                screens.extend(batch[:len(idx)])
            base += k
        return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}, screens

    def signals(self) -> dict[str, Any]:
        return {k: to_python(v) for k, v in self._fns.signals(self.state).items()}

    def rgb(self) -> np.ndarray:
        return np.asarray(self._fns.render(self.state), np.uint8)

    def clone(self) -> JaxSnapshot:
        return JaxSnapshot(self.cache_key, self.state)

    def restore(self, snapshot: JaxSnapshot) -> None:
        if not isinstance(snapshot, JaxSnapshot) or snapshot.key != self.cache_key:
            raise BackendError(f"restore() takes what this jax backend's clone() returned, got "
                               f"{type(snapshot).__name__}")
        self.state = snapshot.state

    @property
    def terminated(self) -> bool:
        return bool(self._fns.terminal(self.state))

    @property
    def frame(self) -> int:
        return int(self.state.frame)


__all__ = ["ACT_CHUNK", "AleBackend", "Backend", "BackendError", "BACKENDS", "JaxBackend",
           "JaxSnapshot", "RENDER_BATCH", "REWARD", "RUN_CHUNK", "make_backend",
           "mods_key"]
