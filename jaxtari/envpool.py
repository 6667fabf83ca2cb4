"""EnvPool's interface over jaxtari's games: ``import jaxtari.envpool as envpool`` in place of
``import envpool``.

``make("Pong-v5", env_type="gym", num_envs=8, episodic_life=True, reward_clip=True, seed=1)``
takes EnvPool's documented Atari options (envpool.readthedocs.io, "Python Interface" and "Atari")
with EnvPool's defaults, and offers ``reset`` / ``step`` / ``async_reset`` / ``send`` / ``recv`` on
numpy and ``xla()`` -> ``(handle, recv, send, step)``, pure functions usable inside ``jax.jit`` and
``lax.scan``. All envs step in one compiled call (EnvPool's synchronous mode, ``batch_size ==
num_envs``). Task ids are EnvPool's (``"<Game>-v5"``); an option EnvPool has and jaxtari does not
is refused by name, and so is a value of the wrong kind (``full_action_space="False"``).

The API follows ``env_type`` as EnvPool's does (envpool/python/gym_envpool.py, registration.py):

- ``"gym"`` with the ``gym`` package installed: gym's spaces, and the API of that gym's version.
  Before gym 0.26 (CleanRL's pin: envpool 0.6.6 with gym 0.23) ``reset()`` returns the
  observations only (``(obs, info)`` with ``gym_reset_return_info=True``) and ``step``,
  ``recv`` and the XLA ``step`` / ``recv`` return ``(obs, reward, done, info)``, ``done`` being
  ``terminated | truncated`` and ``info["TimeLimit.truncated"]`` the truncation; from gym 0.26
  on, ``(obs, info)`` and ``(obs, reward, terminated, truncated, info)``.
- ``"gym"`` without ``gym`` installed: EnvPool from 1.1 on, which no longer needs gym, makes
  ``"gym"`` a gymnasium pool; so does jaxtari (gymnasium's spaces and API). The EnvPool releases
  with a gym API cannot be imported without gym.
- ``"gymnasium"``: gymnasium's spaces and API.

Semantics, as EnvPool's Atari env has them: observations are ``stack_num`` grey 84x84 frames,
channel first; auto-reset is one call late (the call after an episode ends discards its action
and returns the new episode's first observation, reward 0); ``info`` holds ``env_id``,
``players.env_id``, ``lives``, ``reward`` (unclipped), ``terminated`` (int32: the game is over,
not a lost life), ``elapsed_step`` (agent steps in this game, which ``max_episode_steps``
limits) and, in the gym API before 0.26, ``TimeLimit.truncated``; the step limit truncates
(``truncated``, also when the game ended on that same step, as EnvPool reports it) and
``terminated`` is the episode's other end; ``episodic_life`` ends an episode at a life loss and
the next one goes on in the same game, as does a reset asked for mid-game; ``reward_clip``
gives ``sign(reward)``; ``noop_max`` starts each game after 0..noop_max NOOP steps;
``use_fire_reset`` takes one FIRE step (in games that have FIRE) as an episode's first call.

The numpy calls keep EnvPool's order: ``send`` and ``async_reset`` queue work and each
``recv`` returns the oldest queued batch, one row per env it named, in the order it named
them, with ``info["env_id"]`` saying which env each row is (``reset(env_id)`` and
``send(action, env_id)`` may name a subset). ``recv()`` with nothing queued is refused (EnvPool
would wait forever). Actions and env ids are whole numbers: an integer array, or a float one
whose values are all whole (EnvPool's docs send ``np.ones(batch_size)``, which EnvPool casts);
a float that is not whole (1.5, NaN), a bool or a value out of range is refused, never cast or
truncated. In ``xla()``, ``step(handle, action)`` is ``recv(send(handle, action))``; ``recv`` of a
handle nothing was sent on is refused when traced, and so are actions that are not one integer
per env (a traced float too: whether it is whole is not known when traced); an action whose
values are known when ``send`` is called (numpy, a list, a concrete jax array) is checked as
the numpy ``send`` checks it, but inside compiled code a value cannot be refused, so traced
values outside ``0..n-1`` are clipped into it (EnvPool's XLA step does not check them either). A
pool pickles (its configuration, its envs' state and its queue).

Where it differs from EnvPool: the 84x84 frame is drawn at that size (not resized from 210x160
with ``cv::INTER_AREA``) and is the last frame of the frameskip (no max over the last two
frames); after a lost life the next episode starts with one FIRE (or no) step and a full stack
of its first frame, without EnvPool's no-ops; the handle carries the envs' state, so steps made
through ``xla()`` and through the numpy calls do not see each other.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import importlib
import math
from typing import Any

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np

import jaxtari
from jaxtari import dropin
from jaxtari.dropin import DropInError
from jaxtari.env import pytree_dataclass
from jaxtari.protocol import V5
from jaxtari.wrappers import AtariWrapper, AtariState, NOOP_ACTION, stack_push, stack_start
from jaxtari.xla import select_tree

FRAME_SIZE = 84  # jaxtari draws its small frames at 84x84 (Game.render_gray84)
ENV_TYPES = ("gymnasium", "gym")
INT32_MAX = dropin.INT32_MAX
INT32_MIN = -(2**31)
# Every game keeps noop_max + 1 start states per env (AtariWrapper); beyond this they are too big.
MAX_NOOP = 1024
MAX_STACK = 64
# Steps a game takes beyond elapsed_step: an episode's FIRE start, one per life (a bound, not a count)
UNCOUNTED_STEPS = 256
MAX_ENVS = 2**16
NEW_GYM_API = (0, 26)  # gym's version from which reset gives (obs, info) and step a 5-tuple

# EnvPool's documented options that jaxtari.envpool does not offer, with why.
UNSUPPORTED = {
    "render_mode": "rendering through EnvPool is not offered; use gymnasium.make('jaxtari/<Game>-v5', "
                   "render_mode=...)",
    "render_env_id": "rendering is not offered",
    "render_width": "rendering is not offered",
    "render_height": "rendering is not offered",
    "render_camera_id": "rendering is not offered",
    "from_pixels": "a MuJoCo option",
    "reward_metric": "a ViZDoom option",
    "lmp_save_dir": "a ViZDoom option",
    "env_seed": "give seed as one int per env instead",
}
BOOL_OPTIONS = ("episodic_life", "zero_discount_on_life_loss", "reward_clip", "use_inter_area_resize",
                "use_fire_reset", "full_action_space", "gray_scale")


@dataclasses.dataclass(frozen=True)
class Api:
    """The face a pool shows: whose spaces, and which of gym's two APIs."""

    spaces: Any  # gym.spaces or gymnasium.spaces
    four_tuple: bool  # gym < 0.26: step gives (obs, reward, done, info)
    reset_info: bool  # reset gives (obs, info), not obs alone
    name: str


def api_for(env_type: str, gym_reset_return_info: bool | None) -> Api:
    """EnvPool's choice of API for ``env_type`` with the gym that is installed (module docstring)."""
    gym = None
    if env_type == "gym":
        try:
            gym = importlib.import_module("gym")
        except ImportError:
            gym = None
    old = gym is not None and gym_version(gym.__version__) < NEW_GYM_API
    if gym_reset_return_info is None:
        gym_reset_return_info = not old
    if not gym_reset_return_info and not old:
        which = f"gym {gym.__version__}" if gym is not None else "gymnasium"
        raise DropInError(f"gym_reset_return_info=False: with {which} reset returns (obs, info), as "
                          "EnvPool's does from gym 0.26 on; leave gym_reset_return_info unset")
    if gym is None:
        return Api(gymnasium.spaces, False, True, "gymnasium")
    return Api(gym.spaces, old, bool(gym_reset_return_info), f"gym {gym.__version__}")


def gym_version(text: str) -> tuple[int, ...]:
    """``"0.23.1"`` -> ``(0, 23, 1)`` (the leading numbers of each part)."""
    parts = []
    for part in str(text).split(".")[:3]:
        digits = "".join(c for c in part if c.isdigit()) if part[:1].isdigit() else ""
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


def task_ids() -> list[str]:
    """The task ids EnvPool would register for jaxtari's games: ``"<Game>-v5"``."""
    return [f"{dropin.env_name(g)}-v5" for g in jaxtari.list_games()]


def game_of_task(task_id) -> str:
    """The game of an EnvPool task id, or a :class:`DropInError` saying which id to use."""
    ids = task_ids()
    if isinstance(task_id, str) and task_id in ids:
        return dropin.game_from_id(task_id)
    game = dropin.game_from_id(task_id)  # names the games, or why -ram / Deterministic ids are refused
    name = dropin.env_name(game)
    if "noframeskip" in str(task_id).lower():
        # EnvPool's docs (env/atari.rst, "Available Tasks"): its -v5 ids are ALE's NoFrameskip-v4
        # settings under the openai/baselines wrappers, which skip frames; it has no v4 ids
        raise DropInError(f"{task_id!r}: EnvPool registers only <Game>-v5 ids, and its '{name}-v5' is "
                          f"already ALE's NoFrameskip-v4 game (no sticky actions) under the baselines "
                          f"wrappers, which repeat each action frame_skip={V5.frameskip} frames; for one "
                          f"frame a step: make('{name}-v5', frame_skip=1) (noop_max=0 for no no-op "
                          f"starts); for NoFrameskip-v4's raw screens: "
                          f"gymnasium.make('jaxtari/{name}NoFrameskip-v4')")
    raise DropInError(f"{task_id!r}: EnvPool's id for this game is '{name}-v5'; ids: {', '.join(ids)}")


@dataclasses.dataclass(frozen=True)
class Options:
    """EnvPool's Atari options with EnvPool's defaults (docs: env/atari.rst, content/python_interface.rst)."""

    task_id: str
    env_type: str = "gymnasium"
    num_envs: int = 1
    batch_size: int | None = None
    num_threads: int | None = None  # accepted; all envs step in one compiled call
    seed: int | tuple[int, ...] = 42
    max_episode_steps: int = V5.max_agent_steps  # EnvPool's defaults: v5's cap and frameskip
    img_height: int = FRAME_SIZE
    img_width: int = FRAME_SIZE
    stack_num: int = 4
    gray_scale: bool = True
    frame_skip: int = V5.frameskip
    noop_max: int = 30
    episodic_life: bool = False
    zero_discount_on_life_loss: bool = False
    reward_clip: bool = False
    repeat_action_probability: float = 0.0
    use_inter_area_resize: bool = True
    use_fire_reset: bool = True
    full_action_space: bool = False
    max_num_players: int = 1
    thread_affinity_offset: int = -1  # accepted; no threads to pin
    reward_threshold: float | None = None
    gym_reset_return_info: bool | None = None  # EnvPool's default: False before gym 0.26, else True

    def check(self) -> None:
        def whole(name, low, high=INT32_MAX, none=False):
            if not (none and getattr(self, name) is None):
                dropin.whole_number(name, getattr(self, name), low, high)

        if self.env_type == "dm":
            raise DropInError("env_type='dm': jaxtari.envpool offers env_type='gymnasium' or 'gym' "
                              "(dm_env's TimeStep interface is not offered)")
        if self.env_type not in ENV_TYPES:
            raise DropInError(f"env_type={self.env_type!r}: expected 'gymnasium' or 'gym'")
        for name in BOOL_OPTIONS:
            dropin.flag(name, getattr(self, name))
        if self.gym_reset_return_info is not None:
            dropin.flag("gym_reset_return_info", self.gym_reset_return_info)
        whole("num_envs", 1, MAX_ENVS)
        whole("max_episode_steps", 1)
        whole("stack_num", 1, MAX_STACK)
        whole("frame_skip", 1, dropin.MAX_FRAMESKIP)
        whole("noop_max", 0, MAX_NOOP)
        whole("num_threads", 0, none=True)
        whole("thread_affinity_offset", -1)
        # the wrapper counts a game's frames in int32: its steps, and a FIRE step per life
        if (self.max_episode_steps + UNCOUNTED_STEPS) * self.frame_skip >= dropin.NO_CAP:
            raise DropInError(f"max_episode_steps={self.max_episode_steps} with frame_skip={self.frame_skip}: "
                              f"a game of that many frames does not fit the int32 frame counter; keep "
                              f"max_episode_steps * frame_skip below {dropin.NO_CAP - UNCOUNTED_STEPS * self.frame_skip}")
        if self.batch_size not in (None, 0, self.num_envs):
            raise DropInError(f"batch_size={self.batch_size!r}: jaxtari.envpool steps all num_envs="
                              f"{self.num_envs} envs in one compiled call (EnvPool's synchronous mode); "
                              "leave batch_size unset or equal to num_envs")
        whole("img_height", 1)
        whole("img_width", 1)
        if (self.img_height, self.img_width) != (FRAME_SIZE, FRAME_SIZE):
            raise DropInError(f"img_height={self.img_height}, img_width={self.img_width}: jaxtari draws "
                              f"its frames at {FRAME_SIZE}x{FRAME_SIZE} only")
        if not self.gray_scale:
            raise DropInError("gray_scale=False: jaxtari.envpool gives grey frames only; for RGB screens use "
                              "gymnasium.make('jaxtari/<Game>-v5', obs_type='rgb')")
        if not self.use_inter_area_resize:
            raise DropInError("use_inter_area_resize=False: jaxtari draws its 84x84 frames at that size "
                              "(no resize, by area or otherwise)")
        if self.zero_discount_on_life_loss:
            raise DropInError("zero_discount_on_life_loss=True: a dm_env option (the discount); the gym "
                              "and gymnasium APIs have no discount to zero")
        if isinstance(self.max_num_players, bool) or self.max_num_players != 1:
            raise DropInError(f"max_num_players={self.max_num_players!r}: jaxtari's games are one-player")
        prob = self.repeat_action_probability
        if isinstance(prob, bool) or not isinstance(prob, (int, float, np.integer, np.floating)) \
                or not 0.0 <= float(prob) <= 1.0:
            raise DropInError(f"repeat_action_probability={prob!r}: expected a number in [0, 1]")
        threshold = self.reward_threshold
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(
                threshold, (int, float, np.integer, np.floating)) or math.isnan(float(threshold))):
            raise DropInError(f"reward_threshold={threshold!r}: expected a number or None")
        self.seeds()

    def computation(self) -> "Options":
        """These options less those that do not change the compiled functions (seeds, the API)."""
        return dataclasses.replace(self, env_type="gymnasium", seed=0, batch_size=None, num_threads=None,
                                   thread_affinity_offset=-1, reward_threshold=None,
                                   gym_reset_return_info=None)

    def seeds(self) -> np.ndarray:
        """Each env's seed: ``seed + i`` for an int (as EnvPool), or one int per env (EnvPool 1.1's
        list form), every one within int32 (EnvPool asserts that range)."""
        n = self.num_envs
        if isinstance(self.seed, (int, np.integer)) and not isinstance(self.seed, bool):
            first = int(self.seed)
            if not INT32_MIN <= first <= INT32_MAX - (n - 1):
                raise DropInError(f"seed={self.seed!r}: EnvPool's seeds are int32 and env i gets seed + i; "
                                  f"expected {INT32_MIN}..{INT32_MAX - (n - 1)} for num_envs={n}")
            return np.arange(n, dtype=np.int64) + first
        if isinstance(self.seed, (tuple, list, np.ndarray)):
            values = list(self.seed)
            if len(values) == n and all(isinstance(s, (int, np.integer)) and not isinstance(s, bool)
                                        and INT32_MIN <= int(s) <= INT32_MAX for s in values):
                return np.asarray([int(s) for s in values], dtype=np.int64)
        raise DropInError(f"seed={self.seed!r}: expected an int32 (env i gets seed + i) or {n} int32s, "
                          "one per env (whole numbers, not floats)")


@pytree_dataclass
class PoolState:
    """One env's state (batched on a leading axis in a pool)."""

    atari: AtariState
    frames: jax.Array  # (stack_num, 84, 84) uint8, oldest first (jaxtari.wrappers.stack_push)
    pending: jax.Array  # bool: the last call ended an episode, so the next call starts one
    game_over: jax.Array  # bool: ... and the next one is a new game (not the next life)
    elapsed: jax.Array  # int32 agent steps in this game


IDLE, SENT, READY = "idle", "sent", "ready"


@pytree_dataclass(static=("phase",))
class Handle:
    """What ``xla()``'s functions pass along: the pool's state, the action ``send`` left for
    ``recv``, and (static, so that a wrong order is refused when traced) what ``recv`` is due to
    do: nothing was sent (``idle``), step (``sent``), or return the reset just made (``ready``)."""

    state: PoolState
    action: jax.Array  # (num_envs,) int32
    phase: str = IDLE


class _Pool:
    """The pure functions of one configuration."""

    def __init__(self, opts: Options):
        self.opts = opts
        game = game_of_task(opts.task_id)
        self.game = dropin.build_game(game, full_action_space=bool(opts.full_action_space))
        self.atari = AtariWrapper(self.game, frameskip=int(opts.frame_skip),
                                  sticky_prob=float(opts.repeat_action_probability), noop_max=int(opts.noop_max),
                                  max_episode_frames=dropin.NO_CAP, autoreset=False)
        names = self.game.action_names
        self.fire = names.index("FIRE") if opts.use_fire_reset and "FIRE" in names else None
        self.num_actions = self.game.num_actions

    def frame(self, atari: AtariState) -> jax.Array:
        return self.game.render_gray84(atari.game_state)

    def initial(self, key) -> PoolState:
        """A new game, due to start on the first call (no-op start and fire reset there)."""
        _, atari = self.atari.reset(key)
        frames = stack_start(self.frame(atari), self.opts.stack_num)
        return PoolState(atari=atari, frames=frames, pending=jnp.bool_(True), game_over=jnp.bool_(True),
                         elapsed=jnp.int32(0))

    def one(self, s: PoolState, action):
        """One env's call: a step, or (when an episode ended on the last call) the next one's start."""
        opts = self.opts
        pending = s.pending
        start = s.atari  # already restarted by batch() where a new game is due
        _, stepped, reward, _, info = self.atari.step(
            start, jnp.where(pending, NOOP_ACTION if self.fire is None else self.fire, action))
        if self.fire is None:  # an episode's first call then shows the start without a step
            moved = ~pending
            atari = select_tree(moved, stepped, start)
        else:
            moved, atari = True, stepped
        frame = self.frame(atari)  # stack_push renders it once into memory
        # the step limit counts a game's agent steps (EnvPool's elapsed_step), over its lives and
        # without the first call of an episode
        elapsed = jnp.where(pending, jnp.where(s.game_over, 0, s.elapsed), s.elapsed + 1)
        game_over = moved & info["terminated"]
        # EnvPool's truncation: the step limit was reached, whether or not the game ended with it
        truncated = ~pending & (elapsed >= opts.max_episode_steps)
        life_end = opts.episodic_life & moved & info["life_lost"] & ~game_over & ~truncated
        done = ~pending & (game_over | life_end | truncated)
        terminated = done & ~truncated
        raw = jnp.where(pending, 0.0, reward)
        # an episode's first call shows its first frame in every slot
        frames = stack_push(s.frames, frame, pending)
        new = PoolState(atari=atari, frames=frames, pending=done, game_over=done & ~life_end, elapsed=elapsed)
        out_reward = jnp.sign(raw) if opts.reward_clip else raw
        info = {"lives": atari.lives, "reward": raw,
                "terminated": (~pending & info["terminated"]).astype(jnp.int32),  # int32, as EnvPool's
                "elapsed_step": elapsed}
        return new, (frames, out_reward, terminated, truncated, info)

    def batch(self, state: PoolState, actions):
        # A new game's start state is drawn only on calls where some env needs one: drawing it in
        # every env on every call (a second random draw per env) cost ~1/3 of a step.
        due = state.pending & state.game_over
        atari = jax.lax.cond(
            due.any(),
            lambda: jax.vmap(select_tree)(due, jax.vmap(self.atari.restart)(state.atari), state.atari),
            lambda: state.atari)
        return jax.vmap(self.one)(state.replace(atari=atari), actions)

    def force_reset(self, state: PoolState, which) -> PoolState:
        """EnvPool's reset of the envs in ``which``: their next call starts an episode, in a new game
        unless ``episodic_life`` is on and the game is not over (EnvPool's Atari Reset())."""
        over = state.pending & state.game_over
        new_game = over | (not self.opts.episodic_life)
        return state.replace(pending=state.pending | which,
                             game_over=jnp.where(which, new_game, state.game_over))

    def run(self, state: PoolState, actions, active, reset):
        """The numpy face's call: the envs in ``active`` step (or start, where ``reset``); the others
        keep their state (their rows of the result are not read)."""
        new, out = self.batch(self.force_reset(state, reset), actions)
        return jax.vmap(select_tree)(active, new, state), out

    def current(self, state: PoolState):
        """What a reset's recv returns, read from the state the reset left."""
        n = self.opts.num_envs
        zeros_f, zeros_b = jnp.zeros(n, jnp.float32), jnp.zeros(n, bool)
        info = {"lives": state.atari.lives, "reward": zeros_f, "terminated": jnp.zeros(n, jnp.int32),
                "elapsed_step": state.elapsed}
        return state.frames, zeros_f, zeros_b, zeros_b, info


def _check_option_names(options) -> None:
    """Every name in ``options`` one of EnvPool's Atari options that jaxtari offers, or a
    :class:`DropInError` naming it (and why, for an EnvPool option not offered)."""
    known = {f.name for f in dataclasses.fields(Options)}
    for name in options:
        if name in UNSUPPORTED:
            raise DropInError(f"{name}: EnvPool's option is not offered by jaxtari.envpool ({UNSUPPORTED[name]})")
        if name not in known:
            raise DropInError(f"unknown option {name!r}; jaxtari.envpool takes EnvPool's Atari options: "
                              f"{', '.join(sorted(known - {'task_id'}))}")


class Functional:
    """One env of EnvPool's Atari semantics as pure functions in gymnax's shape, to ``vmap`` and
    ``jit``: ``reset(key) -> (obs, state)`` and ``step(state, action) -> (obs, state, reward, done,
    info)``. For a learner written against single-env functions that should train as CleanRL's
    EnvPool scripts do (sticky actions off, no-op starts, fire reset, EnvPool's auto-reset); a pool
    of such envs behaves as :func:`make`'s with the same options, env by env.

    ``options`` are :func:`make`'s, but ``num_envs``, ``batch_size`` and ``seed`` (the caller's
    keys and ``vmap`` give those) and ``env_type`` (no API face here). ``done`` is EnvPool's (a
    lost life under ``episodic_life``, the game's end, the step limit); the call after it starts
    the next episode and discards its action, reward 0. ``info`` holds ``terminated`` (bool: the
    game is over, not a life), ``truncated`` (the step limit), ``lives``, ``reward`` (unclipped)
    and ``elapsed_step``, so :class:`jaxtari.wrappers.LogWrapper` logs whole games."""

    _POOL_ONLY = ("num_envs", "batch_size", "seed", "env_type", "num_threads",
                  "thread_affinity_offset", "gym_reset_return_info")

    def __init__(self, task_id: str, **options: Any):
        for name in options:
            if name in self._POOL_ONLY:
                raise DropInError(f"{name}: a pool's option, not one env's (vmap the functions over "
                                  f"keys for several envs; each key seeds its env)")
        _check_option_names(options)
        opts = Options(task_id=task_id, **options)
        opts.check()
        self._pool = _Pool(opts)
        self.game = self._pool.game
        self.num_actions = self._pool.num_actions

    def reset(self, key):
        # a fresh game's state is already a start: its first call makes the episode's first frame
        obs, state, _, _, _ = self._call(self._pool.initial(key), jnp.int32(NOOP_ACTION))
        return obs, state

    def step(self, state: PoolState, action):
        due = state.pending & state.game_over  # a new game is due: one of the start states
        atari = select_tree(due, self._pool.atari.restart(state.atari), state.atari)
        return self._call(state.replace(atari=atari), action)

    def _call(self, state: PoolState, action):
        new, (frames, reward, terminated, truncated, info) = self._pool.one(state, action)
        info = dict(info, terminated=info["terminated"].astype(bool), truncated=truncated)
        return frames, new, reward, terminated | truncated, info


@functools.lru_cache(maxsize=32)
def _compiled(opts: Options):
    """One configuration's pure functions and the numpy face's jitted ones, shared by its pools."""
    pool = _Pool(opts)
    return pool, jax.jit(jax.vmap(pool.initial)), jax.jit(pool.run)


def whole_array(value) -> np.ndarray | None:
    """``value`` as an int64 array when every element is a whole number: an integer array, or a
    float one whose values are all whole (EnvPool's own example sends ``np.ones(batch_size)``,
    which EnvPool casts to int32); else None. A float that is not whole (1.5, NaN) or a bool is
    refused rather than cast, so no action is ever truncated into another."""
    if isinstance(value, (bool, np.bool_)) or (
            isinstance(value, (list, tuple)) and any(isinstance(v, (bool, np.bool_)) for v in value)):
        return None
    try:
        a = np.asarray(value)
    except (ValueError, TypeError):
        return None
    if np.issubdtype(a.dtype, np.unsignedinteger):
        # one past int64 would wrap to a negative number, which the caller's range refuses anyway
        return np.minimum(a.astype(np.uint64), np.uint64(np.iinfo(np.int64).max)).astype(np.int64)
    if np.issubdtype(a.dtype, np.integer):
        return a.astype(np.int64)
    # a float is cast only where the cast is exact (whole, and within int32, as EnvPool's cast is)
    if np.issubdtype(a.dtype, np.floating) and np.isfinite(a).all() and (a == np.round(a)).all() \
            and (a.size == 0 or (a.min() >= INT32_MIN and a.max() <= INT32_MAX)):
        return a.astype(np.int64)
    return None


def _describe(value) -> str:
    try:
        a = np.asarray(value)
    except (ValueError, TypeError):
        return type(value).__name__
    return f"{a.dtype} of shape {a.shape}"


def _with_ids(info: dict, ids) -> dict:
    return {"env_id": ids, "players": {"env_id": ids}, **info}


class EnvPool:
    """A pool of ``num_envs`` envs of one game with EnvPool's gym / gymnasium interface."""

    metadata = {"render_modes": []}
    reward_range = (-float("inf"), float("inf"))

    def __init__(self, opts: Options):
        opts.check()
        self._configure(opts)
        keys = jax.vmap(jax.random.key)(jnp.asarray(opts.seeds(), jnp.int32))
        self._state = self._initial(keys)
        self._queue: collections.deque = collections.deque()
        self._fresh = True  # no call received yet

    def _configure(self, opts: Options) -> None:
        """What the options alone decide: the API, the config, the compiled functions, the spaces."""
        self.opts = opts
        self.api = api_for(opts.env_type, opts.gym_reset_return_info)
        self.config = {**dataclasses.asdict(opts), "gym_reset_return_info": self.api.reset_info,
                       "batch_size": opts.num_envs}
        self.num_envs = opts.num_envs
        self.all_env_ids = np.arange(opts.num_envs, dtype=np.int32)
        self._build()

    def _build(self) -> None:
        opts = self.opts
        self._pool, self._initial, self._run = _compiled(opts.computation())
        spaces = self.api.spaces
        self.observation_space = spaces.Box(0, 255, (opts.stack_num, FRAME_SIZE, FRAME_SIZE), np.uint8)
        self.action_space = spaces.Discrete(self._pool.num_actions)

    def __len__(self) -> int:
        return self.num_envs

    def __repr__(self) -> str:
        return f"jaxtari.envpool.EnvPool({self.opts.task_id!r}, num_envs={self.num_envs}, api={self.api.name!r})"

    # -- pickling: the configuration, the envs' state and the queue; compiled functions are rebuilt
    def __getstate__(self) -> dict:
        return {"opts": self.opts, "state": jax.device_get(self._state), "queue": list(self._queue),
                "attrs": {k: v for k, v in self.__dict__.items()
                          if k not in ("opts", "api", "config", "num_envs", "all_env_ids", "_pool",
                                       "_initial", "_run", "_state", "_queue", "observation_space",
                                       "action_space")}}

    def __setstate__(self, saved: dict) -> None:
        self._configure(saved["opts"])
        self._state = jax.tree_util.tree_map(jnp.asarray, saved["state"])
        self._queue = collections.deque(saved["queue"])
        # what a caller set on the pool (CleanRL sets single_action_space, is_vector_env, ...)
        self.__dict__.update(saved["attrs"])

    # -- checks of the numpy calls ---------------------------------------------------------------
    def _env_ids(self, env_id, what: str) -> np.ndarray:
        if env_id is None:
            return self.all_env_ids
        ids = whole_array(env_id)
        if ids is not None and ids.ndim == 0:
            ids = ids.reshape(1)
        n = self.num_envs
        if ids is None or ids.ndim != 1 or ids.size == 0 or ids.min() < 0 or ids.max() >= n:
            raise DropInError(f"{what}: env_id={env_id!r}: expected env ids, whole numbers in 0..{n - 1}")
        if len(np.unique(ids)) != ids.size:
            raise DropInError(f"{what}: env_id={env_id!r} names an env twice; each env takes one action a call")
        return ids.astype(np.int32)

    def _actions(self, action, count: int) -> np.ndarray:
        a = whole_array(action)
        n = self.action_space.n
        if a is None or a.shape != (count,):
            raise DropInError(f"action must be {count} whole numbers (one per env sent to), got "
                              f"{_describe(action)}: {action!r}"[:300])
        if a.min() < 0 or a.max() >= n:
            raise DropInError(f"action {action!r}: actions are integers 0..{n - 1} "
                              f"({', '.join(f'{i}={m}' for i, m in enumerate(self._pool.game.action_names))})")
        return a.astype(np.int32)

    # -- numpy interface -------------------------------------------------------------------------
    def async_reset(self) -> None:
        """Queue a reset of every env; the next ``recv()`` returns it (EnvPool's async_reset)."""
        self._queue.append(("reset", self.all_env_ids, None))

    def reset(self, env_id=None):
        ids = self._env_ids(env_id, "reset")
        self._queue.append(("reset", ids, None))
        return self._to(*self._receive(), reset=True, return_info=self.api.reset_info)

    def send(self, action, env_id=None) -> None:
        if isinstance(action, dict):
            if env_id is None and "env_id" in action:
                env_id = action["env_id"]
            if "action" not in action:
                raise DropInError(f"send({action!r}): a dict action needs the key 'action'")
            action = action["action"]
        ids = self._env_ids(env_id, "send")
        self._queue.append(("step", ids, self._actions(action, len(ids))))

    def recv(self, reset: bool = False, return_info: bool = True):
        """The oldest queued call's result (``reset=True``: in reset()'s form, as EnvPool's)."""
        return self._to(*self._receive(), reset=reset, return_info=return_info)

    def step(self, action, env_id=None):
        self.send(action, env_id)
        return self.recv()

    def _receive(self):
        if not self._queue:
            raise DropInError("recv() with nothing sent: EnvPool's recv would wait forever; call "
                              "send(action) or async_reset() first")
        kind, ids, actions = self._queue.popleft()
        n = self.num_envs
        active = np.zeros(n, bool)
        active[ids] = True
        full = np.zeros(n, np.int32)
        if actions is not None:
            full[ids] = actions
        reset = active if kind == "reset" else np.zeros(n, bool)
        self._state, out = self._run(self._state, full, active, reset)
        self._fresh = False
        obs, reward, terminated, truncated, info = jax.tree_util.tree_map(lambda x: np.asarray(x)[ids], out)
        return obs, reward, terminated, truncated, _with_ids(info, ids)

    def _to(self, obs, reward, terminated, truncated, info, reset=False, return_info=True):
        """A result in the pool's API, as EnvPool's gym wrapper forms it (numpy or traced arrays)."""
        if self.api.four_tuple:
            info = {**info, "TimeLimit.truncated": truncated}
        if reset:
            return (obs, info) if return_info or not self.api.four_tuple else obs
        if self.api.four_tuple:
            return obs, reward, terminated | truncated, info
        return obs, reward, terminated, truncated, info

    # -- the XLA functions -----------------------------------------------------------------------
    def xla(self):
        """``(handle, recv, send, step)``: the pool's state and pure functions of it, for ``jax.jit``
        / ``lax.scan``; ``step(handle, action)`` returns ``(handle, result)`` with the result in the
        pool's API (a 4-tuple in gym before 0.26, else a 5-tuple). Actions: one integer per env; a
        value known when ``send`` is called is refused out of ``0..n-1``, a traced one is clipped
        into it (the module docstring)."""
        n = self.num_envs
        every = np.ones(n, bool)
        queued_reset = len(self._queue) == 1 and self._queue[0][0] == "reset" and len(self._queue[0][1]) == n
        if self._queue and not queued_reset:
            raise DropInError("xla() with calls sent but not received: recv() them first (the handle "
                              "starts from the pool's state)")
        if queued_reset or self._fresh:
            # the reset the numpy recv() or reset() is due to return, made on the handle's copy (the
            # same pure function of the same state): a handle taken before reset() holds the pool
            # that reset() returns (CleanRL's order), and after async_reset() its first recv gives it
            state, _ = self._run(self._state, np.zeros(n, np.int32), every, every)
        else:
            state = self._state
        handle = Handle(state=state, action=jnp.zeros(n, jnp.int32), phase=READY if queued_reset else IDLE)
        return handle, self._xla_recv, self._xla_send, self._xla_step

    def _xla_send(self, handle: Handle, action, env_id=None) -> Handle:
        if env_id is not None:
            raise DropInError("xla()'s send takes no env_id: it steps all num_envs envs in env order "
                              "(reorder the actions instead); the numpy send(action, env_id) takes one")
        if isinstance(action, dict):
            action = action["action"]
        self._check_handle(handle, "send(handle, action)", "xla() returned")
        if handle.phase == READY:
            raise DropInError("xla() send on a handle whose reset has not been received: recv(handle) "
                              "first (it returns the reset), then send")
        n = self.num_envs
        try:
            concrete = np.asarray(action)
        except (jax.errors.TracerArrayConversionError, jax.errors.ConcretizationTypeError):
            concrete = None  # traced: only its dtype and shape can be checked
        if concrete is not None:
            # a value known now is checked as the numpy send checks it (range included)
            a = jnp.asarray(self._actions(action, n))
        else:
            a = jnp.asarray(action)  # a tracer, or a list of them
            if a.shape != (n,) or not jnp.issubdtype(a.dtype, jnp.integer):
                why = (" (a traced float is refused: whether its values are whole is not known when "
                       "traced; cast with .astype(jnp.int32))") if jnp.issubdtype(a.dtype, jnp.floating) else ""
                raise DropInError(f"xla() send: action must be {n} integers (one per env), got {a.dtype} "
                                  f"of shape {a.shape}{why}")
            # a traced value cannot be refused inside compiled code: one outside 0..n-1 is clipped
            # into it (documented; EnvPool's XLA step does not check values either)
            a = jnp.clip(a, 0, self._pool.num_actions - 1).astype(jnp.int32)
        return Handle(state=handle.state, action=a, phase=SENT)

    def _check_handle(self, handle, call: str, source: str) -> None:
        """Refuse what is not a Handle of this pool: another pool's (another game, num_envs or
        stack_num) has a state of another layout, which would fail deep inside the step."""
        if not isinstance(handle, Handle):
            raise DropInError(f"{call}: handle must be the Handle {source}, got {type(handle).__name__}")

        def layout(tree):
            leaves, treedef = jax.tree_util.tree_flatten(tree)
            return treedef, [(tuple(x.shape), x.dtype) for x in leaves]

        if layout(handle.state) != layout(self._state):
            raise DropInError(f"{call}: the handle is another pool's (its envs' state has another "
                              f"layout than this pool's {self.opts.task_id!r} with num_envs={self.num_envs}, "
                              f"stack_num={self.opts.stack_num}); use the functions of the pool whose "
                              "xla() made it")

    def _xla_recv(self, handle: Handle):
        self._check_handle(handle, "recv(handle)", "xla() or send returned")
        if handle.phase == IDLE:
            raise DropInError("xla() recv of a handle nothing was sent on: EnvPool's recv would wait "
                              "forever; pass the handle send returned: recv(send(handle, action))")
        if handle.phase == READY:
            state, out = handle.state, self._pool.current(handle.state)
        else:
            state, out = self._pool.batch(handle.state, handle.action)
        obs, reward, terminated, truncated, info = out
        ids = jnp.arange(self.num_envs, dtype=jnp.int32)
        result = self._to(obs, reward, terminated, truncated, _with_ids(info, ids))
        return Handle(state=state, action=handle.action, phase=IDLE), result

    def _xla_step(self, handle: Handle, action, env_id=None):
        return self._xla_recv(self._xla_send(handle, action, env_id))

    def close(self) -> None:
        pass

    def seed(self, seed=None) -> None:
        import warnings

        warnings.warn("seed() does nothing, as in EnvPool: give the seed to make(..., seed=...)", stacklevel=2)


def make(task_id: str, env_type: str = "gymnasium", **kwargs: Any) -> EnvPool:
    """EnvPool's ``envpool.make`` for jaxtari's games (task ids as EnvPool's: ``"Pong-v5"``)."""
    _check_option_names(kwargs)
    seed = kwargs.get("seed", 42)
    if isinstance(seed, (list, np.ndarray)):
        kwargs["seed"] = tuple(seed.tolist() if isinstance(seed, np.ndarray) else seed)
    return EnvPool(Options(task_id=task_id, env_type=env_type, **kwargs))


def make_gymnasium(task_id: str, **kwargs: Any) -> EnvPool:
    return make(task_id, env_type="gymnasium", **kwargs)


def make_gym(task_id: str, **kwargs: Any) -> EnvPool:
    return make(task_id, env_type="gym", **kwargs)


def list_all_envs() -> list[str]:
    return task_ids()
