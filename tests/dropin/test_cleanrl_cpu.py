"""scripts/cleanrl-cpu/sitecustomize.py: the README's way to run CleanRL's JAX PPO script on a CPU.

Each case runs a fresh interpreter with the folder on PYTHONPATH (Python imports sitecustomize at
start-up), as the README's command does; the script under test is the ``-c`` program, so it is
``__main__`` as CleanRL's script is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SHIM = Path(__file__).resolve().parents[2] / "scripts" / "cleanrl-cpu"

PROGRAM = textwrap.dedent("""
    import json, sys
    import jax, jax.numpy as jnp, numpy as np
    sys.path.insert(0, LIB_DIR)
    import scanlib

    def step(c, x):
        c = c * 0.5 + x
        return c, c * c

    def run(n, reverse=False):
        xs = jnp.arange(1.0, n + 1)
        return jax.lax.scan(step, jnp.float32(1.0), xs, reverse=reverse)

    def prims(fn, *a):
        return sorted({e.primitive.name for e in jax.make_jaxpr(fn)(*a).jaxpr.eqns})

    def loop(n, reverse=False):  # the reference: the recurrence in numpy
        c, ys = np.float32(1.0), []
        for x in (range(n, 0, -1) if reverse else range(1, n + 1)):
            c = np.float32(c * np.float32(0.5) + np.float32(x))
            ys.append(c * c)
        return float(c), (ys[::-1] if reverse else ys)

    out = {}
    for n, rev in [(4, False), (4, True), (32, False)]:
        c, ys = jax.jit(lambda: run(n, rev))()
        out[f"{n}{rev}"] = {"prims": prims(lambda: run(n, rev)),
                               "ok": bool(np.allclose(c, loop(n, rev)[0], rtol=1e-6)
                                          and np.allclose(ys, loop(n, rev)[1], rtol=1e-6))}
    out["library"] = prims(scanlib.run4)
    print(json.dumps(out))
""")

LIBRARY = textwrap.dedent("""
    import jax, jax.numpy as jnp

    def run4():
        return jax.lax.scan(lambda c, x: (c + x, c), jnp.float32(0), jnp.arange(4.0))
""")


def _run(tmp_path, env_value):
    (tmp_path / "scanlib.py").write_text(LIBRARY)
    env = {k: v for k, v in os.environ.items() if k != "UNROLL_MAIN_SCANS_UP_TO"}
    env["PYTHONPATH"] = os.pathsep.join([str(SHIM)] + [p for p in sys.path if p])
    env["JAX_PLATFORMS"] = "cpu"
    if env_value is not None:
        env["UNROLL_MAIN_SCANS_UP_TO"] = env_value
    return subprocess.run([sys.executable, "-c", PROGRAM.replace("LIB_DIR", repr(str(tmp_path)))], env=env,
                          capture_output=True, text=True, timeout=300)


def test_short_scans_of_the_script_become_loops_with_the_scans_results(tmp_path):
    done = _run(tmp_path, "16")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    for case in ("4False", "4True"):
        assert "scan" not in out[case]["prims"] and "while" not in out[case]["prims"], out[case]
        assert out[case]["ok"], case
    # over the limit, and in a library (not __main__): still a scan, still right
    assert "scan" in out["32False"]["prims"] and out["32False"]["ok"]
    assert "scan" in out["library"]


def test_without_the_variable_nothing_changes(tmp_path):
    done = _run(tmp_path, None)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert all("scan" in out[c]["prims"] and out[c]["ok"] for c in ("4False", "4True", "32False"))


@pytest.mark.parametrize("value", ["sixteen", "1.5"])
def test_a_bad_limit_is_refused_by_name(tmp_path, value):
    done = _run(tmp_path, value)
    assert done.returncode != 0
    assert "UNROLL_MAIN_SCANS_UP_TO" in done.stderr and "whole number" in done.stderr
    assert "Traceback" not in done.stderr
