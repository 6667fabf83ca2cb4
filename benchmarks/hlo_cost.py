"""What each game's step asks of the compiler: op counts of its HLO and its CPU time per step.

A proxy profile for an accelerator (issue 45) that needs none. At the PPO's batch (24 envs: 8 a
seed, 3 seeds vmapped) a TPU is latency-bound: the time of a step follows the number and the kind
of sequential ops in the compiled program (while loops, above all those whose trip count depends on
the data; gathers, scatters and dynamic slices under ``vmap``; sorts), not its FLOPs. So for each
game and observation mode this jits the vmapped wrapped v5 step (frameskip 4, sticky 0.25, the
episodic life of the learner, built by :func:`alignment.learning.ppo.make_jax_env`, the path the
stress stage's JAX side takes) at N envs and counts, in

- the program as lowered (``lower(...).as_text(dialect="hlo")``, before any backend's passes) for
  the machine at hand and, as ``lowered_tpu``, for a TPU (``trace(...).lower(lowering_platforms=
  ("tpu",))``, which needs no TPU): the two differ where a game picks a form by platform
  (``jax.lax.platform_dependent``: Asteroids, Seaquest's and Kangaroo's pictures keep indexed reads on
  the CPU and read by masks elsewhere), and ``lowered_tpu`` is the chip's proxy;
- the program the CPU backend compiled (``compile().as_text()``, fusions included),

the instructions by opcode: ``while`` (and, compiled, how many of them XLA could not give a
known trip count), ``gather``, ``scatter``, ``dynamic-slice``, ``dynamic-update-slice``, ``sort`` and all
instructions. Then the CPU wall time of one step (median of ``--repeats`` calls, the first call's
compile excluded) at each ``--n``. The counts are of the program's text, not of what runs: a
while's body is counted once, whatever its trip count.

    python benchmarks/hlo_cost.py --json benchmarks/hlo-cost-2026-12-06.json
    python benchmarks/hlo_cost.py --games kangaroo --obs objects --n 24
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jaxtari  # noqa: E402
from alignment.learning.config import PPOConfig  # noqa: E402
from alignment.learning.ppo import make_jax_env  # noqa: E402

COUNTED = ("while", "gather", "scatter", "dynamic-slice", "dynamic-update-slice", "sort")
# an HLO instruction line: `[ROOT] %name = SHAPE opcode(operands), attributes`
_NAME = re.compile(r"^\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*")
_OPCODE = re.compile(r"\s*([a-z][a-z0-9\-]*)\(")


def _opcode(line: str) -> str | None:
    """The opcode of one HLO text line, or None for a line that is no instruction. The shape
    before the opcode may be a tuple with nested parentheses, so it is skipped by balance."""
    m = _NAME.match(line)
    if not m:
        return None
    i = m.end()
    if i < len(line) and line[i] == "(":
        depth = 0
        for j in range(i, len(line)):
            depth += {"(": 1, ")": -1}.get(line[j], 0)
            if depth == 0:
                i = j + 1
                break
    else:
        while i < len(line) and not line[i].isspace():
            i += 1
    op = _OPCODE.match(line, i)
    return op.group(1) if op else None


def op_counts(hlo_text: str, trips: bool = False) -> dict:
    """Instructions by opcode; with ``trips``, also the while loops without a known trip count
    (a compiled program's loops carry XLA's ``known_trip_count`` where it found one; a lowered
    program's carry none yet)."""
    ops = Counter()
    unknown_trips = 0
    for line in hlo_text.splitlines():
        op = _opcode(line)
        if op is None:
            continue
        ops[op] += 1
        if op == "while" and "known_trip_count" not in line:
            unknown_trips += 1
    out = {name: ops.get(name, 0) for name in COUNTED}
    if trips:
        out["while_unknown_trips"] = unknown_trips
    out["instructions"] = sum(ops.values())
    return out


def measure(game: str, obs: str, ns: list[int], repeats: int) -> dict:
    env = make_jax_env(game, PPOConfig(obs=obs))
    num_actions = env.num_actions
    step = jax.jit(jax.vmap(env.step))
    row = {"game": game, "obs": obs, "num_actions": int(num_actions)}
    for n in ns:
        keys = jax.random.split(jax.random.key(0), n)
        _, state = jax.jit(jax.vmap(env.reset))(keys)
        actions = (jax.random.bits(jax.random.key(1), (n,), jnp.uint32) % num_actions).astype(jnp.int32)
        lowered = step.lower(state, actions)
        t0 = time.perf_counter()
        compiled = lowered.compile()
        compile_s = time.perf_counter() - t0
        cell = {"compile_s": round(compile_s, 2),
                "lowered": op_counts(lowered.as_text(dialect="hlo")),
                "lowered_tpu": op_counts(step.trace(state, actions).lower(
                    lowering_platforms=("tpu",)).as_text(dialect="hlo")),
                "compiled": op_counts(compiled.as_text(), trips=True)}
        out = compiled(state, actions)
        jax.block_until_ready(out)
        state = out[1]
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            out = compiled(state, actions)
            jax.block_until_ready(out)
            times.append(time.perf_counter() - t0)
            state = out[1]
        cell["step_ms_median"] = round(1e3 * statistics.median(times), 3)
        cell["step_ms_best"] = round(1e3 * min(times), 3)
        cell["load_1min"] = round(os.getloadavg()[0], 2)
        row[f"n{n}"] = cell
        print(f"{game:10s} {obs:8s} N={n:5d} compile {compile_s:6.1f}s  step {cell['step_ms_median']:9.3f} ms"
              f"  lowered {cell['lowered']}  for a TPU {cell['lowered_tpu']}  compiled {cell['compiled']}",
              flush=True)
    return row


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", nargs="+", default=jaxtari.list_games())
    p.add_argument("--obs", nargs="+", default=["objects", "pixels"], choices=["objects", "pixels"])
    p.add_argument("--n", nargs="+", type=int, default=[24, 4096])
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--json", help="write the rows here")
    a = p.parse_args(argv)
    unknown = sorted(set(a.games) - set(jaxtari.list_games()))
    if unknown:
        p.error(f"unknown games {unknown}; the registered ones are {jaxtari.list_games()}")
    if min(a.n) < 1:
        p.error(f"--n takes numbers of envs of 1 or more, got {a.n}; e.g. --n 24 4096")
    if a.repeats < 1:
        p.error(f"--repeats takes 1 or more timed calls, got {a.repeats}")
    doc = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "backend": jax.default_backend(), "jax": jax.__version__,
           "machine": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
           "config": {"n": a.n, "repeats": a.repeats, "frameskip": 4, "sticky": 0.25,
                      "frame_stack_pixels": 4},
           "rows": []}
    for g in a.games:
        for o in a.obs:
            doc["rows"].append(measure(g, o, a.n, a.repeats))
            if a.json:  # row by row: a run cut short keeps what it measured
                Path(a.json).write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
