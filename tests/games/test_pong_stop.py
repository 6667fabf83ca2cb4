"""Pong's timer stop against ALE: the frame after the frame counter (RAM 9:8) wraps to 0 the
cartridge stops the game (RAM 16 = 0): the ball stays, then hides; no more serves; the score bytes
show the select display (the computer's shows the game number, the agent's is kept but not
drawn), which ALE pays as a reward; the colours cycle with RAM 10, once per 256 frames. In a game
from reset that is frame 65,210; the fast tests write RAM 9 = 255 (and RAM 8) mid-game on both
sides so that the wrap comes within frames, and compare every frame."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
from alignment.reference import AleGame
from jaxtari import render
from tests.games.test_pong import game, jax_signals, make_rollout, rollout, tracker  # noqa: F401

TIMER, CLOCK, ATTRACT, COUNTDOWN, GAME_ON = 9, 8, 10, 11, 16  # RAM addresses (measured)
MIRRORED = {"timer": TIMER, "clock": CLOCK, "attract": ATTRACT, "countdown": COUNTDOWN}


def _ale_play(actions, policy, before, clock):
    """ALE: ``before`` frames, then RAM 9 := 255 and RAM 8 := ``clock``, then the rest; per frame
    the signals, reward, RAM and screen, and the actions played."""
    ale = AleGame("pong")
    rows, rewards, rams, screens, played = [], [], [], [], []
    for t in range(len(actions)):
        if t == before:
            ale.set_ram(TIMER, 255)
            ale.set_ram(CLOCK, clock)
        a = int(actions[t]) if policy is None else policy(ale.ram, t)
        played.append(a)
        rewards.append(ale.step(a))
        rows.append(ale.signals())
        rams.append(np.array(ale.ram))
        screens.append(ale.rgb())
    return rows, np.array(rewards), np.array(rams), np.array(screens), np.array(played, np.int32)


def _jax_play(game, rollout, actions, before, clock):
    start = game.reset(jax.random.key(0))[1]
    mid, first, r1, _ = rollout(start, jnp.asarray(actions[:before]))
    mid = mid.replace(timer=jnp.int32(255), clock=jnp.int32(clock))
    _, second, r2, _ = rollout(mid, jnp.asarray(actions[before:]))
    cat = lambda a, b: jnp.concatenate([a, b])  # noqa: E731
    return jax.tree_util.tree_map(cat, first, second), cat(r1, r2)


CASES = {
    # (seed, frames before the write, frames after, RAM 8 written, a tracking player?)
    "serve-countdown": (0, 300, 900, 240, False),
    "rally-agent-ahead": (4, 1400, 700, 250, True),
    "late-game": (1, 2000, 1200, 250, False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_timer_stop_matches_ale_frame_for_frame(game, rollout, case):
    seed, before, after, clock, tracking = CASES[case]
    n = before + after
    rng = np.random.default_rng(seed)
    held = np.repeat(rng.integers(0, 6, size=n // 8 + 1), 8)[:n].astype(np.int32)
    policy = tracker(seed) if tracking else None
    rows, rewards, rams, screens, actions = _ale_play(held, policy, before, clock)
    states, jax_rewards = _jax_play(game, rollout, actions, before, clock)
    sig = jax_signals(game, states, jax_rewards)

    stopped = np.nonzero(rams[:, GAME_ON] == 0)[0]
    assert stopped.size and stopped[0] == before + (256 - clock), "ALE did not stop where expected"
    stop = int(stopped[0])
    assert (np.asarray(states.stopped) == (rams[:, GAME_ON] == 0)).all()
    for name in ("player_y", "enemy_y", "ball_x", "ball_y", "player_score", "enemy_score"):
        np.testing.assert_array_equal(np.array([r[name] for r in rows]), sig[name], err_msg=name)
    np.testing.assert_array_equal(rewards, sig["reward"])
    for field, address in MIRRORED.items():
        np.testing.assert_array_equal(rams[:, address], np.asarray(getattr(states, field)),
                                      err_msg=field)
    # the select display's scores, paid as ALE pays them, and nothing after
    assert (rams[stop:, 13] == 1).all() and (rams[stop:, 14] == rams[stop - 1, 14]).all()
    assert rewards[stop] == rams[stop - 1, 13] - 1
    assert (rewards[stop + 1:] == 0).all()
    assert len(set(rams[stop:, ATTRACT].tolist())) >= 2, "the colours never cycled"
    if case == "rally-agent-ahead":  # the ball in play, the agent's points kept but not drawn
        assert rams[stop - 1, COUNTDOWN] == 0 and rams[stop - 1, 14] > 0
    # every picture, at 210x160 and as the 84x84 grey sampling of ALE's screen
    ours = np.asarray(jax.jit(jax.vmap(game.render))(states))
    if not np.array_equal(ours, screens):  # which frame, how many pixels: only worth it on failure
        differ = (ours != screens).any(-1).sum(axis=(1, 2))
        raise AssertionError(f"frame {differ.argmax()} differs in {differ.max()} pixels")
    small = np.asarray(jax.jit(jax.vmap(game.render_gray84))(states))
    # sampled, then grey: the same pixels (grey is per pixel), without a 4-byte integer per
    # channel of every whole screen (GBs over these thousands of frames; a minute here)
    grey = render.gray(screens[:, render.SMALL_GRAY.ys[:, 0]][:, :, render.SMALL_GRAY.xs[0]])
    assert (small == grey).all()


def test_a_game_from_reset_stops_at_frame_65210(game):
    """No write: the counter is RAM 9:8 = 1:71 after reset, so it wraps on frame 65,209 and the
    game stops on frame 65,210; the computer's points held back (no_enemy_points) keep the
    game going that long on JAX, and the count does not depend on what is played."""
    mod = jaxtari.make("pong", mods=["no_enemy_points"])
    run = make_rollout(mod)
    s = mod.reset(jax.random.key(0))[1]
    actions = jnp.asarray(np.random.default_rng(2).integers(0, 6, 65_300), jnp.int32)
    _, states, rewards, _ = run(s, actions)
    stopped = np.asarray(states.stopped)
    # states[t] is the state after t + 1 frames
    assert not stopped[65_208] and stopped[65_209]
    # the mod holds the computer's byte at 0 through the select display too; the game number
    # written there is paid as ALE pays it (-1), no point of the computer's is
    assert (np.asarray(states.enemy_score) == 0).all() and int(rewards[65_209]) == -1
    assert (np.asarray(states.ball_y)[65_210:] == 0).all()


@pytest.mark.slow
def test_no_enemy_points_games_stop_alike_on_both_sides():
    """The one way a game lasts that long: the computer's points held back (the mod on ALE as its
    RAM write, on JAX as the mod). Random held actions to frame 66,000: every signal but the
    computer's score (ALE shows each of its points for one frame) equal on every frame, the same
    return, the same stop, and the screens equal on each frame around the stop and the first
    colour change after it."""
    from alignment.backends import make_backend
    from alignment.counterparts import random_actions

    ale, jx = (make_backend(k, "pong", mods=["no_enemy_points"]) for k in ("ale", "jax"))
    ale.reset(0)
    jx.reset(0)
    rng = np.random.default_rng(7)
    total = {"ale": 0.0, "jax": 0.0}
    compared = ("player_y", "enemy_y", "ball_x", "ball_y", "player_score")
    screens_compared = 0
    for lo, hi, per_frame in ((0, 65_200, False), (65_200, 65_230, True),
                              (65_230, 65_460, False), (65_460, 65_475, True),
                              (65_475, 66_000, False)):
        steps = [hi - lo] if not per_frame else [1] * (hi - lo)
        for n in steps:
            actions = random_actions(6, n, rng)
            a, j = ale.run(actions), jx.run(actions)
            for name in compared:
                bad = np.flatnonzero(np.asarray(a[name]) != np.asarray(j[name]))
                assert bad.size == 0, (name, lo + int(bad[0]), a[name][bad[0]], j[name][bad[0]])
            total["ale"] += float(np.sum(a["reward"]))
            total["jax"] += float(np.sum(j["reward"]))
            if per_frame:
                assert (np.asarray(ale.rgb()) == np.asarray(jx.rgb())).all(), ale.frame
                screens_compared += 1
    assert total["ale"] == total["jax"]
    assert ale.ram()[GAME_ON] == 0 and bool(jx.state.stopped)
    assert screens_compared == 45


def test_no_enemy_points_draws_the_point_alike_on_both_sides():
    """A point the computer wins under no_enemy_points: ALE's cartridge builds the digits from
    its score byte before the mod's write puts 0 back, so the point shows for one frame; the
    JAX mod draws the same. Every screen of 300 NOOP frames (the computer scores on frame 255)."""
    from alignment.backends import make_backend

    ale, jx = (make_backend(k, "pong", mods=["no_enemy_points"]) for k in ("ale", "jax"))
    ale.reset(0)
    jx.reset(0)
    rewards = []
    for t in range(300):
        rewards.append(ale.act(0))
        jx.act(0)
        assert (np.asarray(ale.rgb()) == np.asarray(jx.rgb())).all(), t + 1
    assert rewards[255] == -1  # the point (and ALE's +1 when the write takes it back)
