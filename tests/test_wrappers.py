"""ALE v5 wrapper semantics, checked exactly on a toy game whose rewards reveal each frame's action."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxtari.wrappers import (
    AtariWrapper, FrameStack, LogWrapper, ObjectObservation, PixelObservation,
)
from jaxtari.xla import StatePacker
from tests.toy_game import ToyConstants, ToyGame


def toy(**consts):
    return ToyGame(ToyConstants(**consts))


def run(env, actions, key=0):
    obs, s = env.reset(jax.random.key(key))
    out = []
    step = jax.jit(env.step)
    for a in actions:
        obs, s, r, d, info = step(s, a)
        out.append((obs, s, float(r), bool(d), jax.device_get(info)))
    return out


def test_frameskip_sums_rewards_over_four_frames():
    env = AtariWrapper(toy(game_over_frame=10_000), sticky_prob=0.0)
    res = run(env, [3, 3, 5])
    assert [r for _, _, r, _, _ in res] == [12.0, 12.0, 20.0]
    assert [int(s.game_state.frame) for _, s, _, _, _ in res] == [4, 8, 12]
    assert [int(i["episode_frames"]) for *_, i in res] == [4, 8, 12]


def test_frameskip_is_configurable():
    env = AtariWrapper(toy(game_over_frame=10_000), frameskip=1, sticky_prob=0.0)
    res = run(env, [2, 4])
    assert [r for _, _, r, _, _ in res] == [2.0, 4.0]


def test_sticky_actions_repeat_previous_frame_action_at_the_set_rate():
    """With p=0.25 the first frame of a new action keeps the old one w.p. 0.25, two frames w.p. 1/16."""
    n = 8192
    env = AtariWrapper(toy(game_over_frame=10_000), sticky_prob=0.25)
    keys = jax.random.split(jax.random.key(7), n)
    _, s = jax.vmap(env.reset)(keys)
    step = jax.jit(jax.vmap(env.step))
    _, s, _, _, _ = step(s, jnp.ones(n, jnp.int32))  # settle on action 1 everywhere
    # Action 1 for long enough that every env's last applied action is 1.
    for _ in range(3):
        _, s, _, _, _ = step(s, jnp.ones(n, jnp.int32))
    assert bool(jnp.all(s.last_action == 1))
    _, s, r, _, _ = step(s, jnp.full(n, 2, jnp.int32))
    old_frames = 8 - np.asarray(r)  # each frame still on action 1 pays 1 instead of 2
    p1 = np.mean(old_frames >= 1)
    p2 = np.mean(old_frames >= 2)
    # binomial standard errors: ~0.0048 and ~0.0027; 4.5 sigma bounds
    assert abs(p1 - 0.25) < 0.022, p1
    assert abs(p2 - 0.0625) < 0.013, p2
    assert np.all(old_frames >= 0) and np.all(old_frames <= 4)


def test_sticky_prob_one_keeps_the_first_action_forever():
    # Every frame repeats the previous one's action, so the NOOP of reset is never replaced.
    env = AtariWrapper(toy(game_over_frame=10_000), sticky_prob=1.0)
    res = run(env, [1, 2, 3])
    assert [r for _, _, r, _, _ in res] == [0.0, 0.0, 0.0]
    assert all(int(s.last_action) == 0 for _, s, _, _, _ in res)


def test_each_step_draws_a_new_key_and_sticky_coins():
    """The one draw per step yields a fresh key each step (no key repeats over a long run)."""
    env = AtariWrapper(toy(game_over_frame=10_000), sticky_prob=0.5)
    _, s = env.reset(jax.random.key(11))
    step = jax.jit(env.step)
    seen, rewards = set(), []
    for i in range(200):
        _, s, r, _, _ = step(s, jnp.int32(1 + i % 2))
        seen.add(tuple(np.asarray(jax.random.key_data(s.key)).tolist()))
        rewards.append(float(r))
    assert len(seen) == 200
    # With p=0.5 the frames of a step mix both actions in many different ways.
    assert len(set(rewards)) >= 4


def test_no_sticky_means_every_frame_uses_the_new_action():
    env = AtariWrapper(toy(game_over_frame=10_000), sticky_prob=0.0)
    res = run(env, [1, 2, 1, 2])
    assert [r for _, _, r, _, _ in res] == [4.0, 8.0, 4.0, 8.0]


def test_episode_cap_truncates_and_autoresets():
    env = AtariWrapper(toy(game_over_frame=10_000), sticky_prob=0.0, max_episode_frames=20)
    res = run(env, [1] * 6)
    truncated = [bool(i["truncated"]) for *_, i in res]
    assert truncated == [False, False, False, False, True, False]
    assert [d for *_, d, _ in res] == truncated
    # after the cap the game restarted from frame 0
    assert int(res[4][1].game_state.frame) == 0
    assert int(res[5][1].game_state.frame) == 4


def test_a_cap_inside_an_agent_step_stops_the_emulator_there():
    # ALE's act() does nothing once the frame cap is reached, even within one agent step's frameskip
    env = AtariWrapper(toy(game_over_frame=10_000), sticky_prob=0.0, max_episode_frames=22,
                       autoreset=False)
    res = run(env, [1] * 7)
    assert [bool(i["truncated"]) for *_, i in res] == [False] * 5 + [True, True]
    assert [r for _, _, r, _, _ in res] == [4.0] * 5 + [2.0, 0.0]
    assert [int(i["episode_frames"]) for *_, i in res] == [4, 8, 12, 16, 20, 22, 22]
    assert int(res[-1][1].game_state.frame) == 22


def test_default_cap_is_ale_v5s_108000_frames():
    assert AtariWrapper(toy()).max_episode_frames == 108_000


def test_game_over_freezes_remaining_frames_and_terminates():
    env = AtariWrapper(toy(game_over_frame=98), sticky_prob=0.0, autoreset=False)
    res = run(env, [1] * 25)
    # step 25 covers frames 97..100; only 97 and 98 happen before the game is over
    assert res[-1][2] == 2.0
    assert res[-1][3] and bool(res[-1][4]["terminated"])
    assert int(res[-1][1].game_state.frame) == 98
    assert not any(d for *_, d, _ in res[:-1])


def test_autoreset_restarts_after_game_over():
    env = AtariWrapper(toy(game_over_frame=8), sticky_prob=0.0)
    res = run(env, [1, 1, 1])
    assert [bool(i["terminated"]) for *_, i in res] == [False, True, False]
    assert bool(res[1][4]["episode_restart"])
    assert int(res[1][1].game_state.frame) == 0
    assert int(res[2][1].game_state.frame) == 4


def test_episodic_life_ends_the_agent_episode_but_not_the_game():
    env = AtariWrapper(toy(life_loss_frame=6), sticky_prob=0.0, episodic_life=True)
    res = run(env, [1, 1, 1])
    assert [d for *_, d, _ in res] == [False, True, False]
    assert bool(res[1][4]["life_lost"]) and not bool(res[1][4]["terminated"])
    assert int(res[2][1].game_state.frame) == 12  # the game went on
    plain = AtariWrapper(toy(life_loss_frame=6), sticky_prob=0.0)
    assert [d for *_, d, _ in run(plain, [1, 1, 1])] == [False, False, False]


def test_noop_starts_begin_episodes_at_varied_noop_counts():
    env = AtariWrapper(toy(game_over_frame=10_000), sticky_prob=0.0, noop_max=30)
    keys = jax.random.split(jax.random.key(3), 512)
    _, s = jax.vmap(env.reset)(keys)
    frames = np.asarray(s.game_state.frame)
    assert np.all(frames % 4 == 0) and frames.min() >= 0 and frames.max() <= 120
    assert len(np.unique(frames)) > 20  # 31 possible starts
    # the no-op frames really were NOOP (action id 0)
    started = frames > 0
    assert np.all(np.asarray(s.game_state.last_ale_action)[started] == 0)
    # deterministic per key
    _, s2 = jax.vmap(env.reset)(keys)
    assert np.array_equal(frames, np.asarray(s2.game_state.frame))


def _leaves_equal(a, b):
    for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b), strict=True):
        if jnp.issubdtype(x.dtype, jax.dtypes.prng_key):
            x, y = jax.random.key_data(x), jax.random.key_data(y)
        assert x.dtype == y.dtype and x.shape == y.shape
        assert np.array_equal(np.asarray(x), np.asarray(y))


def test_start_state_packing_round_trips_every_leaf_kind():
    tree = {
        "key": jax.random.key(7), "flag": jnp.array([True, False, True]),
        "byte": jnp.array([0, 200, 255], jnp.uint8), "small": jnp.array([-3, 30000], jnp.int16),
        "word": jnp.array([2**32 - 1, 5], jnp.uint32), "real": jnp.array([-0.0, 1.5e-30, jnp.inf]),
        "grid": jnp.arange(-6, 6, dtype=jnp.int32).reshape(3, 4),
    }
    packer = StatePacker(tree)
    row = packer.pack(tree)
    assert row.dtype == jnp.int32 and row.shape == (2 + 3 + 3 + 2 + 2 + 3 + 12,)
    _leaves_equal(packer.unpack(row), tree)
    with pytest.raises(TypeError, match="float16"):
        StatePacker({"x": jnp.zeros(2, jnp.float16)}).pack({"x": jnp.zeros(2, jnp.float16)})


@pytest.mark.parametrize("game", ["pong", "frostbite"])
def test_noop_starts_are_the_states_reached_by_noop_steps(game):
    """Each packed start unpacks to exactly the state n NOOP agent steps reach (real games)."""
    import jaxtari

    env = AtariWrapper(jaxtari.make(game), sticky_prob=0.0, noop_max=3)
    _, gs = env.game.reset(jax.random.key(0))
    starts = env._start_states(gs)
    assert starts.shape[0] == 4
    noop = AtariWrapper(jaxtari.make(game), sticky_prob=0.0)
    expect = gs
    for n in range(4):
        _leaves_equal(StatePacker(gs).unpack(starts[n]), expect)
        expect, *_ = noop._frames(expect, jnp.zeros(4, bool), 0, 0)


def test_noop_start_autoreset_draws_new_start_and_fresh_key():
    env = AtariWrapper(toy(game_over_frame=10_000), sticky_prob=0.0, noop_max=30, max_episode_frames=4)
    keys = jax.random.split(jax.random.key(5), 256)
    _, s = jax.vmap(env.reset)(keys)
    _, s1, _, d, _ = jax.vmap(env.step)(s, jnp.zeros(256, jnp.int32))
    assert bool(jnp.all(d))
    f = np.asarray(s1.game_state.frame)
    assert len(np.unique(f)) > 20
    noise_before = np.asarray(s.game_state.noise)
    _, s2, _, _, _ = jax.vmap(env.step)(s1, jnp.zeros(256, jnp.int32))
    assert not np.array_equal(noise_before, np.asarray(s2.game_state.noise))


def test_frame_stack_of_pixels_shapes_and_order():
    env = FrameStack(PixelObservation(AtariWrapper(toy(game_over_frame=12), sticky_prob=0.0)), 4)
    obs, s = env.reset(jax.random.key(0))
    assert obs.shape == (4, 84, 84) and obs.dtype == jnp.uint8
    assert env.observation_space.shape == (4, 84, 84)
    step = jax.jit(env.step)
    o1, s, *_ = step(s, 1)
    o2, s, *_ = step(s, 1)
    assert np.array_equal(o2[2], o1[3])  # shifted by one
    assert np.array_equal(o2[3], env.game.render_gray84(env.game_state(s)))
    o3, s, _, d, info = step(s, 1)  # frame 12: game over, restart
    assert bool(info["episode_restart"])
    assert all(np.array_equal(o3[i], o3[3]) for i in range(4))


def test_frame_stack_equals_a_deque_of_frames_refilled_at_each_restart():
    """k=4 over several episodes (restart every 3 agent steps), against the plain reference model."""
    single = PixelObservation(AtariWrapper(toy(game_over_frame=12), sticky_prob=0.0))
    stacked = FrameStack(single, 4)
    actions = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1]
    frames = run(single, actions)
    got = run(stacked, actions)
    first, _ = single.reset(jax.random.key(0))
    window = [np.asarray(first)] * 4
    restarts = 0
    for (obs, _, _, _, info), (want, *_) in zip(frames, got):
        if info["episode_restart"]:
            window = [np.asarray(obs)] * 4
            restarts += 1
        else:
            window = window[1:] + [np.asarray(obs)]
        np.testing.assert_array_equal(np.asarray(want), np.stack(window))
    assert restarts >= 2


def test_object_observation_is_the_games_features():
    env = ObjectObservation(AtariWrapper(toy(), sticky_prob=0.0))
    obs, s = env.reset(jax.random.key(0))
    obs, s, *_ = env.step(s, 1)
    assert obs.dtype == jnp.float32
    assert np.array_equal(obs, env.game.observation(env.game_state(s)))
    assert float(obs[0]) == 4.0  # marker x = frame


def test_log_wrapper_reports_finished_episode_return_and_length():
    env = LogWrapper(ObjectObservation(AtariWrapper(toy(game_over_frame=12), sticky_prob=0.0)))
    res = run(env, [1, 2, 3, 1])
    infos = [i for *_, i in res]
    assert [bool(i["returned_episode"]) for i in infos] == [False, False, True, False]
    assert float(infos[2]["returned_episode_return"]) == 4 + 8 + 12
    assert int(infos[2]["returned_episode_length"]) == 3
    assert float(infos[3]["episode_return"]) == 4.0 and int(infos[3]["episode_length"]) == 1


def test_jit_and_vmap_match_the_plain_call():
    env = LogWrapper(FrameStack(PixelObservation(AtariWrapper(toy(), sticky_prob=0.25, noop_max=5)), 2))
    keys = jax.random.split(jax.random.key(11), 3)
    actions = jnp.array([1, 4, 2], jnp.int32)
    vobs, vs = jax.vmap(env.reset)(keys)
    vobs, vs, vr, vd, _ = jax.jit(jax.vmap(env.step))(vs, actions)
    for i in range(3):
        obs, s = env.reset(keys[i])
        obs, s, r, d, _ = env.step(s, actions[i])
        assert np.array_equal(obs, vobs[i])
        assert float(r) == float(vr[i]) and bool(d) == bool(vd[i])


def test_bad_settings_are_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="frameskip"):
        AtariWrapper(toy(), frameskip=0)
    with pytest.raises(ValueError, match="sticky_prob"):
        AtariWrapper(toy(), sticky_prob=1.5)
    with pytest.raises(ValueError, match="frame stack"):
        FrameStack(AtariWrapper(toy()), 0)
