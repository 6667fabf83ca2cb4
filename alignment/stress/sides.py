"""The two backends behind one small interface the core drives interval by interval:

``init(seeds) -> (runner, ctx)`` (runners stacked over seeds), ``chunk(runner, ctx, n, on_step)
-> (runner, stats)`` (``n`` PPO updates; stats arrays (seeds, n)), and per seed ``env_blob(ctx,
i)`` / ``restore_env(ctx, i, blob)`` for what a checkpoint needs beyond the runner. The JAX side's
chunk is one compiled call (rollout and update fused, vmapped over seeds); the ALE side steps the
emulators from the host and calls the same compiled policy and update.
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from alignment.stress.config import PPOConfig
from alignment.stress.ppo import init_runner, make_chunk, make_jax_env


class JaxSide:
    """Seeds are initialised one by one and trained through ``lax.map`` (one after another inside
    one compiled call): on XLA's CPU backend (jax 0.10.2, this machine) a ``vmap`` over seeds of the
    Freeway runner's initialisation, and of the whole train function, hung with every thread parked
    on a futex (seen three times), while these run. The cue-task test keeps ``vmap`` over seeds of
    ``make_train`` covered; on an accelerator ``vmap`` is the better choice."""

    name = "jax"

    def __init__(self, game: str, config: PPOConfig):
        self.config = config
        self.env = make_jax_env(game, config)
        self._init = jax.jit(functools.partial(init_runner, config, self.env))
        self._chunk_fn = make_chunk(config, self.env)
        self._chunks: dict[int, object] = {}

    def init(self, seeds: list[int]):
        runners = [self._init(jax.random.key(s)) for s in seeds]
        return jax.tree_util.tree_map(lambda *xs: jax.numpy.stack(xs), *runners), None

    def chunk(self, runner, ctx, n: int, on_step=None):
        if n not in self._chunks:
            self._chunks[n] = jax.jit(lambda r: jax.lax.map(lambda x: self._chunk_fn(x, n), r))
        runner, stats = self._chunks[n](runner)
        stats = jax.tree_util.tree_map(np.asarray, stats)  # one sync per interval, outside the loop
        if on_step is not None:
            on_step(n * self.config.batch_size * stats["episodes"].shape[0])
        return runner, stats

    def env_blob(self, ctx, i):
        return None  # the JAX env's state is part of the runner

    def restore_env(self, ctx, i, blob):
        pass


class AleSide:
    name = "ale"

    def __init__(self, game: str, config: PPOConfig):
        from alignment.stress.ale_rollout import AleTrainer

        self.config = config
        self.trainer = AleTrainer(game, config)

    def init(self, seeds: list[int]):
        return self.trainer.init(seeds)

    def chunk(self, runner, envs, n: int, on_step=None):
        return self.trainer.chunk(runner, envs, n, on_step)

    def env_blob(self, envs, i):
        return envs[i].snapshot()

    def restore_env(self, envs, i, blob):
        if blob is not None:
            envs[i].restore(blob)


def make_side(kind: str, game: str, config: PPOConfig):
    return {"jax": JaxSide, "ale": AleSide}[kind](game, config)
