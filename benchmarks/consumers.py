"""The environment under the consumers an agent puts on its observation inside the compiled loop.

``benchmarks/throughput.py`` carries each observation to the next step untouched, which shows what
the env costs but hides what reading its output costs. Here every scan step also hands the
observation to one consumer, as a training loop would:

- ``carried``: the observation carried to the next step (what throughput.py measures);
- ``running_mean``: a per-pixel (per-feature) running mean over the batch, updated each step, as
  observation normalisation keeps it;
- ``running_mean_xla``: the same running mean with the batch mean taken by
  ``jaxtari.xla.batch_mean`` (reductions kept under the CPU backend's YNNPACK edge: the plain
  mean of a (N, 4, 84, 84) stack keeps 28,224 elements, past the 16,384 where it runs ~15x slower);
- ``policy``: a Nature-CNN policy on ``obs / 255`` (pixels; an MLP of two 64-unit layers on
  object-centric features) whose sampled actions drive the env;
- ``log_mean``: ``obs.astype(float32).mean()``, a reduction of the kind a logger takes.

For each game, observation mode and consumer, the env runs with a frame stack of 1 and of 4 at
the same N, the two compiled scans timed in turn in one process (``--rounds`` runs each; the
medians are reported with the load average), and the table gives stack 4's steps/s as a fraction
of stack 1's. The bar of issue 32: at least 0.5 under every consumer.

    python benchmarks/consumers.py --games pong --n 256
    python benchmarks/consumers.py --games pong freeway frostbite breakout --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import flax.linen as nn
import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jaxtari  # noqa: E402
from jaxtari import xla  # noqa: E402
from jaxtari.wrappers import make_env  # noqa: E402

CONSUMERS = ("carried", "running_mean", "running_mean_xla", "policy", "log_mean")
MODES = ("pixels", "objects")
BAR = 0.5  # issue 32: stack 4 at no less than half the steps/s of stack 1, same consumer and N


class NatureCNN(nn.Module):
    """The DQN paper's network (three convolutions, 512 units) giving action logits."""

    num_actions: int

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Conv(32, (8, 8), strides=(4, 4), padding="VALID")(x))
        x = nn.relu(nn.Conv(64, (4, 4), strides=(2, 2), padding="VALID")(x))
        x = nn.relu(nn.Conv(64, (3, 3), strides=(1, 1), padding="VALID")(x))
        x = nn.relu(nn.Dense(512)(x.reshape(x.shape[0], -1)))
        return nn.Dense(self.num_actions)(x)


class MLP(nn.Module):
    num_actions: int

    @nn.compact
    def __call__(self, x):
        x = nn.tanh(nn.Dense(64)(x.reshape(x.shape[0], -1)))
        x = nn.tanh(nn.Dense(64)(x))
        return nn.Dense(self.num_actions)(x)


def _policy_input(obs: jax.Array, mode: str) -> jax.Array:
    """Pixels (N, k, 84, 84) or (N, 84, 84) uint8 as NHWC floats in [0, 1]; features as floats."""
    if mode == "objects":
        return obs.astype(jnp.float32)
    x = obs.astype(jnp.float32) / 255.0
    return x[..., None] if x.ndim == 3 else jnp.moveaxis(x, 1, -1)


class Scan:
    """One compiled scan of ``steps`` agent steps over N envs with one consumer."""

    def __init__(self, game: str, mode: str, stack: int, consumer: str, n: int, steps: int):
        env = make_env(game, obs=mode, frame_stack=stack, log=False)
        na = env.num_actions
        obs0, state = jax.jit(jax.vmap(env.reset))(jax.random.split(jax.random.key(0), n))
        params, net = None, None
        if consumer == "policy":
            net = NatureCNN(na) if mode == "pixels" else MLP(na)
            params = net.init(jax.random.key(1), _policy_input(obs0, mode))
        consumed0 = {
            "carried": obs0,
            "running_mean": (jnp.zeros(obs0.shape[1:], jnp.float32), jnp.float32(0.0)),
            "running_mean_xla": (jnp.zeros(obs0.shape[1:], jnp.float32), jnp.float32(0.0)),
            "policy": obs0,
            "log_mean": jnp.float32(0.0),
        }[consumer]

        def rollout(carry, key):
            def body(carry, k):
                s, consumed = carry
                if consumer == "policy":
                    # the policy acts on the observation it was given last step
                    logits = net.apply(params, _policy_input(consumed, mode))
                    actions = jax.random.categorical(k, logits).astype(jnp.int32)
                else:
                    actions = (jax.random.bits(k, (n,), jnp.uint32) % na).astype(jnp.int32)
                obs, s, r, _, _ = jax.vmap(env.step)(s, actions)
                if consumer in ("running_mean", "running_mean_xla"):
                    mean, count = consumed
                    batch = (xla.batch_mean(obs) if consumer == "running_mean_xla"
                             else obs.astype(jnp.float32).mean(axis=0))
                    count = count + n
                    consumed = (mean + (batch - mean) * (n / count), count)
                elif consumer == "log_mean":
                    consumed = consumed + obs.astype(jnp.float32).mean()
                else:  # carried, policy: the observation goes to the next step
                    consumed = obs
                return (s, consumed), r.sum()

            return jax.lax.scan(body, carry, jax.random.split(key, steps))

        self.carry = (state, consumed0)
        t0 = time.perf_counter()
        self.compiled = jax.jit(rollout, donate_argnums=0).lower(self.carry, jax.random.key(2)).compile()
        self.compile_s = time.perf_counter() - t0
        self.n, self.steps, self.runs = n, steps, 0
        self.run()  # warm-up

    def run(self) -> float:
        t0 = time.perf_counter()
        self.carry, out = self.compiled(self.carry, jax.random.key(3 + self.runs))
        jax.block_until_ready((self.carry, out))
        self.runs += 1
        return time.perf_counter() - t0


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def bench(game: str, mode: str, consumer: str, n: int, steps: int, rounds: int) -> dict:
    """Stack 1 and stack 4 under one consumer, timed in turn: the machine's slow and fast phases
    fall on both alike."""
    scans = {k: Scan(game, mode, k, consumer, n, steps) for k in (1, 4)}
    times = {k: [] for k in scans}
    loads = []
    for _ in range(rounds):
        for k, scan in scans.items():
            times[k].append(scan.run())
        loads.append(_load())
    rate = {k: n * steps / statistics.median(ts) for k, ts in times.items()}
    return {"game": game, "mode": mode, "consumer": consumer, "n": n, "steps": steps,
            "stack1_steps_per_s": rate[1], "stack4_steps_per_s": rate[4],
            "ratio": rate[4] / rate[1], "compile_s": {str(k): s.compile_s for k, s in scans.items()},
            "load": statistics.median(loads)}


def print_table(rows: list[dict]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Agent steps/s under a consumer, stack 4 against stack 1 (same N, runs in turn)")
    for col in ("game", "obs", "consumer", "N", "stack 1", "stack 4", "4 / 1", "load"):
        table.add_column(col, justify="left" if col in ("game", "obs", "consumer") else "right")
    for r in rows:
        mark = "" if r["ratio"] >= BAR else " (under the bar)"
        table.add_row(r["game"], r["mode"], r["consumer"], str(r["n"]),
                      f"{r['stack1_steps_per_s']:,.0f}", f"{r['stack4_steps_per_s']:,.0f}",
                      f"{r['ratio']:.2f}{mark}", f"{r['load']:.1f}")
    Console(width=None if sys.stdout.isatty() else 130).print(table)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", default=list(jaxtari.list_games()))
    ap.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    ap.add_argument("--consumers", nargs="+", default=list(CONSUMERS), choices=CONSUMERS)
    ap.add_argument("--n", type=int, default=256, help="envs under vmap")
    ap.add_argument("--policy-n", type=int, default=64,
                    help="envs for the policy consumer (the Nature CNN dominates a CPU step)")
    ap.add_argument("--steps", type=int, default=32, help="agent steps per timed scan")
    ap.add_argument("--rounds", type=int, default=5, help="timed runs of each stack, in turn")
    ap.add_argument("--json", type=Path, help="also write the rows here")
    args = ap.parse_args(argv)
    try:
        args.games = [jaxtari.canonical_name(g) for g in args.games]
    except jaxtari.UnknownGameError as e:
        ap.error(str(e))
    if args.n < 1 or args.policy_n < 1 or args.steps < 1 or args.rounds < 1:
        ap.error("--n, --policy-n, --steps and --rounds must be at least 1")

    rows = []
    load_start = _load()

    def dump() -> None:
        """The rows so far: a run cut short (a timeout) still leaves what it measured."""
        if not args.json:
            return
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        meta = {"machine": platform.platform(), "cpus": os.cpu_count(), "cores_usable": cores,
                "jax": jax.__version__, "load_start": load_start, "load_end": _load()}
        args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2))

    for game in args.games:
        for mode in args.modes:
            for consumer in args.consumers:
                n = args.policy_n if consumer == "policy" else args.n
                rows.append(bench(game, mode, consumer, n, args.steps, args.rounds))
                r = rows[-1]
                print(f"  {game} {mode} {consumer} N={n}: stack 1 {r['stack1_steps_per_s']:,.0f}/s, "
                      f"stack 4 {r['stack4_steps_per_s']:,.0f}/s, ratio {r['ratio']:.2f} "
                      f"(load {r['load']:.1f})", flush=True)
                dump()
    print_table(rows)
    dump()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
