"""CleanRL's EnvPool Atari scripts' calls on jaxtari.envpool (tests/dropin/cleanrl_ppo.py makes
them, in the scripts' order with their arguments), and what they read from ``info`` meaning what
it means in EnvPool: ``reward`` unclipped, ``terminated`` the game's end (not a life's),
``TimeLimit.truncated`` the step limit, ``elapsed_step`` the game's steps, ``lives``."""

from __future__ import annotations

import numpy as np
import pytest

from tests.dropin import cleanrl_ppo


def check_step_meanings(reward, done, info, prev_lives, prev_elapsed, started):
    """One step's rows against EnvPool's Atari semantics (episodic_life and reward_clip on).
    ``started``: rows whose previous call ended an episode (this call starts the next)."""
    np.testing.assert_array_equal(reward, np.sign(info["reward"]))  # reward_clip: the sign of the raw reward
    game_over = info["terminated"].astype(bool)
    life_lost = info["lives"] < prev_lives
    trunc = info["TimeLimit.truncated"]
    assert info["terminated"].dtype == np.int32 and trunc.dtype == bool
    # done: the game ended, a life was lost (episodic_life) or the step limit cut the game
    np.testing.assert_array_equal(done, ~started & (game_over | life_lost | trunc))
    # a start discards its action: reward 0, not done; the step count goes on over lives
    assert (info["reward"][started] == 0).all() and not done[started].any()
    cont = ~started
    np.testing.assert_array_equal(info["elapsed_step"][cont], prev_elapsed[cont] + 1)
    np.testing.assert_array_equal(info["env_id"], np.arange(len(reward)))


def test_the_jax_scan_scripts_calls_and_a_short_ppo_run():
    """ppo_atari_envpool_xla_jax_scan.py's calls on Breakout (lives, so episodic_life shows): the
    4-tuple XLA step inside lax.scan, info's keys with EnvPool's meaning, CleanRL's episode
    statistics counting games (not lives), and two PPO updates that move the policy."""
    cfg = cleanrl_ppo.Config(num_steps=96, iterations=2)
    records, losses, (before, after) = cleanrl_ppo.run_scan(cfg)
    rewards = np.concatenate([r["rewards"] for r in records])
    dones = np.concatenate([r["next_done"] for r in records])
    info = {k: np.concatenate([r["info"][k] for r in records]) for k in
            ("reward", "terminated", "TimeLimit.truncated", "elapsed_step", "lives", "env_id")}
    steps = len(rewards)
    prev_lives = np.full(cfg.num_envs, 5)
    prev_elapsed = np.zeros(cfg.num_envs, np.int32)
    started = np.zeros(cfg.num_envs, bool)  # reset() was the first call: every env has started
    for t in range(steps):
        row = {k: v[t] for k, v in info.items()}
        check_step_meanings(rewards[t], dones[t], row, prev_lives, prev_elapsed, started)
        prev_lives, prev_elapsed, started = row["lives"], row["elapsed_step"], dones[t]
    lost = dones & (info["terminated"] == 0) & ~info["TimeLimit.truncated"]
    assert lost.sum() >= 2, "no life was lost: episodic_life not exercised"
    # CleanRL's statistics keep a game's return until the game (not a life) ends
    returned = np.concatenate([r["returned"] for r in records])
    moved = np.flatnonzero((returned[1:] != returned[:-1]).any(axis=0))
    ended = (info["terminated"] + info["TimeLimit.truncated"]) > 0
    for i in moved:
        assert ended[1:, i][returned[1:, i] != returned[:-1, i]].all()
    for loss, entropy in losses:
        assert np.isfinite(loss).all() and (entropy > 0).all()
    assert not np.allclose(before["params"]["Dense_1"]["kernel"], after["params"]["Dense_1"]["kernel"])


@pytest.mark.slow
def test_the_torch_scripts_calls_and_a_short_ppo_run():
    """ppo_atari_envpool.py's calls: a gym.Wrapper over the pool, reset() giving observations only,
    step(int64 actions) giving 4-tuples; a game counted once, where done and info["lives"] == 0,
    with the return summed from info["reward"] over all its lives."""
    cfg = cleanrl_ppo.Config(env_id="Breakout-v5", num_steps=128, iterations=2)
    records, games, losses = cleanrl_ppo.run_numpy(cfg)
    prev_lives = np.full(cfg.num_envs, 5)
    prev_elapsed = np.zeros(cfg.num_envs, np.int32)
    started = np.zeros(cfg.num_envs, bool)
    game_returns = np.zeros(cfg.num_envs)
    finished = []
    for reward, done, info in records:
        check_step_meanings(reward, done, info, prev_lives, prev_elapsed, started)
        game_returns += info["reward"]
        for i in np.flatnonzero(done & (info["lives"] == 0)):
            assert info["terminated"][i] == 1  # the last life's end is the game's
            finished.append((int(i), float(game_returns[i]), int(info["elapsed_step"][i])))
        game_returns[info["terminated"] == 1] = 0
        prev_lives, prev_elapsed, started = info["lives"], info["elapsed_step"], done
    assert finished, "no game ended: raise num_steps"
    # the wrapper's length counts every call of the game (its starts too); elapsed_step counts steps
    assert [(i, r) for i, r, _ in games] == [(i, r) for i, r, _ in finished]
    assert all(length >= steps for (_, _, length), (_, _, steps) in zip(games, finished))
    for loss, entropy in losses:
        assert np.isfinite(loss).all()
