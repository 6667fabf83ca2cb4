"""Agent steps per second of the drop-in front-ends beside the native JAX API and ale-py, one run.

For each game and N (envs), with frameskip 4, sticky actions 0.25, no-op starts up to 30 and
uniformly random actions:

- ``native``: ``jaxtari.wrappers.make_env(game, obs="pixels", frame_stack=4)`` vmapped in one jitted
  ``lax.scan`` of ``--steps`` steps (4x84x84 grey observations);
- ``xla``: ``jaxtari.envpool.make(...).xla()``'s ``step`` in one jitted ``lax.scan`` (same
  observations; EnvPool's auto-reset and fire reset on top);
- ``envpool-numpy``: the same pool through its numpy ``step`` (a Python loop, numpy across);
- ``gym-vector``: ``gymnasium.make_vec("jaxtari/<Game>-v5", num_envs=N, obs_type="grayscale")``
  (210x160 grey observations, numpy across the boundary, a Python loop);
- ``gym-vector-objects``: the same with ``obs_type="objects"`` (no screen drawn);
- ``ale-vector``: ale-py's ``AtariVectorEnv`` (C++ threads, 4x84x84 grey, the same settings);
- ``ale-vector-screen``: ale-py's ``AtariVectorEnv`` giving what ``gym-vector`` gives (one 210x160
  grey screen, v5 settings: no no-op starts, fire reset, max-pooling or reward clipping).

Compiles are timed on their own; a row is the median of ``--repeats`` timed runs after a warm-up,
with the machine's 1-minute load average when it was taken, and the fastest of the timed runs
(``best``: on a shared machine the least disturbed one). With ``--interleave`` the methods of a
game and N are built first and their timed runs taken in turn (a method named twice runs once).

    python benchmarks/dropin.py --games pong breakout --n 8 64 256 --json benchmarks/dropin.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium  # noqa: E402

import jaxtari  # noqa: E402
import jaxtari.envpool as jenvpool  # noqa: E402
from jaxtari.atari import SCREEN_H, SCREEN_W  # noqa: E402
from jaxtari.dropin import env_name  # noqa: E402
from jaxtari.wrappers import make_env  # noqa: E402

STICKY = 0.25
NOOP_MAX = 30


def timed(run, repeats: int) -> tuple[float, float, float]:
    """(seconds of the first call, median and least seconds of the next ``repeats``)."""
    t = time.perf_counter()
    run()
    first = time.perf_counter() - t
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    return first, statistics.median(times), min(times)


def native(game: str, n: int, steps: int):
    env = make_env(game, obs="pixels", frame_stack=4, noop_max=NOOP_MAX, sticky_prob=STICKY, log=False)
    _, state = jax.jit(jax.vmap(env.reset))(jax.random.split(jax.random.key(0), n))

    @jax.jit
    def run(state, key):
        def body(s, k):
            a = jax.random.randint(k, (n,), 0, env.num_actions)
            obs, s, r, d, _ = jax.vmap(env.step)(s, a)
            return s, r.sum() + obs.sum(dtype=jnp.int32)
        return jax.lax.scan(body, state, jax.random.split(key, steps))

    return lambda: jax.block_until_ready(run(state, jax.random.key(1)))


def xla(game: str, n: int, steps: int):
    pool = jenvpool.make(f"{env_name(game)}-v5", num_envs=n, repeat_action_probability=STICKY,
                         noop_max=NOOP_MAX, seed=0)
    handle, _, _, step = pool.xla()
    actions = pool.action_space.n

    @jax.jit
    def run(handle, key):
        def body(h, k):
            a = jax.random.randint(k, (n,), 0, actions)
            h, (obs, r, te, tr, info) = step(h, a)
            return h, r.sum() + obs.sum(dtype=jnp.int32)
        return jax.lax.scan(body, handle, jax.random.split(key, steps))

    return lambda: jax.block_until_ready(run(handle, jax.random.key(1)))


def numpy_loop(step, actions: int, n: int, steps: int):
    rng = np.random.default_rng(0)
    acts = rng.integers(0, actions, (steps, n))

    def run():
        for a in acts:
            step(a)
    return run


def envpool_numpy(game: str, n: int, steps: int):
    pool = jenvpool.make(f"{env_name(game)}-v5", num_envs=n, repeat_action_probability=STICKY,
                         noop_max=NOOP_MAX, seed=0)
    pool.reset()
    return numpy_loop(pool.step, pool.action_space.n, n, steps)


def gym_vector(game: str, n: int, steps: int, obs_type: str = "grayscale"):
    env = gymnasium.make_vec(f"jaxtari/{env_name(game)}-v5", num_envs=n, obs_type=obs_type)
    env.reset(seed=0)
    return numpy_loop(env.step, env.single_action_space.n, n, steps)


def gym_vector_objects(game: str, n: int, steps: int):
    return gym_vector(game, n, steps, obs_type="objects")


def ale_vector(game: str, n: int, steps: int):
    from ale_py.vector_env import AtariVectorEnv

    env = AtariVectorEnv(game, num_envs=n, repeat_action_probability=STICKY, noop_max=NOOP_MAX)
    env.reset(seed=0)
    return numpy_loop(env.step, env.single_action_space.n, n, steps)


def ale_vector_screen(game: str, n: int, steps: int):
    from ale_py.vector_env import AtariVectorEnv

    env = AtariVectorEnv(game, num_envs=n, repeat_action_probability=STICKY, img_height=SCREEN_H,
                         img_width=SCREEN_W, grayscale=True, stack_num=1, maxpool=False, noop_max=0,
                         reward_clipping=False, use_fire_reset=False)
    env.reset(seed=0)
    return numpy_loop(env.step, env.single_action_space.n, n, steps)


METHODS = {"native": native, "xla": xla, "envpool-numpy": envpool_numpy, "gym-vector": gym_vector,
           "gym-vector-objects": gym_vector_objects, "ale-vector": ale_vector,
           "ale-vector-screen": ale_vector_screen}


def interleaved(game: str, n: int, args) -> dict:
    """method -> (setup s, first call s, median s, least s, (least, greatest) 1-minute load average
    at its timed runs), the timed runs taken in turn."""
    runs, setup, first = {}, {}, {}
    for method in dict.fromkeys(args.methods):
        t = time.perf_counter()
        runs[method] = METHODS[method](game, n, args.steps)
        setup[method] = time.perf_counter() - t
        t = time.perf_counter()
        runs[method]()
        first[method] = time.perf_counter() - t
    times = {m: [] for m in runs}
    loads = {m: [] for m in runs}
    order = list(runs)
    for r in range(args.repeats):
        for method in order[r % len(order):] + order[:r % len(order)]:
            t = time.perf_counter()
            runs[method]()
            times[method].append(time.perf_counter() - t)
            loads[method].append(os.getloadavg()[0])
    return {m: (setup[m], first[m], statistics.median(times[m]), min(times[m]),
                (min(loads[m]), max(loads[m]))) for m in runs}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", nargs="+", default=["pong", "breakout"])
    p.add_argument("--n", nargs="+", type=int, default=[8, 64, 256])
    p.add_argument("--steps", type=int, default=200, help="agent steps per timed run")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    p.add_argument("--json", type=Path, help="write the rows here")
    p.add_argument("--interleave", action="store_true",
                   help="per game and N, build every method first, then time them in turn (one "
                        "run of each per round, the first rotating): on a shared machine the load "
                        "then falls on every method alike, which a ratio such as xla/native needs")
    args = p.parse_args(argv)
    if args.repeats < 1 or args.steps < 1:
        p.error("--repeats and --steps must be >= 1")
    rows = []
    for game in args.games:
        game = jaxtari.canonical_name(game)
        for n in args.n:
            results = interleaved(game, n, args) if args.interleave else None
            for method in (results or args.methods):
                if results is not None:
                    setup, first, median, best, (load_lo, load_hi) = results[method]
                else:
                    t = time.perf_counter()
                    run = METHODS[method](game, n, args.steps)
                    setup = time.perf_counter() - t
                    first, median, best = timed(run, args.repeats)
                    load_lo = load_hi = os.getloadavg()[0]
                row = {"game": game, "n": n, "method": method, "steps_per_s": n * args.steps / median,
                       "best_steps_per_s": n * args.steps / best,
                       "setup_s": setup, "first_call_s": first, "load_1min": os.getloadavg()[0],
                       "load_1min_range": [load_lo, load_hi]}
                rows.append(row)
                print(f"{game:9s} N={n:<4d} {method:14s} {row['steps_per_s']:>11,.0f} steps/s (best {row['best_steps_per_s']:,.0f})  "
                      f"(setup {setup:.1f} s, first call {first:.1f} s, load {load_lo:.1f}-{load_hi:.1f})",
                      flush=True)
                if args.json:
                    args.json.write_text(json.dumps({"steps": args.steps, "repeats": args.repeats,
                                                     "cpus": os.cpu_count(), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
