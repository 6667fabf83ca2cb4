"""The ALE side's object features (decoded from RAM) equal the JAX game's observation frame by
frame on matched runs: the same actions, one emulator frame per step, sticky actions off."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment.reference.ale import AleGame
from alignment.reference.features import FeatureDecoder, UnsupportedFeatures


def _matched(game: str, frames: int, hold: int, seed: int):
    dec = FeatureDecoder(game)
    ale = AleGame(game, sticky=0.0)
    ale.reset()
    rng = np.random.default_rng(seed)
    actions = np.repeat(rng.integers(0, dec.game.num_actions, frames // hold), hold)
    rams = [ale.ram.copy()]
    for a in actions:
        ale.step(int(a))
        if ale.terminated:
            break
        rams.append(ale.ram.copy())
    n = len(rams)
    _, state = dec.game.reset(jax.random.key(0))

    def body(s, a):
        obs, s, *_ = dec.game.step(s, a)
        return s, obs

    _, obs = jax.lax.scan(body, state, jnp.asarray(actions[: n - 1]))
    jax_obs = np.concatenate([np.asarray(dec.game.observation(state))[None], np.asarray(obs)])
    return dec(np.stack(rams)), jax_obs


@pytest.mark.xfail(strict=True, reason=(
    "since the ball-edge fix (aab5470) Pong's observation reports the drawn ball box, whose edges "
    "depend on the frame counter (RAM 8) and the paddle pot's charge, which the RAM decoding does "
    "not give: ball y differs by 1 px on 17 of 2,401 frames (open on issue 25)"))
def test_pong_features_agree_on_every_frame():
    ale_obs, jax_obs = _matched("pong", 2400, 8, seed=0)
    assert ale_obs.shape == jax_obs.shape == (2401, 15)
    np.testing.assert_array_equal(ale_obs, jax_obs)
    assert np.ptp(ale_obs, axis=0)[[1, 6, 11]].min() > 20  # ball, enemy and player all moved


def test_freeway_features_agree_frame_by_frame():
    ale_obs, jax_obs = _matched("freeway", 3000, 8, seed=0)
    assert ale_obs.shape == jax_obs.shape == (3001, 88)
    same = np.all(ale_obs == jax_obs, axis=1)
    # The one field RAM cannot give on every frame: the chicken's hurt pose on the frame a hit's
    # count reaches 0 (ram[106] is already cleared). Measured: 2 of 8,001 frames of a random game.
    pose = 75  # cars (10 x 7), then the chicken's x, y, w, h, active, pose
    assert same.mean() > 0.998
    assert np.all(np.delete(ale_obs, pose, axis=1) == np.delete(jax_obs, pose, axis=1))
    assert np.ptp(ale_obs[:, 71]) > 50  # the chicken moved


def test_breakout_features_agree_on_every_frame():
    ale_obs, jax_obs = _matched("breakout", 1500, 6, seed=2)
    assert ale_obs.shape == jax_obs.shape and ale_obs.shape[1] == 5 + 5 + 108 * 6
    np.testing.assert_array_equal(ale_obs, jax_obs)
    assert np.ptp(ale_obs[:, 0]) > 20  # the ball moved


def test_features_of_one_snapshot_from_the_ground_truth_module():
    from alignment.reference.games import freeway

    ale = AleGame("freeway", sticky=0.0)
    ale.reset()
    v = freeway.features(ale.ram.copy())
    assert v.shape == (88,) and v[71] == 187  # the chicken's top y on the kerb


def test_a_game_without_ram_decoding_is_named():
    with pytest.raises(UnsupportedFeatures, match="frostbite.*games with one: ") as err:
        FeatureDecoder("frostbite")
    listed = str(err.value).split("games with one: ")[1].split()
    assert {"freeway", "pong"} <= {w.strip(",") for w in listed}
