"""Pixels on the ALE side: ale-py's ``AtariVectorEnv`` (C++ threads) under the ALE v5 protocol the
JAX wrappers follow (frameskip 4, sticky 0.25, no max-pooling, no no-op or FIRE resets, 84x84 grey,
a stack of 4), and the measured gap between its frames and the JAX game's native 84x84 raster.
"""

from __future__ import annotations

import numpy as np

from alignment.learning.config import FRAME_STACK
from jaxtari.protocol import V5


def _vector_env(game: str, num_envs: int, *, frameskip: int, stack: int, sticky: float,
                seed_threads: int = 1):
    from ale_py.vector_env import AtariVectorEnv

    return AtariVectorEnv(
        game, num_envs, num_threads=seed_threads, frameskip=frameskip, stack_num=stack,
        maxpool=False, noop_max=0, use_fire_reset=False, reward_clipping=False,
        episodic_life=False, repeat_action_probability=sticky, autoreset_mode="SameStep")


def pixel_gap(game: str, *, frames: int = 800, hold: int = 8, seed: int = 0) -> dict:
    """Mean absolute difference (grey levels, 0..255) between ALE's 84x84 frames (ale-py's resize
    of its 210x160 screen) and the JAX game's ``render_gray84`` on matched frames: the same random
    actions, each held ``hold`` frames, one emulator frame per step, sticky actions off."""
    import jax
    import jax.numpy as jnp
    import jaxtari

    jgame = jaxtari.make(game)
    env = _vector_env(game, 1, frameskip=1, stack=1, sticky=0.0)
    try:
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        actions = np.repeat(rng.integers(0, jgame.num_actions, frames // hold), hold)
        ale_frames = [obs[0, -1]]
        for a in actions:
            obs, _, terminated, truncated, _ = env.step(np.array([a]))
            if terminated[0] or truncated[0]:
                break
            ale_frames.append(obs[0, -1])
    finally:
        env.close()
    n = len(ale_frames)
    _, state = jgame.reset(jax.random.key(seed))

    def body(s, a):
        _, s, *_ = jgame.step(s, a)
        return s, jgame.render_gray84(s)

    _, rendered = jax.lax.scan(body, state, jnp.asarray(actions[: n - 1]))
    jax_frames = np.concatenate([np.asarray(jgame.render_gray84(state))[None], np.asarray(rendered)])
    diff = np.abs(np.asarray(ale_frames, np.float64) - jax_frames.astype(np.float64))
    return {"frames": n, "mean_abs_diff": float(diff.mean()),
            "max_frame_mean_abs_diff": float(diff.mean(axis=(1, 2)).max()),
            "fraction_pixels_differing": float((diff > 0).mean()),
            "settings": {"hold": hold, "seed": seed, "resize": "ale-py AtariVectorEnv 84x84"}}


class AlePixelVecEnv:
    """``num_envs`` ALE games as 84x84x4 grey stacks (frame stack first, as the JAX wrappers),
    with the interface of :class:`alignment.stress.ale_rollout.AleVecEnv`."""

    def __init__(self, game: str, num_envs: int, seed: int, *,
                 sticky: float = V5.repeat_action_probability,
                 episodic_life: bool = True):
        self.env = _vector_env(game, num_envs, frameskip=V5.frameskip, stack=FRAME_STACK, sticky=sticky)
        self._obs, info = self.env.reset(seed=seed)
        self.lives = np.asarray(info["lives"]).copy()
        self.returns = np.zeros(num_envs, np.float64)
        self.episodic_life = episodic_life
        self.num_actions = int(self.env.single_action_space.n)

    def observe(self) -> np.ndarray:
        return self._obs

    def step(self, actions: np.ndarray):
        obs, reward, terminated, truncated, info = self.env.step(np.asarray(actions, np.int32))
        reward = np.asarray(reward, np.float32)
        ended = np.asarray(terminated | truncated)
        self.returns += reward
        returns = np.where(ended, self.returns, 0.0).astype(np.float32)
        self.returns[ended] = 0.0
        lives = np.asarray(info["lives"])
        done = ended | (self.episodic_life & (lives < self.lives))
        self.lives = lives.copy()
        self._obs = obs
        return obs, reward, done, ended, returns

    def snapshot(self) -> None:
        return None  # the vector env cannot save its emulators: a resumed run starts new games

    def restore(self, blob) -> None:
        pass
