"""Property tests of jaxtari.envpool's face: any value of any option, any action or env_id batch
to the numpy send, any action array to xla()'s step is either taken (and then honoured) or
refused with a DropInError naming it: never another exception, never a silent change."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jaxtari.envpool as envpool
from jaxtari.dropin import DropInError

ANY = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(allow_nan=True),
    st.text(max_size=6), st.sampled_from(["False", "True", "0", "gym"]),
    st.lists(st.integers(-(2**33), 2**33), max_size=4), st.lists(st.floats(-5, 5), max_size=4),
)
OPTIONS = [f.name for f in dataclasses.fields(envpool.Options) if f.name != "task_id"]


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(OPTIONS), value=ANY, num_envs=st.integers(1, 4))
def test_any_option_value_is_taken_within_range_or_refused_by_name(name, value, num_envs):
    kwargs = {"num_envs": num_envs, name: value}
    if isinstance(value, list) and name == "seed":
        value = tuple(value)
        kwargs[name] = value
    opts = envpool.Options(task_id="Pong-v5", **kwargs)
    try:
        opts.check()
        envpool.api_for(opts.env_type, opts.gym_reset_return_info)
    except DropInError as exc:
        assert name in str(exc) or "seed" in str(exc), (name, value, str(exc))
        return
    # taken: every flag is a bool, every count a whole number in range, every seed an int32
    for flag in envpool.BOOL_OPTIONS:
        assert isinstance(getattr(opts, flag), (bool, np.bool_))
    for count in ("num_envs", "max_episode_steps", "stack_num", "frame_skip", "noop_max"):
        v = getattr(opts, count)
        assert isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 <= v <= envpool.INT32_MAX
    seeds = opts.seeds()
    assert seeds.shape == (opts.num_envs,) and (seeds >= envpool.INT32_MIN).all() and (seeds <= envpool.INT32_MAX).all()
    if name == "seed" and isinstance(value, int):
        assert seeds.tolist() == [value + i for i in range(num_envs)]


@pytest.fixture(scope="module")
def pool():
    return envpool.make("Breakout-v5", num_envs=3, seed=0, repeat_action_probability=0.25)


ARRAYS = st.one_of(
    st.lists(st.integers(-3, 6), min_size=0, max_size=5).map(np.array),
    st.lists(st.floats(-2, 6), min_size=1, max_size=4).map(np.array),
    st.lists(st.booleans(), min_size=1, max_size=3).map(np.array),
    st.lists(st.integers(0, 3), min_size=1, max_size=3).map(lambda x: np.array(x, np.uint8)),
    st.integers(-2, 5), st.text(max_size=3), st.none(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=ARRAYS, env_id=st.one_of(st.none(), ARRAYS))
def test_any_numpy_send_is_honoured_or_refused(pool, action, env_id):
    try:
        pool.send(action, env_id)
    except DropInError:
        with pytest.raises(DropInError, match="nothing sent"):
            pool.recv()  # nothing refused was queued
        return
    ids = np.arange(3) if env_id is None else np.atleast_1d(np.asarray(env_id))
    obs, reward, term, trunc, info = pool.recv()
    np.testing.assert_array_equal(info["env_id"], ids)
    assert obs.shape == (len(ids), 4, 84, 84) and reward.shape == (len(ids),)
    assert set(np.atleast_1d(np.asarray(action)).tolist()) <= {0, 1, 2, 3}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dtype=st.sampled_from(["int32", "int8", "uint8", "float32", "bool", "int16"]),
       shape=st.sampled_from([(3,), (2,), (4,), (), (3, 1), (1, 3)]))
def test_any_xla_action_array_is_traced_or_refused(pool, dtype, shape):
    handle, recv, send, step = pool.xla()
    action = jnp.zeros(shape, dtype)
    try:
        _, (obs, *_rest) = jax.eval_shape(step, handle, action)
    except DropInError as exc:
        assert "3 integers" in str(exc)
        assert shape != (3,) or dtype in ("float32", "bool")
        return
    assert shape == (3,) and dtype not in ("float32", "bool") and obs.shape == (3, 4, 84, 84)
