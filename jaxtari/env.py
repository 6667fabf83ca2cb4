"""The game API every jaxtari game implements.

A game is a pure transition over an immutable PyTree state: ``reset(key) -> (obs, state)`` and
``step(state, action) -> (obs, state, reward, done, info)``. One raw ``step`` advances one emulator
frame (60 Hz), exactly like one ``ALEInterface.act`` with frameskip 1, so frame-based timings compare
frame for frame with the real emulator. The ALE v5 protocol (frameskip 4, sticky actions) lives in
:mod:`jaxtari.wrappers`.

Subclasses provide:

- ``name``, ``minimal_actions`` (ALE action ids of the game's minimal set, in ALE's order),
  ``Constants`` (a frozen dataclass of every tunable number) and ``mechanics`` (the names of the
  methods an :class:`~jaxtari.mods.InternalMod` may swap);
- ``_reset(key) -> state`` and ``_step(state, ale_action) -> (state, reward)``; ``ale_action`` is
  an ALE action id (0..17), already mapped from the agent's index;
- ``is_terminal(state)``, ``score(state)``, ``lives(state)``, ``objects(state)``,
  ``render(state)`` (210x160x3 uint8), ``render_gray84(state)`` (84x84 uint8, rasterised directly at
  that size) and ``signals(state)`` (the named signals of :mod:`alignment.catalog`, in ALE's units).
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any, Callable, ClassVar, Mapping, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import _compat, spaces

# ALE's full action set, in ALE's order (ale_py.Action).
ACTION_NAMES: tuple[str, ...] = (
    "NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN",
    "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT",
    "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE",
    "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE",
)
NUM_FULL_ACTIONS = len(ACTION_NAMES)
ACTION_IDS: dict[str, int] = {n: i for i, n in enumerate(ACTION_NAMES)}


def action_position(names: Sequence[str], name) -> int | None:
    """Where an action name sits in ``names`` (an action set, ALE's order), or ``None``.

    The one rule for a written action name, in the API, specs and policy files alike: any case,
    spaces around ignored (``" upfire"`` is ``UPFIRE``). Anything but a string is no name."""
    if not isinstance(name, str):
        return None
    key = name.strip().upper()
    return names.index(key) if key in names else None

# Joystick components of each ALE action, as lookup tables indexed by action id.
_UP = np.array(["UP" in n for n in ACTION_NAMES])
_DOWN = np.array(["DOWN" in n for n in ACTION_NAMES])
_LEFT = np.array(["LEFT" in n for n in ACTION_NAMES])
_RIGHT = np.array(["RIGHT" in n for n in ACTION_NAMES])
_FIRE = np.array(["FIRE" in n for n in ACTION_NAMES])


@dataclasses.dataclass(frozen=True)
class Joystick:
    """The joystick reading of one ALE action: booleans (traced arrays under jit)."""

    up: Any
    down: Any
    left: Any
    right: Any
    fire: Any

    @property
    def dx(self):
        """-1 for left, +1 for right, 0 otherwise (int32)."""
        return self.right.astype(jnp.int32) - self.left.astype(jnp.int32)

    @property
    def dy(self):
        """-1 for up, +1 for down (screen y grows downwards), 0 otherwise (int32)."""
        return self.down.astype(jnp.int32) - self.up.astype(jnp.int32)


def joystick(ale_action) -> Joystick:
    """Decode an ALE action id (0..17, traced or not) into joystick components."""
    a = jnp.asarray(ale_action, jnp.int32)
    return Joystick(
        up=jnp.asarray(_UP)[a],
        down=jnp.asarray(_DOWN)[a],
        left=jnp.asarray(_LEFT)[a],
        right=jnp.asarray(_RIGHT)[a],
        fire=jnp.asarray(_FIRE)[a],
    )


def pytree_dataclass(cls=None, *, static: Sequence[str] = ()):
    """Make a frozen dataclass that is a JAX PyTree (fields named in ``static`` are metadata)."""

    def wrap(c):
        c = dataclasses.dataclass(frozen=True)(c)
        names = [f.name for f in dataclasses.fields(c)]
        data = [n for n in names if n not in static]
        meta = [n for n in names if n in static]
        _compat.register_dataclass(c, data_fields=data, meta_fields=meta)
        c.replace = lambda self, **kw: dataclasses.replace(self, **kw)
        return c

    return wrap if cls is None else wrap(cls)


@pytree_dataclass
class ObjectGroup:
    """A fixed-size group of same-kind objects (one row per slot; inactive slots have active=False).

    Coordinates are in ALE screen pixels (x: 0..159, y: 0..209), top-left corner of the bounding box.
    ``attrs`` holds game-specific per-slot attributes (e.g. ``colour``, ``kind``), each shape (n,).
    """

    x: jax.Array
    y: jax.Array
    w: jax.Array
    h: jax.Array
    active: jax.Array
    attrs: dict

    @staticmethod
    def make(x, y, w, h, active=True, **attrs) -> "ObjectGroup":
        x = jnp.atleast_1d(jnp.asarray(x, jnp.int32))
        n = x.shape[0]

        def col(v, dtype):
            return jnp.broadcast_to(jnp.asarray(v, dtype), (n,))

        return ObjectGroup(
            x=x,
            y=col(y, jnp.int32),
            w=col(w, jnp.int32),
            h=col(h, jnp.int32),
            active=col(active, jnp.bool_),
            attrs={k: col(v, jnp.int32) for k, v in attrs.items()},
        )

    @property
    def size(self) -> int:
        return self.x.shape[-1]

    def features(self) -> jax.Array:
        """Flat float32 features: per slot x, y, w, h, active, then attributes in sorted order."""
        cols = [self.x, self.y, self.w, self.h, self.active]
        cols += [self.attrs[k] for k in sorted(self.attrs)]
        return jnp.stack([c.astype(jnp.float32) for c in cols], axis=-1).reshape(-1)


class UnknownGameError(ValueError):
    pass


class InvalidActionError(ValueError):
    """An action that is not an index into the game's action set; names the legal range."""


class InvalidStateError(ValueError):
    """A state that is not one of this game's (another game's, a changed layout, a value its field
    cannot hold)."""


def _action_problem(action, n: int) -> str | None:
    """Why ``action`` is no index into an action set of size ``n``, or None.

    A traced value is checked for what tracing knows (dtype, shape); a concrete one fully.
    """
    if isinstance(action, (bool, np.bool_)):
        return f"{action!r} is a bool"
    if isinstance(action, jax.core.Tracer):
        if not jnp.issubdtype(action.dtype, jnp.integer):
            return f"a traced {action.dtype} value (actions are integers)"
        if action.shape != ():
            return f"a traced array of shape {action.shape} (one action is a scalar; vmap for a batch)"
        return None
    if isinstance(action, (str, bytes)):
        return f"{action!r} is a string (use game.action_index({action!r}) for a name)"
    arr = np.asarray(action)
    if arr.shape != ():
        return f"{action!r} has shape {arr.shape} (one action is a scalar; vmap for a batch)"
    if not np.issubdtype(arr.dtype, np.integer):
        return f"{action!r} is a {arr.dtype} (actions are integers)"
    if not 0 <= int(arr) < n:
        return f"{int(arr)} is out of range"
    return None


def typed_key(key, what: str = "key"):
    """``key`` as a typed PRNG key (``jax.random.key``): a legacy key (``jax.random.PRNGKey``'s
    uint32 key data, what gymnax, PureJaxRL and CleanRL programs pass) is wrapped here, where it
    enters, so every state carries one kind of key. A typed key is returned as it is: its programs
    compile exactly as before. Anything else is a :class:`TypeError` naming the fix."""
    dtype = getattr(key, "dtype", None)
    if dtype is not None and jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key):
        return key
    if dtype == np.uint32:
        try:
            return jax.random.wrap_key_data(key)
        except (TypeError, ValueError):
            pass
    raise TypeError(f"{what} {key!r} is not a PRNG key: pass jax.random.key(seed) (or a legacy "
                    "jax.random.PRNGKey(seed))")


def _typed_keys(state, like):
    """``state`` with every legacy key in a key field of ``like`` wrapped (see :func:`typed_key`);
    the same object when there is none."""
    leaves, treedef = jax.tree_util.tree_flatten(state)
    specs = jax.tree_util.tree_leaves(like)
    if treedef != jax.tree_util.tree_structure(like) or not any(
            jax.dtypes.issubdtype(spec.dtype, jax.dtypes.prng_key)
            and getattr(leaf, "dtype", None) == np.uint32 for leaf, spec in zip(leaves, specs)):
        return state
    return jax.tree_util.tree_unflatten(treedef, [
        typed_key(leaf) if jax.dtypes.issubdtype(spec.dtype, jax.dtypes.prng_key)
        and getattr(leaf, "dtype", None) == np.uint32 else leaf for leaf, spec in zip(leaves, specs)])


class Game:
    """Base class of every jaxtari game; see the module docstring for what a subclass provides."""

    name: ClassVar[str] = ""
    minimal_actions: ClassVar[tuple[int, ...]] = (0,)
    Constants: ClassVar[type] = type(None)
    mechanics: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        constants: Any = None,
        *,
        full_action_space: bool = False,
        mechanic_overrides: Mapping[str, Callable] | None = None,
        post_step_mods: Sequence[Any] = (),
        mod_names: Sequence[str] = (),
    ):
        if not isinstance(full_action_space, (bool, np.bool_)):
            raise ValueError(f"full_action_space={full_action_space!r}: expected True or False")
        self.consts = constants if constants is not None else self.Constants()
        self.full_action_space = bool(full_action_space)
        ids = tuple(range(NUM_FULL_ACTIONS)) if full_action_space else tuple(self.minimal_actions)
        self.action_ids: tuple[int, ...] = ids
        self._action_table = np.asarray(ids, np.int32)
        self.post_step_mods = tuple(post_step_mods)
        self.mod_names = tuple(mod_names)
        for mech, fn in (mechanic_overrides or {}).items():
            if mech not in self.mechanics:
                raise ValueError(
                    f"{self.name}: no mechanic named {mech!r}; mechanics that can be swapped: "
                    f"{', '.join(self.mechanics) or '(none)'}"
                )
            setattr(self, mech, types.MethodType(fn, self))

    # ---- actions -------------------------------------------------------------------------
    @property
    def action_names(self) -> tuple[str, ...]:
        return tuple(ACTION_NAMES[i] for i in self.action_ids)

    @property
    def num_actions(self) -> int:
        return len(self.action_ids)

    @property
    def action_space(self) -> spaces.Discrete:
        return spaces.Discrete(self.num_actions)

    def action_index(self, name: str) -> int:
        """Index (in this game's action set) of an ALE action name such as ``"UPFIRE"``."""
        index = action_position(self.action_names, name)
        if index is None:
            raise ValueError(
                f"{self.name}: unknown action {name!r}; this game's actions are: "
                f"{', '.join(self.action_names)}"
            )
        return index

    def check_action(self, action) -> None:
        """Raise :class:`InvalidActionError` for anything but an index into this action set.

        Concrete actions are checked fully; under ``jit`` only dtype and shape can be (an
        out-of-range traced action plays NOOP: see :meth:`to_ale_action` and :meth:`checked_step`).
        """
        problem = _action_problem(action, self.num_actions)
        if problem:
            legal = ", ".join(f"{i}={n}" for i, n in enumerate(self.action_names))
            raise InvalidActionError(
                f"{self.name}: invalid action: {problem}; actions are integers 0..{self.num_actions - 1} "
                f"({legal})"
            )

    def to_ale_action(self, action):
        """Map an index into this game's action set to an ALE action id (traceable).

        Under ``jit`` an index outside the set becomes NOOP, never another action (an index
        wrapped or clipped into range would silently play a real move).
        """
        self.check_action(action)
        index = jnp.asarray(action, jnp.int32)
        valid = (index >= 0) & (index < self.num_actions)
        table = jnp.asarray(self._action_table)
        return jnp.where(valid, table[jnp.clip(index, 0, self.num_actions - 1)], ACTION_NAMES.index("NOOP"))

    def checked_step(self, state, action):
        """:meth:`step` that reports an out-of-range action or a non-finite state value from
        inside compiled code.

        Returns ``(error, (obs, state, reward, done, info))`` from ``jax.experimental.checkify``;
        ``error.throw()`` raises naming the action or the state field. Works under ``jit`` and
        ``vmap``. What can be checked before tracing (a name instead of an index, another game's
        state, a Python number its field cannot hold) raises at once, as :meth:`step` does.
        """
        from jax.experimental import checkify

        self.check_action(action)
        state = _typed_keys(state, self._state_shape())
        self.check_state(state)

        def run(state, action):
            index = jnp.asarray(action, jnp.int32)
            checkify.check((index >= 0) & (index < self.num_actions),
                           f"{self.name}: action {{a}} is outside 0..{self.num_actions - 1}", a=index)
            for path, leaf in jax.tree_util.tree_leaves_with_path(state):
                if jnp.issubdtype(jnp.asarray(leaf).dtype, jnp.floating):
                    checkify.check(jnp.all(jnp.isfinite(leaf)),
                                   f"{self.name}: state field {jax.tree_util.keystr(path)} holds "
                                   "NaN or infinity (a state from reset/step never does)")
            return self.step(state, action)

        return checkify.checkify(run)(state, action)

    # ---- states --------------------------------------------------------------------------------
    def _state_shape(self):
        shape = self.__dict__.get("_state_shape_cache")
        if shape is None:
            shape = jax.eval_shape(self._reset, jax.random.key(0))
            self.__dict__["_state_shape_cache"] = shape
        return shape

    def check_state(self, state) -> None:
        """Raise :class:`InvalidStateError` unless ``state`` has this game's state layout (what
        :meth:`reset` returns) and every Python number in it fits its field's dtype. Cheap: array
        values are not read (see :meth:`checked_step` for NaN and infinity)."""
        like = self._state_shape()
        want = jax.tree_util.tree_structure(like)
        got = jax.tree_util.tree_structure(state)
        if got != want and type(state) is type(like) and dataclasses.is_dataclass(state):
            for f in dataclasses.fields(state):
                mine, theirs = getattr(state, f.name), getattr(like, f.name)
                if jax.tree_util.tree_structure(mine) != jax.tree_util.tree_structure(theirs):
                    raise InvalidStateError(
                        f"{self.name}: state field .{f.name} holds {mine!r}, not a value of the "
                        f"game's layout ({theirs}); pass the state that reset or step returned")
        if got != want:
            raise InvalidStateError(
                f"{self.name}: the state is a {type(state).__name__}, not a {self.name} state "
                f"(a {type(like).__name__}, as {self.name}'s reset returns); pass the state that "
                f"this game's reset or step returned")
        for (path, leaf), spec in zip(jax.tree_util.tree_leaves_with_path(state),
                                      jax.tree_util.tree_leaves(like)):
            dtype = getattr(leaf, "dtype", None)
            if dtype is not None and dtype != spec.dtype:
                raise InvalidStateError(
                    f"{self.name}: state field {jax.tree_util.keystr(path)} is {dtype}, the "
                    f"game's is {spec.dtype} (a value of another type would be cast silently)")
            if dtype is None and not isinstance(leaf, (bool, int, float)):
                raise InvalidStateError(
                    f"{self.name}: state field {jax.tree_util.keystr(path)} holds {leaf!r}, not a "
                    f"number or an array ({spec.dtype})")
            if isinstance(leaf, (bool, int, float)) and not isinstance(leaf, jax.core.Tracer):
                dtype = np.dtype(spec.dtype)
                if np.issubdtype(dtype, np.integer) and not isinstance(leaf, bool):
                    info = np.iinfo(dtype)
                    if not float(leaf).is_integer() or not info.min <= leaf <= info.max:
                        raise InvalidStateError(
                            f"{self.name}: state field {jax.tree_util.keystr(path)} = {leaf!r} "
                            f"does not fit its {dtype} ({info.min}..{info.max}); it would wrap")
                elif np.issubdtype(dtype, np.floating) and not np.isfinite(leaf):
                    raise InvalidStateError(
                        f"{self.name}: state field {jax.tree_util.keystr(path)} = {leaf!r} is not "
                        "finite")

    # ---- the transition ----------------------------------------------------------------------
    def reset(self, key: jax.Array):
        state = self._reset(typed_key(key))
        return self.observation(state), state

    def step(self, state, action):
        state = _typed_keys(state, self._state_shape())  # a legacy key put into a state
        self.check_state(state)
        ale_action = self.to_ale_action(action)
        new_state, reward = self._step(state, ale_action)
        reward = jnp.asarray(reward, jnp.float32)
        for mod in self.post_step_mods:
            new_state, reward = mod.apply(self, state, new_state, reward)
        done = self.is_terminal(new_state)
        return self.observation(new_state), new_state, reward, done, self.info(new_state)

    def info(self, state) -> dict:
        return {
            "lives": jnp.asarray(self.lives(state), jnp.int32),
            "score": jnp.asarray(self.score(state), jnp.int32),
            "frame": jnp.asarray(state.frame, jnp.int32),
        }

    # ---- observations ------------------------------------------------------------------------
    def observation(self, state) -> jax.Array:
        """Object-centric observation: the flat features of every object group, in name order."""
        groups = self.objects(state)
        return jnp.concatenate([groups[k].features() for k in sorted(groups)])

    @property
    def observation_space(self) -> spaces.Box:
        shape = jax.eval_shape(lambda k: self.reset(k)[0], jax.random.key(0)).shape
        return spaces.Box(low=-np.inf, high=np.inf, shape=shape, dtype=np.float32)

    # ---- what subclasses implement -------------------------------------------------------------
    def _reset(self, key):
        raise NotImplementedError

    def _step(self, state, ale_action):
        raise NotImplementedError

    def is_terminal(self, state):
        raise NotImplementedError

    def score(self, state):
        raise NotImplementedError

    def lives(self, state):
        raise NotImplementedError

    def objects(self, state) -> dict[str, ObjectGroup]:
        raise NotImplementedError

    def render(self, state) -> jax.Array:
        raise NotImplementedError

    def render_gray84(self, state) -> jax.Array:
        raise NotImplementedError

    def signals(self, state) -> dict[str, jax.Array]:
        raise NotImplementedError

    def __repr__(self) -> str:
        mods = f", mods={list(self.mod_names)}" if self.mod_names else ""
        return f"{type(self).__name__}({self.name!r}{mods})"
