"""Time Breakout's draw alone, several versions in one interleaved run.

    python benchmarks/draw_time.py --draw main=/path/to/old/jaxtari/games/breakout/draw.py \\
        --draw new=jaxtari/games/breakout/draw.py --n 256 --raster gray84

Each ``--draw NAME=FILE`` is a version of ``jaxtari/games/breakout/draw.py``, loaded as a module of
its own beside this checkout's game (a draw is a function of the game's state, so a version whose
state fields this checkout still has can be timed here). Each draws the same random states (ball,
paddle, wall, digits and frame counter at random, half of them in a game stopped by the frame
counter, colours cycled) vmapped over N, jitted; the versions are timed in turn each round. Prints
the best and the median over rounds of each round's best call, in milliseconds, by the process's
CPU time (every thread of it; the wall clock with ``--clock wall``), and the load average.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from jaxtari import render  # noqa: E402
from tests.games.breakout_helpers import make_game  # noqa: E402
from tests.games.test_breakout_draw import random_states  # noqa: E402


def parse_draw(text: str):
    name, sep, path = text.partition("=")
    if not sep or not name or not Path(path).is_file():
        raise argparse.ArgumentTypeError(f"--draw {text!r}: expected NAME=FILE of an existing "
                                         "draw.py, e.g. new=jaxtari/games/breakout/draw.py")
    return name, path


def load(name: str, path: str):
    spec = importlib.util.spec_from_file_location(f"draw_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--draw", action="append", type=parse_draw, required=True,
                    help="NAME=FILE of a version of Breakout's draw.py (one or more)")
    ap.add_argument("--n", type=int, default=256, help="states drawn per call (vmapped)")
    ap.add_argument("--raster", choices=("gray84", "rgb"), default="gray84")
    ap.add_argument("--mode", type=int, default=0, help="ALE mode of the game")
    ap.add_argument("--calls", type=int, default=30, help="timed calls per version and round")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = ap.parse_args(argv)
    if args.n < 1 or args.calls < 1 or args.rounds < 1:
        ap.error("--n, --calls and --rounds must be at least 1")
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    game = make_game(args.mode)
    raster = render.FULL if args.raster == "rgb" else render.SMALL_GRAY
    states = random_states(game, args.n, seed=0, stopped=0.5)
    fns = {}
    for name, path in args.draw:
        module = load(name, path)
        fn = jax.jit(jax.vmap(lambda s, m=module: m.draw(game, raster, s)))
        out = fn(states).block_until_ready()
        fns[name] = fn
        print(f"{name}: {path}, output {out.shape} {out.dtype}", flush=True)
    first = np.asarray(next(iter(fns.values()))(states))
    for name, fn in fns.items():
        if not np.array_equal(np.asarray(fn(states)), first):
            print(f"note: {name} draws other pixels than {next(iter(fns))} on these states")
    best = {name: [] for name in fns}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for name, fn in fns.items():
            times = []
            for _ in range(args.calls):
                t0 = clock()
                fn(states).block_until_ready()
                times.append(clock() - t0)
            best[name].append(min(times))
        loads.append(os.getloadavg()[0])
    print(f"Breakout draw, {args.raster}, N={args.n}, mode {args.mode}, {args.clock} clock, best "
          f"call per round of {args.calls}, {args.rounds} rounds (load average "
          f"{min(loads):.1f}-{max(loads):.1f})")
    for name, b in best.items():
        print(f"  {name}: best {1e3 * min(b):.3f} ms, median {1e3 * statistics.median(b):.3f} ms")


if __name__ == "__main__":
    main()
