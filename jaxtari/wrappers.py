"""Wrappers giving a raw jaxtari game (one emulator frame per step) the ALE v5 protocol and the
observations agents train on. Every wrapper is a pure function pair, jit- and vmap-able:

``reset(key) -> (obs, state)`` and ``step(state, action) -> (obs, state, reward, done, info)``.

Compose them in the order a user expects::

    game = jaxtari.make("pong")
    env = LogWrapper(FrameStack(PixelObservation(AtariWrapper(game)), 4))

- :class:`AtariWrapper`: ALE v5 semantics (its numbers: :data:`jaxtari.protocol.V5`) — frameskip 4 (rewards summed over the skipped frames),
  sticky actions (each frame, with probability 0.25 the previous frame's action is repeated, as in
  ALE's ``repeat_action_probability``), optional no-op starts (0..``noop_max`` agent steps of NOOP),
  the 108,000-frame episode cap (truncation), optional episodic life, and auto-reset.
- :class:`ObjectObservation` / :class:`PixelObservation`: flat object-centric features, or 84x84
  grey pixels rasterised directly at that size (``Game.render_gray84``).
- :class:`FrameStack`: the last k observations, stacked on a new leading axis.
- :class:`LogWrapper`: episode return and length in ``info``.

Auto-reset under ``vmap`` turns any branch into a select that runs on every step, so the reset here
is cheap by construction: the start states that no-op starts can produce are computed once, at
``reset``, and kept in the state; a new episode picks one of them (and a fresh key) by index.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import spaces
from jaxtari.env import Game, pytree_dataclass, typed_key
from jaxtari.protocol import V5
from jaxtari.xla import StatePacker, materialize, random_bits, select_tree

NOOP_ACTION = 0  # index 0 is NOOP in every ALE action set


# The wrapper's checks (the API face of the v5 protocol): counts are carried in int32 by the compiled
# step, so every bound keeps a sum of them inside it.
INT32_MAX = 2**31 - 1
MAX_FRAMESKIP = V5.max_num_frames_per_episode  # one agent step of a whole capped episode at most
MAX_NOOP = 1_000  # each no-op start is a state kept in every env's state (ALE's usual: 30)


def _whole(name: str, value, low: int, high: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or not low <= int(value) <= high:
        raise ValueError(f"{name} must be a whole number from {low:,} to {high:,}, got {value!r}")
    return int(value)


def _flag(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


class Wrapper:
    """Base of the wrappers: forwards what it does not change to the wrapped env."""

    def __init__(self, env):
        self.env = env

    @property
    def game(self) -> Game:
        return self.env.game

    def game_state(self, state):
        """The raw game state inside this wrapper's state."""
        return self.env.game_state(state.inner)

    @property
    def num_actions(self) -> int:
        return self.env.num_actions

    @property
    def action_space(self) -> spaces.Discrete:
        return self.env.action_space

    @property
    def observation_space(self):
        return self.env.observation_space

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes this wrapper lacks.
        if name == "env":
            raise AttributeError(name)
        return getattr(self.env, name)


@pytree_dataclass
class AtariState:
    game_state: Any
    key: jax.Array
    last_action: jax.Array  # index of the action applied on the previous frame (sticky actions)
    episode_frames: jax.Array  # emulator frames since the episode began
    lives: jax.Array
    starts: jax.Array  # (noop_max + 1, words) int32: the start states a new episode picks from


class AtariWrapper:
    """ALE v5 protocol over a raw game (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        *,
        frameskip: int = V5.frameskip,
        sticky_prob: float = V5.repeat_action_probability,
        noop_max: int = V5.noop_max,
        max_episode_frames: int = V5.max_num_frames_per_episode,
        episodic_life: bool = False,
        autoreset: bool = True,
    ):
        self._game = game
        self.frameskip = _whole("frameskip", frameskip, 1, MAX_FRAMESKIP)
        if isinstance(sticky_prob, (bool, np.bool_)) or not isinstance(
                sticky_prob, (int, float, np.integer, np.floating)) or not 0.0 <= sticky_prob <= 1.0:
            raise ValueError(f"sticky_prob must be a number within [0, 1], got {sticky_prob!r}")
        self.sticky_prob = float(sticky_prob)
        self.noop_max = _whole("noop_max", noop_max, 0, MAX_NOOP)
        self.max_episode_frames = _whole("max_episode_frames", max_episode_frames, 1,
                                         INT32_MAX - self.frameskip)
        self.episodic_life = _flag("episodic_life", episodic_life)
        self.autoreset = _flag("autoreset", autoreset)

    @property
    def game(self) -> Game:
        return self._game

    def game_state(self, state: AtariState):
        return state.game_state

    @property
    def num_actions(self) -> int:
        return self._game.num_actions

    @property
    def action_space(self) -> spaces.Discrete:
        return self._game.action_space

    @property
    def observation_space(self):
        return self._game.observation_space

    # -- the pieces ---------------------------------------------------------------------------
    def _frames(self, game_state, sticky, last_action, action, frames_left=None):
        """Run one emulator frame of ``action`` per entry of ``sticky`` (True: repeat the previous
        frame's action instead); stop at game over, and after ``frames_left`` frames (the cap)."""
        runs = jnp.ones(sticky.shape, bool)
        if frames_left is not None:
            runs = jnp.arange(sticky.shape[0]) < frames_left

        def one(carry, x):
            repeat, run = x
            gs, last, total, over = carry
            a = jnp.where(repeat, last, action)
            _, new_gs, r, d, _ = self._game.step(gs, a)
            # After game over, and from the episode cap on, the console is frozen: ALE's act()
            # does nothing then, even inside one agent step's frameskip (a cap of 402 frames ends
            # gymnasium's v5 episode after 100 steps and 2 frames).
            frozen = over | ~run
            gs = select_tree(frozen, gs, new_gs)
            total = total + jnp.where(frozen, 0.0, r)
            last = jnp.where(frozen, last, a)
            return (gs, last, total, over | (d & ~frozen)), None

        init = (game_state, last_action, jnp.float32(0.0), self._game.is_terminal(game_state))
        (gs, last, total, over), _ = jax.lax.scan(one, init, (sticky, runs))
        return gs, last, total, over

    def _sticky(self, words: jax.Array) -> jax.Array:
        """Per frame, whether the previous action repeats: P(word < threshold) = sticky_prob."""
        if self.sticky_prob >= 1.0:
            return jnp.ones(words.shape, bool)
        return words < jnp.uint32(min(round(self.sticky_prob * 2.0 ** 32), 2 ** 32 - 1))

    def _start_states(self, game_state):
        """The states after 0..noop_max NOOP agent steps from ``game_state``, packed (see StatePacker)."""
        packer = StatePacker(game_state)
        if self.noop_max == 0:
            return packer.pack(game_state)[None]

        def noop(gs, _):
            # No-op starts use plain NOOPs: no sticky randomness (key) is involved.
            gs, _, _, _ = self._frames(gs, jnp.zeros(self.frameskip, bool), NOOP_ACTION, NOOP_ACTION)
            return gs, packer.pack(gs)

        _, after = jax.lax.scan(noop, game_state, None, length=self.noop_max)
        return jnp.concatenate([packer.pack(game_state)[None], after])

    def _pick_start(self, starts, word, game_key, like):
        """One of the packed ``starts`` (picked by the random uint32 ``word``), as a game state
        shaped like ``like``, with ``game_key`` as its key."""
        if self.noop_max == 0:
            row = starts[0]
        else:
            # One gather of one row (see StatePacker). The modulo's bias is below 1e-8.
            row = starts[(word % jnp.uint32(self.noop_max + 1)).astype(jnp.int32)]
        gs = StatePacker(like).unpack(row)
        # A fresh key gives each episode its own randomness even from the same start.
        return gs.replace(key=game_key)

    def _draw(self, key: jax.Array):
        """All of one agent step's randomness from one draw of random words: the next key, the
        sticky coins of its frames, and a new episode's start pick and game key.

        On the CPU every jax.random call is a loop of its own (threefry's rounds are rolled), so one
        draw serves the whole step instead of four, and that draw is jaxtari.xla.random_bits (the
        same words, the rounds written out)."""
        shape = jax.random.key_data(key).shape
        size = int(np.prod(shape))
        impl = jax.random.key_impl(key)
        words = random_bits(key, 2 * size + self.frameskip + 1)
        next_key = jax.random.wrap_key_data(words[:size].reshape(shape), impl=impl)
        game_key = jax.random.wrap_key_data(words[size:2 * size].reshape(shape), impl=impl)
        rest = words[2 * size:]
        return next_key, self._sticky(rest[:self.frameskip]), rest[self.frameskip], game_key

    # -- the protocol -------------------------------------------------------------------------
    def reset(self, key: jax.Array):
        k_reset, k_draw = jax.random.split(typed_key(key))
        _, gs0 = self._game.reset(k_reset)
        starts = self._start_states(gs0)
        k_next, _, pick, k_game = self._draw(k_draw)
        gs = self._pick_start(starts, pick, k_game, gs0)
        state = AtariState(
            game_state=gs,
            key=k_next,
            last_action=jnp.int32(NOOP_ACTION),
            episode_frames=jnp.int32(0),
            lives=jnp.asarray(self._game.lives(gs), jnp.int32),
            starts=starts,
        )
        return self._game.observation(gs), state

    def restart(self, state: AtariState) -> AtariState:
        """A new episode from the start states kept in ``state``, as auto-reset picks one (no new
        no-op scan): for front-ends that start the next episode one call later (EnvPool)."""
        key, _, pick, k_game = self._draw(state.key)
        gs = self._pick_start(state.starts, pick, k_game, state.game_state)
        return AtariState(game_state=gs, key=key, last_action=jnp.int32(NOOP_ACTION),
                          episode_frames=jnp.int32(0), lives=jnp.asarray(self._game.lives(gs), jnp.int32),
                          starts=state.starts)

    def step(self, state: AtariState, action):
        self._game.check_action(action)
        action = jnp.asarray(action, jnp.int32)
        key, sticky, pick, k_game = self._draw(state.key)
        frames_left = self.max_episode_frames - state.episode_frames
        gs, last, reward, terminated = self._frames(state.game_state, sticky, state.last_action,
                                                    action, frames_left)
        frames = jnp.minimum(state.episode_frames + self.frameskip, self.max_episode_frames)
        truncated = (frames >= self.max_episode_frames) & ~terminated
        lives = jnp.asarray(self._game.lives(gs), jnp.int32)
        life_lost = lives < state.lives
        episode_over = terminated | truncated
        done = episode_over | (self.episodic_life & life_lost)
        info = {
            "terminated": terminated,
            "truncated": truncated,
            "life_lost": life_lost,
            "lives": lives,
            "score": jnp.asarray(self._game.score(gs), jnp.int32),
            "episode_frames": frames,
            "episode_restart": episode_over if self.autoreset else jnp.bool_(False),
        }
        if self.autoreset:
            fresh = self._pick_start(state.starts, pick, k_game, gs)
            gs = select_tree(episode_over, fresh, gs)
            frames = jnp.where(episode_over, 0, frames)
            last = jnp.where(episode_over, NOOP_ACTION, last)
            lives = jnp.where(episode_over, jnp.asarray(self._game.lives(fresh), jnp.int32), lives)
        new_state = AtariState(
            game_state=gs, key=key, last_action=last, episode_frames=frames, lives=lives,
            starts=state.starts,
        )
        return self._game.observation(gs), new_state, reward, done, info


@pytree_dataclass
class ObsState:
    inner: Any


class ObjectObservation(Wrapper):
    """Observations are the game's flat object-centric features (float32)."""

    def reset(self, key):
        _, inner = self.env.reset(key)
        return self.game.observation(self.env.game_state(inner)), ObsState(inner)

    def step(self, state, action):
        _, inner, r, d, info = self.env.step(state.inner, action)
        return self.game.observation(self.env.game_state(inner)), ObsState(inner), r, d, info


class PixelObservation(Wrapper):
    """Observations are 84x84 uint8 grey frames drawn directly at that size."""

    def reset(self, key):
        _, inner = self.env.reset(key)
        return self.game.render_gray84(self.env.game_state(inner)), ObsState(inner)

    def step(self, state, action):
        _, inner, r, d, info = self.env.step(state.inner, action)
        return self.game.render_gray84(self.env.game_state(inner)), ObsState(inner), r, d, info

    @property
    def observation_space(self):
        return spaces.Box(low=0, high=255, shape=(84, 84), dtype=np.uint8)


# The frame stack shared by FrameStack and jaxtari.envpool: one (k, ...) array, oldest first, that
# is both what the state keeps and the observation.
def stack_start(frame: jax.Array, k: int) -> jax.Array:
    """A stack holding ``frame`` alone (an episode's first) in every slot."""
    return jnp.broadcast_to(frame, (k,) + frame.shape)


def stack_push(frames: jax.Array, frame: jax.Array, restart) -> jax.Array:
    """``frames`` with ``frame`` pushed in and the oldest dropped; where ``restart``, ``frame`` (a
    new episode's first) in every slot. ``frame`` is materialised first: it is read by every slot's
    select, and a renderer fused into them would draw it k times."""
    frame = materialize(frame)
    shifted = jnp.concatenate([frames[1:], frame[None]])
    return jnp.where(restart, jnp.broadcast_to(frame, frames.shape), shifted)


@pytree_dataclass
class StackState:
    inner: Any
    frames: jax.Array  # (k, ...) the last k frames, oldest first: the observation


class FrameStack(Wrapper):
    """The last ``k`` observations stacked on a new leading axis (oldest first).

    At reset, and when the wrapped env restarts an episode, the stack is filled with the new one.
    """

    def __init__(self, env, k: int = 4):
        super().__init__(env)
        if k < 1:
            raise ValueError(f"frame stack size must be >= 1, got {k}")
        self.k = int(k)

    # The stack is one (k, ...) array, and it is the observation itself: each step writes the k
    # frames once (stack_push), reading the new frame from memory. It was chosen by measurement on
    # XLA CPU (benchmarks/README.md, "The FrameStack back on the one-array stack") over:
    # - a ring (k slots, one written per step, the observation gathered oldest first): it writes a
    #   quarter of the bytes, but XLA CPU runs the per-env slot write (a scatter under vmap) and the
    #   gather element by element. Unpinned on an idle machine the ring was the slower of the two;
    #   pinned to one core the two ran alike.
    # - k separate arrays rotated through the state and stacked per step (the original): faster
    #   carried, but under vmap the stack is a (k, N, ...) concatenate read through a transpose, and
    #   a reduction over it (a running or logged mean) becomes a padded reduce-window that XLA CPU
    #   runs far slower.
    # In a scan that carries both the state and the observation, this one value is carried twice,
    # so XLA copies it once per step; that copy is cheaper than the ring's indexing.
    def reset(self, key):
        obs, inner = self.env.reset(key)
        frames = stack_start(obs, self.k)
        return frames, StackState(inner, frames)

    def step(self, state, action):
        obs, inner, r, d, info = self.env.step(state.inner, action)
        restart = jnp.asarray(info.get("episode_restart", False))
        frames = stack_push(state.frames, obs, restart)
        return frames, StackState(inner, frames), r, d, info

    @property
    def observation_space(self):
        inner = self.env.observation_space
        return spaces.Box(low=inner.low, high=inner.high, shape=(self.k,) + tuple(inner.shape), dtype=inner.dtype)


@pytree_dataclass
class LogState:
    inner: Any
    episode_return: jax.Array
    episode_length: jax.Array
    returned_episode_return: jax.Array
    returned_episode_length: jax.Array


class LogWrapper(Wrapper):
    """Adds the running and the last finished episode's return and length (agent steps) to info.

    An episode ends when the game is over or truncated (not at a life loss under episodic life).
    """

    def reset(self, key):
        obs, inner = self.env.reset(key)
        zero_f, zero_i = jnp.float32(0.0), jnp.int32(0)
        return obs, LogState(inner, zero_f, zero_i, zero_f, zero_i)

    def step(self, state, action):
        obs, inner, r, d, info = self.env.step(state.inner, action)
        ended = info["terminated"] | info["truncated"]
        ret = state.episode_return + r
        length = state.episode_length + 1
        new = LogState(
            inner,
            episode_return=jnp.where(ended, 0.0, ret),
            episode_length=jnp.where(ended, 0, length),
            returned_episode_return=jnp.where(ended, ret, state.returned_episode_return),
            returned_episode_length=jnp.where(ended, length, state.returned_episode_length),
        )
        info = dict(info)
        info["episode_return"] = new.episode_return
        info["episode_length"] = new.episode_length
        info["returned_episode"] = ended
        info["returned_episode_return"] = new.returned_episode_return
        info["returned_episode_length"] = new.returned_episode_length
        return obs, new, r, d, info


# A stack deeper than this is no agent's input (4 is the usual); 10**6 frames of 84x84 would take
# ~7 GB a state and abort or hang the compile.
MAX_FRAME_STACK = 64


def make_env(
    name: str,
    *,
    obs: str = "objects",
    frame_stack: int = 1,
    mods=(),
    full_action_space: bool = V5.full_action_space,
    log: bool = True,
    **atari_kwargs,
):
    """The usual stack in one call: ``make_env("pong", obs="pixels", frame_stack=4)``.

    ``obs`` is ``"objects"`` (flat features) or ``"pixels"`` (84x84 grey); the remaining keyword
    arguments go to :class:`AtariWrapper` (frameskip, sticky_prob, noop_max, ...).
    """
    import jaxtari

    if (isinstance(frame_stack, bool) or not isinstance(frame_stack, (int, np.integer))
            or not 1 <= frame_stack <= MAX_FRAME_STACK):
        raise ValueError(f"frame_stack must be a whole number from 1 (no stack) to "
                         f"{MAX_FRAME_STACK} (the bound: each frame of the stack is kept in every "
                         f"state), got {frame_stack!r}")
    game = jaxtari.make(name, mods=mods, full_action_space=full_action_space)
    env = AtariWrapper(game, **atari_kwargs)
    if obs == "objects":
        env = ObjectObservation(env)
    elif obs == "pixels":
        env = PixelObservation(env)
    else:
        raise ValueError(f"obs must be 'objects' or 'pixels', got {obs!r}")
    if frame_stack > 1:
        env = FrameStack(env, frame_stack)
    if _flag("log", log):
        env = LogWrapper(env)
    return env
