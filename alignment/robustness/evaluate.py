"""Episode returns of agents (and of a uniform random policy) on a game and its modified versions,
under the ALE v5 protocol (frameskip 4, sticky actions 0.25, the 108,000-frame cap; whole games,
no episodic life), on each backend.

JAX: :func:`jax_returns` is one compiled computation: for each variant (the original game, each
mod) the game is built with its mods, and K agents x E episodes run together (``vmap`` over agents,
over episodes) in one ``while_loop`` until every episode has ended or ``max_steps`` agent steps
have passed; the variants sit side by side in the same program (a mod is a different program,
so they are not one batch).

ALE: :func:`ale_returns` steps K x E emulators from the host, frame by frame so that a mod's
RAM writes (:class:`alignment.signals.RamWrite`) follow every frame, with ALE's own sticky
actions at frame skip 1 (ALE applies stickiness per frame, so 4 calls are one v5 step); the
policy is the same network, vmapped over agents, on the object features decoded from RAM
(:mod:`alignment.reference.features`); the emulators step in worker processes, a slice each,
in lockstep with the policy here (:mod:`alignment.robustness.emulators`). Every variant runs on
the same random numbers on each side (JAX: the same episode keys; ALE: the same emulator seeds,
action draws and policy keys), so a difference between a mod's returns and the original's is the
mod's.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from alignment.robustness.emulators import open_emulators
from jaxtari.protocol import V5



@dataclasses.dataclass
class Returns:
    """Per variant: returns (K, E) of the agents (K = 1 for the random policy) and how many of
    those episodes hit ``max_steps`` before the game ended (their return so far is counted)."""

    returns: dict[str, np.ndarray]
    truncated: dict[str, int]
    seconds: float


def _variant_env(game: str, mods: Sequence[str], obs: str = "objects"):
    from alignment.learning.config import FRAME_STACK
    from jaxtari.wrappers import make_env

    return make_env(game, obs=obs, frame_stack=FRAME_STACK if obs == "pixels" else 1,
                    mods=tuple(mods), sticky_prob=V5.repeat_action_probability, episodic_life=False,
                    log=False)


def jax_returns(game: str, variants: dict[str, tuple[str, ...]], apply_fn: Callable | None,
                params, *, agents: int, episodes: int, seed: int = 0,
                max_steps: int = V5.max_agent_steps, obs: str = "objects") -> Returns:
    """Returns of ``agents`` stacked parameter sets (``apply_fn is None``: a uniform random
    policy, one "agent") over ``episodes`` episodes on each variant ``{name: mods}``; all in
    one jitted call. Episode e of every agent starts from the same key on every variant.
    ``obs``: what the agents see (``pixels``: 84x84 grey, a stack of 4)."""
    import time

    envs = {name: _variant_env(game, mods, obs) for name, mods in variants.items()}
    num_actions = next(iter(envs.values())).num_actions

    def run(env, p, key):
        keys = jax.random.split(key, episodes + 1)
        obs, state = jax.vmap(env.reset)(keys[:episodes])

        def act(obs, k):
            if apply_fn is None:
                return jax.random.randint(k, (episodes,), 0, num_actions)
            logits, _ = apply_fn(p, obs)
            return jax.random.categorical(k, logits)

        def cond(c):
            t, _, _, _, done, _ = c
            return (t < max_steps) & ~jnp.all(done)

        def body(c):
            t, state, obs, ret, done, key = c
            key, k = jax.random.split(key)
            obs2, state2, reward, ended, _ = jax.vmap(env.step)(state, act(obs, k))
            ret = ret + jnp.where(done, 0.0, reward)
            return t + 1, state2, obs2, ret, done | ended, key

        init = (jnp.int32(0), state, obs, jnp.zeros(episodes), jnp.zeros(episodes, bool), keys[-1])
        _, _, _, ret, done, _ = jax.lax.while_loop(cond, body, init)
        return ret, ~done

    def everything(params):
        out = {}
        for i, (name, env) in enumerate(envs.items()):
            # the same episode keys on every variant: the only difference is the mod
            keys = jax.random.split(jax.random.key(seed), agents)
            out[name] = jax.vmap(lambda p, k: run(env, p, k))(params, keys)
        return out

    if apply_fn is None:
        params = jnp.zeros((agents,))
    t0 = time.perf_counter()
    out = jax.jit(everything)(params)
    out = jax.tree_util.tree_map(np.asarray, out)
    seconds = time.perf_counter() - t0
    return Returns({k: v[0].astype(np.float64) for k, v in out.items()},
                   {k: int(v[1].sum()) for k, v in out.items()}, seconds)


PROGRESS_EVERY_S = 10.0  # at most one progress line this often per emulator run (a log file too)


def ale_returns(game: str, variants: dict[str, tuple], apply_fn: Callable | None, params, *,
                agents: int, episodes: int, seed: int = 0, max_steps: int = V5.max_agent_steps,
                obs: str = "objects", say: Callable[[str], None] | None = None,
                workers: int | None = None) -> Returns:
    """As :func:`jax_returns`, on the real emulator; ``variants`` maps a name to the RAM writes
    of its mods (an empty tuple: the original game). Pixel agents see the screen through
    :func:`alignment.stress.transfer.observe_screen`, stacked as the JAX wrappers stack.
    ``say``: progress lines (the agent step and the episodes still playing), at most one every
    :data:`PROGRESS_EVERY_S` seconds, and one as each variant ends. ``workers``: processes
    stepping the emulators (:func:`alignment.robustness.emulators.open_emulators`; None: one per
    core, 1: this process); the returns are the same whatever it is."""
    import time

    from alignment.reference.features import FeatureDecoder

    decoder = FeatureDecoder(game) if obs == "objects" and apply_fn is not None else None
    policy = None
    if apply_fn is not None:
        def one(p, obs, k):
            logits, _ = apply_fn(p, obs)
            return jax.random.categorical(k, logits)

        policy = jax.jit(jax.vmap(one))
    t0 = time.perf_counter()
    out, truncated = {}, {}
    n = agents * episodes
    observe = None if policy is None else ("rams" if decoder is not None else "frames")
    with open_emulators(n, workers=workers) as where:
        for name, writes in variants.items():
            # the same emulator seeds (sticky actions), random actions and policy keys on every
            # variant, as on the JAX side: the only difference is the mod's writes
            envs = where.start(game, writes, seed, observe)
            ret, live = _play(envs, n, policy, params, decoder, agents, episodes, seed, max_steps,
                              name, say)
            out[name] = ret.reshape(agents, episodes)
            truncated[name] = int(live.sum())
            if say is not None:
                say(f"ALE {name}: {n} episodes done ({time.perf_counter() - t0:.0f} s so far)")
    return Returns(out, truncated, time.perf_counter() - t0)


def _play(envs, n: int, policy, params, decoder, agents: int, episodes: int, seed: int,
          max_steps: int, name: str, say) -> tuple[np.ndarray, np.ndarray]:
    """One variant's games on ``envs`` to their ends (or ``max_steps``): returns and which
    episodes are still playing."""
    import time

    from alignment.learning.config import FRAME_STACK

    rng = np.random.default_rng(seed)
    key = jax.random.key(seed)
    ret, live = np.zeros(n), np.ones(n, bool)
    stack = None
    if policy is not None and decoder is None:
        stack = np.repeat(envs.observe()[:, None], FRAME_STACK, axis=1)
    shown = time.perf_counter()
    for t in range(max_steps):
        if not live.any():
            break
        if say is not None and time.perf_counter() - shown >= PROGRESS_EVERY_S:
            shown = time.perf_counter()
            say(f"ALE {name}: agent step {t:,}, {int(live.sum())} of {n} episodes playing")
        if policy is None:
            actions = rng.integers(0, len(envs.actions), n)
        else:
            key, k = jax.random.split(key)
            seen = decoder(envs.observe()) if stack is None else stack
            seen = seen.reshape((agents, episodes) + seen.shape[1:])
            actions = np.asarray(policy(params, jnp.asarray(seen),
                                        jax.random.split(k, agents))).reshape(-1)
        ret += envs.step(actions, live)
        if stack is not None:
            stack = np.concatenate([stack[:, 1:], envs.observe()[:, None]], axis=1)
        live &= ~envs.over()
    return ret, live
