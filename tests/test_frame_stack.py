"""The FrameStack gives every game's agent the observation the previous FrameStack
gave, bit for bit, over whole episodes: restarts at the episode cap and at game over, no-op starts,
pixels and object-centric features, under vmap inside a compiled scan."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
from jaxtari.wrappers import AtariWrapper, FrameStack, ObjectObservation, PixelObservation
from tests.reference_frame_stack import OldFrameStack, stack_writes
from tests.toy_game import ToyConstants, ToyGame

N_ENVS, STEPS = 6, 120
CAP_STEPS = 23  # a short episode cap (agent steps): several restarts per env within STEPS


def _rollout(env, n, steps, seed):
    """Observations (steps, n, ...) and restart flags (steps, n) of one compiled vmapped scan."""
    keys = jax.random.split(jax.random.key(seed), n)
    obs0, s0 = jax.vmap(env.reset)(keys)

    def body(s, k):
        a = (jax.random.bits(k, (n,), jnp.uint32) % env.num_actions).astype(jnp.int32)
        obs, s, _, _, info = jax.vmap(env.step)(s, a)
        return s, (obs, info["episode_restart"])

    _, (obs, restart) = jax.jit(lambda s: jax.lax.scan(body, s, jax.random.split(jax.random.key(seed + 1), steps)))(s0)
    return np.asarray(obs0), np.asarray(obs), np.asarray(restart)


def _both(game, observation, k, **atari):
    base = observation(AtariWrapper(game, **atari))
    return FrameStack(base, k), OldFrameStack(base, k)


def _assert_same(new, old, n=N_ENVS, steps=STEPS, seed=0):
    o0_new, obs_new, restart = _rollout(new, n, steps, seed)
    o0_old, obs_old, restart_old = _rollout(old, n, steps, seed)
    np.testing.assert_array_equal(restart, restart_old)
    assert restart.sum() >= n  # every env restarted at least once on average: resets are inside
    assert obs_new.dtype == obs_old.dtype and obs_new.shape == obs_old.shape
    np.testing.assert_array_equal(o0_new, o0_old)
    for t in range(steps):
        np.testing.assert_array_equal(obs_new[t], obs_old[t], err_msg=f"step {t}")
    return restart


def _game_case(name):
    marks = () if name == "pong" else (pytest.mark.slow,)
    return pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", [_game_case(g) for g in jaxtari.list_games()])
def test_pixel_stack_matches_the_previous_stack_over_whole_episodes(name):
    """84x84 pixels, stack 4, sticky actions, no-op starts, the cap every CAP_STEPS agent steps."""
    new, old = _both(jaxtari.make(name), PixelObservation, 4, noop_max=30,
                     max_episode_frames=4 * CAP_STEPS)
    _assert_same(new, old)


@pytest.mark.parametrize("name", [_game_case(g) for g in jaxtari.list_games()])
def test_object_stack_matches_the_previous_stack_over_whole_episodes(name):
    new, old = _both(jaxtari.make(name), ObjectObservation, 3, noop_max=30,
                     max_episode_frames=4 * CAP_STEPS)
    _assert_same(new, old)


@pytest.mark.parametrize("k", [1, 2, 4, 5])
def test_toy_stack_matches_at_game_over_restarts_for_every_size(k):
    """Game over (not the cap) restarts the toy every 3 agent steps; stack sizes around 4."""
    toy = ToyGame(ToyConstants(game_over_frame=12))
    new, old = _both(toy, PixelObservation, k, sticky_prob=0.25, noop_max=2)
    restart = _assert_same(new, old, n=4, steps=20)
    assert restart.sum() >= 4 * 5


def test_episodic_life_restarts_nothing_and_matches():
    """Under episodic life a lost life ends the agent's episode but not the game: the stack keeps
    its frames exactly as before (it refills only on the wrapped env's restart)."""
    new, old = _both(jaxtari.make("pong"), PixelObservation, 4, episodic_life=True,
                     max_episode_frames=4 * CAP_STEPS)
    _assert_same(new, old, n=3, steps=60)


def test_the_state_keeps_the_stack_once_and_the_observation_is_it():
    """The state holds k frames once, oldest first, and that array is the observation; each step
    shifts it by one frame."""
    env = FrameStack(PixelObservation(AtariWrapper(jaxtari.make("pong"))), 4)
    obs, s = env.reset(jax.random.key(0))
    assert obs.shape == (4, 84, 84) and obs.dtype == jnp.uint8
    np.testing.assert_array_equal(np.asarray(s.frames), np.asarray(obs))
    step = jax.jit(env.step)
    o1, s1, *_ = step(s, 0)
    np.testing.assert_array_equal(np.asarray(o1[:3]), np.asarray(obs[1:]))
    o2, s2, *_ = step(s1, 0)
    np.testing.assert_array_equal(np.asarray(o2[:3]), np.asarray(o1[1:]))
    np.testing.assert_array_equal(np.asarray(s2.frames), np.asarray(o2))


@pytest.mark.parametrize("game", ["toy", "freeway"])
def test_a_carried_stack_is_written_once_per_step_from_a_frame_drawn_once(game):
    """In a scan that carries the state and the observation (as a PPO runner does) the stack is
    written by one fusion per step, which reads the new frame from memory (drawn once: a renderer
    fused into each slot's select would draw it k times), and copied once (the observation and the
    state's stack are one value, carried twice). The original stack's k rotated arrays were each
    copied (u8[n,84,84] copies) and stacked on top. Freeway: a real game's draw, which XLA fuses
    into the push (and into anything else reading the frame) unless the frame is materialised: the
    push then reads one frame-sized buffer, the frame, and nothing of the draw."""
    n, k = 8, 4
    inner = ToyGame(ToyConstants(game_over_frame=12)) if game == "toy" else jaxtari.make(game)
    env = FrameStack(PixelObservation(AtariWrapper(inner)), k)
    obs0, s0 = jax.vmap(env.reset)(jax.random.split(jax.random.key(0), n))

    def rollout(carry):
        def body(carry, _):
            obs, s, *_ = jax.vmap(env.step)(carry[0], jnp.zeros(n, jnp.int32))
            return (s, obs), None
        return jax.lax.scan(body, carry, None, length=4)[0]

    text = jax.jit(rollout, donate_argnums=0).lower((s0, obs0)).compile().as_text()
    size = f"{obs0.shape[2]},{obs0.shape[3]}"
    fusions, reads_frame, copies = stack_writes(text, f"u8[{n},{k},{size}]", f"u8[{n},{size}]")
    assert [len(f) for f in fusions.values()] == [1] and reads_frame == [True], fusions
    push = next(iter(fusions.values()))[0]
    called = push.split("calls=")[1].split(",")[0].strip()
    header = next(h for h in text.splitlines() if h.startswith(f"{called} ("))
    assert header.split(") ->")[0].count(f": u8[{n},{size}]") == 1, header
    assert len(copies) <= 1, copies
    frame_copies = [ln for ln in text.splitlines() if f"= u8[{n},{size}]" in ln and " copy(" in ln]
    assert not frame_copies, frame_copies


def test_a_reduction_reads_the_stacked_observation_as_a_plain_buffer():
    """Why the stack is one batch-first array: frames stacked per env under vmap (the original
    stack) were a (k, N, ...) concatenate read through a transpose, and XLA rewrote a mean over it
    into a padded reduce-window its CPU backend runs ~100x slower than a plain reduce (Pong, N=256:
    2.3k against 231k steps/s, quiet). The one-array stack has neither."""
    n, k = 8, 4
    env = FrameStack(PixelObservation(AtariWrapper(ToyGame(ToyConstants(game_over_frame=12)))), k)
    _, s0 = jax.vmap(env.reset)(jax.random.split(jax.random.key(0), n))

    def logged_mean(s):
        obs, s, *_ = jax.vmap(env.step)(s, jnp.zeros(n, jnp.int32))
        return s, obs.astype(jnp.float32).mean()

    text = jax.jit(logged_mean).lower(s0).compile().as_text()
    assert "reduce-window" not in text
    transposed = [line for line in text.splitlines() if " transpose(" in line and "u8[" in line]
    assert not transposed, transposed
