"""benchmarks/stack_traffic.py's data-movement floors carry the observation FrameStack gives: the
bound they print is only a bound if each floor builds the same oldest-first stack of four frames."""

import importlib.util
import sys
from pathlib import Path

import jax
import numpy as np

from jaxtari.wrappers import stack_push, stack_start

ROOT = Path(__file__).resolve().parents[1]


def _stack_traffic():
    spec = importlib.util.spec_from_file_location("bench_stack_traffic",
                                                  ROOT / "benchmarks" / "stack_traffic.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_floor_observations_are_the_frame_stack_of_the_same_frames():
    st = _stack_traffic()
    n, steps = 3, 7
    keys = jax.random.split(jax.random.key(5), steps)
    outs = {}
    for kind in st.FLOOR_KINDS:
        body = jax.jit(st.floor_body(kind, n))
        carry, seen = st.floor_start(kind, n), []
        for k in keys:
            carry, _ = body(carry, k)
            seen.append(np.asarray(carry[1]))
        outs[kind] = seen
    # the frames the floors pushed, stacked by FrameStack's own functions, oldest first
    frames = [f for f in outs["floor1"]]
    stack = jax.vmap(lambda f: stack_start(f, st.STACK))(np.zeros_like(frames[0]))
    for t, frame in enumerate(frames):
        stack = jax.vmap(stack_push)(stack, frame, np.zeros((n,), bool))
        np.testing.assert_array_equal(outs["floor4"][t], np.asarray(stack))
        np.testing.assert_array_equal(outs["floor-ring"][t], np.asarray(stack))
    # the fills differ from step to step, so a view in the wrong order would not pass
    assert len({int(f[0, 0, 0]) for f in frames}) > 1


def test_the_cli_prints_both_bounds(capsys):
    st = _stack_traffic()
    assert st.main(["--game", "pong", "--n", "2", "--steps", "2", "--rounds", "1",
                    "--variants", "stack1", "refill", "floor1", "floor4", "floor-ring"]) == 0
    out = capsys.readouterr().out
    assert "bound (floor4): stack 4 at most" in out
    assert "bound (floor-ring): stack 4 at most" in out
    assert "  refill " in out


def test_the_refill_push_equals_stack_push_under_vmap_and_alone():
    """The ``refill`` variant measures stack_push's restart written as a loop over the restarted
    envs: it must push the same stacks, for no, some and all envs restarting, and nested."""
    st = _stack_traffic()
    rng = np.random.default_rng(11)
    n = 9
    frames = rng.integers(0, 256, (n, st.STACK, 6, 5), dtype=np.uint8)
    frame = rng.integers(0, 256, (n, 6, 5), dtype=np.uint8)
    for restart in (np.zeros(n, bool), rng.random(n) < 0.4, np.ones(n, bool)):
        want = np.asarray(jax.vmap(stack_push)(frames, frame, restart))
        got = np.asarray(jax.jit(jax.vmap(st.refill_push))(frames, frame, restart))
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.asarray(st.refill_push(frames[0], frame[0], restart[0])),
                                      want[0])
    pair = rng.random((2, n)) < 0.5
    nested = jax.vmap(jax.vmap(st.refill_push))(np.stack([frames] * 2), np.stack([frame] * 2), pair)
    for i in range(2):
        np.testing.assert_array_equal(np.asarray(nested[i]),
                                      np.asarray(jax.vmap(stack_push)(frames, frame, pair[i])))
