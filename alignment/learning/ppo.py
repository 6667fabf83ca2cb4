"""PPO in pure JAX, in the shape of a whole learner as one function (``make_train(config)`` returns a
jittable ``train(key)``; seeds by ``jax.vmap``).

The pieces both backends share are here and nowhere else: :func:`make_policy` (sample an action,
its log-probability and the value) and :func:`make_update` (GAE, then epochs of clipped-surrogate
minibatch updates). The JAX side runs its rollout inside the same compiled graph
(:func:`make_chunk`); the ALE side (:mod:`alignment.stress.ale_rollout`) fills the same
:class:`Transition` batch from the emulator and calls the very same jitted update.

Episode statistics leave the graph as per-update sums (return of finished episodes, their count),
so nothing in the loop syncs with the host.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState

from alignment.learning.config import PPOConfig
from alignment.learning.networks import make_network


class Transition(NamedTuple):
    """One rollout, each field (num_steps, num_envs, ...)."""

    obs: jax.Array
    action: jax.Array
    log_prob: jax.Array
    value: jax.Array
    reward: jax.Array  # what the learner sees (clipped when config.clip_rewards)
    done: jax.Array  # the episode (a life, under episodic life) ended at this step


class Runner(NamedTuple):
    """Everything one seed's training carries from update to update."""

    train_state: TrainState
    env_state: Any  # the JAX env's state; None on the ALE side (the emulators hold it)
    obs: jax.Array
    key: jax.Array
    update: jax.Array  # updates done so far


def make_optimizer(config: PPOConfig) -> optax.GradientTransformation:
    if config.anneal_lr:
        steps = config.num_updates * config.update_epochs * config.num_minibatches
        lr = optax.linear_schedule(config.learning_rate, 0.0, max(steps, 1))
    else:
        lr = config.learning_rate
    return optax.chain(optax.clip_by_global_norm(config.max_grad_norm),
                       optax.adam(lr, eps=config.adam_eps))


def init_train_state(config: PPOConfig, num_actions: int, obs_example, key) -> TrainState:
    network = make_network(config.obs, num_actions, config.mlp_sizes)
    params = network.init(key, obs_example)
    return TrainState.create(apply_fn=network.apply, params=params, tx=make_optimizer(config))


def make_policy(apply_fn: Callable) -> Callable:
    """``policy(params, obs, key) -> (action, log_prob, value)`` for a batch of observations."""

    def policy(params, obs, key):
        logits, value = apply_fn(params, obs)
        action = jax.random.categorical(key, logits)
        log_prob = jnp.take_along_axis(jax.nn.log_softmax(logits), action[..., None], -1)[..., 0]
        return action, log_prob, value

    return policy


def gae(traj: Transition, last_value, gamma: float, lam: float):
    """Generalised advantage estimates and value targets, both (num_steps, num_envs)."""

    def back(carry, t):
        next_adv, next_value = carry
        reward, value, done = t
        live = 1.0 - done.astype(jnp.float32)
        delta = reward + gamma * next_value * live - value
        adv = delta + gamma * lam * live * next_adv
        return (adv, value), adv

    init = (jnp.zeros_like(last_value), last_value)
    _, adv = jax.lax.scan(back, init, (traj.reward, traj.value, traj.done), reverse=True)
    return adv, adv + traj.value


def make_update(config: PPOConfig) -> Callable:
    """``update(train_state, traj, last_obs, key) -> (train_state, losses)``: one PPO update."""

    def loss_fn(params, apply_fn, batch, adv, target):
        logits, value = apply_fn(params, batch.obs)
        logp_all = jax.nn.log_softmax(logits)
        log_prob = jnp.take_along_axis(logp_all, batch.action[..., None], -1)[..., 0]
        # Value loss clipped around the rollout's values, as CleanRL's default (clip_vloss).
        v_clipped = batch.value + jnp.clip(value - batch.value, -config.clip_eps, config.clip_eps)
        v_loss = 0.5 * jnp.maximum((value - target) ** 2, (v_clipped - target) ** 2).mean()
        ratio = jnp.exp(log_prob - batch.log_prob)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        pg = jnp.maximum(-adv * ratio,
                         -adv * jnp.clip(ratio, 1 - config.clip_eps, 1 + config.clip_eps)).mean()
        entropy = -(jnp.exp(logp_all) * logp_all).sum(-1).mean()
        total = pg + config.vf_coef * v_loss - config.ent_coef * entropy
        return total, (pg, v_loss, entropy)

    def update(train_state: TrainState, traj: Transition, last_obs, key):
        _, last_value = train_state.apply_fn(train_state.params, last_obs)
        adv, target = gae(traj, last_value, config.gamma, config.gae_lambda)
        flat = lambda x: x.reshape((config.batch_size,) + x.shape[2:])
        data = (jax.tree_util.tree_map(flat, traj), flat(adv), flat(target))

        def epoch(carry, _):
            ts, key = carry
            key, k = jax.random.split(key)
            order = jax.random.permutation(k, config.batch_size)
            shuffled = jax.tree_util.tree_map(
                lambda x: x[order].reshape((config.num_minibatches, -1) + x.shape[1:]), data)

            def minibatch(ts, mb):
                batch, mb_adv, mb_target = mb
                grads, aux = jax.grad(loss_fn, has_aux=True)(ts.params, ts.apply_fn, batch, mb_adv,
                                                             mb_target)
                return ts.apply_gradients(grads=grads), jnp.stack(aux)

            ts, aux = jax.lax.scan(minibatch, ts, shuffled)
            return (ts, key), aux

        (train_state, _), aux = jax.lax.scan(epoch, (train_state, key), None,
                                             length=config.update_epochs)
        return train_state, aux.mean(axis=(0, 1))  # policy loss, value loss, entropy

    return update


def training_reward(config: PPOConfig, reward):
    return jnp.sign(reward) if config.clip_rewards else reward


def make_chunk(config: PPOConfig, env) -> Callable:
    """``chunk(runner, n) -> (runner, stats)``: ``n`` (static) updates of rollout + learning on a
    JAX env (vmapped over ``config.num_envs``). ``stats`` per update: the summed unclipped return of
    the episodes that ended, their count, and the mean losses."""
    update = make_update(config)
    step_envs = jax.vmap(env.step)

    def one_update(runner: Runner, _):
        policy = make_policy(runner.train_state.apply_fn)

        def env_step(carry, _):
            env_state, obs, key = carry
            key, k_act = jax.random.split(key)
            action, log_prob, value = policy(runner.train_state.params, obs, k_act)
            next_obs, env_state, reward, done, info = step_envs(env_state, action)
            ended = info["returned_episode"]
            t = Transition(obs, action, log_prob, value, training_reward(config, reward), done)
            logged = (jnp.where(ended, info["returned_episode_return"], 0.0).sum(), ended.sum())
            return (env_state, next_obs, key), (t, logged)

        (env_state, obs, key), (traj, logged) = jax.lax.scan(
            env_step, (runner.env_state, runner.obs, runner.key), None, length=config.num_steps)
        key, k_upd = jax.random.split(key)
        train_state, losses = update(runner.train_state, traj, obs, k_upd)
        stats = {"return_sum": logged[0].sum(), "episodes": logged[1].sum(), "losses": losses}
        return Runner(train_state, env_state, obs, key, runner.update + 1), stats

    def chunk(runner: Runner, n: int):
        return jax.lax.scan(one_update, runner, None, length=n)

    return chunk


def init_runner(config: PPOConfig, env, key) -> Runner:
    k_net, k_env, k_run = jax.random.split(key, 3)
    obs, env_state = jax.vmap(env.reset)(jax.random.split(k_env, config.num_envs))
    train_state = init_train_state(config, env.num_actions, obs, k_net)
    return Runner(train_state, env_state, obs, k_run, jnp.int32(0))


def make_train(config: PPOConfig, env) -> Callable:
    """``train(key) -> (runner, stats)``: the whole training run of one seed as one jittable
    function (``jax.jit(jax.vmap(train))(keys)`` trains several seeds at once, except on XLA's CPU
    with the full-size object MLP, whose vmapped initialisation deadlocks there: see
    :class:`alignment.stress.sides.JaxSide`, which initialises seeds one by one). ``env`` is a
    vmappable JAX env (a game's: :func:`make_jax_env`); ``stats`` has one entry per update."""
    chunk = make_chunk(config, env)

    def train(key):
        return chunk(init_runner(config, env, key), config.num_updates)

    return train


def make_jax_env(game: str, config: PPOConfig, mods=()):
    """The JAX game (built with ``mods``) under the ALE v5 protocol, as the learner sees it
    (episodic life per config, the frame stack for pixels, returns logged unclipped)."""
    from jaxtari.wrappers import make_env
    from alignment.learning.config import FRAME_STACK

    if config.protocol == "envpool":
        return _envpool_env(game, config, mods)
    extra = {"mods": tuple(mods)} if mods else {}
    return make_env(game, obs=config.obs, frame_stack=FRAME_STACK if config.obs == "pixels" else 1,
                    sticky_prob=config.sticky_prob, episodic_life=config.episodic_life, **extra)


def _envpool_env(game: str, config: PPOConfig, mods=()):
    """The JAX game as CleanRL's EnvPool scripts make their env (``envpool.make(..., episodic_life,
    reward_clip)`` with EnvPool's defaults for the rest), one env's functions, returns logged
    unclipped: the learner clips rewards itself as for v5."""
    from jaxtari.dropin import env_name
    from jaxtari.envpool import Functional
    from jaxtari.wrappers import LogWrapper
    from alignment.learning.config import FRAME_STACK, LearnerInputError

    if mods:
        raise LearnerInputError("the envpool protocol trains on the original game (jaxtari.envpool "
                                "takes no mods); train modified games under v5")
    env = Functional(f"{env_name(game)}-v5", episodic_life=config.episodic_life, reward_clip=False,
                     stack_num=FRAME_STACK, repeat_action_probability=config.sticky_prob)
    return LogWrapper(env)
