"""Where pixels + frame stack 4 lose against stack 1 (issue 32): carried scans, timed in turn.

Each variant is one compiled ``lax.scan`` of random-action steps over N envs, the step's observation
kept in the loop's carry (as a rollout buffer would keep it):

- ``stack1``: ``make_env(game, obs="pixels")``, the 84x84 frame alone;
- ``ring-only``: stack 1's env with ``ring_push`` (below) per env (vmapped), the ring
  carried in the state and no stacked observation gathered (an agent would read the ring);
- ``framestack``: ``make_env(..., frame_stack=4)``: jaxtari's FrameStack as it is (the one-array
  shifted stack since the ring, measured here, was replaced; see benchmarks/README.md);
- ``gather-only``: stack 1's env plus a gather of four copies of its frame into a (4, 84, 84)
  observation (the gather's cost without a ring);
- ``batch-ring``: one ring for the whole batch, written by one ``dynamic_update_slice`` at a slot
  shared by all envs (in place in the compiled loop), no observation gathered;
- ``ring-barrier``: ``ring-only`` with the frame behind ``lax.optimization_barrier`` (drawn into a
  buffer of its own, then written into the ring: XLA cannot fuse the drawing into the ring's update);
- ``ring-select``: ``ring-only`` with the slot written by a select over the whole ring (every slot
  rewritten each step, no dynamic index);
- ``select-stack``: ``framestack`` done with selects only: the ring written as in ``ring-select``
  and the oldest-first observation assembled by selects over the slots (no dynamic index anywhere).
- ``refill``: ``framestack`` with the restart's select over the whole stack replaced by a loop
  that rewrites only the restarted envs' stacks in place (``refill_push`` below, a
  ``custom_vmap``): what the restart's select costs in a game's step (benchmarks/README.md, "The
  restart's select, measured in the game").
- ``floor1`` / ``floor4``: no game at all, the data movement alone: each env's "frame" is an 84x84
  fill with its action (nothing to draw), carried alone (``floor1``) or pushed into a stack of 4 by
  ``wrappers.stack_push`` and carried as ``framestack`` carries it (``floor4``). Their difference is
  what an observation of four frames, materialised every step, costs beyond one frame in this form;
  a game whose ``stack1`` step takes less than that difference cannot reach half its stack-1
  speed with a stacked observation written per step (printed as the bound below the table).
  ``floor-ring`` is the least traffic a materialised observation can have: one frame written per
  step into a batch-wide ring (one slot for all envs, updated in place) and the oldest-first
  observation read out of it; its bound is printed too.

Variants are compiled first, then timed in turn (the first rotating each round), with the load
average. ``python benchmarks/stack_traffic.py --game pong --n 256 --rounds 7``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import custom_batching  # noqa: E402

from jaxtari.wrappers import make_env, stack_push, stack_start  # noqa: E402
from jaxtari.xla import materialize  # noqa: E402


# stack_push with its restart written as a refill of the restarted envs only: unbatched the same
# select, vmapped a loop over the envs whose flag is set (none in most steps), each trip an
# in-place update of one env's stack. Observations bit-identical to stack_push
# (tests/test_stack_floor.py).
@custom_batching.custom_vmap
def refill_push(frames, frame, restart):
    return stack_push(frames, frame, restart)


@refill_push.def_vmap
def _refill_push_batched(axis_size, in_batched, frames, frame, restart):
    frames, frame, restart = (x if b else jnp.broadcast_to(x, (axis_size,) + jnp.shape(x))
                              for x, b in zip((frames, frame, restart), in_batched))
    frame = materialize(frame)
    shifted = jnp.concatenate([frames[:, 1:], frame[:, None]], axis=1)

    def write(carry):
        todo, out = carry
        row = jnp.argmax(todo).astype(jnp.int32)  # not jnp.nonzero: a cumsum is a reduce-window
        block = jnp.broadcast_to(jax.lax.dynamic_index_in_dim(frame, row), (1,) + out.shape[1:])
        return todo.at[row].set(False), jax.lax.dynamic_update_slice(out, block, (row, 0, 0, 0))

    _, out = jax.lax.while_loop(lambda c: jnp.any(c[0]), write, (restart.astype(bool), shifted))
    return out, True


# The ring FrameStack had (jaxtari/wrappers.py, 6c74eb3 until the 2026-12-05 07:45 core window),
# kept here as a variant to measure: k frames each in the slot it was written to, ``newest`` the
# last slot, ``age_cap`` how many frames before it belong to the episode.
def ring_start(frame, k):
    return jnp.broadcast_to(frame, (k,) + frame.shape), jnp.int32(k - 1), jnp.int32(0)


def ring_push(ring, newest, age_cap, frame, restart):
    k = ring.shape[0]
    newest = (newest + 1) % k
    age_cap = jnp.where(restart, 0, jnp.minimum(age_cap + 1, k - 1))
    return jax.lax.dynamic_update_index_in_dim(ring, frame, newest, 0), newest, age_cap


def ring_view(ring, newest, age_cap):
    k = ring.shape[0]
    ages = jnp.minimum(jnp.arange(k - 1, -1, -1, dtype=jnp.int32), age_cap)
    return ring[(newest - ages) % k]


STACK = 4
RING_KINDS = ("ring-only", "ring-barrier", "ring-select", "select-stack")
PUSH_KINDS = ("refill",)
FLOOR_KINDS = ("floor1", "floor4", "floor-ring")
VARIANTS = ("stack1", "ring-only", "framestack", "gather-only", "batch-ring", "ring-barrier", "ring-select",
            "select-stack") + PUSH_KINDS + FLOOR_KINDS
FRAME = (84, 84)


def floor_start(kind: str, n: int):
    """The carry a floor scan starts from: (its state, its observation), all frames zero."""
    first = jnp.zeros((n,) + FRAME, jnp.uint8)
    s = first if kind == "floor1" else jax.vmap(lambda f: stack_start(f, STACK))(first)
    obs = jnp.copy(s)
    if kind == "floor-ring":
        s = (s, jnp.int32(STACK - 1))
    return s, obs


def floor_body(kind: str, n: int):
    """One step of a floor scan: every env's frame a fill with its action, pushed as ``kind`` does."""
    def body(carry, k):
        s, _ = carry
        a = (jax.random.bits(k, (n,), jnp.uint32) % 18).astype(jnp.uint8)
        frame = jnp.broadcast_to(a[:, None, None], (n,) + FRAME)
        if kind == "floor1":
            return (frame, frame), a.sum()
        if kind == "floor-ring":
            ring, slot = s
            slot = (slot + 1) % STACK
            ring = jax.lax.dynamic_update_index_in_dim(ring, frame, slot, 1)
            view = jnp.take(ring, (slot + 1 + jnp.arange(STACK)) % STACK, axis=1)
            return ((ring, slot), view), a.sum()
        s = jax.vmap(stack_push)(s, frame, jnp.zeros((n,), bool))
        return (s, s), a.sum()
    return body


def timed(rollout, carry):
    """A function running one compiled ``rollout`` scan from the last carry (seconds), after one
    warm-up run."""
    compiled = jax.jit(rollout, donate_argnums=0).lower(carry, jax.random.key(1)).compile()
    state = [carry]

    def run(i: int) -> float:
        t = time.perf_counter()
        state[0], out = compiled(state[0], jax.random.key(2 + i))
        jax.block_until_ready(out)
        return time.perf_counter() - t

    run(0)
    return run


def build_floor(kind: str, n: int, steps: int):
    """``build`` for the data-movement floors: the same carried scan with no game in it."""
    body = floor_body(kind, n)

    def rollout(carry, key):
        return jax.lax.scan(body, carry, jax.random.split(key, steps))

    s, obs = floor_start(kind, n)
    return timed(rollout, (s, obs))


def build(kind: str, game: str, n: int, steps: int):
    """A function running one timed scan (seconds), after one warm-up run."""
    if kind in FLOOR_KINDS:
        return build_floor(kind, n, steps)
    env = make_env(game, obs="pixels", frame_stack=STACK if kind == "framestack" else 1, log=False)
    num_actions = env.num_actions

    def reset(key):
        obs, s = env.reset(key)
        if kind in RING_KINDS:
            ring, newest, age = ring_start(obs, STACK)
            if kind == "select-stack":
                return ring_view(ring, newest, age), (s, ring, newest, age)
            return newest, (s, ring, newest, age)  # the observation is the ring in the state
        if kind == "gather-only":
            return jnp.broadcast_to(obs, (STACK,) + obs.shape), s
        if kind in PUSH_KINDS:
            frames = stack_start(obs, STACK)
            return frames, (s, frames)
        return obs, s

    def step(st, a):
        if kind in RING_KINDS:
            s, ring, newest, age = st
            obs, s, r, _, info = env.step(s, a)
            restart = info.get("episode_restart", False)
            if kind == "ring-barrier":
                obs = jax.lax.optimization_barrier(obs)
            if kind in ("ring-select", "select-stack"):
                newest = (newest + 1) % STACK
                age = jnp.where(restart, 0, jnp.minimum(age + 1, STACK - 1))
                ring = jnp.where((jnp.arange(STACK) == newest)[:, None, None], obs[None], ring)
            else:
                ring, newest, age = ring_push(ring, newest, age, obs, restart)
            if kind == "select-stack":
                slots = (newest - jnp.minimum(jnp.arange(STACK - 1, -1, -1), age)) % STACK
                view = jnp.stack([jnp.select([slots[j] == i for i in range(STACK)],
                                             [ring[i] for i in range(STACK)]) for j in range(STACK)])
                return view, (s, ring, newest, age), r
            return newest, (s, ring, newest, age), r
        if kind in PUSH_KINDS:
            s, frames = st
            obs, s, r, _, info = env.step(s, a)
            frames = refill_push(frames, obs, info["episode_restart"])
            return frames, (s, frames), r
        obs, s, r, _, _ = env.step(st, a)
        if kind == "gather-only":
            obs = ring_view(jnp.broadcast_to(obs, (STACK,) + obs.shape), jnp.int32(STACK - 1),
                            jnp.int32(STACK - 1))
        return obs, s, r

    def rollout(carry, key):
        def body(carry, k):
            s, _ = carry
            a = (jax.random.bits(k, (n,), jnp.uint32) % num_actions).astype(jnp.int32)
            if kind == "batch-ring":
                inner, ring, slot = s
                o, inner, r = jax.vmap(step)(inner, a)
                slot = (slot + 1) % STACK
                ring = jax.lax.dynamic_update_index_in_dim(ring, o, slot, 1)
                return ((inner, ring, slot), slot), r.sum()
            o, s, r = jax.vmap(step)(s, a)
            return (s, o), r.sum()
        return jax.lax.scan(body, carry, jax.random.split(key, steps))

    obs, s = jax.jit(jax.vmap(reset))(jax.random.split(jax.random.key(0), n))
    if kind == "batch-ring":
        ring = jnp.broadcast_to(obs[:, None], (n, STACK) + obs.shape[1:])
        s, obs = (s, ring, jnp.int32(STACK - 1)), jnp.full((), STACK - 1, jnp.int32)
    return timed(rollout, (s, obs))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="pong")
    p.add_argument("--n", type=int, default=256, help="envs")
    p.add_argument("--steps", type=int, default=64, help="agent steps per timed scan")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    args = p.parse_args(argv)
    if args.n < 1 or args.steps < 1 or args.rounds < 1:
        p.error("--n, --steps and --rounds must be >= 1")
    runs = {k: build(k, args.game, args.n, args.steps) for k in args.variants}
    times = {k: [] for k in runs}
    loads = []
    order = list(runs)
    for r in range(args.rounds):
        for k in order[r % len(order):] + order[:r % len(order)]:
            times[k].append(runs[k](r + 1))
        loads.append(os.getloadavg()[0])
    print(f"{args.game} pixels, N={args.n}, {args.steps}-step carried scans, {args.rounds} rounds in "
          f"turn, load {min(loads):.1f}-{max(loads):.1f}; steps/s median (best), / first variant")
    first = order[0]
    for k in order:
        med, best = (args.n * args.steps / statistics.median(times[k]),
                     args.n * args.steps / min(times[k]))
        ref = args.n * args.steps / statistics.median(times[first])
        ref_best = args.n * args.steps / min(times[first])
        print(f"  {k:12s} {med:>10,.0f} ({best:,.0f})  {med / ref:.2f} ({best / ref_best:.2f})")
    if {"stack1", "floor1"} <= set(times):
        # seconds per env-step: the game's stack-1 step, and what four frames add in each floor
        per = {k: statistics.median(times[k]) / (args.n * args.steps) for k in times}
        for floor in ("floor4", "floor-ring"):
            if floor not in per:
                continue
            extra = per[floor] - per["floor1"]
            print(f"  bound ({floor}): stack 4 at most {per['stack1'] / (per['stack1'] + extra):.2f} "
                  f"of stack 1 (stack 1 {per['stack1'] * 1e9:.0f} ns per env-step; four frames "
                  f"materialised cost {extra * 1e9:.0f} ns more than one)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
