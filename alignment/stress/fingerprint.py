"""A behaviour fingerprint of a JAX game as the stress learner sees it.

A stress report trains for hours; when the game's code changes afterwards, the report stays valid
only if what the learner saw is unchanged. The fingerprint is the sha256 of every observation,
reward and done flag of a fixed rollout (uniform random actions from a fixed key, several envs, the
learner's v5 wrappers: sticky actions, episodic life) - a replay: equal fingerprints mean the change
left every signal of that rollout unchanged. It is evidence over this rollout, not a proof.

This file uses nothing of ``alignment`` (only ``jaxtari.wrappers.make_env``), so it can run against
an older checkout of ``jaxtari`` to fingerprint the code a report was trained on:
``PYTHONPATH=<old checkout> python alignment/stress/fingerprint.py GAME --obs objects``.
"""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np

from jaxtari.protocol import V5

STEPS = 4096  # agent steps per env: two whole Freeway games, several Pong points, Breakout lives
ENVS = 4
SEED = 0
# The learner's wrappers (alignment.learning.config.PPOConfig's defaults for sticky and episodic life)
EPISODIC_LIFE = True


def fingerprint(game: str, obs: str = "objects", *, steps: int = STEPS, envs: int = ENVS,
                seed: int = SEED) -> dict:
    """``{"sha256", "game", "obs", "steps", "envs", "seed"}`` of the fixed rollout."""
    import jax
    import jax.numpy as jnp
    from jaxtari.wrappers import make_env

    env = make_env(game, obs=obs, sticky_prob=V5.repeat_action_probability,
                   episodic_life=EPISODIC_LIFE)
    n = env.num_actions
    k_reset, k_act = jax.random.split(jax.random.PRNGKey(seed))
    actions = jax.random.randint(k_act, (steps, envs), 0, n)

    def rollout(keys, actions):
        o0, s0 = jax.vmap(env.reset)(keys)

        def body(state, a):
            o, state, r, d, _ = jax.vmap(env.step)(state, a)
            return state, (o, r, d)

        _, out = jax.lax.scan(body, s0, actions)
        return o0, out

    o0, (o, r, d) = jax.jit(rollout)(jax.random.split(k_reset, envs), actions)
    h = hashlib.sha256()
    for part in (o0, o, r, d):
        a = np.asarray(part)
        h.update(str(a.shape).encode())
        h.update(np.ascontiguousarray(a.astype(np.float32 if a.dtype.kind == "f" else a.dtype)).tobytes())
    return {"sha256": h.hexdigest(), "game": game, "obs": obs, "steps": steps, "envs": envs,
            "seed": seed, "done_count": int(np.asarray(d).sum()),
            "reward_sum": float(np.asarray(r, np.float64).sum())}


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit("usage: fingerprint.py GAME [--obs objects|pixels]")
    kind = args[args.index("--obs") + 1] if "--obs" in args else "objects"
    print(json.dumps(fingerprint(args[0], kind)))
