"""What a mod's ALE counterpart (RAM writes after every frame) costs the emulator.

    python benchmarks/ale_mod_cost.py --game kangaroo --mod no_monkey --frames 3000 --rounds 7

Plays the same random held actions (``alignment.counterparts.random_actions``) on the plain ALE
backend and on the one with the mod's writes, in turn each round (the first rotating), through
the backend's own ``run`` (the path the audit, the counterparts check and the robustness stage
use), and prints the frames/s of each, best and median, and their ratio. A game that ends
before ``--frames`` restarts from the same seed's reset, on both sides alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from alignment.backends import make_backend  # noqa: E402
from alignment.counterparts import random_actions  # noqa: E402

import numpy as np  # noqa: E402


def frames_per_second(backend, actions, seed: int) -> float:
    backend.reset(seed)
    done, start = 0, time.perf_counter()
    while done < len(actions):
        chunk = actions[done:done + 512]
        backend.run(chunk)
        done += len(chunk)
        if backend.terminated:
            backend.reset(seed)
    return len(actions) / (time.perf_counter() - start)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--mod", required=True)
    ap.add_argument("--frames", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    if args.frames < 1 or args.rounds < 1:
        ap.error("--frames and --rounds are whole numbers >= 1")
    try:
        sides = {"plain": make_backend("ale", args.game),
                 args.mod: make_backend("ale", args.game, mods=[args.mod])}
    except (ValueError, KeyError, LookupError) as exc:  # unknown game or mod: named by the catalog
        ap.error(str(exc).strip("'\""))
    if not sides[args.mod].ram_writes:
        ap.error(f"{args.game} {args.mod}: the mod has no ALE counterpart (no RAM writes)")
    actions = random_actions(len(sides["plain"].action_names), args.frames,
                             np.random.default_rng(args.seed))
    times = {k: [] for k in sides}
    names = list(sides)
    for r in range(args.rounds):
        for k in names[r % 2:] + names[:r % 2]:
            times[k].append(frames_per_second(sides[k], actions, args.seed))
    load = os.getloadavg()[0]
    rows = {k: {"best": max(v), "median": statistics.median(v)} for k, v in times.items()}
    for k, v in rows.items():
        print(f"{args.game} {k}: {v['best']:,.0f} / {v['median']:,.0f} frames/s (best / median "
              f"of {args.rounds})")
    mod = rows[args.mod]
    print(f"{args.mod} / plain: {mod['best'] / rows['plain']['best']:.2f} best, "
          f"{mod['median'] / rows['plain']['median']:.2f} median (load {load:.1f})")
    if args.json:
        Path(args.json).write_text(json.dumps({"game": args.game, "mod": args.mod,
                                               "frames": args.frames, "rounds": args.rounds,
                                               "rows": rows, "load": load}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
