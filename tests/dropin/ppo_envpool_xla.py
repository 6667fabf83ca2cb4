"""A small PPO written against EnvPool's documented XLA API (envpool.readthedocs.io, "XLA
Interface": ``handle, recv, send, step = env.xla()``; ``step(handle, action) -> (handle, (obs,
reward, terminated, truncated, info))``), run inside one ``jax.jit`` with ``lax.scan`` over the
rollout. Only the import below names jaxtari: with EnvPool installed, ``import envpool`` runs it
unchanged. Deliberately tiny (pooled pixels into an MLP) so that a few updates run on a CPU.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import optax

import jaxtari.envpool as envpool  # the one line that changes: `import envpool`


@dataclasses.dataclass(frozen=True)
class Config:
    env_id: str = "Pong-v5"
    num_envs: int = 4
    num_steps: int = 16
    num_updates: int = 3
    epochs: int = 2
    minibatches: int = 2
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.1
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    lr: float = 2.5e-4
    hidden: int = 64
    pool: int = 6  # 84 / 6 = 14: frames are average-pooled before the MLP
    seed: int = 1


def init_params(key, obs_shape, num_actions, cfg: Config):
    stack, h, w = obs_shape
    inputs = stack * (h // cfg.pool) * (w // cfg.pool)
    k1, k2, k3 = jax.random.split(key, 3)
    orth = jax.nn.initializers.orthogonal
    return {
        "w": orth(np.sqrt(2))(k1, (inputs, cfg.hidden)), "b": jnp.zeros(cfg.hidden),
        "pi": orth(0.01)(k2, (cfg.hidden, num_actions)), "pi_b": jnp.zeros(num_actions),
        "v": orth(1.0)(k3, (cfg.hidden, 1)), "v_b": jnp.zeros(1),
    }


def forward(params, obs, cfg: Config):
    x = obs.astype(jnp.float32) / 255.0
    n, s, h, w = x.shape
    x = x.reshape(n, s, h // cfg.pool, cfg.pool, w // cfg.pool, cfg.pool).mean((3, 5)).reshape(n, -1)
    z = jax.nn.relu(x @ params["w"] + params["b"])
    return z @ params["pi"] + params["pi_b"], (z @ params["v"] + params["v_b"])[:, 0]


def train(cfg: Config = Config()):
    envs = envpool.make(cfg.env_id, env_type="gymnasium", num_envs=cfg.num_envs, episodic_life=True,
                        reward_clip=True, seed=cfg.seed)
    handle, recv, send, step_env = envs.xla()
    obs, _ = envs.reset()
    num_actions = envs.action_space.n
    params = init_params(jax.random.key(cfg.seed), envs.observation_space.shape, num_actions, cfg)
    opt = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(cfg.lr, eps=1e-5))
    opt_state = opt.init(params)

    def rollout(params, handle, obs, done, stats, key):
        def one(carry, k):
            handle, obs, done, stats = carry
            logits, value = forward(params, obs, cfg)
            action = jax.random.categorical(k, logits)
            logp = jax.nn.log_softmax(logits)[jnp.arange(cfg.num_envs), action]
            handle, (next_obs, reward, terminated, truncated, info) = step_env(handle, action)
            # episode statistics on the true game end (info["terminated"]), not a lost life
            ret = stats["ret"] + info["reward"]
            over = (info["terminated"] > 0) | truncated
            stats = {"ret": jnp.where(over, 0.0, ret),
                     "finished": stats["finished"] + over.sum(),
                     "last": jnp.where(over, ret, stats["last"])}
            out = (obs, action, logp, value, reward, done)
            return (handle, next_obs, terminated | truncated, stats), out

        keys = jax.random.split(key, cfg.num_steps)
        (handle, obs, done, stats), batch = jax.lax.scan(one, (handle, obs, done, stats), keys)
        return handle, obs, done, stats, batch

    def advantages(params, batch, last_obs, last_done):
        _, _, _, values, rewards, dones = batch
        _, last_value = forward(params, last_obs, cfg)

        def back(carry, x):
            gae, next_value, next_done = carry
            value, reward, done = x
            delta = reward + cfg.gamma * next_value * (1.0 - next_done) - value
            gae = delta + cfg.gamma * cfg.gae_lambda * (1.0 - next_done) * gae
            return (gae, value, done.astype(jnp.float32)), gae

        init = (jnp.zeros(cfg.num_envs), last_value, last_done.astype(jnp.float32))
        # the done stored with step t says whether obs t began a new episode, so the done that
        # cuts the bootstrap from t is the one stored with t + 1
        _, adv = jax.lax.scan(back, init, (values, rewards, dones.astype(jnp.float32)), reverse=True)
        return adv, adv + values

    def loss_fn(params, obs, actions, old_logp, adv, targets):
        logits, value = forward(params, obs, cfg)
        logp_all = jax.nn.log_softmax(logits)
        logp = logp_all[jnp.arange(actions.shape[0]), actions]
        ratio = jnp.exp(logp - old_logp)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        pg = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv).mean()
        v = 0.5 * ((value - targets) ** 2).mean()
        entropy = -(jnp.exp(logp_all) * logp_all).sum(-1).mean()
        return pg + cfg.vf_coef * v - cfg.ent_coef * entropy, (pg, v, entropy)

    @jax.jit
    def update(params, opt_state, handle, obs, done, stats, key):
        key, k_roll = jax.random.split(key)
        handle, obs, done, stats, batch = rollout(params, handle, obs, done, stats, k_roll)
        adv, targets = advantages(params, batch, obs, done)
        flat = jax.tree_util.tree_map(lambda x: x.reshape((-1,) + x.shape[2:]),
                                      (batch[0], batch[1], batch[2], adv, targets))
        size = cfg.num_envs * cfg.num_steps

        def epoch(carry, k):
            params, opt_state = carry
            order = jax.random.permutation(k, size).reshape(cfg.minibatches, -1)

            def minibatch(carry, idx):
                params, opt_state = carry
                (loss, aux), grads = jax.value_and_grad(loss_fn, has_aux=True)(
                    params, *(x[idx] for x in flat))
                updates, opt_state = opt.update(grads, opt_state, params)
                return (optax.apply_updates(params, updates), opt_state), (loss, *aux)

            return jax.lax.scan(minibatch, (params, opt_state), order)

        (params, opt_state), losses = jax.lax.scan(epoch, (params, opt_state),
                                                   jax.random.split(key, cfg.epochs))
        return params, opt_state, handle, obs, done, stats, losses

    done = jnp.zeros(cfg.num_envs, bool)
    stats = {"ret": jnp.zeros(cfg.num_envs), "finished": jnp.int32(0), "last": jnp.zeros(cfg.num_envs)}
    key = jax.random.key(cfg.seed)
    history = []
    for _ in range(cfg.num_updates):
        key, k = jax.random.split(key)
        params, opt_state, handle, obs, done, stats, losses = update(params, opt_state, handle, obs, done,
                                                                     stats, k)
        history.append(jax.tree_util.tree_map(np.asarray, losses))
    return params, history, jax.tree_util.tree_map(np.asarray, stats)
