"""PPO in pure JAX learns: a real learning signal on a task with a known optimum."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from alignment.learning.config import PPOConfig
from alignment.learning.ppo import Transition, gae, make_train
from tests.learning.toy_env import OPTIMAL_RETURN, RANDOM_RETURN, CueEnv


def test_make_train_learns_the_cue_task_with_seeds_by_vmap():
    config = dataclasses.replace(PPOConfig(), num_envs=8, num_steps=32, total_timesteps=8 * 32 * 60,
                                 mlp_sizes=(64, 64), learning_rate=2.5e-3, ent_coef=0.0)
    train = jax.jit(jax.vmap(make_train(config, CueEnv())))
    runner, stats = train(jax.random.split(jax.random.key(0), 2))
    returns = np.asarray(stats["return_sum"] / np.maximum(stats["episodes"], 1))  # (seeds, updates)
    assert returns.shape == (2, config.num_updates)
    first, last = returns[:, :5].mean(), returns[:, -5:].mean()
    assert abs(first - RANDOM_RETURN) < 1.0, first  # starts as a uniform policy
    assert last > 0.9 * OPTIMAL_RETURN, last  # ends near the optimum, on both seeds
    assert np.all(returns[:, -5:].mean(axis=1) > 0.9 * OPTIMAL_RETURN)
    assert np.asarray(runner.update).tolist() == [config.num_updates] * 2


def test_gae_matches_a_hand_computed_episode_end():
    # two steps, one env; the episode ends after the first step
    traj = Transition(obs=None, action=None, log_prob=None,
                      value=jnp.array([[1.0], [2.0]]), reward=jnp.array([[1.0], [0.5]]),
                      done=jnp.array([[True], [False]]))
    adv, target = gae(traj, jnp.array([4.0]), gamma=0.5, lam=0.5)
    # step 1: delta = 0.5 + 0.5*4 - 2 = 0.5; step 0: delta = 1 - 1 = 0 (no bootstrap past the end)
    np.testing.assert_allclose(np.asarray(adv)[:, 0], [0.0, 0.5])
    np.testing.assert_allclose(np.asarray(target)[:, 0], [1.0, 2.5])
