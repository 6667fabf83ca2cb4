"""Compile time and throughput of a port's frame (ports/<game>/game, not yet in the catalog, so
benchmarks/throughput.py cannot name it; or a registered game's, jaxtari/games/<game>): one jitted ``lax.scan`` of ``--steps`` frames of the game
vmapped over ``--n`` games, random actions. Reports the compile's wall and CPU seconds (XLA's
compile is single-threaded: its CPU time is what the machine's load does not inflate) and the
frames/s of the compiled scan (median of ``--repeats`` runs).

    python benchmarks/port_compile.py kangaroo --n 1024 --steps 128
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a port under ports/ with a game/ package, or a registered game "
                                 "(e.g. kangaroo)")
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=128)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    if args.n < 1 or args.steps < 1 or args.repeats < 1:
        ap.error("--n, --steps and --repeats must be at least 1")
    package = None
    for name in (f"ports.{args.game}.game", f"jaxtari.games.{args.game}"):
        try:
            package = importlib.import_module(name)
            break
        except ModuleNotFoundError:
            continue
    if package is None:
        ap.error(f"no port or game {args.game!r}: give a folder of ports/ with a game/ package or "
                 f"a package of jaxtari/games/")
    import jax

    classes = [v for v in vars(package).values() if isinstance(v, type) and hasattr(v, "_step")]
    if not classes:
        ap.error(f"{package.__name__} exports no Game class")
    game = classes[0]()
    states = jax.vmap(game._reset)(jax.random.split(jax.random.key(0), args.n))

    def body(s, a):
        s, r = jax.vmap(game._step)(s, a)
        return s, r

    scan = jax.jit(lambda s, a: jax.lax.scan(body, s, a))
    actions = jax.random.randint(jax.random.key(1), (args.steps, args.n), 0, len(game.minimal_actions))
    wall, cpu = time.perf_counter(), time.process_time()
    compiled = scan.lower(states, actions).compile()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    times = []
    for _ in range(args.repeats):
        t = time.perf_counter()
        jax.block_until_ready(compiled(states, actions))
        times.append(time.perf_counter() - t)
    print(json.dumps({"game": args.game, "n": args.n, "steps": args.steps,
                      "compile_wall_s": round(wall, 2), "compile_cpu_s": round(cpu, 2),
                      "frames_per_s": round(args.n * args.steps / statistics.median(times)),
                      "load": round(os.getloadavg()[0], 1), "cores": os.cpu_count()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
