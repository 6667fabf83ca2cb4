"""Our object-centric step beside upstream JAXtari's, each timed by its process's CPU time.

    taskset -c 0 python benchmarks/upstream_cpu.py --upstream-python UP/bin/python \\
        --game freeway --n 256 1024 4096 --json rows.json

The scans are benchmarks/throughput.py's (ours: its ``Rollout``; upstream: its script, run in the
upstream Python), only the timer differs: on a shared machine whose cores are oversubscribed a
scan's wall time is mostly waiting for a core, its CPU time is what the scan costs. Both sides run
in turn, N by N. Prints a JSON row per N and the ratio at each one's best N.
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

import benchmarks.throughput as tp  # noqa: E402

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--upstream-python", required=True)
    ap.add_argument("--game", default="freeway")
    ap.add_argument("--n", type=int, nargs="+", default=[256, 1024, 4096])
    ap.add_argument("--steps", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if any(v < 1 for v in args.n) or args.steps < 1 or args.repeats < 1:
        ap.error("--n takes batch sizes of at least 1; --steps and --repeats must be at least 1")
    try:
        args.game = tp.jaxtari.canonical_name(args.game)
    except tp.jaxtari.UnknownGameError as e:
        ap.error(str(e))
    args.upstream_python = tp.check_python(args.upstream_python, "jaxtari", "--upstream-python")
    rows = []
    for n in args.n:
        ours = tp.Rollout(args.game, "objects", n, args.steps)
        ts = [ours.run(time.process_time) for _ in range(args.repeats)]
        load = os.getloadavg()[0]
        up = tp.bench_upstream(args.upstream_python, args.game, "objects", n, args.steps,
                               args.repeats, clock="cpu")
        if up is None:
            return 1
        rows.append({"game": args.game, "n": n, "ours_best": n * args.steps / min(ts),
                     "ours_median": n * args.steps / statistics.median(ts), "ours_load": load,
                     "upstream_best": up["best"], "upstream_median": up["steps_per_s"],
                     "upstream_load": up["load"]})
        print(json.dumps(rows[-1]), flush=True)
    for stat in ("median", "best"):
        ours_top = max(r[f"ours_{stat}"] for r in rows)
        up_top = max(r[f"upstream_{stat}"] for r in rows)
        print(f"{stat}s at each one's best N: ours {ours_top / 1e6:.2f}M, upstream "
              f"{up_top / 1e6:.2f}M, ratio {ours_top / up_top:.2f}")
    if args.json:
        args.json.write_text(json.dumps({"steps": args.steps, "repeats": args.repeats,
                                         "clock": "cpu", "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
