"""Open-loop rollouts of one action sequence on both backends.

Every policy of ``jaxtari-align compare`` is open-loop: an episode's agent actions are fixed before
it starts (random with a seed, a per-game script, or a file), so the very same sequence can be played
on the emulator and on the JAX game. Two kinds of run use it:

- **v5 episodes** (:func:`ale_episode`, :func:`jax_episodes`): the ALE v5 protocol on each side with
  its own randomness — frameskip ``F`` (rewards summed over the F frames), sticky actions with
  probability ``p`` (drawn per frame, independently on each side: ALE's rule in
  :class:`~alignment.reference.ale.AleGame`, :class:`jaxtari.wrappers.AtariWrapper` on the JAX side),
  capped at ``max_frames`` emulator frames. These are compared as distributions.
- **matched runs** (:func:`ale_frames`, :func:`jax_frames`): sticky actions off, the agent actions
  expanded to frames (each held F frames), every signal recorded after every frame on both sides.
  These are compared frame by frame.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

from alignment.catalog import CORE_SIGNALS, GameEntry
from alignment.reference.ale import AleGame


@dataclasses.dataclass
class Episode:
    """One v5 episode as an agent sees it (one entry per agent step)."""

    rewards: np.ndarray  # float64 (steps,)
    lives: np.ndarray  # int (steps,), after each step
    levels: np.ndarray | None  # int (steps,) when the game has a `level` signal
    start_lives: int
    start_level: int | None
    frames: int  # emulator frames played
    terminated: bool
    truncated: bool

    @property
    def steps(self) -> int:
        return int(len(self.rewards))

    @property
    def episode_return(self) -> float:
        return float(np.sum(self.rewards))

    @property
    def life_losses(self) -> int:
        lives = np.concatenate([[self.start_lives], self.lives])
        return int(np.sum(np.diff(lives) < 0))

    @property
    def level_changes(self) -> int:
        if self.levels is None:
            return 0
        levels = np.concatenate([[self.start_level], self.levels])
        return int(np.sum(np.diff(levels) != 0))

    def reward_values(self) -> list[float]:
        """The distinct non-zero rewards of the episode's agent steps."""
        return sorted({_clean(r) for r in self.rewards if r != 0})


def _clean(x) -> float | int:
    x = float(x)
    return int(x) if x.is_integer() else round(x, 6)


# ---- ALE side ---------------------------------------------------------------------------------
def ale_episode(entry: GameEntry, actions: np.ndarray, *, seed: int, frameskip: int, sticky: float,
                max_frames: int, on_step: Callable[[], None] | None = None) -> Episode:
    ale = AleGame(entry.name, seed=seed, sticky=sticky)
    has_level = "level" in entry.signals
    start_level = entry.ale_signals(ale.ram)["level"] if has_level else None
    start_lives = ale.lives
    rewards, lives, levels = [], [], []
    for a in actions:
        r = 0
        for _ in range(frameskip):
            r += ale.step(int(a))
            if ale.terminated:
                break
        rewards.append(r)
        lives.append(ale.lives)
        if has_level:
            levels.append(entry.ale_signals(ale.ram)["level"])
        if on_step is not None:
            on_step()
        if ale.terminated or ale.frame >= max_frames:
            break
    return Episode(
        rewards=np.asarray(rewards, np.float64), lives=np.asarray(lives, np.int64),
        levels=np.asarray(levels, np.int64) if has_level else None,
        start_lives=start_lives, start_level=start_level, frames=ale.frame,
        terminated=ale.terminated, truncated=not ale.terminated,
    )


def ale_frames(entry: GameEntry, frame_actions: np.ndarray) -> dict[str, np.ndarray]:
    """Every signal after every frame of ``frame_actions`` (sticky off), until game over."""
    ale = AleGame(entry.name, sticky=0.0)
    rows: list[dict[str, Any]] = []
    for a in frame_actions:
        ale.step(int(a))
        rows.append(ale.signals())
        if ale.terminated:
            break
    return {k: np.asarray([row[k] for row in rows]) for k in entry.signals}


# ---- JAX side ---------------------------------------------------------------------------------
class JaxRunner:
    """Compiled open-loop rollouts of one JAX game (each function is compiled once per shape)."""

    def __init__(self, entry: GameEntry, game):
        import jax

        self.entry = entry
        self.game = game
        self._jax = jax
        self._frames_fn = jax.jit(self._frames_impl)
        self._v5_cache: dict[tuple, Callable] = {}

    def _signals(self, state) -> dict[str, Any]:
        import jax.numpy as jnp

        return {k: jnp.asarray(s.jax(self.game, state)) for k, s in self.entry.signals.items()}

    def _frames_impl(self, key, frame_actions):
        import jax

        _, state = self.game.reset(key)

        def one(state, a):
            _, state, _, _, _ = self.game.step(state, a)
            return state, self._signals(state)

        _, sig = jax.lax.scan(one, state, frame_actions)
        return sig

    def frames(self, key_seed: int, frame_actions: np.ndarray) -> dict[str, np.ndarray]:
        """Every signal after every frame (sticky off), cut after the first terminal frame."""
        key = self._jax.random.key(int(key_seed))
        sig = self._frames_fn(key, np.asarray(frame_actions, np.int32))
        out = {k: np.asarray(v) for k, v in sig.items()}
        term = np.nonzero(out["terminated"])[0]
        n = int(term[0]) + 1 if len(term) else len(frame_actions)
        return {k: v[:n] for k, v in out.items()}

    def _v5_fn(self, frameskip: int, sticky: float, max_frames: int):
        import jax
        import jax.numpy as jnp
        from jaxtari.wrappers import AtariWrapper

        cache_key = (frameskip, sticky, max_frames)
        if cache_key in self._v5_cache:
            return self._v5_cache[cache_key]
        env = AtariWrapper(self.game, frameskip=frameskip, sticky_prob=sticky, noop_max=0,
                           max_episode_frames=max_frames, autoreset=False)
        has_level = "level" in self.entry.signals
        level_of = self.entry.signals["level"].jax if has_level else None

        def level(gs):
            return jnp.asarray(level_of(self.game, gs), jnp.int32) if has_level else jnp.int32(0)

        def episode(key, actions):
            _, st = env.reset(key)
            gs0 = env.game_state(st)
            start = (jnp.asarray(self.game.lives(gs0), jnp.int32), level(gs0))

            def one(st, a):
                _, st, r, _, info = env.step(st, a)
                gs = env.game_state(st)
                rec = (r, info["lives"], level(gs), info["terminated"], info["truncated"],
                       info["episode_frames"])
                return st, rec

            _, recs = jax.lax.scan(one, st, actions)
            return start, recs

        fn = jax.jit(jax.vmap(episode))
        self._v5_cache[cache_key] = fn
        return fn

    def episodes(self, seeds: list[int], actions: np.ndarray, *, frameskip: int, sticky: float,
                 max_frames: int) -> list[Episode]:
        """v5 episodes, one per row of ``actions`` (n_episodes, steps), all in one compiled call."""
        fn = self._v5_fn(frameskip, sticky, max_frames)
        keys = self._jax.numpy.stack([self._jax.random.key(int(s)) for s in seeds])
        (lives0, level0), recs = fn(keys, np.asarray(actions, np.int32))
        r, lives, levels, term, trunc, frames = (np.asarray(x) for x in recs)
        has_level = "level" in self.entry.signals
        out = []
        for i in range(len(seeds)):
            over = np.nonzero(term[i] | trunc[i])[0]
            n = int(over[0]) + 1 if len(over) else actions.shape[1]
            out.append(Episode(
                rewards=r[i, :n].astype(np.float64), lives=lives[i, :n].astype(np.int64),
                levels=levels[i, :n].astype(np.int64) if has_level else None,
                start_lives=int(lives0[i]), start_level=int(level0[i]) if has_level else None,
                frames=int(frames[i, n - 1]), terminated=bool(term[i, n - 1]),
                truncated=not bool(term[i, n - 1]),
            ))
        return out


def expand_to_frames(actions: np.ndarray, frameskip: int, max_frames: int) -> np.ndarray:
    """Agent actions held ``frameskip`` frames each, cut to ``max_frames`` frames."""
    return np.repeat(np.asarray(actions, np.int32), frameskip)[:max_frames]


__all__ = ["CORE_SIGNALS", "Episode", "JaxRunner", "ale_episode", "ale_frames", "expand_to_frames"]
