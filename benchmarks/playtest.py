"""The play window's frame rate with both backends at once, and the replay time of a session.

Window: the real window (SDL's dummy video driver unless a display is set) driven by the game's
scripted player through its event queue. Each tick is one emulator frame on ALE and on the JAX game,
both signal reads, both renders, the difference pane, the side panel, the recorder. After a warm-up
session (compiles), one session of ``--frames`` frames is timed twice: unthrottled (the tick time
without the frame-rate limiter: median, p95, p99, the share of ticks within 1/60 s) and with the
limiter at 60 fps (the frame rate held).

Replay: ``alignment.playtest.core.replay`` of the committed sessions (``playtest/<game>/``), in a
fresh process each (so the JAX compile is included, as CI sees it), and again in the same process.

    python benchmarks/playtest.py --games pong freeway frostbite --frames 1800
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from alignment.playtest.scripted import player_for  # noqa: E402
from alignment.playtest.window import PlayWindow  # noqa: E402

BUDGET_MS = 1000 / 60


def _session(game: str, frames: int, fps: float, root: Path) -> tuple[list[float], float]:
    """Per-tick times in ms (hook to hook; unthrottled, so all of it is work) and the frame rate."""
    player = player_for(game, frames, [])
    window = PlayWindow(game, fps=fps, root=root, scale=2, player=player.identity)
    stamps: list[float] = []

    def timed(w):
        stamps.append(time.perf_counter())
        player(w)

    window.run(hook=timed)
    ticks = np.diff(stamps)[1:]  # the first tick includes the session's start
    return list(ticks * 1000), float(len(ticks) / ticks.sum())


def window_rates(game: str, frames: int) -> dict:
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        _session(game, 300, 0, root)  # compiles
        work, free_fps = _session(game, frames, 0, root)
        _, held_fps = _session(game, frames, 60, root)
    w = np.asarray(work)
    return {"game": game, "frames": frames, "unthrottled_fps": round(free_fps, 1),
            "tick_ms_median": round(float(np.median(w)), 2),
            "tick_ms_p95": round(float(np.percentile(w, 95)), 2),
            "tick_ms_p99": round(float(np.percentile(w, 99)), 2),
            "ticks_within_budget": round(float(np.mean(w <= BUDGET_MS)), 4),
            "fps_at_limit_60": round(held_fps, 1)}


REPLAY_CHILD = """
import sys, time
t0 = time.perf_counter()
from alignment.playtest import core
paths = core.sessions_for(sys.argv[1], core.Path(sys.argv[2]))
t1 = time.perf_counter()
first = core.replay(paths)
t2 = time.perf_counter()
again = core.replay(paths)
t3 = time.perf_counter()
print(sum(r.frames for r in first), all(r.passed for r in first + again), t1 - t0, t2 - t1, t3 - t2)
"""


def replay_times(game: str) -> dict:
    out = subprocess.run([sys.executable, "-c", REPLAY_CHILD, game, str(ROOT / "playtest")],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    frames, passed, imports, cold, warm = out.stdout.split()
    return {"game": game, "frames": int(frames), "passed": passed == "True",
            "import_s": round(float(imports), 2), "replay_cold_s": round(float(cold), 2),
            "replay_warm_s": round(float(warm), 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["pong", "freeway", "frostbite"])
    ap.add_argument("--frames", type=int, default=1800)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    import jax

    report = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                          "jax": jax.__version__, "load_avg": os.getloadavg()},
              "window": [], "replay": []}
    for g in args.games:
        row = window_rates(g, args.frames)
        report["window"].append(row)
        print("window", json.dumps(row), flush=True)
    for g in args.games:
        row = replay_times(g)
        report["replay"].append(row)
        print("replay", json.dumps(row), flush=True)
    report["machine"]["load_avg_after"] = os.getloadavg()
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
