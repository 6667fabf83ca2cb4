"""jaxtari.envpool.Functional: one env of the EnvPool pool as gymnax-shaped functions (what the
stage-4 learner trains in under the envpool protocol). A vmapped batch of them is the pool itself:
every output equal to the pool's own compiled call (the code behind make()'s numpy and XLA faces)
from the same states, over games with lives lost, fire resets and new games."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxtari.dropin import DropInError
from jaxtari.envpool import Functional, Options, _Pool
from jaxtari.wrappers import LogWrapper

OPTIONS = dict(episodic_life=True, reward_clip=True, noop_max=30, max_episode_steps=180)
N, STEPS = 6, 800


def test_a_vmapped_functional_env_is_the_pool_step_for_step():
    env = Functional("Breakout-v5", **OPTIONS)
    pool = _Pool(Options(task_id="Breakout-v5", num_envs=N, **OPTIONS))
    keys = jax.random.split(jax.random.key(3), N)
    start = jax.vmap(pool.initial)(keys)
    ours = jax.jit(jax.vmap(env._call))(start, jnp.zeros(N, jnp.int32))
    theirs = jax.jit(pool.batch)(start, jnp.zeros(N, jnp.int32))
    step_ours, step_theirs = jax.jit(jax.vmap(env.step)), jax.jit(pool.batch)
    s_ours, s_theirs = ours[1], theirs[0]
    actions = np.random.default_rng(0).integers(0, env.num_actions, (STEPS, N))
    seen = {"done": 0, "game over": 0, "truncated": 0}
    for a in actions:
        o, s_ours, r, d, info = step_ours(s_ours, jnp.asarray(a, jnp.int32))
        s_theirs, (o2, r2, term2, trunc2, info2) = step_theirs(s_theirs, jnp.asarray(a, jnp.int32))
        np.testing.assert_array_equal(o, o2)
        np.testing.assert_array_equal(r, r2)
        np.testing.assert_array_equal(d, np.asarray(term2) | np.asarray(trunc2))
        np.testing.assert_array_equal(info["terminated"], np.asarray(info2["terminated"]).astype(bool))
        np.testing.assert_array_equal(info["truncated"], trunc2)
        np.testing.assert_array_equal(info["lives"], info2["lives"])
        seen["done"] += int(np.sum(d))
        seen["game over"] += int(np.sum(info["terminated"]))
        seen["truncated"] += int(np.sum(info["truncated"]))
    # the comparison met lives lost (episodic life), whole games ended and the step limit
    assert seen["done"] > seen["game over"] > 0 and seen["truncated"] > 0, seen


def test_reset_gives_an_episodes_first_stack():
    env = Functional("Pong-v5", stack_num=4)
    obs, state = jax.jit(env.reset)(jax.random.key(0))
    assert obs.shape == (4, 84, 84) and obs.dtype == jnp.uint8
    assert all(np.array_equal(obs[0], obs[k]) for k in range(1, 4))
    assert not bool(state.pending)


def test_logwrapper_over_it_logs_whole_games_not_lives():
    env = LogWrapper(Functional("Breakout-v5", episodic_life=True, reward_clip=False))
    obs, s = jax.jit(env.reset)(jax.random.key(1))
    step = jax.jit(env.step)
    rng = np.random.default_rng(1)
    total, lives_ended, games = 0.0, 0, 0
    for _ in range(4000):
        obs, s, r, d, info = step(s, jnp.int32(rng.integers(0, env.num_actions)))
        total += float(r)
        if bool(d) and not bool(info["returned_episode"]):
            lives_ended += 1
        if bool(info["returned_episode"]):
            assert float(info["returned_episode_return"]) == total
            games, total = games + 1, 0.0
    assert games >= 1 and lives_ended >= 4 * games


@pytest.mark.parametrize("option", ["num_envs", "seed", "batch_size", "env_type"])
def test_a_pools_option_is_refused_by_name(option):
    with pytest.raises(DropInError, match=f"{option}: a pool's option"):
        Functional("Pong-v5", **{option: 2 if option != "env_type" else "gym"})


def test_an_unknown_option_and_a_bad_value_are_refused():
    with pytest.raises(DropInError, match="unknown option 'sticky'"):
        Functional("Pong-v5", sticky=0.25)
    with pytest.raises(DropInError):
        Functional("Pong-v5", reward_clip="yes")
