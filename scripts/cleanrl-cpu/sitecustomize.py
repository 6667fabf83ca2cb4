"""Run a script's short ``lax.scan``s as Python loops, for CleanRL's JAX PPO on XLA:CPU.

Python imports ``sitecustomize`` at start-up from ``PYTHONPATH``. With this folder there and
``UNROLL_MAIN_SCANS_UP_TO=16`` set, every ``jax.lax.scan`` called from the script itself
(``__main__``) over at most 16 steps is traced as a Python loop instead, so no while loop holds its
body. Why: XLA:CPU hands a convolution to its Eigen kernel only in a program's entry computation;
inside a while loop the Nature CNN's gradient convolutions become XLA's own loop nests, 20-33
times slower (docs/dropin.md, "CleanRL's JAX script on a CPU"). Longer scans (the 128-step
rollout) and every scan inside libraries (jaxtari, flax, optax) stay scans. Without the variable
nothing is changed. The results are the scan's, up to float rounding (the same operations, fused
otherwise).
"""

import os
import sys

ENV_VAR = "UNROLL_MAIN_SCANS_UP_TO"


def _length(xs, length):
    if length is not None:
        return length
    import jax

    leaves = jax.tree_util.tree_leaves(xs)
    return leaves[0].shape[0] if leaves else None


def install(limit: int) -> None:
    import jax
    import jax.numpy as jnp

    real_scan = jax.lax.scan

    def scan(f, init, xs=None, length=None, reverse=False, unroll=1, **kwargs):
        n = _length(xs, length)
        caller = sys._getframe(1).f_globals.get("__name__")
        if caller != "__main__" or not n or n > limit or kwargs:
            return real_scan(f, init, xs, length, reverse, unroll, **kwargs)
        carry, ys = init, []
        for i in (range(n - 1, -1, -1) if reverse else range(n)):
            x = None if xs is None else jax.tree_util.tree_map(lambda a: a[i], xs)
            carry, y = f(carry, x)
            ys.append(y)
        if reverse:
            ys.reverse()
        return carry, jax.tree_util.tree_map(lambda *a: jnp.stack(a), *ys)

    jax.lax.scan = scan


if os.environ.get(ENV_VAR):
    try:
        _limit = int(os.environ[ENV_VAR])
    except ValueError:
        # site.py reports an exception here, SystemExit included, as a traceback and runs on
        sys.stderr.write(f"{ENV_VAR}={os.environ[ENV_VAR]!r}: expected a whole number of scan "
                         f"steps (e.g. 16), or leave it unset to run scans as they are\n")
        sys.stderr.flush()
        os._exit(2)
    install(_limit)
