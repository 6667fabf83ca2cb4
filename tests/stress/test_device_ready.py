"""The JAX side's train loop is ready for an accelerator as it is: nothing inside it talks to the
host (no callbacks in its program, no implicit transfers while it runs), so placing it on a GPU
changes where it runs, not what it does."""

import dataclasses

import jax
import jax.extend.core
import numpy as np
import pytest

from alignment.learning.config import PPOConfig
from alignment.learning.ppo import make_jax_env, make_train

HOST_PRIMITIVES = ("callback", "outside_call", "debug_print", "host")


def _primitives(jaxpr) -> set[str]:
    seen = set()
    for eqn in jaxpr.eqns:
        seen.add(eqn.primitive.name)
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            seen |= _primitives(sub)
    return seen


def _tiny(obs: str) -> PPOConfig:
    return dataclasses.replace(PPOConfig(), obs=obs, num_envs=2, num_steps=8,
                               total_timesteps=2 * 8 * 2, mlp_sizes=(16, 16))


@pytest.mark.parametrize("game,obs", [("pong", "objects"), ("freeway", "objects"),
                                      ("frostbite", "objects"), ("breakout", "objects"),
                                      ("pong", "pixels")])
def test_the_train_program_has_no_host_callbacks(game, obs):
    config = _tiny(obs)
    jaxpr = jax.make_jaxpr(make_train(config, make_jax_env(game, config)))(jax.random.key(0))
    prims = _primitives(jaxpr.jaxpr)
    assert "scan" in prims  # the walk reached the loop's body
    assert not [p for p in prims if any(h in p for h in HOST_PRIMITIVES)], sorted(prims)


def test_a_debug_callback_would_be_seen():
    # the walk above must be able to fail: a callback hidden two scans deep is found
    def body(c, _):
        def inner(c2, _):
            jax.debug.callback(lambda x: None, c2)
            return c2 + 1, None
        return jax.lax.scan(inner, c, None, length=2)[0], None

    jaxpr = jax.make_jaxpr(lambda x: jax.lax.scan(body, x, None, length=2)[0])(0)
    assert any("callback" in p for p in _primitives(jaxpr.jaxpr))


def test_training_runs_with_implicit_transfers_disallowed():
    config = _tiny("objects")
    train = jax.jit(make_train(config, make_jax_env("freeway", config)))
    key = jax.device_put(jax.random.key(0))
    with jax.transfer_guard("disallow"):
        runner, stats = train(key)
        jax.block_until_ready(stats)
        with pytest.raises(Exception, match="Disallowed host-to-device"):
            jax.jit(lambda x: x + 1)(np.ones(3))  # the guard is live on this backend
    assert np.asarray(runner.update).item() == config.num_updates
