"""Wall-clock time of a whole offline audit (probes, matched rollouts, every seeded fault).

    python benchmarks/audit_time.py frostbite [--runs 1]

The issue's bar: ``audit frostbite`` offline in under 5 minutes on 2 CPU cores. Run it from the
repository root (the audit reads specs/ and tests/faults/); it writes nothing.
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
    args = ap.parse_args()
    from alignment.audit.core import run_audit

    print(f"cpus available: {len(os.sched_getaffinity(0))}")
    for i in range(args.runs):
        t0 = time.perf_counter()
        result = run_audit(args.game, out_dir=Path("audits"))
        s = result.summary()
        print(f"run {i + 1}: {time.perf_counter() - t0:.1f} s wall; coverage {s['coverage']}, "
              f"recall {s['recall']}, faults {s['seeded_faults_detected']}/{s['seeded_faults']}")


if __name__ == "__main__":
    main()
