"""The jaxtari API refuses what is not an action, a stack size or a mod, with messages that say why.

Property tests (hypothesis) draw arbitrary values; the property is always: a clear error naming the
input, or the right result. Under ``jit`` an out-of-range action plays NOOP, never another action,
and ``checked_step`` reports it from inside compiled code.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jaxtari
from jaxtari.env import InvalidActionError
from jaxtari.mods import InternalMod, ModError
from jaxtari.wrappers import make_env

PONG = jaxtari.make("pong")
N = PONG.num_actions
_, START = PONG.reset(jax.random.key(0))
_STEP = jax.jit(PONG.step)
_NOOP = PONG.action_index("NOOP")


@settings(max_examples=200, deadline=None)
@given(st.one_of(
    st.integers(min_value=-2**63, max_value=-1),
    st.integers(min_value=N, max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=5),
    st.lists(st.integers(0, N - 1), min_size=1, max_size=3),
))
def test_eager_step_refuses_anything_but_an_index(action):
    with pytest.raises(InvalidActionError, match=r"invalid action: .*integers 0\.\.5 \(0=NOOP"):
        PONG.step(START, action)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=N - 1))
def test_every_legal_index_is_accepted(index):
    for action in (index, np.int64(index), np.asarray(index, np.int32), jnp.int32(index)):
        PONG.check_action(action)


def test_out_of_range_under_jit_plays_noop():
    noop = _STEP(START, _NOOP)
    for bad in (-7, -1, N, 99, 2**31 - 1):
        out = _STEP(START, jnp.int32(bad))
        for a, b in zip(jax.tree.leaves(out[1]), jax.tree.leaves(noop[1])):
            if jnp.issubdtype(a.dtype, jax.dtypes.prng_key):
                a, b = jax.random.key_data(a), jax.random.key_data(b)
            np.testing.assert_array_equal(a, b)


def test_traced_float_or_vector_action_is_refused_at_trace_time():
    with pytest.raises(InvalidActionError, match="traced float32"):
        jax.jit(PONG.step)(START, jnp.float32(1.0))
    with pytest.raises(InvalidActionError, match=r"shape \(2,\)"):
        jax.jit(PONG.step)(START, jnp.array([2, 3], jnp.int32))


def test_checked_step_reports_the_action_from_compiled_code():
    checked = jax.jit(PONG.checked_step)
    err, _ = checked(START, jnp.int32(2))
    err.throw()  # a legal action: nothing to report
    err, _ = checked(START, jnp.int32(99))
    with pytest.raises(Exception, match=r"action 99 is outside 0\.\.5"):
        err.throw()


def test_wrapper_step_refuses_an_invalid_action_eagerly():
    env = make_env("pong", log=False)
    _, state = env.reset(jax.random.key(0))
    with pytest.raises(InvalidActionError, match="1.7 is a float64"):
        env.step(state, 1.7)


@pytest.mark.parametrize("k", [0, -2, 2.5, True, "4", None])
def test_bad_frame_stack_is_refused(k):
    with pytest.raises(ValueError, match=r"frame_stack must be a whole number from 1 \(no stack\) to 64"):
        make_env("pong", frame_stack=k)


def test_one_mod_given_as_a_string_is_that_mod():
    game = jaxtari.make("pong", mods="lazy_enemy")
    assert game.mod_names == ("lazy_enemy",)
    with pytest.raises(ModError, match="unknown mod 'lazy'"):
        jaxtari.make("pong", mods="lazy")


@pytest.mark.parametrize("value, problem", [
    ("fast", "is not a number"),
    ((1, 2), "shape"),
    (1.5, "whole number"),
])
def test_wrongly_typed_internal_mod_constant_fails_when_the_game_is_made(value, problem):
    field = "enemy_speed"
    assert field in {f.name for f in dataclasses.fields(PONG.Constants)}
    mod = InternalMod("bad_speed", "a wrong type", constants={field: value})
    with pytest.raises(ModError, match=rf"constant 'enemy_speed' to .*{problem}"):
        jaxtari.make("pong", mods=[mod])
