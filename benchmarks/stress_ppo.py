"""PPO agent steps per second on each backend of the stress stage, in one run.

Object-centric Freeway by default (``--obs pixels``: 84x84x4 frames and the Nature CNN), the stress
stage's own code and hyperparameters (8 envs x 128 steps, 4 epochs x 4 minibatches, the 461-512
MLP), one seed:

- ``ppo``: whole updates (rollout + learning). JAX: rollout and update in one compiled call
  (``alignment.stress.sides.JaxSide``); ALE: the emulators stepped from the host, the same compiled
  policy and update (``AleSide``).
- ``rollout``: the rollout alone (the policy's forward pass and the environment), no learning.

Each measurement compiles first (untimed), then reports the median of ``--repeats`` timed runs.

    python benchmarks/stress_ppo.py
    python benchmarks/stress_ppo.py --game pong --updates 4 --repeats 3 --json out.json
    python benchmarks/stress_ppo.py --game pong --obs pixels --updates 2 --repeats 2
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from alignment.learning.config import budget_config  # noqa: E402
from alignment.learning.ppo import make_policy  # noqa: E402
from alignment.stress.sides import make_side  # noqa: E402


def _median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def ppo_rate(kind: str, game: str, obs: str, updates: int, repeats: int) -> float:
    config = budget_config("paper", obs)
    side = make_side(kind, game, config)
    state = {}
    state["runner"], ctx = side.init([0])

    def run(n):
        state["runner"], _ = side.chunk(state["runner"], ctx, n)

    run(updates)  # compile (and warm the emulators)
    return updates * config.batch_size / _median_time(lambda: run(updates), repeats)


def rollout_rate(kind: str, game: str, obs: str, repeats: int) -> float:
    config = budget_config("paper", obs)
    side = make_side(kind, game, config)
    runner, ctx = side.init([0])
    params = jax.tree_util.tree_map(lambda x: x[0], runner.train_state.params)
    policy = make_policy(runner.train_state.apply_fn)
    if kind == "jax":
        env = side.env
        step = jax.vmap(env.step)
        env_state = jax.tree_util.tree_map(lambda x: x[0], runner.env_state)

        @jax.jit
        def roll(env_state, obs, key):
            def body(carry, k):
                s, o = carry
                a, _, _ = policy(params, o, k)
                o, s, *_ = step(s, a)
                return (s, o), None
            return jax.lax.scan(body, (env_state, obs), jax.random.split(key, config.num_steps))[0]

        obs = runner.obs[0]
        jax.block_until_ready(roll(env_state, obs, jax.random.key(0)))
        t = _median_time(lambda: jax.block_until_ready(roll(env_state, obs, jax.random.key(1))),
                         repeats)
    else:
        envs = ctx[0]
        act = jax.jit(policy)

        def roll():
            obs, key = envs.observe(), jax.random.key(2)
            for _ in range(config.num_steps):
                key, k = jax.random.split(key)
                a, _, _ = act(params, obs, k)
                obs = envs.step(np.asarray(a))[0]

        roll()
        t = _median_time(roll, repeats)
    return config.batch_size / t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="freeway")
    ap.add_argument("--obs", default="objects", choices=("objects", "pixels"))
    ap.add_argument("--updates", type=int, default=4, help="PPO updates per timed run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    rows = {}
    for kind in ("ale", "jax"):
        rows[kind] = {"ppo": ppo_rate(kind, args.game, args.obs, args.updates, args.repeats),
                      "rollout": rollout_rate(kind, args.game, args.obs, args.repeats)}
    print(f"{args.game}, {args.obs}, 1 seed, 8 envs x 128 steps; agent steps/s "
          f"({platform.machine()}, JAX {jax.__version__} on {jax.default_backend()})")
    print(f"{'':8}{'ppo':>12}{'rollout':>12}")
    for kind, r in rows.items():
        print(f"{kind:8}{r['ppo']:>12,.0f}{r['rollout']:>12,.0f}")
    ratio = {k: rows["jax"][k] / rows["ale"][k] for k in ("ppo", "rollout")}
    print(f"{'jax/ale':8}{ratio['ppo']:>11.1f}x{ratio['rollout']:>11.1f}x")
    if args.json:
        args.json.write_text(json.dumps({"game": args.game, "obs": args.obs, "rates": rows,
                                         "ratio": ratio}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
