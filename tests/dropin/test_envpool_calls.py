"""jaxtari.envpool's calls in EnvPool's order and meaning: env_id, send/recv pairing, resets,
seeds, task ids, options of the wrong kind, xla()'s actions and handles, pickling, and the API
that env_type="gym" gives with the gym that is installed (or none)."""

from __future__ import annotations

import pickle
import sys

import gym
import gymnasium
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari.envpool as envpool
from jaxtari.dropin import DropInError

TASK = "Breakout-v5"  # lives, FIRE, 4 actions
# most tests share this configuration, so that its functions compile once (seeds do not count)
SHARED = dict(num_envs=3, repeat_action_probability=0.25)


def leaves_equal(a, b, msg=""):
    la, lb = jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)
    assert len(la) == len(lb), msg
    for x, y in zip(la, lb):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y), err_msg=msg)


def rows(result, i):
    """Row i of every array of a gymnasium-API result (env_id keys dropped)."""
    obs, reward, term, trunc, info = result
    return (obs[i], reward[i], term[i], trunc[i],
            {k: v[i] for k, v in info.items() if k not in ("env_id", "players")})


@pytest.fixture(scope="module")
def twins():
    def make():
        return envpool.make(TASK, seed=7, **SHARED)
    return make


def test_send_honours_env_id_and_info_names_each_row(twins):
    """Row i of recv() is env env_id[i], which got action[i]; the same envs of a twin pool given
    the same actions in env order agree, and the env left out has not moved."""
    a, b = twins(), twins()
    a.reset(), b.reset()
    for t, (act1, act0) in enumerate([(1, 3), (2, 0), (3, 1)]):
        a.send(np.array([act1, act0]), env_id=[1, 0])
        got = a.recv()
        np.testing.assert_array_equal(got[4]["env_id"], [1, 0])
        np.testing.assert_array_equal(got[4]["players"]["env_id"], [1, 0])
        want = b.step(np.array([act0, act1, 0]))
        leaves_equal(rows(got, 0), rows(want, 1), f"call {t}")
        leaves_equal(rows(got, 1), rows(want, 0), f"call {t}")
    # env 2 was not sent to: its next step is its first since the reset
    _, _, _, _, info = a.step(np.array([0, 0, 0]))
    np.testing.assert_array_equal(info["elapsed_step"], [4, 4, 1])
    np.testing.assert_array_equal(info["env_id"], [0, 1, 2])


def test_recv_returns_queued_calls_in_order(twins):
    """send() and async_reset() queue; each recv() returns the oldest (EnvPool's async pattern);
    recv() with nothing queued is refused, not repeated."""
    a, b = twins(), twins()
    a.reset(), b.reset()
    with pytest.raises(DropInError, match=r"recv\(\) with nothing sent"):
        a.recv()
    a.send(np.array([1, 1, 1]))
    a.send(np.array([2, 3, 0]))
    leaves_equal(a.recv(), b.step(np.array([1, 1, 1])), "first send")
    leaves_equal(a.recv(), b.step(np.array([2, 3, 0])), "second send")
    # async_reset(); send(); recv() returns the reset, then the step
    a.async_reset()
    a.send(np.array([1, 1, 1]))
    obs, reward, term, trunc, info = a.recv()
    assert (info["elapsed_step"] == 0).all() and (reward == 0).all() and not term.any() and not trunc.any()
    assert (obs == obs[:, -1:]).all()  # a new game's first frame in every slot
    _, _, _, _, info = a.recv()
    assert (info["elapsed_step"] == 1).all()
    # the async pattern: async_reset, then recv / send(action, info["env_id"]) in turn
    a.async_reset()
    for _ in range(3):
        *_, info = a.recv()
        a.send(np.ones(len(info["env_id"]), np.int64), info["env_id"])
    *_, info = a.recv()
    assert (info["elapsed_step"] == 3).all()


def test_reset_of_some_envs():
    pool = envpool.make(TASK, seed=2, **SHARED)
    pool.reset()
    for _ in range(5):
        pool.step(np.array([1, 2, 3]))
    obs, info = pool.reset(env_id=np.array([2]))
    assert obs.shape == (1, 4, 84, 84) and info["env_id"].tolist() == [2] and info["elapsed_step"].tolist() == [0]
    *_, info = pool.step(np.array([0, 0, 0]))
    np.testing.assert_array_equal(info["elapsed_step"], [6, 6, 1])


def test_reset_mid_game_with_episodic_life_goes_on_in_the_same_game():
    """EnvPool's Atari reset starts a new game only when the game is over, the step limit is
    reached or episodic_life is off: with episodic_life a reset mid-game starts the next episode
    of the same game (its step count and lives carry on)."""
    on = envpool.make(TASK, seed=3, episodic_life=True, **SHARED)
    off = envpool.make(TASK, seed=3, episodic_life=False, **SHARED)
    for pool in (on, off):
        pool.reset()
        for _ in range(10):
            pool.step(np.array([1, 1, 1]))
    _, info_on = on.reset()
    _, info_off = off.reset()
    assert info_on["elapsed_step"].tolist() == [10] * 3 and info_off["elapsed_step"].tolist() == [0] * 3
    assert (info_off["lives"] == 5).all()


@pytest.mark.parametrize("seed, why", [
    (2**32, "int32"), (2**31, "int32"), (-(2**31) - 1, "int32"), (2**31 - 1, "num_envs=2"),
    ([1.5, 2.5], "not floats"), ([1, 2, 3], "one per env"), ("1", "int32"), (True, "int32"),
    ([True, False], "not floats"), ([2**31, 0], "one per env"),
])
def test_seed_out_of_int32_or_not_whole_is_refused(seed, why):
    with pytest.raises(DropInError, match=rf"seed=.*{why}"):
        envpool.make("Pong-v5", num_envs=2, seed=seed)


def test_a_seed_per_env_is_each_envs_seed():
    """seed=[s0, s1, s2] (EnvPool 1.1's list form) gives env i seed s_i; an int seed gives env i
    seed + i: env i of the list pool plays as the env of the int pools that has its seed."""
    listed = envpool.make(TASK, seed=[11, 5, 9], **SHARED)
    counted = {k: envpool.make(TASK, seed=k, **SHARED) for k in (11, 4, 7)}  # env 0: 11, env 1: 5, env 2: 9
    listed.reset(), [p.reset() for p in counted.values()]
    for t in range(30):
        act = np.array([t % 4, (t + 1) % 4, (t + 2) % 4])
        got = listed.step(act)
        want = {k: p.step(act) for k, p in counted.items()}
    for i, k in enumerate((11, 4, 7)):
        leaves_equal(rows(got, i), rows(want[k], i), f"env {i}")
    assert not np.array_equal(got[0][0], got[0][1])


def test_task_ids_are_envpools():
    with pytest.raises(DropInError, match=r"'PongNoFrameskip-v4': EnvPool registers only <Game>-v5 ids.*"
                                          r"already ALE's NoFrameskip-v4 game.*make\('Pong-v5', frame_skip=1\)"):
        envpool.make("PongNoFrameskip-v4")
    with pytest.raises(DropInError, match=r"'ALE/Pong-v5': EnvPool's id for this game is 'Pong-v5'"):
        envpool.make("ALE/Pong-v5")
    assert "Pong-v5" in envpool.list_all_envs()


@pytest.mark.parametrize("name, value", [
    ("full_action_space", "False"), ("episodic_life", "no"), ("reward_clip", 1), ("use_fire_reset", None),
    ("gym_reset_return_info", "True"),
])
def test_an_option_of_the_wrong_kind_is_refused(name, value):
    with pytest.raises(DropInError, match=rf"{name}={value!r}: expected True"):
        envpool.make("Pong-v5", **{name: value})


@pytest.mark.parametrize("name, value", [
    ("max_episode_steps", 10**12), ("frame_skip", 2**31), ("num_envs", 0), ("noop_max", 10**6),
    ("stack_num", 1.5), ("max_episode_steps", 2**30),
])
def test_a_number_out_of_range_is_refused(name, value):
    with pytest.raises(DropInError, match=rf"{name}="):
        envpool.make("Pong-v5", **{name: value})


def test_full_action_space():
    assert envpool.make("Pong-v5", full_action_space=True).action_space.n == 18
    assert envpool.make("Pong-v5", full_action_space=False).action_space.n == 6


def test_numpy_actions_of_the_wrong_kind_are_refused():
    pool = envpool.make("Pong-v5", num_envs=2)
    pool.reset()
    for bad, match in [(np.array([0.5, 1.0]), "2 whole numbers"), (np.array([1, 2, 3]), "2 whole numbers"),
                       (np.array([0, 6]), "integers 0..5"), (np.array([True, False]), "2 whole numbers"),
                       (np.array([np.nan, 1.0]), "2 whole numbers"), ([True, 2], "2 whole numbers"),
                       (np.array([2**40, 1]), "integers 0..5"),
                       (np.array([2**64 - 1, 1], np.uint64), "integers 0..5")]:
        with pytest.raises(DropInError, match=match):
            pool.send(bad)
    for env_id, match in [([0, 0], "names an env twice"), ([2], "0..1"), ([0.5], "0..1"), ([True], "0..1")]:
        with pytest.raises(DropInError, match=match):
            pool.send(np.array([1] * len(env_id)), env_id=env_id)
    with pytest.raises(DropInError, match="nothing sent"):
        pool.recv()  # nothing refused above was queued


def test_whole_float_actions_are_their_integers():
    """EnvPool's docs send ``np.ones(batch_size)`` (EnvPool casts it to int32): a float array whose
    values are whole is taken as those integers, exactly as the int array would be."""
    floats, ints = envpool.make(TASK, seed=3, **SHARED), envpool.make(TASK, seed=3, **SHARED)
    floats.reset(), ints.reset()
    for t in range(12):
        act = np.array([t % 4, 1, 3])
        leaves_equal(floats.step(act.astype(np.float64), env_id=np.array([0.0, 1.0, 2.0])), ints.step(act),
                     f"step {t}")


def test_xla_refuses_actions_of_the_wrong_kind_and_clips_values():
    pool = envpool.make("Pong-v5", num_envs=2, seed=0)
    handle, recv, send, step = pool.xla()
    for bad, match in [(jnp.array([0.5, 1.0]), "2 integers"), (jnp.zeros(3, jnp.int32), "2 integers"),
                       (jnp.array([True, False]), "2 integers")]:
        with pytest.raises(DropInError, match=match):
            jax.jit(step)(handle, bad)
    with pytest.raises(DropInError, match="takes no env_id"):
        send(handle, jnp.zeros(2, jnp.int32), jnp.array([1, 0]))
    with pytest.raises(DropInError, match="nothing was sent on"):
        jax.jit(recv)(handle)
    with pytest.raises(DropInError, match="nothing was sent on"):  # EnvPool's docs pass the old handle
        send(handle, jnp.zeros(2, jnp.int32))
        recv(handle)
    # traced values are clipped into 0..n-1, as the docstring says
    jstep = jax.jit(step)
    leaves_equal(jstep(handle, jnp.array([-3, 99]))[1], jstep(handle, jnp.array([0, 5]))[1])
    # values known when called are checked as the numpy send checks them
    for bad, match in [(np.array([-3, 99]), "integers 0..5"), (jnp.array([0, 6]), "integers 0..5"),
                       ([0.5, 1], "2 whole numbers")]:
        with pytest.raises(DropInError, match=match):
            step(handle, bad)
    leaves_equal(step(handle, np.array([1.0, 2.0]))[1], jstep(handle, jnp.array([1, 2]))[1])


def test_xla_refuses_another_pools_handle():
    pong = envpool.make("Pong-v5", num_envs=2, seed=0)
    handle = pong.xla()[0]
    # another game and num_envs, and the same game with another num_envs (configurations other
    # tests here compile anyway)
    for other in (envpool.make(TASK, **SHARED), envpool.make("Pong-v5")):
        _, recv, send, step = other.xla()
        with pytest.raises(DropInError, match="the handle is another pool's"):
            step(handle, np.zeros(2, int))
        with pytest.raises(DropInError, match="the handle is another pool's"):
            jax.jit(recv)(handle)


def test_xla_after_async_reset_returns_the_reset_first():
    pool = envpool.make(TASK, seed=1, **SHARED)
    pool.reset()
    for _ in range(4):
        pool.step(np.array([1, 1, 1]))
    pool.async_reset()
    handle, recv, send, step = pool.xla()
    with pytest.raises(DropInError, match="recv\\(handle\\) first"):
        send(handle, jnp.zeros(3, jnp.int32))
    handle, got = recv(handle)  # the ready handle's recv reads the state: no step to compile
    leaves_equal(got, pool.recv(), "the reset")
    assert (got[4]["elapsed_step"] == 0).all()
    handle, got = jax.jit(step)(handle, jnp.array([1, 2, 3]))
    leaves_equal(got, pool.step(np.array([1, 2, 3])), "the step after it")


def test_a_pool_pickles_and_goes_on_as_the_original(twins):
    a = twins()
    a.reset()
    a.step(np.array([1, 2, 3]))
    a.single_action_space = a.action_space  # what CleanRL sets on the pool
    a.send(np.array([3, 2, 1]))  # queued: travels with the pool
    b = pickle.loads(pickle.dumps(a))
    assert b.single_action_space == a.action_space
    for _ in range(3):
        leaves_equal(b.recv(), a.recv())
        act = np.array([1, 0, 3])
        a.send(act), b.send(act)


class TestGymApi:
    """env_type="gym" as EnvPool's: gym's spaces and the API of the installed gym's version."""

    def test_gym_before_026_is_the_four_tuple_api(self):
        assert envpool.gym_version(gym.__version__) < (0, 26)  # the dev extra pins gym 0.23
        pool = envpool.make("Pong-v5", env_type="gym", num_envs=2, max_episode_steps=3)
        assert isinstance(pool.action_space, gym.spaces.Discrete)
        assert isinstance(pool.observation_space, gym.spaces.Box)
        assert pool.observation_space.shape == (4, 84, 84) and pool.observation_space.dtype == np.uint8
        obs = pool.reset()
        assert isinstance(obs, np.ndarray) and obs.shape == (2, 4, 84, 84)
        for t in range(1, 4):
            obs, reward, done, info = pool.step(np.array([0, 1]))
            assert set(info) == {"env_id", "players", "lives", "reward", "terminated", "TimeLimit.truncated",
                                 "elapsed_step"}
            assert done.dtype == bool and info["TimeLimit.truncated"].tolist() == [t == 3] * 2
            assert done.tolist() == [t == 3] * 2
        obs, info = envpool.make("Pong-v5", env_type="gym", gym_reset_return_info=True).reset()
        assert "TimeLimit.truncated" in info and info["elapsed_step"].tolist() == [0]
        handle, recv, send, step = pool.xla()
        _, result = jax.eval_shape(step, handle, jnp.zeros(2, jnp.int32))
        assert len(result) == 4 and "TimeLimit.truncated" in result[3]

    def test_gym_from_026_is_the_five_tuple_api(self, monkeypatch):
        monkeypatch.setattr(gym, "__version__", "0.26.2")
        pool = envpool.make("Pong-v5", env_type="gym", num_envs=2)
        assert isinstance(pool.action_space, gym.spaces.Discrete)
        obs, info = pool.reset()
        assert "TimeLimit.truncated" not in info
        assert len(pool.step(np.array([0, 1]))) == 5
        handle, recv, send, step = pool.xla()
        assert len(jax.eval_shape(step, handle, jnp.zeros(2, jnp.int32))[1]) == 5
        with pytest.raises(DropInError, match="gym_reset_return_info=False: with gym 0.26.2"):
            envpool.make("Pong-v5", env_type="gym", gym_reset_return_info=False)

    def test_without_gym_installed_gym_is_gymnasium(self, monkeypatch):
        monkeypatch.setitem(sys.modules, "gym", None)  # `import gym` raises ImportError
        pool = envpool.make("Pong-v5", env_type="gym", num_envs=2)
        assert isinstance(pool.action_space, gymnasium.spaces.Discrete)
        assert not isinstance(pool.action_space, gym.spaces.Discrete)
        obs, info = pool.reset()
        assert len(pool.step(np.array([0, 1]))) == 5
        with pytest.raises(DropInError, match="gym_reset_return_info=False: with gymnasium"):
            envpool.make("Pong-v5", env_type="gym", gym_reset_return_info=False)

    def test_gymnasium_type_has_gymnasium_spaces_with_gym_installed(self):
        pool = envpool.make("Pong-v5", env_type="gymnasium")
        assert isinstance(pool.action_space, gymnasium.spaces.Discrete)
        assert len(pool.reset()) == 2
