"""The same PPO learner fed by the real emulator.

Only the rollout differs from the JAX side: :class:`AleVecEnv` steps ``num_envs`` ``ale_py``
interfaces under the ALE v5 protocol (frameskip 4 inside ALE, ALE's own sticky actions 0.25, the
108,000-frame cap) and returns the JAX game's object-centric vector decoded from RAM
(:mod:`alignment.reference.features`). Pixels come from ale-py's ``AtariVectorEnv`` instead
(:mod:`alignment.stress.pixels`).
The policy and the update are the very functions the JAX
side compiles (:func:`alignment.learning.ppo.make_policy`, :func:`~alignment.learning.ppo.make_update`),
vmapped over seeds; the host loop only moves arrays between the emulators and those functions.
"""

from __future__ import annotations

import pickle
from typing import Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from alignment import catalog
from alignment.learning.config import PPOConfig
from alignment.learning.ppo import (Runner, Transition, init_train_state, make_policy, make_update,
                                    training_reward)
from alignment.reference.features import FeatureDecoder
from alignment.signals import apply_ram_writes, merge_ram_writes
from jaxtari.protocol import V5


def ram_writes(canon: str, mods: Sequence[str]) -> tuple:
    """The merged RAM writes of ``mods``' ALE counterparts (none: the original game), what the
    emulators apply after every frame when training on a modified game."""
    if not mods:
        return ()
    entry = catalog.entry(canon)
    return merge_ram_writes(canon, {n: entry.ale_mods[n] for n in mods})


def _ale_interface(rom: str, seed: int, sticky: float, frame_skip: int = V5.frameskip):
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setInt("random_seed", int(seed) % (2 ** 31))
    ale.setFloat("repeat_action_probability", float(sticky))
    ale.setInt("frame_skip", frame_skip)
    ale.setInt("max_num_frames_per_episode", V5.max_num_frames_per_episode)
    ale.loadROM(roms.get_rom_path(rom))
    return ale


class AleVecEnv:
    """``num_envs`` emulators of one game, auto-resetting, object-centric observations.

    ``step(actions) -> (obs, reward, done, ended, returns)``: ``done`` ends the training episode
    (game over, truncation, or a lost life under episodic life); ``ended`` marks a finished game
    whose unclipped return is in ``returns``.
    """

    def __init__(self, game: str, num_envs: int, seed: int, *,
                 sticky: float = V5.repeat_action_probability,
                 episodic_life: bool = True, decoder: FeatureDecoder | None = None,
                 writes: tuple = ()):
        from alignment.catalog import entry

        cat = entry(game)
        self.game = cat.name
        self.decoder = decoder or FeatureDecoder(cat.name)
        # a modified game's RAM writes land after every frame: ALE steps one frame per act then
        # (its sticky draw is per frame either way)
        self.writes = tuple(writes)
        skip = 1 if self.writes else V5.frameskip
        self.envs = [_ale_interface(cat.rom, seed * 1000 + i, sticky, skip)
                     for i in range(num_envs)]
        self.actions = self.envs[0].getMinimalActionSet()
        self.episodic_life = episodic_life
        self.returns = np.zeros(num_envs, np.float64)
        for ale in self.envs:
            self._reset(ale)
        self.lives = np.array([ale.lives() for ale in self.envs])

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def _rams(self) -> np.ndarray:
        return np.stack([ale.getRAM() for ale in self.envs])

    def _reset(self, ale) -> None:
        ale.reset_game()
        if self.writes:
            apply_ram_writes(self.writes, "reset", ale.getRAM(), ale.setRAM)

    def _act(self, ale, action) -> float:
        if not self.writes:
            return ale.act(action)
        reward = 0.0
        for _ in range(V5.frameskip):
            reward += ale.act(action)
            apply_ram_writes(self.writes, "frame", ale.getRAM(), ale.setRAM)
            if ale.game_over():
                break
        return reward

    def observe(self) -> np.ndarray:
        return self.decoder(self._rams())

    def step(self, actions: np.ndarray):
        n = len(self.envs)
        reward = np.zeros(n, np.float32)
        done = np.zeros(n, bool)
        ended = np.zeros(n, bool)
        returns = np.zeros(n, np.float32)
        for i, (ale, a) in enumerate(zip(self.envs, actions)):
            reward[i] = self._act(ale, self.actions[int(a)])
            self.returns[i] += reward[i]
            lives = ale.lives()
            if ale.game_over():
                ended[i] = done[i] = True
                returns[i] = self.returns[i]
                self.returns[i] = 0.0
                self._reset(ale)
                lives = ale.lives()
            elif self.episodic_life and lives < self.lives[i]:
                done[i] = True
            self.lives[i] = lives
        return self.observe(), reward, done, ended, returns

    # -- checkpoints: the emulators' exact state (RNG included) and the episode counters ----------
    def snapshot(self) -> bytes:
        states = [ale.cloneState(include_rng=True) for ale in self.envs]
        return pickle.dumps({"states": states, "returns": self.returns.copy(),
                             "lives": self.lives.copy()})

    def restore(self, blob: bytes) -> None:
        data = pickle.loads(blob)
        for ale, s in zip(self.envs, data["states"]):
            ale.restoreState(s)
        self.returns = np.asarray(data["returns"], np.float64)
        self.lives = np.asarray(data["lives"])


class AleTrainer:
    """PPO on ALE for several seeds at once: one :class:`AleVecEnv` per seed, the policy and the
    update vmapped over seeds (the same jitted functions as the JAX side)."""

    def __init__(self, game: str, config: PPOConfig, writes: tuple = ()):
        self.game = game
        self.config = config
        self.writes = tuple(writes)
        self.decoder = FeatureDecoder(game) if config.obs == "objects" else None
        update = make_update(config)
        self._update = jax.jit(jax.vmap(update))
        self._policy: Callable | None = None

    def make_envs(self, seed: int):
        c = self.config
        if c.obs == "pixels":
            from alignment.stress.pixels import AlePixelVecEnv

            return AlePixelVecEnv(self.game, c.num_envs, seed, sticky=c.sticky_prob,
                                  episodic_life=c.episodic_life)
        return AleVecEnv(self.game, c.num_envs, seed, sticky=c.sticky_prob,
                         episodic_life=c.episodic_life, decoder=self.decoder, writes=self.writes)

    def init(self, seeds: list[int]) -> tuple[Runner, list[AleVecEnv]]:
        """Fresh runners (stacked over seeds) and their emulators."""
        envs = [self.make_envs(s) for s in seeds]
        obs = np.stack([e.observe() for e in envs])

        def one(key, obs):
            k_net, _, k_run = jax.random.split(key, 3)
            ts = init_train_state(self.config, envs[0].num_actions, obs, k_net)
            return Runner(ts, None, obs, k_run, jnp.int32(0))

        # one seed at a time, as the JAX side (see alignment.stress.sides.JaxSide)
        init = jax.jit(one)
        runners = [init(jax.random.key(s), jnp.asarray(o)) for s, o in zip(seeds, obs)]
        return jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *runners), envs

    def chunk(self, runner: Runner, envs: list[AleVecEnv], n: int, on_step: Callable | None = None):
        """``n`` updates; returns the runner and per-update stats shaped like the JAX side's
        (arrays (seeds, n)). ``on_step(agent_steps)`` is called after each vectorised step."""
        c = self.config
        if self._policy is None:
            policy = make_policy(runner.train_state.apply_fn)

            def act(params, obs, key):
                key, k = jax.random.split(key)
                return policy(params, obs, k) + (key,)

            self._policy = jax.jit(jax.vmap(act))
        seeds = len(envs)
        out = {"return_sum": np.zeros((seeds, n)), "episodes": np.zeros((seeds, n)),
               "losses": np.zeros((seeds, n, 3))}
        ts, obs, key, count = runner.train_state, runner.obs, runner.key, runner.update
        for u in range(n):
            steps = []
            for _ in range(c.num_steps):
                action, log_prob, value, key = self._policy(ts.params, obs, key)
                acts = np.asarray(action)
                results = [env.step(a) for env, a in zip(envs, acts)]
                next_obs = np.stack([r[0] for r in results])
                reward = np.stack([r[1] for r in results])
                done = np.stack([r[2] for r in results])
                ended = np.stack([r[3] for r in results])
                rets = np.stack([r[4] for r in results])
                out["return_sum"][:, u] += (rets * ended).sum(axis=1)
                out["episodes"][:, u] += ended.sum(axis=1)
                steps.append((obs, action, log_prob, value, reward, done))
                obs = jnp.asarray(next_obs)
                if on_step is not None:
                    on_step(seeds * c.num_envs)
            o, a, lp, v, r, d = (jnp.stack(x, axis=1) for x in zip(*steps))  # (seeds, T, N, ...)
            traj = Transition(o, a, lp, v, training_reward(c, r), d)
            keys = jax.vmap(lambda k: jax.random.split(k))(key)
            key, k_upd = keys[:, 0], keys[:, 1]
            ts, losses = self._update(ts, traj, obs, k_upd)
            out["losses"][:, u] = np.asarray(losses)
            count = count + 1
        return Runner(ts, None, obs, key, count), out
