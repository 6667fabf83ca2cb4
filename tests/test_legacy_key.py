"""Issue 49: the legacy key. ``reset(jax.random.PRNGKey(0))`` then ``step`` (what every gymnax,
PureJaxRL and CleanRL program types) works, vmapped over 1,024 envs, and plays exactly as the typed
key of the same seed; a typed key's programs are compiled as before (no key conversion in them).
And the wrapper's arguments: whole numbers in ranges that fit the int32 the step carries."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jaxtari
from jaxtari.wrappers import INT32_MAX, MAX_FRAMESKIP, MAX_NOOP, AtariWrapper, make_env

GAME = jaxtari.make("pong")
N = 1024


def _same(a, b) -> bool:
    def data(x):
        return jax.random.key_data(x) if jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key) else x
    return all(np.array_equal(data(x), data(y)) for x, y in
               zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)))


def test_legacy_keys_vmapped_over_1024_envs_play_as_typed_keys():
    def rollout(keys):
        obs, state = jax.vmap(GAME.reset)(keys)

        def body(state, a):
            obs, state, reward, done, _ = jax.vmap(GAME.step)(state, a)
            return state, (obs, reward, done)

        actions = (jnp.arange(8)[:, None] + jnp.arange(N)[None, :]) % GAME.num_actions
        return jax.lax.scan(body, state, actions)

    legacy = jax.jit(rollout)(jax.random.split(jax.random.PRNGKey(0), N))
    typed = jax.jit(rollout)(jax.random.split(jax.random.key(0), N))
    assert _same(legacy, typed)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), action=st.integers(0, GAME.num_actions - 1))
def test_any_seed_legacy_or_typed_gives_the_same_game_and_wrapped_env(seed, action):
    obs_l, s_l = GAME.reset(jax.random.PRNGKey(seed))
    obs_t, s_t = GAME.reset(jax.random.key(seed))
    assert _same((obs_l, s_l), (obs_t, s_t))
    assert _same(GAME.step(s_l, action), GAME.step(s_t, action))
    env = make_env("pong", obs="objects")
    assert _same(env.reset(jax.random.PRNGKey(seed)), env.reset(jax.random.key(seed)))


def test_a_legacy_key_put_into_a_state_is_taken():
    _, state = GAME.reset(jax.random.key(1))
    swapped = state.replace(key=jax.random.PRNGKey(5))
    typed = state.replace(key=jax.random.key(5))
    assert _same(GAME.step(swapped, 1), GAME.step(typed, 1))
    err, out = GAME.checked_step(swapped, 1)
    err.throw()
    assert _same(out, GAME.step(typed, 1))


def test_a_typed_keys_compiled_step_has_no_key_conversion():
    _, state = GAME.reset(jax.random.key(0))
    text = str(jax.make_jaxpr(GAME.step)(state, 0)) + str(jax.make_jaxpr(GAME.reset)(jax.random.key(0)))
    assert "random_wrap" not in text
    assert "random_wrap" in str(jax.make_jaxpr(GAME.reset)(jax.random.PRNGKey(0)))


@pytest.mark.parametrize("key", [0, 1.5, "seed", np.zeros(2, np.int32), np.zeros(3, np.uint32)])
def test_something_else_than_a_key_is_named(key):
    with pytest.raises(TypeError, match=r"is not a PRNG key: pass jax.random.key\(seed\)"):
        GAME.reset(key)


_ANY = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.floats(allow_nan=True),
                 st.text(max_size=4), st.just(2**31), st.just("no"))


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(["frameskip", "noop_max", "max_episode_frames", "episodic_life",
                             "autoreset", "sticky_prob"]), value=_ANY)
def test_any_wrapper_argument_is_taken_exactly_or_refused_by_name(name, value):
    try:
        env = AtariWrapper(GAME, **{name: value})
    except ValueError as exc:
        assert str(exc).startswith(name) and repr(value) in str(exc)
        env = None
    whole = isinstance(value, int) and not isinstance(value, bool)
    ok = {"frameskip": whole and 1 <= value <= MAX_FRAMESKIP,
          "noop_max": whole and 0 <= value <= MAX_NOOP,
          "max_episode_frames": whole and 1 <= value <= INT32_MAX - 4,
          "episodic_life": isinstance(value, bool), "autoreset": isinstance(value, bool),
          "sticky_prob": isinstance(value, (int, float)) and not isinstance(value, bool)
          and 0 <= value <= 1}[name]
    assert (env is not None) == ok
    if env is not None:
        assert getattr(env, name) == value


def test_full_action_space_is_a_bool():
    with pytest.raises(ValueError, match="full_action_space='False': expected True or False"):
        jaxtari.make("pong", full_action_space="False")
    assert jaxtari.make("pong", full_action_space=True).num_actions == 18
