"""jaxtari.envpool beside the real EnvPool, where EnvPool installs: observation shape and dtype,
info keys and dtypes, and episode statistics (return, length in agent steps) under uniformly
random actions, for Pong-v5 and Breakout-v5 with the same options on both.

EnvPool is not a dependency of this project; point ``--envpool-path`` at a folder it is installed
in (``pip install --target DIR envpool``) or install it in the environment. Without it the script
says why and exits 0, skipping.

    python benchmarks/dropin_envpool_compare.py --envpool-path DIR [ASSETS_DIR] --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jaxtari.envpool as ours  # noqa: E402

OPTIONS = dict(num_envs=8, seed=0, repeat_action_probability=0.25, noop_max=30)


def describe(obs, info) -> dict:
    return {"obs": [list(obs.shape), str(obs.dtype)],
            "info": {k: str(getattr(v, "dtype", type(v).__name__)) for k, v in sorted(info.items())}}


def episodes(make, task: str, steps: int) -> dict:
    """Finished games' returns and lengths (agent steps) under random actions."""
    env = make(task, env_type="gymnasium", **OPTIONS)
    obs, info = env.reset()
    shape = describe(obs, info)
    rng = np.random.default_rng(1)
    ret = np.zeros(OPTIONS["num_envs"])
    length = np.zeros(OPTIONS["num_envs"], int)
    returns, lengths = [], []
    for _ in range(steps):
        obs, reward, term, trunc, info = env.step(rng.integers(0, env.action_space.n, OPTIONS["num_envs"]))
        ret += info["reward"]
        length += 1
        for i in np.flatnonzero((info["terminated"] > 0) | trunc):
            returns.append(float(ret[i]))
            lengths.append(int(length[i]))
        over = (info["terminated"] > 0) | trunc
        ret[over], length[over] = 0.0, 0
    return {**shape, "episodes": len(returns),
            "return_mean": float(np.mean(returns)) if returns else None,
            "return_std": float(np.std(returns)) if returns else None,
            "length_mean": float(np.mean(lengths)) if lengths else None}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--envpool-path", type=Path, nargs="+", default=[],
                   help="folders where envpool and its asset packages are installed")
    p.add_argument("--tasks", nargs="+", default=["Pong-v5", "Breakout-v5"])
    p.add_argument("--steps", type=int, default=2500, help="agent steps per env")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    sys.path.extend(str(path) for path in args.envpool_path)
    try:
        import envpool
    except Exception as exc:  # ImportError, or a broken install (missing assets)
        print(f"skipped: the real envpool does not import here ({type(exc).__name__}: {exc})")
        return 0
    out = {"envpool": envpool.__version__, "options": OPTIONS, "steps": args.steps, "tasks": {}}
    for task in args.tasks:
        theirs, mine = episodes(envpool.make, task, args.steps), episodes(ours.make, task, args.steps)
        out["tasks"][task] = {"envpool": theirs, "jaxtari": mine}
        for side, row in (("envpool", theirs), ("jaxtari", mine)):
            print(f"{task:12s} {side:8s} obs {row['obs']}  episodes {row['episodes']:3d}  return "
                  f"{row['return_mean']} +- {row['return_std']}  length {row['length_mean']}")
            print(f"{'':12s} {'':8s} info {row['info']}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
