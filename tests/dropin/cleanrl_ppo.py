"""A small PPO driven through jaxtari.envpool the way CleanRL's two EnvPool Atari scripts drive
EnvPool (github.com/vwxyzjn/cleanrl, cleanrl/ppo_atari_envpool_xla_jax_scan.py and
cleanrl/ppo_atari_envpool.py, read on main): the same envpool calls, in the same order, with the
same arguments, under the gym 0.23 API those scripts were written for (CleanRL pins envpool 0.6.6
with gym 0.23.1). The learner is this project's own, small enough for a CPU; only the calls into
the pool follow the scripts.

- :func:`run_scan`: ``make(env_id, env_type="gym", num_envs, episodic_life=True,
  reward_clip=True, seed)``; the vector-env attributes the script sets on the pool; ``xla()``;
  the ``gym.spaces.Discrete`` check; a network built from ``single_observation_space.sample()``;
  ``reset()`` (observations only); then rollouts of ``step_env(handle, action)`` inside
  ``lax.scan`` under ``jax.jit``, keeping episode statistics from ``info["reward"]``,
  ``info["terminated"]`` and ``info["TimeLimit.truncated"]`` as the script does.
- :func:`run_numpy`: the same ``make``; the attributes; a ``gym.Wrapper`` that keeps episode
  statistics from ``info["reward"]`` and ``info["terminated"]``; the ``Discrete`` check on the
  wrapper; ``reset()``; ``step(action)`` with numpy int64 actions, 4-tuples back, and a game's end
  read where ``done`` and ``info["lives"] == 0``.
"""

from __future__ import annotations

import dataclasses

import flax.linen as nn
import gym
import jax
import jax.numpy as jnp
import numpy as np
import optax

import jaxtari.envpool as envpool  # CleanRL's scripts: `import envpool`


@dataclasses.dataclass(frozen=True)
class Config:
    env_id: str = "Breakout-v5"
    seed: int = 1
    num_envs: int = 4
    num_steps: int = 16
    iterations: int = 2
    epochs: int = 2
    minibatches: int = 2
    lr: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.1
    ent_coef: float = 0.01
    vf_coef: float = 0.5


class Agent(nn.Module):
    """A small conv net (CleanRL's layout, fewer channels): channel-first frames in, logits and a
    value out."""

    actions: int

    @nn.compact
    def __call__(self, x):
        x = jnp.transpose(x, (0, 2, 3, 1)).astype(jnp.float32) / 255.0
        x = nn.relu(nn.Conv(8, (8, 8), (4, 4), padding="VALID")(x))
        x = nn.relu(nn.Conv(16, (4, 4), (2, 2), padding="VALID")(x))
        x = nn.relu(nn.Dense(64)(x.reshape(x.shape[0], -1)))
        return nn.Dense(self.actions)(x), nn.Dense(1)(x)[:, 0]


def make_env(cfg: Config):
    """The pool as both scripts make it, with the attributes they set on it."""
    envs = envpool.make(cfg.env_id, env_type="gym", num_envs=cfg.num_envs, episodic_life=True,
                        reward_clip=True, seed=cfg.seed)
    envs.num_envs = cfg.num_envs
    envs.single_action_space = envs.action_space
    envs.single_observation_space = envs.observation_space
    envs.is_vector_env = True
    return envs


class Learner:
    """PPO's sampling, advantages and update, as pure functions of a batch."""

    def __init__(self, cfg: Config, envs):
        self.cfg = cfg
        self.net = Agent(envs.single_action_space.n)
        sample = np.array([envs.single_observation_space.sample()])
        self.params = self.net.init(jax.random.PRNGKey(cfg.seed), sample)
        self.tx = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(cfg.lr, eps=1e-5))
        self.opt_state = self.tx.init(self.params)
        self.update = jax.jit(self._update)
        self.act = jax.jit(self._act)

    def _act(self, params, obs, key):
        logits, value = self.net.apply(params, obs)
        key, sub = jax.random.split(key)
        action = jax.random.categorical(sub, logits)
        logp = jax.nn.log_softmax(logits)[jnp.arange(action.shape[0]), action]
        return action, logp, value, key

    def _advantages(self, params, batch, next_obs, next_done):
        cfg = self.cfg
        _, next_value = self.net.apply(params, next_obs)
        dones = jnp.concatenate([batch["dones"], next_done[None]]).astype(jnp.float32)
        values = jnp.concatenate([batch["values"], next_value[None]])

        def back(gae, x):
            done_next, value_next, value, reward = x
            keep = 1.0 - done_next
            gae = reward + cfg.gamma * value_next * keep - value + cfg.gamma * cfg.gae_lambda * keep * gae
            return gae, gae

        _, adv = jax.lax.scan(back, jnp.zeros(cfg.num_envs),
                              (dones[1:], values[1:], values[:-1], batch["rewards"]), reverse=True)
        return adv, adv + batch["values"]

    def _loss(self, params, obs, actions, logp_old, adv, returns):
        cfg = self.cfg
        logits, value = self.net.apply(params, obs)
        logp_all = jax.nn.log_softmax(logits)
        ratio = jnp.exp(logp_all[jnp.arange(actions.shape[0]), actions] - logp_old)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        pg = jnp.maximum(-adv * ratio, -adv * jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip)).mean()
        v = 0.5 * ((value - returns) ** 2).mean()
        entropy = -(jnp.exp(logp_all) * logp_all).sum(-1).mean()
        return pg - cfg.ent_coef * entropy + cfg.vf_coef * v, entropy

    def _update(self, params, opt_state, batch, next_obs, next_done, key):
        cfg = self.cfg
        adv, returns = self._advantages(params, batch, next_obs, next_done)
        flat = [x.reshape((-1,) + x.shape[2:]) for x in
                (batch["obs"], batch["actions"], batch["logprobs"], adv, returns)]
        size = cfg.num_envs * cfg.num_steps

        def epoch(carry, k):
            def minibatch(carry, idx):
                params, opt_state = carry
                (loss, entropy), grads = jax.value_and_grad(self._loss, has_aux=True)(
                    params, *(x[idx] for x in flat))
                updates, opt_state = self.tx.update(grads, opt_state, params)
                return (optax.apply_updates(params, updates), opt_state), (loss, entropy)

            order = jax.random.permutation(k, size).reshape(cfg.minibatches, -1)
            return jax.lax.scan(minibatch, carry, order)

        (params, opt_state), losses = jax.lax.scan(epoch, (params, opt_state),
                                                   jax.random.split(key, cfg.epochs))
        return params, opt_state, losses


def run_scan(cfg: Config = Config()):
    """CleanRL's JAX scan script's calls; returns the per-step records and the losses."""
    envs = make_env(cfg)
    handle, recv, send, step_env = envs.xla()
    assert isinstance(envs.single_action_space, gym.spaces.Discrete)
    learner = Learner(cfg, envs)
    zeros_f, zeros_i = jnp.zeros(cfg.num_envs, jnp.float32), jnp.zeros(cfg.num_envs, jnp.int32)
    stats = {"returns": zeros_f, "lengths": zeros_i, "returned_returns": zeros_f, "returned_lengths": zeros_i}

    def step_with_stats(stats, handle, action):
        handle, (next_obs, reward, next_done, info) = step_env(handle, action)
        ret = stats["returns"] + info["reward"]
        length = stats["lengths"] + 1
        keep = (1 - info["terminated"]) * (1 - info["TimeLimit.truncated"])
        ended = info["terminated"] + info["TimeLimit.truncated"]
        stats = {"returns": ret * keep, "lengths": length * keep,
                 "returned_returns": jnp.where(ended, ret, stats["returned_returns"]),
                 "returned_lengths": jnp.where(ended, length, stats["returned_lengths"])}
        return stats, handle, (next_obs, reward, next_done, info)

    @jax.jit
    def rollout(params, stats, obs, done, key, handle):
        def one(carry, _):
            stats, obs, done, key, handle = carry
            action, logp, value, key = learner._act(params, obs, key)
            stats, handle, (next_obs, reward, next_done, info) = step_with_stats(stats, handle, action)
            record = {"obs": obs, "actions": action, "logprobs": logp, "dones": done, "values": value,
                      "rewards": reward, "next_done": next_done, "info": info, "returned": stats["returned_returns"]}
            return (stats, next_obs, next_done, key, handle), record

        return jax.lax.scan(one, (stats, obs, done, key, handle), None, cfg.num_steps)

    next_obs = envs.reset()
    assert isinstance(next_obs, np.ndarray)  # gym 0.23: observations only
    next_done = jnp.zeros(cfg.num_envs, dtype=jnp.bool_)
    key = jax.random.PRNGKey(cfg.seed)
    params, opt_state, records, losses = learner.params, learner.opt_state, [], []
    for _ in range(cfg.iterations):
        (stats, next_obs, next_done, key, handle), batch = rollout(params, stats, next_obs, next_done, key, handle)
        key, k = jax.random.split(key)
        params, opt_state, loss = learner.update(params, opt_state, batch, next_obs, next_done, k)
        records.append(jax.device_get(batch))
        losses.append(jax.device_get(loss))
    return records, losses, (learner.params, params)


class EpisodeStatistics(gym.Wrapper):
    """Episode returns and lengths from the pool's info, kept as CleanRL's torch script keeps them:
    summed from ``info["reward"]`` (unclipped) and restarted when ``info["terminated"]`` (the game,
    not a life, ended); ``info["r"]`` / ``info["l"]`` are the sums up to this step."""

    def __init__(self, env):
        super().__init__(env)
        self.num_envs = getattr(env, "num_envs", 1)

    def reset(self, **kwargs):
        obs = super().reset(**kwargs)
        self.returns = np.zeros(self.num_envs, np.float32)
        self.lengths = np.zeros(self.num_envs, np.int32)
        return obs

    def step(self, action):
        obs, reward, done, info = super().step(action)
        self.returns += info["reward"]
        self.lengths += 1
        info["r"], info["l"] = self.returns.copy(), self.lengths.copy()
        self.returns *= 1 - info["terminated"]
        self.lengths *= 1 - info["terminated"]
        return obs, reward, done, info


def run_numpy(cfg: Config = Config()):
    """CleanRL's torch script's calls (the learner in JAX); returns the per-step records, the games
    that ended (env, return, length) and the losses."""
    envs = EpisodeStatistics(make_env(cfg))
    assert isinstance(envs.action_space, gym.spaces.Discrete)
    learner = Learner(cfg, envs)
    next_obs = envs.reset()
    next_done = np.zeros(cfg.num_envs, bool)
    key = jax.random.PRNGKey(cfg.seed)
    params, opt_state, records, games, losses = learner.params, learner.opt_state, [], [], []
    for _ in range(cfg.iterations):
        batch = {k: [] for k in ("obs", "actions", "logprobs", "dones", "values", "rewards")}
        for _ in range(cfg.num_steps):
            action, logp, value, key = learner.act(params, next_obs, key)
            for name, x in (("obs", next_obs), ("actions", action), ("logprobs", logp), ("dones", next_done),
                            ("values", value)):
                batch[name].append(np.asarray(x))
            next_obs, reward, next_done, info = envs.step(np.asarray(action).astype(np.int64))
            batch["rewards"].append(reward)
            records.append((reward, next_done, info))
            for idx, d in enumerate(next_done):
                if d and info["lives"][idx] == 0:
                    games.append((idx, float(info["r"][idx]), int(info["l"][idx])))
        batch = {k: jnp.asarray(np.stack(v)) for k, v in batch.items()}
        key, k = jax.random.split(key)
        params, opt_state, loss = learner.update(params, opt_state, batch, jnp.asarray(next_obs),
                                                 jnp.asarray(next_done), k)
        losses.append(jax.device_get(loss))
    return records, games, losses
