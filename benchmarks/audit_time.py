"""Wall-clock and CPU time of a whole offline audit (lockstep probes, exploration, matched
rollouts, every seeded fault with its probes and exploration re-run).

    python benchmarks/audit_time.py frostbite [--runs 1] [--quick]

The bar (issue 25): the full audit of one game offline under 15 minutes on 2 CPU cores; ``--quick``
is a pull request's smaller exploration budget. Run it from the repository root (the audit reads
specs/, faults/ and tests/data/deep/); it writes nothing. Say the machine's load with the
numbers: on a shared machine the wall time is mostly waiting.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="frostbite")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="the pull-request exploration budget")
    args = ap.parse_args()
    from alignment.audit.core import run_audit

    print(f"cpus available: {len(os.sched_getaffinity(0))}; load {os.getloadavg()[0]:.1f}")
    for i in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        result = run_audit(args.game, out_dir=Path("audits"),
                           explore="quick" if args.quick else "full")
        s = result.summary()
        print(f"run {i + 1}: {time.perf_counter() - t0:.1f} s wall, "
              f"{time.process_time() - c0:.1f} s CPU (load {os.getloadavg()[0]:.1f}); coverage "
              f"{s['coverage']}, recall {s['recall']}, faults {s['seeded_faults_detected']}/"
              f"{s['seeded_faults']}, explored {s['explore_frames']} frames")


if __name__ == "__main__":
    main()
