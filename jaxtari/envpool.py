"""EnvPool's interface over jaxtari's games: ``import jaxtari.envpool as envpool`` in place of
``import envpool``.

``make("Pong-v5", env_type="gymnasium", num_envs=8, episodic_life=True, reward_clip=True, ...)``
takes EnvPool's documented Atari options (envpool.readthedocs.io, "Python Interface" and "Atari")
with EnvPool's defaults, and offers ``reset`` / ``step`` / ``async_reset`` / ``send`` / ``recv`` on
numpy and ``xla()`` -> ``(handle, recv, send, step)``, pure functions usable inside ``jax.jit`` and
``lax.scan``. All envs step together in one compiled call (EnvPool's synchronous mode:
``batch_size == num_envs``). An option EnvPool has and jaxtari does not is refused by name.

Semantics, as EnvPool documents them: observations are ``stack_num`` grey 84x84 frames, channel
first; auto-reset is one call late (the call after an episode ends discards its action and returns
the new episode's first observation, reward 0); ``elapsed_step`` counts a game's agent steps, which
``max_episode_steps`` limits (truncation); ``episodic_life`` ends an episode (``terminated``) at a life loss while the game goes on, and ``info["terminated"]`` is the
true game over; ``reward_clip`` gives ``sign(reward)`` with the raw reward in ``info["reward"]``;
``noop_max`` starts each game after 0..noop_max NOOP steps; ``use_fire_reset`` takes one FIRE step
(in games that have FIRE) as the new episode's first call, after a game start and after a life loss.

Where it differs from EnvPool: the 84x84 frame is drawn at that size (not resized from 210x160 with
``cv::INTER_AREA``) and is the last frame of the frameskip (no max over the last two frames); the
handle carries the envs' state, so steps made through ``xla()`` and through the numpy methods do not
see each other.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import dropin
from jaxtari.dropin import DropInError
from jaxtari.env import pytree_dataclass
from jaxtari.wrappers import AtariWrapper, AtariState, NOOP_ACTION, stack_push, stack_start
from jaxtari.xla import select_tree

FRAME_SIZE = 84  # jaxtari draws its small frames at 84x84 (Game.render_gray84)
ENV_TYPES = ("gymnasium", "gym")

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
}


@dataclasses.dataclass(frozen=True)
class Options:
    """EnvPool's Atari options with EnvPool's defaults (docs: env/atari.rst, content/python_interface.rst)."""

    task_id: str
    env_type: str = "gymnasium"
    num_envs: int = 1
    batch_size: int | None = None
    num_threads: int | None = None
    seed: int | tuple[int, ...] = 42
    max_episode_steps: int = 27_000
    img_height: int = FRAME_SIZE
    img_width: int = FRAME_SIZE
    stack_num: int = 4
    gray_scale: bool = True
    frame_skip: int = 4
    noop_max: int = 30
    episodic_life: bool = False
    zero_discount_on_life_loss: bool = False
    reward_clip: bool = False
    repeat_action_probability: float = 0.0
    use_inter_area_resize: bool = True
    use_fire_reset: bool = True
    full_action_space: bool = False
    max_num_players: int = 1
    thread_affinity_offset: int = -1
    reward_threshold: float | None = None
    gym_reset_return_info: bool = True

    def check(self) -> None:
        def whole(name, low):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
                raise DropInError(f"{name}={v!r}: expected a whole number >= {low}")

        if self.env_type == "dm":
            raise DropInError("env_type='dm': jaxtari.envpool offers env_type='gymnasium' or 'gym' "
                              "(dm_env's TimeStep interface is not offered)")
        if self.env_type not in ENV_TYPES:
            raise DropInError(f"env_type={self.env_type!r}: expected 'gymnasium' or 'gym'")
        for name, low in (("num_envs", 1), ("max_episode_steps", 1), ("stack_num", 1), ("frame_skip", 1),
                          ("noop_max", 0)):
            whole(name, low)
        if self.batch_size not in (None, self.num_envs):
            raise DropInError(f"batch_size={self.batch_size}: jaxtari.envpool steps all num_envs="
                              f"{self.num_envs} envs in one compiled call (EnvPool's synchronous mode); "
                              "leave batch_size unset or equal to num_envs")
        if (self.img_height, self.img_width) != (FRAME_SIZE, FRAME_SIZE):
            raise DropInError(f"img_height={self.img_height}, img_width={self.img_width}: jaxtari draws "
                              f"its frames at {FRAME_SIZE}x{FRAME_SIZE} only")
        if not self.gray_scale:
            raise DropInError("gray_scale=False: jaxtari.envpool gives grey frames only; for RGB screens use "
                              "gymnasium.make('jaxtari/<Game>-v5', obs_type='rgb')")
        if not self.use_inter_area_resize:
            raise DropInError("use_inter_area_resize=False: jaxtari draws its 84x84 frames at that size "
                              "(no resize, by area or otherwise)")
        if self.max_num_players != 1:
            raise DropInError(f"max_num_players={self.max_num_players}: jaxtari's games are one-player")
        if not self.gym_reset_return_info:
            raise DropInError("gym_reset_return_info=False: reset returns (obs, info), as EnvPool's "
                              "current gym wrapper does")
        if not 0.0 <= float(self.repeat_action_probability) <= 1.0:
            raise DropInError(f"repeat_action_probability={self.repeat_action_probability!r}: "
                              "expected a number in [0, 1]")

    def seeds(self) -> np.ndarray:
        if isinstance(self.seed, (int, np.integer)) and not isinstance(self.seed, bool):
            return np.arange(self.num_envs, dtype=np.int64) + int(self.seed)
        seeds = np.asarray(self.seed)
        if seeds.shape != (self.num_envs,) or not np.issubdtype(seeds.dtype, np.integer):
            raise DropInError(f"seed={self.seed!r}: an int (env i gets seed + i) or one int per env "
                              f"({self.num_envs})")
        return seeds.astype(np.int64)


@pytree_dataclass
class PoolState:
    """One env's state (batched on a leading axis in a pool)."""

    atari: AtariState
    frames: jax.Array  # (stack_num, 84, 84) uint8, oldest first (jaxtari.wrappers.stack_push)
    pending: jax.Array  # bool: the last call ended an episode, so the next call starts one
    game_over: jax.Array  # bool: ... and that end was a game over or the step limit (not a life)
    elapsed: jax.Array  # int32 agent steps in this game


@pytree_dataclass
class Handle:
    """What ``xla()``'s functions pass along: the pool's state and what ``send`` left for ``recv``."""

    state: PoolState
    action: jax.Array  # (num_envs,) int32
    reset_due: jax.Array  # bool: recv returns the current observations (after async_reset)


class _Pool:
    """The pure functions of one configuration."""

    def __init__(self, opts: Options):
        self.opts = opts
        game = dropin.game_from_id(opts.task_id)
        self.game = dropin.build_game(game, full_action_space=opts.full_action_space)
        self.atari = AtariWrapper(self.game, frameskip=opts.frame_skip,
                                  sticky_prob=float(opts.repeat_action_probability), noop_max=opts.noop_max,
                                  max_episode_frames=dropin.NO_CAP, autoreset=False)
        names = self.game.action_names
        self.fire = names.index("FIRE") if opts.use_fire_reset and "FIRE" in names else None
        self.env_ids = jnp.arange(opts.num_envs, dtype=jnp.int32)

    def frame(self, atari: AtariState) -> jax.Array:
        return self.game.render_gray84(atari.game_state)

    def initial(self, key) -> PoolState:
        """A new game, due to start on the first call (no-op start and fire reset there)."""
        _, atari = self.atari.reset(key)
        frames = stack_start(self.frame(atari), self.opts.stack_num)
        return PoolState(atari=atari, frames=frames, pending=jnp.bool_(True),
                         game_over=jnp.bool_(False),
                         elapsed=jnp.int32(0))

    def one(self, s: PoolState, action):
        """One env's call: a step, or (when an episode ended on the last call) the next one's start."""
        opts = self.opts
        pending = s.pending
        start = s.atari  # already restarted by batch() where the game was over
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
        limit = ~pending & (elapsed >= opts.max_episode_steps) & ~info["terminated"]
        game_over = (moved & info["terminated"]) | limit
        life_end = opts.episodic_life & moved & info["life_lost"] & ~game_over
        raw = jnp.where(pending, 0.0, reward)
        terminated = ~pending & (info["terminated"] | life_end)
        truncated = limit
        ended = terminated | truncated
        # an episode's first call shows its first frame in every slot
        frames = stack_push(s.frames, frame, pending)
        new = PoolState(atari=atari, frames=frames, pending=ended,
                        game_over=ended & ~life_end,
                        elapsed=elapsed)
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
        new, (obs, reward, term, trunc, info) = jax.vmap(self.one)(state.replace(atari=atari), actions)
        info = {**info, "env_id": self.env_ids, "players": {"env_id": self.env_ids}}
        return new, (obs, reward, term, trunc, info)

    def current(self, state: PoolState):
        """The envs' last results again (what recv gives after async_reset on a started pool)."""
        n = self.opts.num_envs
        zeros_f, zeros_b = jnp.zeros(n, jnp.float32), jnp.zeros(n, bool)
        info = {"lives": state.atari.lives, "reward": zeros_f, "terminated": jnp.zeros(n, jnp.int32),
                "elapsed_step": state.elapsed, "env_id": self.env_ids, "players": {"env_id": self.env_ids}}
        return state.frames, zeros_f, zeros_b, zeros_b, info

    # -- the XLA functions -----------------------------------------------------------------------
    def send(self, handle: Handle, action) -> Handle:
        action = jnp.asarray(action).astype(jnp.int32)
        return Handle(state=handle.state, action=action, reset_due=jnp.bool_(False))

    def recv(self, handle: Handle):
        def stepped():
            return self.batch(handle.state, handle.action)

        def reset_results():
            return handle.state, self.current(handle.state)

        state, out = jax.lax.cond(handle.reset_due, reset_results, stepped)
        return Handle(state=state, action=handle.action, reset_due=jnp.bool_(False)), out

    def step(self, handle: Handle, action):
        return self.recv(self.send(handle, action))


class EnvPool:
    """A pool of ``num_envs`` envs of one game with EnvPool's gymnasium interface."""

    def __init__(self, opts: Options):
        opts.check()
        self.opts = opts
        self.config = dataclasses.asdict(opts)
        self._pool = _Pool(opts)
        self.num_envs = opts.num_envs
        self.all_env_ids = np.arange(opts.num_envs, dtype=np.int32)
        self.observation_space = gymnasium.spaces.Box(0, 255, (opts.stack_num, FRAME_SIZE, FRAME_SIZE), np.uint8)
        self.action_space = gymnasium.spaces.Discrete(self._pool.game.num_actions)
        self._recv = jax.jit(self._pool.recv)
        self._send = jax.jit(self._pool.send)
        keys = jax.vmap(jax.random.key)(jnp.asarray(opts.seeds()))
        state = jax.jit(jax.vmap(self._pool.initial))(keys)
        noop = jnp.zeros(opts.num_envs, jnp.int32)
        # The first call starts every env; it is made now, so that a handle taken by xla() before
        # reset() holds the same started pool that reset() returns (as EnvPool's handle would).
        self._handle, self._started = self._recv(Handle(state=state, action=noop, reset_due=jnp.bool_(False)))
        self._fresh = True

    def __len__(self) -> int:
        return self.num_envs

    def _check_env_id(self, env_id) -> None:
        if env_id is not None and not np.array_equal(np.sort(np.asarray(env_id)), self.all_env_ids):
            raise DropInError(f"env_id={env_id!r}: jaxtari.envpool steps and resets all envs together "
                              "(synchronous mode); leave env_id unset")

    @staticmethod
    def _numpy(out):
        return jax.tree_util.tree_map(np.asarray, out)

    # -- numpy interface -------------------------------------------------------------------------
    def async_reset(self) -> None:
        if self._fresh:
            self._handle = Handle(self._handle.state, self._handle.action, jnp.bool_(True))
            return
        state = self._handle.state
        # every env ends its episode here: the next call starts a new game in each
        state = state.replace(pending=jnp.ones_like(state.pending), game_over=jnp.ones_like(state.game_over))
        noop = jnp.zeros(self.num_envs, jnp.int32)
        self._handle, _ = self._recv(Handle(state=state, action=noop, reset_due=jnp.bool_(False)))
        self._handle = Handle(self._handle.state, noop, jnp.bool_(True))

    def reset(self, env_id=None):
        self._check_env_id(env_id)
        self.async_reset()
        obs, _, _, _, info = self.recv()
        return obs, info

    def send(self, action, env_id=None) -> None:
        self._check_env_id(env_id)
        if isinstance(action, dict):
            action = action["action"]
        action = np.asarray(action)
        n = self.action_space.n
        if action.shape != (self.num_envs,) or not np.issubdtype(action.dtype, np.integer) \
                or action.min() < 0 or action.max() >= n:
            raise DropInError(f"action must be {self.num_envs} integers in 0..{n - 1}, got {action!r}")
        self._handle = self._send(self._handle, action)

    def recv(self):
        self._fresh = False
        self._handle, out = self._recv(self._handle)
        return self._numpy(out)

    def step(self, action, env_id=None):
        self.send(action, env_id)
        return self.recv()

    def xla(self):
        """``(handle, recv, send, step)``: the pool's state and pure functions of it, for
        ``jax.jit`` / ``lax.scan`` (``step(handle, action) -> (handle, (obs, reward, terminated,
        truncated, info))``)."""
        return self._handle, self._pool.recv, self._pool.send, self._pool.step

    def close(self) -> None:
        pass


def make(task_id: str, env_type: str = "gymnasium", **kwargs: Any) -> EnvPool:
    """EnvPool's ``envpool.make`` for jaxtari's games (task ids as EnvPool's: ``"Pong-v5"``)."""
    known = {f.name for f in dataclasses.fields(Options)}
    for name in kwargs:
        if name in UNSUPPORTED:
            raise DropInError(f"{name}: EnvPool's option is not offered by jaxtari.envpool ({UNSUPPORTED[name]})")
        if name not in known:
            raise DropInError(f"unknown option {name!r}; jaxtari.envpool takes EnvPool's Atari options: "
                              f"{', '.join(sorted(known - {'task_id'}))}")
    seed = kwargs.get("seed", 42)
    if isinstance(seed, Sequence) and not isinstance(seed, str):
        kwargs["seed"] = tuple(int(s) for s in seed)
    return EnvPool(Options(task_id=task_id, env_type=env_type, **kwargs))


def make_gymnasium(task_id: str, **kwargs: Any) -> EnvPool:
    return make(task_id, env_type="gymnasium", **kwargs)


def make_gym(task_id: str, **kwargs: Any) -> EnvPool:
    return make(task_id, env_type="gym", **kwargs)


def list_all_envs() -> list[str]:
    import jaxtari

    return [f"{dropin.env_name(g)}-v5" for g in jaxtari.list_games()]
