"""gymnasium's Atari preprocessing over ALE and over jaxtari: ``ALE/<Game>-v5`` and
``jaxtari/<Game>-v5`` (frameskip 1, sticky actions off), each wrapped in gymnasium's own
``AtariPreprocessing`` (its defaults: 30 no-op starts drawn from the env's ``np_random``, frameskip
4, max over the last two frames, 84x84 by area) and ``FrameStackObservation(4)``, reset with the
same seed and given the same actions, give equal observations, rewards, terminations and
truncations at every step: the games are exact, and the env gives the wrapper what ALE's does
(``unwrapped.ale`` screens and lives, ``_frameskip``, an ``np_random`` seeded as ale-py seeds).
Pong runs in the default suite; every other game is marked slow."""

from __future__ import annotations

import ale_py
import gymnasium
import numpy as np
import pytest
from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

import jaxtari
from jaxtari.dropin import env_name

gymnasium.register_envs(ale_py)
FAST = "pong"


def preprocessed(env_id: str):
    env = gymnasium.make(env_id, frameskip=1, repeat_action_probability=0.0)
    return FrameStackObservation(AtariPreprocessing(env), 4)


def lockstep(game: str, steps: int, seed: int) -> int:
    """Steps ALE's and jaxtari's preprocessed envs side by side; returns how many episodes ended."""
    name = env_name(game)
    ale, ours = preprocessed(f"ALE/{name}-v5"), preprocessed(f"jaxtari/{name}-v5")
    a_obs, _ = ale.reset(seed=seed)
    j_obs, _ = ours.reset(seed=seed)
    np.testing.assert_array_equal(j_obs, a_obs, err_msg="after reset")
    rng = np.random.default_rng(seed)
    ended = 0
    for t in range(steps):
        action = int(rng.integers(ale.action_space.n))
        a_obs, a_rew, a_term, a_trunc, _ = ale.step(action)
        j_obs, j_rew, j_term, j_trunc, _ = ours.step(action)
        assert (j_rew, j_term, j_trunc) == (a_rew, a_term, a_trunc), f"step {t}"
        np.testing.assert_array_equal(j_obs, a_obs, err_msg=f"step {t}")
        if a_term or a_trunc:
            ended += 1
            a_obs, _ = ale.reset()
            j_obs, _ = ours.reset()
            np.testing.assert_array_equal(j_obs, a_obs, err_msg=f"reset after step {t}")
    return ended


def test_the_same_seed_draws_the_same_no_ops():
    ale, ours = (gymnasium.make(f"{ns}/Pong-v5", frameskip=1, repeat_action_probability=0.0)
                 for ns in ("ALE", "jaxtari"))
    ale.reset(seed=11), ours.reset(seed=11)
    assert ale.unwrapped.np_random.integers(1 << 30, size=4).tolist() == \
        ours.unwrapped.np_random.integers(1 << 30, size=4).tolist()


def test_pong_preprocessed_as_ale():
    lockstep(FAST, steps=300, seed=3)


# Measured on main 2026-12-05 (seed 5, these actions): the preprocessed observations part from
# ALE's, rewards and terminations still equal. Cause: ALE's reset_game starts some episodes a frame
# apart (the RIOT timer it restarts the console with; tests/dropin/test_ale_reset.py). Frostbite
# parted at step 909 (its 3rd episode, RIOT timer 78: a late start) and Seaquest at step 1385 (its
# 4th, RIOT timer 39: an early start) until their ale_start modelled it; none parts now.
DIVERGES: dict[str, str] = {}  # a game that parts again: listed here as a strict xfail, with where


@pytest.mark.slow
@pytest.mark.parametrize("game", [
    pytest.param(g, marks=pytest.mark.xfail(strict=True, reason=DIVERGES[g])) if g in DIVERGES else g
    for g in jaxtari.list_games()])
def test_every_game_preprocessed_as_ale(game):
    """Long enough that games end (Breakout's and Freeway's within it; the others' lives go)."""
    lockstep(game, steps=3000, seed=5)
