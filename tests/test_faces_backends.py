"""Issue 49, the backends' face: every number an ALE or JAX backend takes (an action, a frame
count, a seed) is a whole number in range or a BackendError naming it; 1.7 is never played as 1."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignment.backends import SEED_MAX, BackendError, make_backend

N_ACTIONS = 6  # pong's minimal set


@pytest.fixture(scope="module", params=["ale", "jax"])
def backend(request):
    return make_backend(request.param, "pong")


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5),
                    st.sampled_from([1.7, 0.5, float("nan"), 2.0, np.int64(3), np.float32(2.5),
                                     np.array(4), np.array([1, 2])]))


def _whole(v):
    if isinstance(v, (bool, np.bool_)):
        return None
    if isinstance(v, np.ndarray):
        return _whole(v.item()) if v.shape == () else None
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)) and math.isfinite(v) and float(v).is_integer():
        return int(v)
    return None


@settings(max_examples=80, deadline=None)
@given(action=_VALUES)
def test_any_action_is_played_as_itself_or_refused(backend, action):
    backend.reset(0)
    n = _whole(action)
    names = {"NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE"}
    legal = (n is not None and 0 <= n < N_ACTIONS) or (
        isinstance(action, str) and action.strip().upper() in names)
    try:
        backend.act(action)
        played = True
    except BackendError as exc:
        played = False
        assert "action" in str(exc)
    assert played == legal


@settings(max_examples=60, deadline=None)
@given(frames=_VALUES)
def test_any_frame_count_is_run_exactly_or_refused(backend, frames):
    backend.reset(0)
    n = _whole(frames)
    try:
        backend.act(0, frames=frames if n is None or n < 200 else 3)
        ran = True
    except BackendError as exc:
        ran = False
        assert "frames" in str(exc)
    assert ran == (n is not None and n >= 0)
    if ran and n is not None and n < 200:
        assert backend.frame == n


@settings(max_examples=40, deadline=None)
@given(seed=_VALUES)
def test_any_seed_is_taken_or_refused(backend, seed):
    n = _whole(seed)
    try:
        backend.reset(seed)
        ok = True
    except BackendError as exc:
        ok = False
        assert "seed" in str(exc)
    assert ok == (n is not None and 0 <= n <= SEED_MAX)


def test_run_refuses_fractional_actions_and_a_string(backend):
    backend.reset(0)
    with pytest.raises(BackendError, match="action 0.5 is not a whole number"):
        backend.run([0.5, 1.5])
    with pytest.raises(BackendError, match="one string"):
        backend.run("NOOP")
    assert len(backend.run([0, 1.0, "FIRE"])["reward"]) == 3


def test_a_huge_frame_count_stops_at_game_over_like_ale():
    jax_side = make_backend("jax", "pong")
    jax_side.reset(0)
    jax_side.act(0, frames=10**12)  # pong ends (the enemy scores 21) long before
    assert jax_side.terminated


# ---- the real emulator under the ALE backend: the same check (alignment.plain.whole_number) ------

@pytest.fixture(scope="module")
def ale_game():
    from alignment.reference.ale import AleGame

    return AleGame("pong")


@settings(max_examples=80, deadline=None)
@given(value=_VALUES, call=st.sampled_from(["act", "step", "repeat", "set_ram index",
                                            "set_ram value"]))
def test_the_ale_game_takes_whole_numbers_in_range_or_refuses_them(ale_game, value, call):
    """AleGame.act (ALE action ids 0..17), step (pong's 6 actions), repeat's frame count and
    set_ram's index and byte: 1.7, NaN, True or '3' are refused naming the number, never truncated."""
    from alignment.reference.ale import AleError

    ale_game.reset()
    n = _whole(value)
    before = ale_game.frame
    do, legal = {
        "act": (lambda: ale_game.act(value), n is not None and 0 <= n < 18),
        "step": (lambda: ale_game.step(value), n is not None and 0 <= n < N_ACTIONS),
        "repeat": (lambda: ale_game.repeat(0, value if n is None or n < 50 else 3),
                   n is not None and n >= 0),
        "set_ram index": (lambda: ale_game.set_ram(value, 0), n is not None and 0 <= n < 128),
        "set_ram value": (lambda: ale_game.set_ram(0, value), n is not None and 0 <= n <= 255),
    }[call]
    try:
        do()
        done = True
    except AleError:
        done = False
    assert done == legal
    if call == "repeat" and done and n < 50:
        assert ale_game.frame == before + n


@pytest.mark.parametrize("kwargs, said", [
    ({"seed": 1.5}, "seed 1.5 is not a whole number"),
    ({"seed": -1}, "seed -1 is out of range"),
    ({"seed": 2**32}, "seed 4294967296 is out of range"),
    ({"mode": 0.5}, "pong: mode 0.5 is not a whole number"),
    ({"difficulty": True}, "pong: difficulty True is a bool"),
    ({"max_episode_frames": float("nan")}, "max_episode_frames nan is not a whole number"),
    ({"max_episode_frames": 2**31}, "max_episode_frames 2147483648 is out of range"),
])
def test_the_ale_game_refuses_a_seed_mode_or_cap_that_is_not_a_whole_number_in_range(kwargs, said):
    from alignment.reference.ale import AleError, AleGame

    with pytest.raises(AleError, match=re.escape(said)):
        AleGame("pong", **kwargs)
    AleGame("pong", seed=np.uint32(2**32 - 1), mode=np.int64(1), max_episode_frames=4.0)


@settings(max_examples=40, deadline=None)
@given(at=st.lists(st.one_of(st.integers(-3, 12), st.sampled_from([1.5, 2.0, float("nan"), True])),
                   max_size=5))
def test_run_screens_takes_whole_frame_indices_in_range_once_each_or_refuses(backend, at):
    """Both kinds return one screen per wanted frame, in frame order; 1.5 is not frame 1."""
    backend.reset(0)
    n = 10
    wanted = [_whole(i) for i in at]
    legal = all(w is not None and 0 <= w < n for w in wanted)
    try:
        traces, screens = backend.run_screens([0] * n, at)
    except BackendError as exc:
        assert not legal and ("screen frame" in str(exc))
        return
    assert legal and len(screens) == len(set(wanted)) and len(traces["reward"]) == n
