"""The two backends behind one small interface the core drives interval by interval:

``init(seeds) -> (runner, ctx)`` (runners stacked over seeds), ``chunk(runner, ctx, n, on_step)
-> (runner, stats)`` (``n`` PPO updates; stats arrays (seeds, n)), and per seed ``env_blob(ctx,
i)`` / ``restore_env(ctx, i, blob)`` for what a checkpoint needs beyond the runner. The JAX side's
chunk is one compiled call (rollout and update fused; seeds by ``lax.map`` or ``vmap``, see
:class:`JaxSide`); the ALE side steps the emulators from the host and calls the same compiled
policy and update.
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from alignment.learning.config import PPOConfig
from alignment.learning.ppo import init_runner, make_chunk, make_jax_env
from alignment.stress.config import StressInputError


SEEDS_BY = ("auto", "map", "vmap")


def seeds_by_choice(seeds_by: str) -> str:
    """``map`` or ``vmap``: ``auto`` is ``map`` on the CPU and ``vmap`` on an accelerator."""
    if seeds_by not in SEEDS_BY:
        raise StressInputError(f"unknown seeds_by {seeds_by!r}; choices: {', '.join(SEEDS_BY)}")
    if seeds_by == "auto":
        return "map" if jax.default_backend() == "cpu" else "vmap"
    return seeds_by


class JaxSide:
    """The JAX side: each interval of every seed in one compiled call.

    Seeds are initialised one by one (never under ``vmap``), then trained together, by ``lax.map``
    (one seed after another inside the call) or by ``vmap`` (one batched program).

    Why the initialisation is not vmapped: ``jax.vmap`` over seeds of the runner's initialisation
    deadlocks on XLA's CPU backend (jax/jaxlib 0.10.2, 2 cores). The network's orthogonal
    initialisers are LAPACK QR custom calls (``lapack_sorgqr_ffi``); batched, each splits its batch
    over XLA's intra-op thread pool (``jax::ParallelBatchMap``) and blocks until the pieces are done.
    The MLP's two hidden layers are initialised by two independent such calls, which XLA runs at
    the same time, one on each of the pool's two threads: both wait for pieces queued behind them
    on the same pool, forever (native stacks: both ``tf_XLAEigen`` threads in
    ``BlockingCounter::Wait`` under ``OrthogonalQr::Kernel``; no CPU time used after compiling).
    The smallest reproduction needs no project code::

        init = jax.nn.initializers.orthogonal()
        def two(k):
            k1, k2 = jax.random.split(k)
            return init(k1, (44, 461)), init(k2, (461, 512))
        jax.jit(jax.vmap(two))(jax.random.split(jax.random.key(0), 2))  # never returns

    One such call alone, a batch of one, or two 64x64 matrices returned; so does the same
    program pinned to one core (``taskset -c 0``), where the pool cannot be exhausted. The training
    chunk itself holds no LAPACK call, and vmaps fine.

    Why ``auto`` picks ``lax.map`` on the CPU: ``lax.map`` gives each seed exactly the numbers of
    training it alone, whatever else runs beside it, so a resumed run, whose seeds may restart in
    other groups (see core), continues bit for bit. ``vmap`` does not: after two updates of the
    Freeway MLP, seeds 0 and 1 trained in a batch of 2 and in a batch of 5 differed by up to 1.5e-8
    (and from lax.map by 7e-7; 1.8e-4 after eight 8x128-step updates), differences PPO then
    amplifies. On this 2-core CPU vmap bought no clear speed (5 seeds x 8 updates of 8 envs x 128
    steps: 3.7-6.3 s by lax.map, 4.3-5.1 s by vmap, on a loaded machine). On an accelerator one
    batched program is the point, so ``auto`` picks ``vmap`` there."""

    name = "jax"

    def __init__(self, game: str, config: PPOConfig, seeds_by: str = "auto", mods=()):
        self.config = config
        self.seeds_by = seeds_by_choice(seeds_by)
        self.env = make_jax_env(game, config, mods)
        self._init = jax.jit(functools.partial(init_runner, config, self.env))
        self._chunk_fn = make_chunk(config, self.env)
        self._chunks: dict[int, object] = {}

    def init(self, seeds: list[int]):
        runners = [self._init(jax.random.key(s)) for s in seeds]
        return jax.tree_util.tree_map(lambda *xs: jax.numpy.stack(xs), *runners), None

    def _compiled_chunk(self, n: int):
        if n not in self._chunks:
            one = functools.partial(self._chunk_fn, n=n)
            if self.seeds_by == "vmap":
                self._chunks[n] = jax.jit(jax.vmap(one))
            else:
                self._chunks[n] = jax.jit(lambda r: jax.lax.map(one, r))
        return self._chunks[n]

    def chunk(self, runner, ctx, n: int, on_step=None):
        runner, stats = self._compiled_chunk(n)(runner)
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

    def __init__(self, game: str, config: PPOConfig, mods=()):
        from alignment.stress.ale_rollout import AleTrainer, ram_writes

        self.config = config
        self.trainer = AleTrainer(game, config, writes=ram_writes(game, mods))

    def init(self, seeds: list[int]):
        return self.trainer.init(seeds)

    def chunk(self, runner, envs, n: int, on_step=None):
        return self.trainer.chunk(runner, envs, n, on_step)

    def env_blob(self, envs, i):
        return envs[i].snapshot()

    def restore_env(self, envs, i, blob):
        if blob is not None:
            envs[i].restore(blob)


def make_side(kind: str, game: str, config: PPOConfig, seeds_by: str = "auto", mods=()):
    if kind == "jax":
        return JaxSide(game, config, seeds_by, mods)
    return AleSide(game, config, mods)
