"""A/B of jaxtari versions in one interleaved run: the same scans built from each version's code
and timed in turn, so that a shared machine's changing load falls on every version alike.

    python benchmarks/ab.py --variant old=/path/to/old/checkout --variant new=. \\
        --case pong:pixels:4:256:carried --case pong:objects:1:1024:carried --rounds 7

Each variant runs in a worker process of its own (``PYTHONPATH`` = that checkout, so it imports
that version's ``jaxtari``), which compiles every case once and then runs one timed scan whenever
this process asks; this process asks each worker in turn, rotating who goes first each round. Only
the public API that every version since the games became packages shares is used
(``jaxtari.wrappers.make_env``, ``reset``/``step``, ``num_actions``).

A case is ``game:obs:stack:N:consumer``: ``obs`` is ``pixels`` or ``objects``, ``stack`` the frame
stack, ``consumer`` what the scan does with each step's observation: ``carried`` (kept in the
loop's carry, as a rollout buffer would) or ``mean`` (``obs.astype(float32).mean()`` summed, as a
logged statistic; the observation itself is not kept). Actions are uniform random, drawn inside
the scan. Prints one table (best and median steps/s per case and variant, the compile's wall and CPU
seconds, the load average over the timed runs) and, with ``--json``, writes the rows there.

``--clock cpu`` times each scan by its worker's CPU time (every thread of the process) instead of
the wall clock: on a shared machine whose cores are oversubscribed, the wall time of a scan is
mostly time spent waiting for the core, and it varies with who else runs; the CPU time does not
(it still counts what the scan itself costs, cache misses included, but not what XLA's threads
could overlap on an idle machine).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CONSUMERS = ("carried", "mean")
OBS = ("pixels", "objects")


def parse_case(text: str) -> dict:
    parts = text.split(":")
    if len(parts) != 5:
        raise argparse.ArgumentTypeError(f"case {text!r}: expected game:obs:stack:N:consumer, "
                                         "e.g. pong:pixels:4:256:carried")
    game, obs, stack, n, consumer = parts
    if obs not in OBS:
        raise argparse.ArgumentTypeError(f"case {text!r}: obs must be one of {', '.join(OBS)}")
    if consumer not in CONSUMERS:
        raise argparse.ArgumentTypeError(f"case {text!r}: consumer must be one of "
                                         f"{', '.join(CONSUMERS)}")
    try:
        stack_i, n_i = int(stack), int(n)
    except ValueError:
        raise argparse.ArgumentTypeError(f"case {text!r}: stack and N are whole numbers") from None
    if not 1 <= stack_i <= 8 or not 1 <= n_i <= 65536:
        raise argparse.ArgumentTypeError(f"case {text!r}: stack 1..8 and N 1..65536")
    return {"id": text, "game": game, "obs": obs, "stack": stack_i, "n": n_i, "consumer": consumer}


def parse_variant(text: str) -> tuple[str, Path]:
    name, sep, path = text.partition("=")
    root = Path(path).resolve()
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"variant {text!r}: expected NAME=PATH")
    if not (root / "jaxtari" / "wrappers.py").is_file():
        raise argparse.ArgumentTypeError(f"variant {text!r}: {root} is no jaxtari checkout "
                                         "(no jaxtari/wrappers.py)")
    return name, root


# ---- the worker: runs inside one variant's checkout ----------------------------------------------
def _worker(steps: int, clock: str = "wall") -> None:
    import jax
    import jax.numpy as jnp

    import jaxtari
    from jaxtari.wrappers import make_env

    built = {}

    def build(case):
        env = make_env(case["game"], obs=case["obs"], frame_stack=case["stack"], log=False)
        n, actions, consumer = case["n"], env.num_actions, case["consumer"]
        obs0, s0 = jax.vmap(env.reset)(jax.random.split(jax.random.key(0), n))

        def rollout(carry, key):
            def body(c, k):
                s, o, acc = c
                a = jax.random.randint(k, (n,), 0, actions)
                o2, s, _, _, _ = jax.vmap(env.step)(s, a)
                if consumer == "mean":
                    return (s, o, acc + o2.astype(jnp.float32).mean()), None
                return (s, o2, acc), None
            return jax.lax.scan(body, carry, jax.random.split(key, steps))[0]

        fn = jax.jit(rollout)  # no donation: the one-array stack is the state and the obs (one buffer)
        carry = (s0, obs0, jnp.float32(0))
        start, cpu = time.perf_counter(), time.process_time()
        compiled = fn.lower(carry, jax.random.key(1)).compile()
        # XLA compiles on one thread: its CPU seconds are what a loaded machine does not inflate
        compile_s, compile_cpu_s = time.perf_counter() - start, time.process_time() - cpu
        built[case["id"]] = [compiled, carry, 1]  # warmed by the first timed call's run before it
        return {"compile_s": compile_s, "compile_cpu_s": compile_cpu_s, "jaxtari": jaxtari.__file__,
                "load_at_compile": os.getloadavg()[0]}

    def timed(case_id):
        entry = built[case_id]
        compiled, carry, i = entry
        if i == 1:  # warm-up
            carry = jax.block_until_ready(compiled(carry, jax.random.key(i)))
            i += 1
        now = time.process_time if clock == "cpu" else time.perf_counter
        start = now()
        carry = jax.block_until_ready(compiled(carry, jax.random.key(i)))
        seconds = now() - start
        entry[1], entry[2] = carry, i + 1
        return {"seconds": seconds}

    for line in sys.stdin:
        msg = json.loads(line)
        try:
            out = build(msg["case"]) if "case" in msg else timed(msg["time"])
        except Exception as exc:  # reported to the parent, which names the variant and case
            out = {"error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(out), flush=True)


class Worker:
    def __init__(self, name: str, root: Path, steps: int, clock: str = "wall"):
        env = dict(os.environ, PYTHONPATH=str(root))
        self.name = name
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", "--steps", str(steps),
             "--clock", clock],
            cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, msg: dict) -> dict:
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"variant {self.name}: its worker exited (code {self.proc.wait()})")
        out = json.loads(line)
        if "error" in out:
            raise SystemExit(f"variant {self.name}: {out['error']}")
        return out

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _si(x: float) -> str:
    return f"{x / 1e6:.2f}M" if x >= 1e6 else f"{x / 1e3:.1f}k" if x >= 1e3 else f"{x:.0f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", type=parse_variant, default=[],
                    help="NAME=PATH of a jaxtari checkout (two or more)")
    ap.add_argument("--case", action="append", type=parse_case, default=[],
                    help="game:obs:stack:N:consumer (one or more)")
    ap.add_argument("--steps", type=int, default=32, help="agent steps per timed scan")
    ap.add_argument("--rounds", type=int, default=7,
                    help="timed scans per case and variant (0: compile times only)")
    ap.add_argument("--json", type=Path, help="write the rows here")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time each scan by the wall clock or by its worker's CPU time")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        _worker(args.steps, args.clock)
        return 0
    if len(args.variant) < 2 or not args.case:
        ap.error("give two or more --variant NAME=PATH and one or more --case")
    if len({name for name, _ in args.variant}) != len(args.variant):
        ap.error("variant names must differ")
    if args.steps < 1 or args.rounds < 0:
        ap.error("--steps must be >= 1 and --rounds >= 0 (0: compile times only)")

    workers = [Worker(name, root, args.steps, args.clock) for name, root in args.variant]
    rows = {(c["id"], w.name): {"case": c["id"], "variant": w.name, "seconds": [], "load": []}
            for c in args.case for w in workers}
    try:
        for case in args.case:
            for w in workers:
                rows[case["id"], w.name].update(w.ask({"case": case}))
        for r in range(args.rounds):
            order = workers[r % len(workers):] + workers[:r % len(workers)]
            for case in args.case:
                for w in order:
                    row = rows[case["id"], w.name]
                    row["seconds"].append(w.ask({"time": case["id"]})["seconds"])
                    row["load"].append(os.getloadavg()[0])
    finally:
        for w in workers:
            w.close()

    cases = {c["id"]: c for c in args.case}
    names = [w.name for w in workers]
    if args.rounds == 0:
        print(f"compile of a {args.steps}-step scan, wall s (CPU s), the variants in turn")
        print("| case | " + " | ".join(names) + " | load at compile |")
        print("|---|" + "---:|" * (len(names) + 1))
        for cid in cases:
            r = [rows[cid, n] for n in names]
            print(f"| {cid} | " + " | ".join(f"{x['compile_s']:.1f} ({x['compile_cpu_s']:.1f})"
                                             for x in r)
                  + " | " + ", ".join(f"{x['load_at_compile']:.1f}" for x in r) + " |")
        _write_json(args, rows)
        return 0
    for row in rows.values():
        work = cases[row["case"]]["n"] * args.steps
        rates = sorted(work / s for s in row["seconds"])
        row.update(best=rates[-1], median=statistics.median(rates),
                   load_min=min(row["load"]), load_max=max(row["load"]))
    print(f"steps/s ({args.clock} clock), best / median of {args.rounds} {args.steps}-step scans, "
          "taken in turn "
          f"(load average {min(r['load_min'] for r in rows.values()):.1f}-"
          f"{max(r['load_max'] for r in rows.values()):.1f})")
    print("| case | " + " | ".join(names) + " | " + " | ".join(f"{n} / {names[0]}" for n in names[1:])
          + " | compile s (CPU s) |")
    print("|---|" + "---:|" * (2 * len(names) - 1) + "---:|")
    for cid in cases:
        r = [rows[cid, n] for n in names]
        cells = [f"{_si(x['best'])} / {_si(x['median'])}" for x in r]
        ratios = [f"{x['best'] / r[0]['best']:.2f} / {x['median'] / r[0]['median']:.2f}" for x in r[1:]]
        comp = " / ".join(f"{x['compile_s']:.1f} ({x['compile_cpu_s']:.1f})" for x in r)
        print(f"| {cid} | " + " | ".join(cells + ratios) + f" | {comp} |")
    _write_json(args, rows)
    return 0


def _write_json(args, rows) -> None:
    if args.json:
        args.json.write_text(json.dumps({"steps": args.steps, "rounds": args.rounds,
                                         "clock": args.clock,
                                         "variants": {n: str(p) for n, p in args.variant},
                                         "rows": list(rows.values())}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
