"""v5 episodes: the ALE v5 protocol played on each backend with its own randomness.

Every policy of ``jaxtari-align compare`` is open-loop: an episode's agent actions are fixed before
it starts (random with a seed, a per-game script, or a file), so the very same sequence can be played
on the emulator and on the JAX game. A v5 episode is frameskip ``F`` (rewards summed over the F
frames), sticky actions with probability ``p`` drawn per frame independently on each side (ALE's rule
in :class:`~alignment.reference.ale.AleGame`, :class:`jaxtari.wrappers.AtariWrapper` on the JAX
side), capped at ``max_frames`` emulator frames. Such episodes are compared as distributions; the
frame-by-frame comparison (sticky off) runs through :meth:`alignment.backends.Backend.run`.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from alignment.backends import JaxBackend
from alignment.catalog import GameEntry
from alignment.plain import scalar
from alignment.reference.ale import AleGame
from jaxtari.protocol import V5


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
    return scalar(round(float(x), 6), whole_floats_as_int=True)


# ---- ALE side ---------------------------------------------------------------------------------
def ale_episode(entry: GameEntry, actions: np.ndarray, *, seed: int, frameskip: int, sticky: float,
                max_frames: int, on_step: Callable[[], None] | None = None,
                writes=()) -> Episode:
    """``writes``: the RAM writes of the mods' ALE counterparts (after reset and every frame)."""
    from alignment.signals import apply_ram_writes

    ale = AleGame(entry.name, seed=seed, sticky=sticky)
    if writes:
        apply_ram_writes(writes, "reset", ale.ram, ale.set_ram)
    has_level = "level" in entry.signals
    start_level = entry.ale_signals(ale.ram)["level"] if has_level else None
    start_lives = ale.lives
    rewards, lives, levels = [], [], []
    for a in actions:
        r = 0
        for _ in range(frameskip):
            r += ale.step(int(a))
            if writes:
                apply_ram_writes(writes, "frame", ale.ram, ale.set_ram)
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


# ---- JAX side ---------------------------------------------------------------------------------
_V5: dict[tuple, Callable] = {}  # compiled batches of v5 episodes, per (backend, protocol)


def _v5_fn(backend: JaxBackend, frameskip: int, sticky: float, max_frames: int):
    import jax
    import jax.numpy as jnp

    from jaxtari.wrappers import AtariWrapper

    key = (backend.cache_key, frameskip, sticky, max_frames)
    if key in _V5:
        return _V5[key]
    game, entry = backend.jax_game, backend.entry
    env = AtariWrapper(game, frameskip=frameskip, sticky_prob=sticky, noop_max=V5.noop_max,
                       max_episode_frames=max_frames, autoreset=False)
    has_level = "level" in entry.signals
    level_of = entry.signals["level"].jax if has_level else None

    def level(gs):
        return jnp.asarray(level_of(game, gs), jnp.int32) if has_level else jnp.int32(0)

    def episode(key, actions):
        _, st = env.reset(key)
        gs0 = env.game_state(st)
        start = (jnp.asarray(game.lives(gs0), jnp.int32), level(gs0))

        def one(st, a):
            _, st, r, _, info = env.step(st, a)
            rec = (r, info["lives"], level(env.game_state(st)), info["terminated"],
                   info["truncated"], info["episode_frames"])
            return st, rec

        _, recs = jax.lax.scan(one, st, actions)
        return start, recs

    _V5[key] = jax.jit(jax.vmap(episode))
    return _V5[key]


def jax_episodes(backend: JaxBackend, seeds: list[int], actions: np.ndarray, *, frameskip: int,
                 sticky: float, max_frames: int) -> list[Episode]:
    """v5 episodes of the backend's JAX game, one per row of ``actions`` (n_episodes, steps), all in
    one compiled call."""
    import jax

    fn = _v5_fn(backend, frameskip, sticky, max_frames)
    keys = jax.numpy.stack([jax.random.key(int(s)) for s in seeds])
    (lives0, level0), recs = fn(keys, np.asarray(actions, np.int32))
    r, lives, levels, term, trunc, frames = (np.asarray(x) for x in recs)
    has_level = "level" in backend.entry.signals
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


__all__ = ["Episode", "ale_episode", "expand_to_frames", "jax_episodes"]
