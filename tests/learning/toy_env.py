"""A contextual bandit with a known optimum, for testing that PPO really learns.

Each step shows a one-hot cue of one of ``NUM_CUES`` targets; the action equal to the cue pays 1,
any other pays 0. An episode is ``EPISODE_STEPS`` steps, so a uniform policy returns
EPISODE_STEPS / NUM_CUES on average and the optimal one EPISODE_STEPS.
"""

import jax
import jax.numpy as jnp

NUM_CUES = 4
EPISODE_STEPS = 10
RANDOM_RETURN = EPISODE_STEPS / NUM_CUES
OPTIMAL_RETURN = float(EPISODE_STEPS)


class CueEnv:
    num_actions = NUM_CUES

    def _obs(self, cue):
        return jax.nn.one_hot(cue, NUM_CUES) * 255.0  # the MLP scales inputs by 1/255

    def reset(self, key):
        k_cue, k_next = jax.random.split(key)
        cue = jax.random.randint(k_cue, (), 0, NUM_CUES)
        state = (cue, jnp.int32(0), jnp.float32(0), k_next)
        return self._obs(cue), state

    def step(self, state, action):
        cue, t, ret, key = state
        reward = (action == cue).astype(jnp.float32)
        t, ret = t + 1, ret + reward
        done = t >= EPISODE_STEPS
        key, k_cue = jax.random.split(key)
        cue = jax.random.randint(k_cue, (), 0, NUM_CUES)
        info = {"returned_episode": done, "returned_episode_return": ret}
        new = (cue, jnp.where(done, 0, t), jnp.where(done, 0.0, ret), key)
        return self._obs(cue), new, reward, done, info
