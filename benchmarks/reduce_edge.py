"""The CPU backend's reduction edge behind issue 32's running-mean collapse, on this jax.

Times ``x.astype(float32).mean(axis=0)`` for uint8 (N, m) just under and just over the 16,384
kept elements where XLA's YNNPACK reduction was measured to slow down ~15x (jax 0.10.2), and the
per-pixel batch mean of a (N, 4, 84, 84) frame stack, plain and with ``jaxtari.xla.batch_mean``,
so a run on another jax version says whether the edge, and the helper's gain, still hold there.

    python benchmarks/reduce_edge.py --json out.json
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

from jaxtari import xla  # noqa: E402


def _ms(fn, x, repeats: int) -> float:
    compiled = jax.jit(fn).lower(x).compile()
    compiled(x).block_until_ready()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        compiled(x).block_until_ready()
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=256, help="batch rows")
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.n < 1 or args.repeats < 1:
        ap.error("--n and --repeats must be at least 1")
    rng = np.random.default_rng(0)
    plain = lambda v: v.astype(jnp.float32).mean(axis=0)  # noqa: E731
    rows = []
    for shape in [(args.n, xla.YNN_REDUCE_KEPT_LIMIT), (args.n, xla.YNN_REDUCE_KEPT_LIMIT + 1),
                  (args.n, 84, 84), (args.n, 4, 84, 84)]:
        x = jnp.asarray(rng.integers(0, 256, shape, dtype=np.uint8))
        row = {"shape": list(shape), "plain_ms": _ms(plain, x, args.repeats),
               "batch_mean_ms": _ms(xla.batch_mean, x, args.repeats)}
        rows.append(row)
        print(f"  {shape}: plain mean {row['plain_ms']:.2f} ms, xla.batch_mean "
              f"{row['batch_mean_ms']:.2f} ms", flush=True)
    if args.json:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        args.json.write_text(json.dumps({"meta": {"jax": jax.__version__, "cores_usable": cores,
                                                  "load": os.getloadavg()[0]}, "rows": rows},
                                        indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
