"""Issue 49, the gymnasium face: one check of ALE's keyword arguments with ranges that fit what the
compiled step carries (int32), ``env.unwrapped.ale.lives()``, pickling of an env and a vector env,
``render_mode="human"`` without a display, and gymnasium's async vector env with its own defaults
(workers forked after JAX started)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jaxtari  # noqa: F401  (registers the ids)
from jaxtari.dropin import INT32_MAX, MAX_FRAMESKIP, MAX_MODE, DropInError, Settings

_ANY = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                 st.text(max_size=6), st.just(2**31), st.just(10**12), st.just("False"))


def _whole(v, low, high) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool)) and low <= v <= high


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(["frameskip", "max_num_frames_per_episode", "mode", "difficulty",
                             "full_action_space", "repeat_action_probability"]), value=_ANY)
def test_any_value_of_an_ale_argument_is_taken_exactly_or_refused_by_name(name, value):
    try:
        made = Settings.make("pong", **{name: value})
    except DropInError as exc:
        assert f"{name}={value!r}" in str(exc)
        made = None
    if name == "frameskip":
        ok = _whole(value, 1, MAX_FRAMESKIP)
    elif name == "max_num_frames_per_episode":
        ok = value is None or _whole(value, 0, INT32_MAX - 4)
    elif name in ("mode", "difficulty"):
        ok = value is None or _whole(value, 0, MAX_MODE)
    elif name == "full_action_space":
        ok = isinstance(value, bool)
    else:
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
              and 0.0 <= value <= 1.0)
    assert (made is not None) == ok
    if made is not None and value is not None:
        got = getattr(made, name)
        assert got == value or (name == "max_num_frames_per_episode" and value == 0 and got is None)


@pytest.mark.parametrize("kwargs, says", [
    ({"max_num_frames_per_episode": 10**12}, "from 0 to 2,147,483,643"),
    ({"frameskip": 2**31}, "from 1 to 108,000"),
    ({"full_action_space": "False"}, "expected True or False"),
])
def test_values_jax_would_overflow_are_refused_at_make(kwargs, says):
    with pytest.raises(DropInError, match=says):
        gymnasium.make("jaxtari/Pong-v5", **kwargs)
    with pytest.raises(DropInError, match=says):
        gymnasium.make_vec("jaxtari/Pong-v5", num_envs=2, **kwargs)


@pytest.mark.parametrize("kwargs, says", [
    ({"episodic_life": "no"}, "episodic_life: an EnvPool option .*EpisodicLifeEnv"),
    ({"frame_skip": 4}, "frame_skip: ALE's name is frameskip"),
    ({"framesikp": 4}, "framesikp: did you mean frameskip"),
    ({"noop_max": 30}, "AtariPreprocessing"),
])
def test_an_argument_of_another_layer_says_where_it_goes(kwargs, says):
    for make in (gymnasium.make, lambda i, **kw: gymnasium.make_vec(i, num_envs=2, **kw)):
        with pytest.raises(DropInError, match=f"unknown argument.*{says}"):
            make("jaxtari/Pong-v5", **kwargs)


def test_the_vector_entry_point_names_the_time_limit_it_does_not_apply():
    with pytest.raises(DropInError, match="max_episode_steps=10: gymnasium's TimeLimit"):
        gymnasium.make_vec("jaxtari/Pong-v5", num_envs=2, max_episode_steps=10)
    env = gymnasium.make("jaxtari/Pong-v5", obs_type="objects", max_episode_steps=10**12)
    env.reset(seed=0)
    assert env.step(0)[3] is False


def test_ale_lives_is_what_info_says():
    env = gymnasium.make("jaxtari/BreakoutNoFrameskip-v4", obs_type="objects")
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.unwrapped.ale.lives()
    _, info = env.reset(seed=1)
    assert env.unwrapped.ale.lives() == info["lives"] == 5
    for _ in range(3000):
        _, _, term, trunc, info = env.step(1)
        assert env.unwrapped.ale.lives() == info["lives"]
        assert env.unwrapped.ale.getEpisodeFrameNumber() == info["episode_frame_number"]
        if info["lives"] < 5 or term:
            break
    assert info["lives"] < 5  # the check saw a life lost


def test_a_pickled_env_plays_on_exactly_as_the_original():
    env = gymnasium.make("jaxtari/Pong-v5", obs_type="objects")
    env.reset(seed=3)
    for a in (1, 2, 3) * 5:
        env.step(a)
    copy = pickle.loads(pickle.dumps(env))
    for a in (0, 1, 2, 3, 4, 5) * 10:
        mine, theirs = env.step(a), copy.step(a)
        assert np.array_equal(mine[0], theirs[0]) and mine[1:] == theirs[1:]
    a, b = env.reset(), copy.reset()  # the seed chain travelled too
    assert np.array_equal(a[0], b[0]) and a[1] == b[1]
    fresh = pickle.loads(pickle.dumps(gymnasium.make("jaxtari/Pong-v5")))
    with pytest.raises(gymnasium.error.ResetNeeded):
        fresh.step(0)


def test_a_pickled_vector_env_plays_on_exactly_as_the_original():
    env = gymnasium.make_vec("jaxtari/Pong-v5", num_envs=3, obs_type="objects")
    env.reset(seed=1)
    for t in range(10):
        env.step([t % 6, 1, 2])
    copy = pickle.loads(pickle.dumps(env))
    for t in range(40):
        mine, theirs = env.step([t % 6, 3, 4]), copy.step([t % 6, 3, 4])
        for x, y in zip(mine[:4], theirs[:4]):
            assert np.array_equal(x, y)


def test_human_render_without_a_display_says_so(monkeypatch):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(var, raising=False)
    if not sys.platform.startswith("linux"):
        pytest.skip("DISPLAY is how Linux names its display")
    with pytest.raises(DropInError, match="render_mode='human' needs a display and there is none"):
        gymnasium.make("jaxtari/Pong-v5", render_mode="human")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # asked for on purpose: allowed
    env = gymnasium.make("jaxtari/Pong-v5", obs_type="objects", render_mode="human")
    env.reset(seed=0)
    env.close()


def test_async_vector_env_with_gymnasiums_defaults_works():
    """gymnasium forks its workers on Linux after the parent made one env (JAX started): each
    worker's env then runs in a fresh interpreter, and the results equal the sync vector env's."""
    code = textwrap.dedent("""
        import numpy as np, gymnasium as gym, jaxtari
        a = gym.make_vec("jaxtari/Pong-v5", num_envs=2, vectorization_mode="async", obs_type="objects")
        s = gym.make_vec("jaxtari/Pong-v5", num_envs=2, vectorization_mode="sync", obs_type="objects")
        oa, _ = a.reset(seed=7); os_, _ = s.reset(seed=7)
        assert np.array_equal(oa, os_)
        for t in range(20):
            ra = a.step([t % 6, 1]); rs = s.step([t % 6, 1])
            for x, y in zip(ra[:4], rs[:4]):
                assert np.array_equal(x, y)
        a.close(); s.close()
        print("same")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=400,
                         env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("same")


@pytest.fixture(scope="module")
def vec():
    env = gymnasium.make_vec("jaxtari/Pong-v5", num_envs=2, obs_type="objects")
    env.reset(seed=0)
    return env


@settings(max_examples=80, deadline=None)
@given(actions=st.one_of(
    st.lists(st.one_of(st.integers(-3, 8), st.floats(allow_nan=True), st.booleans(), st.none()),
             min_size=0, max_size=3),
    st.integers(), st.text(max_size=3)))
def test_any_vector_action_batch_is_stepped_as_given_or_refused(vec, actions):
    legal = (isinstance(actions, list) and len(actions) == 2
             and all(isinstance(a, int) and not isinstance(a, bool) and 0 <= a < 6 for a in actions))
    try:
        vec.step(actions)
        stepped = True
    except DropInError as exc:
        stepped = False
        assert "actions must be 2 integers in 0..5" in str(exc)
    assert stepped == legal


@settings(max_examples=60, deadline=None)
@given(action=st.one_of(st.integers(-3, 8), st.floats(allow_nan=True), st.booleans(), st.none(),
                        st.text(max_size=3), st.sampled_from([np.int64(2), np.array(3), np.float32(1)]),
                        st.sampled_from([jnp.int32(4), jnp.array([1]), jnp.float32(1), jnp.int32(7)])))
def test_any_single_action_is_stepped_as_given_or_refused(action):
    env = _single()
    legal = ((isinstance(action, (int, np.integer)) and not isinstance(action, bool) and 0 <= action < 6)
             or (isinstance(action, (np.ndarray, jax.Array)) and action.shape == ()
                 and jnp.issubdtype(action.dtype, jnp.integer) and 0 <= int(action) < 6))
    try:
        env.step(action)
        stepped = True
    except DropInError as exc:
        stepped = False
        assert f"invalid action {action!r}" in str(exc)
    assert stepped == legal


_SINGLE = []


def _single():
    if not _SINGLE:
        env = gymnasium.make("jaxtari/Pong-v5", obs_type="objects", disable_env_checker=True)
        env.reset(seed=0)
        _SINGLE.append(env)
    return _SINGLE[0]


# ---- seeds, keyword names, reset masks and pickling: any input is honoured or refused by name ----

SEEDS = st.one_of(st.none(), st.integers(-3, 2**70), st.floats(allow_nan=True), st.booleans(),
                  st.text(max_size=3), st.sampled_from([np.int64(5), np.uint64(2**63), np.float32(2.0)]))


def _seed_ok(seed) -> bool:
    return seed is None or (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_any_seed_is_gymnasiums_seed_or_refused_by_name(seed):
    """A seed is None or a whole number >= 0 (gymnasium's rule; a numpy integer is its value, a
    bool is no seed); env i of a vector env reset with an int seed s plays as a single env reset
    with s + i (SyncVectorEnv's rule)."""
    env, vec = _single(), _vector()
    try:
        obs, _ = env.reset(seed=seed)
    except DropInError as exc:
        assert f"seed={seed!r}" in str(exc) and not _seed_ok(seed)
        return
    assert _seed_ok(seed)
    if seed is None:
        return
    vobs, _ = vec.reset(seed=seed)
    np.testing.assert_array_equal(vobs[0], obs)
    np.testing.assert_array_equal(vobs[1], env.reset(seed=int(seed) + 1)[0])


@settings(max_examples=40, deadline=None)
@given(seeds=st.one_of(st.lists(SEEDS, max_size=3), st.tuples(SEEDS, SEEDS), st.text(max_size=2),
                       st.floats()))
def test_any_vector_seed_sequence_is_one_seed_per_env_or_refused(seeds):
    vec = _vector()
    per_env = isinstance(seeds, (list, tuple)) and len(seeds) == 2 and all(map(_seed_ok, seeds))
    try:
        obs, _ = vec.reset(seed=seeds)
    except DropInError as exc:
        assert not per_env and "seed" in str(exc)
        return
    assert per_env
    for i, s in enumerate(seeds):
        if s is not None:
            np.testing.assert_array_equal(obs[i], _single().reset(seed=int(s))[0])


@settings(max_examples=40, deadline=None)
@given(name=st.one_of(st.sampled_from(["episodic_life", "frame_skip", "noop_max", "obs", "sticky",
                                       "full_action_spaces", "max_frames", "seed", "num_envs"]),
                      st.from_regex(r"[a-z_]{1,12}", fullmatch=True)),
       value=st.one_of(st.integers(), st.booleans(), st.text(max_size=3)))
def test_any_keyword_no_jaxtari_env_takes_is_refused_by_name(name, value):
    from jaxtari.gym import check_settings

    takes = set(Settings.__dataclass_fields__) - {"game"}
    if name in takes:
        return
    with pytest.raises(DropInError, match=f"unknown argument.*{name}"):
        check_settings({name: value})


@settings(max_examples=40, deadline=None)
@given(mask=st.one_of(st.lists(st.booleans(), max_size=3).map(np.array),
                      st.lists(st.integers(0, 1), min_size=2, max_size=2).map(np.array),
                      st.lists(st.booleans(), min_size=2, max_size=2)),
       steps=st.integers(0, 3))
def test_any_reset_mask_resets_exactly_its_envs_or_is_refused(mask, steps):
    vec = _vector()
    vec.reset(seed=11)
    for _ in range(steps):
        vec.step([1, 2])
    before = vec.step([0, 0])[0]
    as_array = np.asarray(mask)  # a list of bools is as clear as their array
    legal = as_array.dtype == np.bool_ and as_array.shape == (2,) and as_array.any()
    try:
        obs, info = vec.reset(seed=[3, 4], options={"reset_mask": mask})
    except DropInError as exc:
        assert not legal and "reset_mask" in str(exc)
        return
    assert legal
    for i in range(2):
        if mask[i]:
            np.testing.assert_array_equal(obs[i], _single().reset(seed=3 + i)[0])
        else:
            np.testing.assert_array_equal(obs[i], before[i])  # untouched
        assert info["_lives"][i] == mask[i]


@settings(max_examples=20, deadline=None)
@given(before=st.lists(st.integers(0, 5), max_size=12), after=st.lists(st.integers(0, 5), min_size=1, max_size=12),
       seed=st.integers(0, 2**32))
def test_an_env_pickled_anywhere_plays_on_as_the_original(before, after, seed):
    env = gymnasium.make("jaxtari/Pong-v5", obs_type="objects", disable_env_checker=True)
    env.reset(seed=seed)
    for a in before:
        env.step(a)
    copy = pickle.loads(pickle.dumps(env))
    for a in after:
        mine, theirs = env.step(a), copy.step(a)
        np.testing.assert_array_equal(mine[0], theirs[0])
        assert mine[1:] == theirs[1:]


_VECTOR = []


def _vector():
    if not _VECTOR:
        _VECTOR.append(gymnasium.make_vec("jaxtari/Pong-v5", num_envs=2, obs_type="objects"))
    return _VECTOR[0]
