"""Throughput of jaxtari's games against ale-py's own vectorised environment, in one run.

Agent steps per second (frameskip 4, sticky actions 0.25, uniformly random actions) for:

- jaxtari, object-centric observations, N = 1, 64, 256, 1024, 4096 envs under ``vmap``;
- jaxtari, 84x84 grey pixel observations with a frame stack of 4;
- ale-py's ``AtariVectorEnv`` (C++ threads, 84x84 grey, stack 4) on the same game;
- optionally upstream jaxtari, when ``--upstream-python`` names a Python that has it installed
  (``pip install jaxatari==0.2.0``; without its sprite pack, solid stand-ins are made in a
  temporary folder), object-centric (stack 4, its wrapper's default; ``--upstream-objects-stack``)
  and native-downscaled 84x84 grey pixels (stack 4);
- optionally EnvPool, when ``--envpool-python`` names a Python that has it installed (``pip install
  envpool``; its wheels cover CPython 3.11 and 3.12 on Linux x86_64): C++ threads, 84x84 grey,
  stack 4, frameskip 4, sticky 0.25, no no-op starts and no fire reset (as the other rows), each N
  of ``--envpool-n``.

Each jaxtari measurement jits one ``lax.scan`` of ``--steps`` agent steps over N envs (auto-reset
inside), compiles it once (the compile time is reported on its own), then reports the median of
``--repeats`` timed runs. Memory per env is the size of one env's state. The no-op-start overhead
(noop_max=30 against 0, object-centric, the largest N) is measured too, from runs of the two
taken in turn in one process. Each row records the machine's load average when it was taken.

    python benchmarks/throughput.py --games pong freeway frostbite breakout seaquest
    python benchmarks/throughput.py --games pong --n 1 64 --repeats 2 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jaxtari  # noqa: E402
from jaxtari.wrappers import make_env  # noqa: E402


def ale_rom(game: str) -> str:
    """The id of the ROM ale-py ships for a jaxtari game: its catalog entry's, where the audit,
    stress and robustness stages load it from."""
    from alignment.catalog import entry
    return entry(game).rom


def _tree_bytes(tree) -> int:
    return sum(x.size * x.dtype.itemsize for x in jax.tree_util.tree_leaves(tree))


class Rollout:
    """One compiled scan of ``steps`` agent steps over N envs, and its carried state."""

    def __init__(self, game: str, obs: str, n: int, steps: int, noop_max: int = 0,
                 reference_stack: bool = False, env=None):
        """``env``: a wrapped env made elsewhere (benchmarks/ablate.py's stubbed games) instead of
        ``make_env``'s for ``game`` and ``obs``."""
        stack = 4 if obs == "pixels" else 1
        if env is not None:
            pass
        elif reference_stack and stack > 1:
            # the FrameStack before the one-array stack, kept as the tests' bit-for-bit reference:
            # the baseline of issue 32's pixel bar, measured in the same run as the current one
            from tests.reference_frame_stack import OldFrameStack

            env = OldFrameStack(make_env(game, obs=obs, frame_stack=1, log=False, noop_max=noop_max),
                                stack)
        else:
            env = make_env(game, obs=obs, frame_stack=stack, log=False, noop_max=noop_max)
        self.label = f"jaxtari {obs}" + (" (old FrameStack)" if reference_stack and stack > 1 else "")
        num_actions = env.num_actions

        def rollout(carry, key):
            def body(carry, k):
                s, _ = carry
                # One draw of random words (randint makes three threefry calls, each a loop of its
                # own on the CPU); the same for upstream below.
                actions = (jax.random.bits(k, (n,), jnp.uint32) % num_actions).astype(jnp.int32)
                obs_, s, r, d, _ = jax.vmap(env.step)(s, actions)
                # The whole observation is carried to the next step, so every pixel of every step
                # is computed and written to memory, as it would be for an agent; nothing reads it,
                # so the consumer costs nothing. (Reducing only a slice of it would let XLA skip
                # the rest.)
                return (s, obs_), (r.sum(), d.sum())

            return jax.lax.scan(body, carry, jax.random.split(key, steps))

        keys = jax.random.split(jax.random.key(0), n)
        obs0, state = jax.jit(jax.vmap(env.reset))(keys)
        self.state = (state, obs0)
        jax.block_until_ready(self.state)
        t0 = time.perf_counter()
        self.compiled = jax.jit(rollout, donate_argnums=0).lower(self.state, jax.random.key(1)).compile()
        self.compile_s = time.perf_counter() - t0
        self.game, self.obs, self.n, self.steps, self.noop_max = game, obs, n, steps, noop_max
        self.runs = 0
        self.run()  # warm-up

    def run(self, clock=time.perf_counter) -> float:
        """One timed scan: seconds by ``clock`` (the wall; ``time.process_time`` for this process's
        CPU time)."""
        t0 = clock()
        self.state, out = self.compiled(self.state, jax.random.key(2 + self.runs))
        jax.block_until_ready(out)
        self.runs += 1
        return clock() - t0

    def row(self, times: list[float]) -> dict:
        return {
            "stack": self.label, "game": self.game, "n": self.n,
            "steps_per_s": self.n * self.steps / statistics.median(times),
            "compile_s": self.compile_s, "bytes_per_env": _tree_bytes(self.state[0]) / self.n,
            "noop_max": self.noop_max,
        }


def _cores() -> int:
    """Cores this process may run on (``taskset`` narrows it; os.cpu_count() does not see that)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def _load() -> float:
    """The machine's 1-minute load average (on a shared machine it says how far apart in conditions
    two rows were measured)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def bench_jaxtari(game: str, obs: str, n: int, steps: int, repeats: int, noop_max: int = 0,
                  reference_stack: bool = False) -> dict:
    r = Rollout(game, obs, n, steps, noop_max, reference_stack)
    return {**r.row([r.run() for _ in range(repeats)]), "load": _load()}


def _row_in_child(job: dict, timeout: float) -> list[dict]:
    """One measurement (``job``: a jaxtari row or the no-op pair) in a fresh interpreter, stopped
    after ``timeout`` seconds: one pathological row (a compile or a scan that takes minutes on an
    accelerator) then costs its limit, not the whole command. The environment is kept as it is (on
    an accelerator host PYTHONPATH carries the machine's JAX). A row that ran out of time is
    recorded as such, with no speed."""
    try:
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(job)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        labels = ["jaxtari objects", "jaxtari objects"] if job["kind"] == "noop" else [f"jaxtari {job['obs']}"]
        return [{"stack": label, "game": job["game"], "n": job["n"], "steps_per_s": None,
                 "compile_s": None, "bytes_per_env": None, "noop_max": 0, "load": _load(),
                 "timed_out_s": timeout} for label in labels]
    if proc.returncode != 0:
        raise SystemExit(f"the row {job} failed in its own interpreter:\n{proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _child(job: dict) -> None:
    """The child's side of ``_row_in_child``: the rows as one JSON line, with the device they ran on."""
    if job["kind"] == "noop":
        rows = list(bench_noop_cost(job["game"], job["n"], job["steps"], job["rounds"]))
    else:
        rows = [bench_jaxtari(job["game"], job["obs"], job["n"], job["steps"], job["repeats"],
                              reference_stack=job["reference_stack"])]
    device = str(jax.devices()[0])
    print(json.dumps([{**r, "device": device} for r in rows]))


def bench_noop_cost(game: str, n: int, steps: int, rounds: int) -> tuple[dict, dict]:
    """Object-centric rows without and with no-op starts (noop_max=30), timed in turn in one
    process, ``rounds`` runs each: the machine's slow and fast phases (up to 2x, lasting longer
    than a run) then fall on both alike, which separate measurements did not manage."""
    off, on = Rollout(game, "objects", n, steps, 0), Rollout(game, "objects", n, steps, 30)
    t_off, t_on = [], []
    for _ in range(rounds):
        t_off.append(off.run())
        t_on.append(on.run())
    return off.row(t_off), on.row(t_on)


def bench_ale(game: str, n: int, steps: int, repeats: int, threads: int) -> dict:
    from ale_py.vector_env import AtariVectorEnv

    env = AtariVectorEnv(ale_rom(game), num_envs=n, num_threads=threads,
                         repeat_action_probability=0.25, frameskip=4, stack_num=4,
                         img_height=84, img_width=84, grayscale=True, noop_max=0)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    na = env.single_action_space.n
    for _ in range(10):
        env.step(rng.integers(0, na, n))
    times = []
    for _ in range(repeats):
        acts = rng.integers(0, na, (steps, n))
        t0 = time.perf_counter()
        for a in acts:
            env.step(a)
        times.append(time.perf_counter() - t0)
    env.close()
    return {"stack": f"ale-py vector ({threads} threads)", "game": game, "n": n,
            "steps_per_s": n * steps / statistics.median(times), "compile_s": None,
            "bytes_per_env": None, "noop_max": 0, "load": _load()}


UPSTREAM_SCRIPT = r"""
# Runs inside the upstream Python. Upstream jaxtari (module ``jaxtari``, package ``jaxatari``) refuses
# to start without its sprite pack; when none is installed, XDG_DATA_HOME points at a temporary
# folder, marked as holding replacement sprites, and each sprite file a game asks for is created
# there as a solid block the first time it is missing (backgrounds 210x160, others 8x8).
import json, os, statistics, sys, time
from pathlib import Path
import numpy as np
import jax, jax.numpy as jnp
game, n, steps, repeats, pixels = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
objects_stack = int(sys.argv[7])
# the scans' timer: "wall" (perf_counter) or "cpu" (this process's CPU time, for oversubscribed cores)
clock = {"wall": time.perf_counter, "cpu": time.process_time}[sys.argv[8]]
import jaxtari
from jaxtari import paths
stand_ins = None
if not paths.ownership_or_alt_markers_present():
    os.environ["XDG_DATA_HOME"] = sys.argv[6]
    root = paths.canonical_storage_dir()
    (root / "sprites").mkdir(parents=True, exist_ok=True)
    (root / paths.ALT_SPRITES_MARKER_NAME).write_text("stand-ins for a benchmark\n")
    paths.write_sprite_version(root, paths.REQUIRED_SPRITE_VERSION)
    stand_ins = str(root / "sprites")
from jaxtari.wrappers import AtariWrapper, ObjectCentricWrapper, PixelObsWrapper
made = []
for _ in range(500):
    try:
        base = jaxtari.make(game)
        break
    except FileNotFoundError as e:
        path = Path(e.filename or "")
        if not stand_ins or path.suffix != ".npy" or not str(path).startswith(stand_ins):
            raise
        shape = (210, 160, 4) if "background" in path.name else (8, 8, 4)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, np.full(shape, 200, np.uint8))
        made.append(path.name)
else:
    raise SystemExit("gave up making stand-in sprites")
env = AtariWrapper(base, sticky_actions=0.25, noop_max=0)
env = PixelObsWrapper(env, do_pixel_resize=True, grayscale=True, use_native_downscaling=True,
                      frame_stack_size=4) if pixels else ObjectCentricWrapper(env, frame_stack_size=objects_stack)
na = env.action_space().n
keys = jax.random.split(jax.random.key(0), n)
obs, state = jax.jit(jax.vmap(env.reset))(keys)
def rollout(carry, key):
    def body(carry, k):
        s, _ = carry
        a = (jax.random.bits(k, (n,), jnp.uint32) % na).astype(jnp.int32)
        o, s, r = jax.vmap(env.step)(s, a)[:3]  # 0.2.0 returns terminated and truncated apart
        return (s, o), r.sum()
    return jax.lax.scan(body, carry, jax.random.split(key, steps))
carry = (state, obs)
t0 = time.perf_counter(); f = jax.jit(rollout).lower(carry, jax.random.key(1)).compile(); c = time.perf_counter() - t0
carry, out = f(carry, jax.random.key(2)); jax.block_until_ready(out)
ts = []
for i in range(repeats):
    t0 = clock(); carry, out = f(carry, jax.random.key(3 + i)); jax.block_until_ready(out); ts.append(clock() - t0)
print(json.dumps({"steps_per_s": n * steps / statistics.median(ts), "best": n * steps / min(ts),
                  "compile_s": c, "stand_in_sprites": len(made)}))
"""


def bench_upstream(python: str, game: str, obs: str, n: int, steps: int, repeats: int,
                   objects_stack: int = 4, clock: str = "wall") -> dict | None:
    """One upstream row, run by ``python`` in a subprocess; ``clock`` times its scans by the wall
    ("wall") or by that process's CPU time ("cpu")."""
    if clock not in ("wall", "cpu"):
        raise ValueError(f"clock must be 'wall' or 'cpu', got {clock!r}")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "upstream_bench.py"
        script.write_text(UPSTREAM_SCRIPT)
        proc = subprocess.run(
            [python, str(script), game, str(n), str(steps), str(repeats), "1" if obs == "pixels" else "0",
             str(Path(tmp) / "data"), str(objects_stack), clock],
            capture_output=True, text=True, timeout=1800, env=_peer_env(),
        )
    if proc.returncode != 0:
        print(f"upstream jaxtari failed for {game} {obs} N={n}: {proc.stderr.strip()[-400:]}", file=sys.stderr)
        return None
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"stack": f"upstream jaxtari {obs}", "game": game, "n": n, "bytes_per_env": None,
            "noop_max": 0, **res, "load": _load()}


ENVPOOL_SCRIPT = r"""
# Runs inside the EnvPool Python: one pool at the same settings as the other rows, random actions.
import json, statistics, sys, time
import numpy as np
import envpool
task, n, steps, repeats, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
env = envpool.make(task, env_type="gymnasium", num_envs=n, batch_size=n, num_threads=threads, seed=0,
                   frame_skip=4, repeat_action_probability=0.25, stack_num=4, img_height=84,
                   img_width=84, gray_scale=True, noop_max=1, use_fire_reset=False,
                   episodic_life=False, reward_clip=False)
rng = np.random.default_rng(0)
na = env.action_space.n
env.reset()
for _ in range(10):
    env.step(rng.integers(0, na, n))
ts = []
for _ in range(repeats):
    acts = rng.integers(0, na, (steps, n))
    t0 = time.perf_counter()
    for a in acts:
        env.step(a)
    ts.append(time.perf_counter() - t0)
env.close()
print(json.dumps({"steps_per_s": n * steps / statistics.median(ts), "version": envpool.__version__}))
"""

def envpool_task(game: str) -> str:
    """EnvPool's task id of a game (its Atari v5 family: ``"Pong-v5"``), spelt as jaxtari's EnvPool
    drop-in spells it."""
    from jaxtari import dropin
    return f"{dropin.env_name(game)}-v5"


def bench_envpool(python: str, game: str, n: int, steps: int, repeats: int, threads: int) -> dict | None:
    """One EnvPool row, run by ``python`` (a Python with envpool installed) in a subprocess."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "envpool_bench.py"
        script.write_text(ENVPOOL_SCRIPT)
        proc = subprocess.run([python, str(script), envpool_task(game), str(n), str(steps),
                               str(repeats), str(threads)], capture_output=True, text=True, timeout=1800,
                              env=_peer_env())
    if proc.returncode != 0:
        print(f"envpool failed for {game} N={n}: {proc.stderr.strip()[-400:]}", file=sys.stderr)
        return None
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"stack": f"envpool {res['version']} ({threads} threads) pixels", "game": game, "n": n,
            "steps_per_s": res["steps_per_s"], "compile_s": None, "bytes_per_env": None,
            "noop_max": 0, "load": _load()}


def _peer_env() -> dict:
    """The environment for a peer's Python: ours without PYTHONPATH, which (set for this project's
    checkout) would make upstream's Python import this project's ``jaxtari`` instead of its own."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def upstream_sizes(args, mode: str) -> list[int]:
    """The batch sizes upstream jaxtari runs at in ``mode`` (among ``--n``'s, where ours run)."""
    return list((args.upstream_pixels_n if mode == "pixels" else None) or args.upstream_n or args.n)


def check_python(path: str, module: str, option: str) -> str:
    """``path`` if it is a Python that can import ``module``; otherwise exit with what to fix."""
    exe = Path(path)
    if not exe.is_file() or not os.access(exe, os.X_OK):
        raise SystemExit(f"{option} {path}: no executable there; give the path of a Python "
                         f"interpreter (e.g. VENV/bin/python) where `{module}` is installed")
    try:
        proc = subprocess.run([str(exe), "-c", f"import {module}"], capture_output=True, text=True,
                              timeout=300, env=_peer_env())
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SystemExit(f"{option} {path}: could not run it as a Python ({e})") from None
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise SystemExit(f"{option} {path}: `import {module}` fails there ({last}); install it "
                         f"into that Python (pip install {module})")
    return str(exe)


def _mode(row: dict) -> str:
    """A row's observation mode ("objects" / "pixels"): the last word of its stack."""
    return row["stack"].split()[-1]


def print_table(rows: list[dict], noop_rows: list[dict]) -> None:
    from rich.console import Console
    from rich.table import Table

    # Each peer's best batch size is what a jaxtari row is compared with: ale-py (pixels, stack 4)
    # for every row, upstream jaxtari in the same observation mode, EnvPool (pixels, stack 4).
    best_ale, best_up, best_ep = {}, {}, {}
    for r in rows:
        if r["stack"].startswith("envpool"):
            best_ep[r["game"]] = max(best_ep.get(r["game"], 0), r["steps_per_s"])
        elif r["stack"].startswith("ale-py"):
            best_ale[r["game"]] = max(best_ale.get(r["game"], 0), r["steps_per_s"])
        elif r["stack"].startswith("upstream"):
            key = (r["game"], _mode(r))
            best_up[key] = max(best_up.get(key, 0), r["steps_per_s"])
    table = Table(title="Agent steps/s (frameskip 4, sticky 0.25, random actions)")
    cols = ["game", "stack", "N", "steps/s", "× best ale-py"]
    if best_up:
        cols.append("× best upstream")
    if best_ep:
        cols.append("× best envpool")
    cols += ["compile s", "bytes/env", "load"]
    for col in cols:
        table.add_column(col, justify="right" if col not in ("game", "stack") else "left")
    for r in rows:
        ours = r["stack"].startswith("jaxtari")
        ale = best_ale.get(r["game"]) if ours else None
        up = best_up.get((r["game"], _mode(r))) if ours else None
        if r["steps_per_s"] is None:
            table.add_row(r["game"], r["stack"], str(r["n"]),
                          f"over {r['timed_out_s']:.0f} s", *["-"] * (len(cols) - 4))
            continue
        cells = [r["game"], r["stack"], str(r["n"]), f"{r['steps_per_s']:,.0f}",
                 f"{r['steps_per_s'] / ale:,.1f}" if ale else "-"]
        if best_up:
            cells.append(f"{r['steps_per_s'] / up:,.1f}" if up else "-")
        if best_ep:
            ep = best_ep.get(r["game"]) if ours else None
            cells.append(f"{r['steps_per_s'] / ep:,.1f}" if ep else "-")
        cells += [f"{r['compile_s']:.1f}" if r.get("compile_s") is not None else "-",
                  f"{r['bytes_per_env']:,.0f}" if r.get("bytes_per_env") else "-",
                  f"{r['load']:.1f}" if r.get("load") is not None else "-"]
        table.add_row(*cells)
    console = Console(width=None if sys.stdout.isatty() else 150)
    console.print(table)
    for off, on in noop_rows:
        if off["steps_per_s"] is None or on["steps_per_s"] is None:
            console.print(f"{off['game']}: no-op start cost not measured (over {off['timed_out_s']:.0f} s)")
            continue
        cost = 1 - on["steps_per_s"] / off["steps_per_s"]
        console.print(
            f"{off['game']}: no-op starts (noop_max=30) at N={off['n']}, runs in turn, medians: "
            f"{on['steps_per_s']:,.0f} vs {off['steps_per_s']:,.0f} steps/s off -> {cost:+.1%} cost"
        )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", default=["pong", "freeway", "frostbite", "breakout", "seaquest"])
    ap.add_argument("--n", nargs="+", type=int, default=[1, 64, 256, 1024, 4096])
    ap.add_argument("--ale-n", nargs="+", type=int, default=[1, 16, 64])
    ap.add_argument("--ale-threads", type=int, default=2)
    ap.add_argument("--steps", type=int, default=128, help="agent steps per timed scan")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--modes", nargs="+", default=["objects", "pixels"], choices=["objects", "pixels"])
    ap.add_argument("--no-ale", action="store_true")
    ap.add_argument("--no-noop-cost", action="store_true",
                    help="skip the no-op-start cost rows (two more scans at the largest N per game)")
    ap.add_argument("--upstream-python", help="a Python with upstream jaxatari installed")
    ap.add_argument("--upstream-n", nargs="+", type=int,
                    help="batch sizes for upstream jaxtari (default: those of --n; its Frostbite "
                         "pixels take minutes per scan at N=4096)")
    ap.add_argument("--upstream-pixels-n", nargs="+", type=int,
                    help="batch sizes for upstream's pixel rows only (default: those of "
                         "--upstream-n): its objects are cheap at N=4096, its pixels are not")
    ap.add_argument("--upstream-objects-stack", type=int, default=4,
                    help="frame stack of upstream's object-centric observation (default 4, its "
                         "wrapper's default; ours is 1)")
    ap.add_argument("--envpool-python", help="a Python with envpool installed: adds EnvPool's rows")
    ap.add_argument("--envpool-n", nargs="+", type=int, default=[16, 64, 256],
                    help="batch sizes for EnvPool (its best is what the ratio column uses)")
    ap.add_argument("--envpool-threads", type=int, default=2)
    ap.add_argument("--reference-stack", action="store_true",
                    help="pixel rows with the FrameStack before the one-array stack "
                         "(tests/reference_frame_stack.py): issue 32's baseline, in the same run")
    ap.add_argument("--json", type=Path, help="also write the rows here (rewritten after each row)")
    ap.add_argument("--row-timeout", type=float, default=0,
                    help="run each jaxtari row in its own interpreter, stopped after this many "
                         "seconds and recorded as out of time (0, the default: every row in this "
                         "process). On an accelerator the parent then never holds the device.")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(json.loads(args.child))
        return 0
    for name in ("n", "ale_n", "upstream_n", "upstream_pixels_n", "envpool_n"):
        if any(v < 1 for v in getattr(args, name) or ()):
            ap.error(f"--{name.replace('_', '-')} takes batch sizes of at least 1")
    if args.row_timeout < 0:
        ap.error("--row-timeout takes seconds (0 for no separate interpreters)")
    if args.steps < 1 or args.repeats < 1 or args.ale_threads < 1 or args.envpool_threads < 1:
        ap.error("--steps, --repeats, --ale-threads and --envpool-threads must be at least 1")
    try:
        args.games = [jaxtari.canonical_name(g) for g in args.games]
    except jaxtari.UnknownGameError as e:
        ap.error(str(e))
    if args.envpool_python:
        args.envpool_python = check_python(args.envpool_python, "envpool", "--envpool-python")
    if args.upstream_python:
        args.upstream_python = check_python(args.upstream_python, "jaxtari", "--upstream-python")

    rows, noop_rows = [], []
    load_start = _load()

    def dump() -> None:
        """The rows so far: a run cut short (a timeout) still leaves what it measured."""
        if not args.json:
            return
        # With rows in children the parent never asks for the devices (on a TPU host only one
        # process may hold the chip): the children's rows name theirs.
        devices = (sorted({r["device"] for r in rows if r.get("device")}) if args.row_timeout
                   else [str(d) for d in jax.devices()])
        meta = {"machine": platform.platform(), "cpus": os.cpu_count(), "cores_usable": _cores(),
                "jax": jax.__version__, "devices": devices, "row_timeout_s": args.row_timeout,
                "load_start": load_start, "load_end": _load(), "steps": args.steps,
                "repeats": args.repeats}
        args.json.write_text(json.dumps({"meta": meta, "rows": rows,
                                         "noop": [{"off": a, "on": b} for a, b in noop_rows]}, indent=2))

    for game in args.games:
        if args.envpool_python:
            for n in args.envpool_n:
                ep = bench_envpool(args.envpool_python, game, n, args.steps, args.repeats,
                                   args.envpool_threads)
                if ep:
                    rows.append(ep)
                    print(f"  {ep['stack']} {game} N={n}: {ep['steps_per_s']:,.0f}/s "
                          f"(load {ep['load']:.1f})", flush=True)
        if not args.no_ale:
            for n in args.ale_n:
                rows.append(bench_ale(game, n, args.steps, args.repeats, args.ale_threads))
                print(f"  {rows[-1]['stack']} {game} N={n}: {rows[-1]['steps_per_s']:,.0f}/s "
                      f"(load {rows[-1]['load']:.1f})", flush=True)
        for mode in args.modes:
            for n in args.n:
                if args.row_timeout:
                    rows += _row_in_child({"kind": "row", "game": game, "obs": mode, "n": n,
                                           "steps": args.steps, "repeats": args.repeats,
                                           "reference_stack": args.reference_stack}, args.row_timeout)
                else:
                    rows.append(bench_jaxtari(game, mode, n, args.steps, args.repeats,
                                              reference_stack=args.reference_stack))
                if rows[-1]["steps_per_s"] is None:
                    print(f"  {rows[-1]['stack']} {game} N={n}: over {args.row_timeout:.0f} s, stopped",
                          flush=True)
                else:
                    print(f"  {rows[-1]['stack']} {game} N={n}: {rows[-1]['steps_per_s']:,.0f}/s "
                          f"(compile {rows[-1]['compile_s']:.1f}s, load {rows[-1]['load']:.1f})", flush=True)
                dump()
                if args.upstream_python and n in upstream_sizes(args, mode):
                    up = bench_upstream(args.upstream_python, game, mode, n, args.steps, args.repeats,
                                        args.upstream_objects_stack)
                    if up:
                        rows.append(up)
                        print(f"  {up['stack']} {game} N={n}: {up['steps_per_s']:,.0f}/s "
                              f"(compile {up['compile_s']:.1f}s, {up['stand_in_sprites']} stand-in "
                              f"sprites, load {up['load']:.1f})", flush=True)
        if "objects" in args.modes and not args.no_noop_cost:
            if args.row_timeout:
                noop_rows.append(tuple(_row_in_child(
                    {"kind": "noop", "game": game, "n": max(args.n), "steps": args.steps,
                     "rounds": 3 * args.repeats}, args.row_timeout)))
            else:
                noop_rows.append(bench_noop_cost(game, max(args.n), args.steps, 3 * args.repeats))
            dump()
    print_table(rows, noop_rows)
    dump()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
