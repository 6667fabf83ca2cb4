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


# ---- any order of numpy calls: each recv returns the oldest queued call, nothing is dropped ----

from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule  # noqa: E402
import pickle  # noqa: E402

STATE_OPTS = dict(num_envs=3, repeat_action_probability=0.25)  # shared with the other suites' pools
SUBSETS = st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True)


def _leaves_equal(a, b, msg=""):
    la, lb = jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)
    assert len(la) == len(lb), msg
    for x, y in zip(la, lb):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y), err_msg=msg)


class QueuedCalls(RuleBasedStateMachine):
    """EnvPool's queue (docs: python_interface.rst, "Extended API"): ``send`` and
    ``async_reset`` queue work, ``recv`` returns the oldest; the pool under test queues calls in
    any order and the twin makes each one at once, as a synchronous user would (``step`` and
    ``reset``): every recv must equal the twin's result of the same call, so nothing queued is
    dropped, merged or reordered. A refused call queues nothing; a pool pickled with calls queued
    goes on with them. Sends name any subset of envs, in any order, with int or whole float
    actions."""

    def __init__(self):
        super().__init__()
        self.pool = envpool.make("Breakout-v5", seed=5, **STATE_OPTS)
        self.twin = envpool.make("Breakout-v5", seed=5, **STATE_OPTS)
        self.queued = []  # what each queued call is, oldest first

    @rule(action=st.lists(st.integers(0, 3), min_size=3, max_size=3), ids=st.one_of(st.none(), SUBSETS),
          as_float=st.booleans())
    def send(self, action, ids, as_float):
        ids_ = None if ids is None else np.array(ids)
        act = np.array(action[: 3 if ids is None else len(ids)], np.float64 if as_float else np.int64)
        self.pool.send(act, ids_)
        self.queued.append(("step", act.astype(np.int64), ids_))

    @rule()
    def async_reset(self):
        self.pool.async_reset()
        self.queued.append(("reset", None, None))

    @rule(action=st.lists(st.integers(-2, 6), min_size=0, max_size=4), ids=st.lists(st.integers(-1, 3), max_size=4))
    def refused_send(self, action, ids):
        ok = len(action) == len(ids) and all(0 <= a < 4 for a in action) and all(0 <= i < 3 for i in ids) \
            and len(set(ids)) == len(ids) and ids
        if ok:
            return
        with pytest.raises(DropInError):
            self.pool.send(np.array(action, np.int64), np.array(ids, np.int64))

    @precondition(lambda self: self.queued)
    @rule(pickled_first=st.booleans())
    def recv(self, pickled_first):
        if pickled_first:  # the copy goes on with the calls queued in the original
            self.pool = pickle.loads(pickle.dumps(self.pool))
        kind, action, ids = self.queued.pop(0)
        got = self.pool.recv()
        if kind == "step":
            want = self.twin.step(action, ids)
        else:
            obs, info = self.twin.reset()
            want = (obs, None, None, None, info)
            got = (got[0], None, None, None, got[4])
        np.testing.assert_array_equal(got[4]["env_id"], np.arange(3) if ids is None else ids)
        _leaves_equal(got, want, f"{kind} {action} {ids}")

    @precondition(lambda self: not self.queued)
    @rule()
    def recv_with_nothing_queued(self):
        with pytest.raises(DropInError, match="nothing sent"):
            self.pool.recv()

    @precondition(lambda self: self.queued)
    @rule()
    def recv_again(self):  # a second rule: recv is drawn as often as send and async_reset together
        self.recv(pickled_first=False)

    @invariant()
    def queue_holds_exactly_the_calls_made(self):
        assert len(self.pool._queue) == len(self.queued)


QueuedCalls.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)
test_any_order_of_calls_is_envpools_queue = QueuedCalls.TestCase


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.one_of(st.integers(-3, 6), st.floats(-3, 6), st.just(float("nan"))),
                       min_size=3, max_size=3))
def test_any_xla_action_known_when_called_is_checked_as_numpy_sends_are(pool, values):
    """A value xla()'s send can see (numpy, a list, a concrete jax array) is checked as the numpy
    send checks it: whole numbers in 0..n-1, a whole float being its integer; the same values
    traced (as ints) are clipped into 0..n-1, as the docs say. (What send leaves in the handle is
    what recv steps with: test_envpool_calls.)"""
    if not _XLA:  # one handle and one compiled send for every example
        handle, _, send, _ = pool.xla()
        _XLA.extend([handle, send, jax.jit(send)])
    handle, send, jsend = _XLA
    a = np.array(values)
    whole = np.isfinite(a).all() and (a == np.round(a)).all()
    legal = whole and a.min() >= 0 and a.max() < 4
    if whole:
        traced = jsend(handle, jnp.asarray(a.astype(np.int32))).action
        np.testing.assert_array_equal(traced, np.clip(a, 0, 3).astype(np.int32))
    try:
        sent = send(handle, a if values[0] != 0 else list(values)).action
    except DropInError as exc:
        assert not legal and ("whole numbers" in str(exc) or "integers 0..3" in str(exc)), str(exc)
        return
    assert legal
    np.testing.assert_array_equal(sent, a.astype(np.int32))
    assert sent.dtype == jnp.int32


_XLA: list = []
