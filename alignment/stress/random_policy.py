"""The random policy's return on ALE: the floor the stress verdict measures learning from.

The equivalence margin is a share of what PPO gained over a policy that picks actions uniformly at
random (docs/stress-schema.md says why), so each report records that policy's return, measured
here on the real emulator under the same protocol the ALE side trains on (v5: frameskip 4, sticky
actions 0.25, the 108,000-frame cap; whole games, not lives; unclipped).
"""

from __future__ import annotations

import numpy as np

from alignment.stress.ale_rollout import _ale_interface
from jaxtari.protocol import V5

EPISODES = 30  # enough that the floor's standard error is small against any margin (see the doc)
SEED = 0


def random_policy_returns(game: str, *, episodes: int = EPISODES, seed: int = SEED,
                          sticky: float = V5.repeat_action_probability,
                          writes: tuple = ()) -> list[float]:
    """Unclipped returns of ``episodes`` whole games played by uniform random actions on ALE;
    ``writes``: a modified game's RAM writes (after reset and every frame)."""
    from alignment.catalog import entry
    from alignment.stress.ale_rollout import AleVecEnv

    if episodes < 1:
        raise ValueError(f"episodes must be at least 1, got {episodes}")
    if writes:  # the training side's emulator, one frame per act with the writes after each
        env = AleVecEnv(game, 1, seed, sticky=sticky, episodic_life=False, writes=writes)
        ale, step = env.envs[0], env._act
    else:
        ale = _ale_interface(entry(game).rom, seed, sticky)
        step = None
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(seed)
    returns = []
    for _ in range(episodes):
        if step is None:
            ale.reset_game()
        else:
            env._reset(ale)
        total = 0.0
        while not ale.game_over() and not ale.game_truncated():
            a = actions[int(rng.integers(len(actions)))]
            total += ale.act(a) if step is None else step(ale, a)
        returns.append(float(total))
    return returns


def random_policy(game: str, *, episodes: int = EPISODES, seed: int = SEED,
                  sticky: float = V5.repeat_action_probability,
                  writes: tuple = ()) -> dict:
    """The report's ``random_policy`` record: the returns, their mean, and how they were made."""
    returns = random_policy_returns(game, episodes=episodes, seed=seed, sticky=sticky,
                                    writes=writes)
    out = {"backend": "ale", "episodes": len(returns), "seed": seed, "sticky": sticky,
           "returns": returns, "mean": float(np.mean(returns))}
    if writes:
        out["ram_writes"] = len(writes)
    return out
