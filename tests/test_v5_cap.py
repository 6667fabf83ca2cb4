"""The v5 episode cap: jaxtari's AtariWrapper truncates on the same agent step as gymnasium's
``ALE/Breakout-v5``, after the same number of emulator frames.

Breakout under NOOP never serves, so it never ends on its own: only the cap ends the episode.
gymnasium's v5 default is ``max_num_frames_per_episode=108000`` (27,000 agent steps at frameskip 4);
the fast test runs the same protocol with small caps given to both sides, one a multiple of the
frameskip and one not (ALE stops emulating inside the last agent step then).
"""

from __future__ import annotations

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import ale_py
import jaxtari
from jaxtari.protocol import V5
from jaxtari.wrappers import AtariWrapper

gymnasium.register_envs(ale_py)
NOOP = 0


def ale_cap(**kwargs) -> tuple[int, bool, bool, int]:
    """(agent steps, terminated, truncated, emulator frames) of a NOOP episode of ALE/Breakout-v5."""
    env = gymnasium.make("ALE/Breakout-v5", obs_type="ram", **kwargs)
    try:
        env.reset(seed=0)
        steps, terminated, truncated = 0, False, False
        while not (terminated or truncated):
            _, _, terminated, truncated, _ = env.step(NOOP)
            steps += 1
        return steps, terminated, truncated, int(env.unwrapped.ale.getEpisodeFrameNumber())
    finally:
        env.close()


def jax_cap(steps: int, **kwargs) -> tuple[int, bool, bool, int, int]:
    """(agent step of the first episode end, terminated, truncated, the wrapper's episode frames,
    the game's frame count) of NOOP steps of the JAX Breakout in the v5 wrapper, as one scan."""
    env = AtariWrapper(jaxtari.make("breakout"), autoreset=False, **kwargs)

    def rollout(key):
        _, s = env.reset(key)

        def body(s, _):
            _, s, _, done, info = env.step(s, jnp.int32(NOOP))
            return s, (done, info["terminated"], info["truncated"], info["episode_frames"],
                       env.game_state(s).frame)

        return jax.lax.scan(body, s, None, length=steps)[1]

    done, term, trunc, frames, game_frame = (np.asarray(x) for x in
                                             jax.jit(rollout)(jax.random.key(0)))
    assert done.any(), f"no episode end within {steps} agent steps"
    i = int(np.argmax(done))
    return i + 1, bool(term[i]), bool(trunc[i]), int(frames[i]), int(game_frame[i])


@pytest.mark.parametrize("cap, steps", [(400, 100), (402, 101)])
def test_a_small_cap_truncates_on_the_same_step_and_frame_as_gymnasium(cap, steps):
    ale_steps, ale_term, ale_trunc, ale_frames = ale_cap(max_num_frames_per_episode=cap)
    assert (ale_steps, ale_term, ale_trunc, ale_frames) == (steps, False, True, cap)
    # the step after the end stays frozen in the JAX game too (no frame past the cap is emulated)
    assert jax_cap(steps + 3, max_episode_frames=cap) == (steps, False, True, cap, cap)


def test_the_default_cap_is_gymnasiums_v5_default():
    env = gymnasium.make("ALE/Breakout-v5")
    try:
        assert env.spec.kwargs["max_num_frames_per_episode"] == V5.max_num_frames_per_episode == 108_000
        assert env.unwrapped.ale.getInt("max_num_frames_per_episode") == V5.max_num_frames_per_episode
    finally:
        env.close()
    assert AtariWrapper(jaxtari.make("breakout")).max_episode_frames == V5.max_num_frames_per_episode


def test_the_default_cap_truncates_at_27000_agent_steps_on_both():
    # Not marked slow: about 11 s on the shared 2-core machine (ALE's 108,000 frames most of it).
    assert ale_cap() == (27_000, False, True, 108_000)
    assert jax_cap(27_010) == (27_000, False, True, 108_000, 108_000)
