"""Breakout in JAX against the real emulator (ale-py 0.12.1, one frame per act, sticky actions off).

Whole games are replayed action for action on ALE and, as one compiled scan, on the JAX game; every
frame compares every RAM byte the JAX state mirrors (paddle, ball position and speed in 8.8, hit
count, angle, the shrink flag, the 36 wall bytes, the wall's build state, balls, score, the pot
reading, frame counter, game-on flag, sound timer), the reward, ALE's lives() and game_over(); the
210x160 screen on sampled frames. Zero tolerance everywhere. The default suite plays one short game
of each kind; the slow tests play ten whole games of each kind.
"""

import jax
import numpy as np
import pytest

import jaxtari
from jaxtari.games.breakout import constants as k
from tests.games.breakout_helpers import (
    FIRE, LEFT, NOOP, RIGHT, act, ale_screens, compare, gray84_frames, make_ale, make_game,
    next_pot, random_actions, render_frames, rollout, scripted_start, tracker_actions,
)


def _exact(c):
    assert c.mismatches == [], f"first mismatches (frame, {{field: (ale, jax)}}): {c.mismatches[:3]}"
    assert c.pixel_mismatches == [], f"(frame, pixels that differ): {c.pixel_mismatches[:5]}"


# ---- the API --------------------------------------------------------------------------------------
def test_minimal_action_set_in_ale_order():
    game = jaxtari.make("Breakout")
    ale = make_ale()
    assert game.action_names == ("NOOP", "FIRE", "RIGHT", "LEFT")
    assert game.action_ids == tuple(int(a.value) for a in ale.getMinimalActionSet())
    assert "breakout" in jaxtari.list_games()


def test_reset_picture_and_lives_match_ale():
    game = make_game()
    ale = make_ale()
    _, state = game.reset(jax.random.key(0))
    assert int(game.lives(state)) == ale.lives() == 5
    assert np.array_equal(np.asarray(jax.jit(game.render)(state)), ale.getScreenRGB())


def test_objects_and_observation_shapes():
    game = make_game()
    obs, state = game.reset(jax.random.key(0))
    objs = game.objects(state)
    assert objs["bricks"].size == 108 and bool(objs["bricks"].active.all())
    assert int(objs["paddle"].w[0]) == 16 and not bool(objs["ball"].active[0])
    assert obs.shape == game.observation_space.shape
    assert jax.eval_shape(game.render_gray84, state).shape == (84, 84)


def test_unknown_mode_is_refused():
    game = make_game(mode=3)
    with pytest.raises(ValueError, match="mode 3 not available"):
        game.reset(jax.random.key(0))


# ---- the paddle controller ---------------------------------------------------------------------------
def test_pot_reading_for_every_resistance_the_paddle_can_reach():
    """ALE's paddle moves 23,000 ohm a frame from the middle and from either clamp: 101 values;
    the kernel's reading (ram[70]) of each equals the JAX game's step table."""
    game = make_game()
    seen = {}
    for script in ([NOOP] + [LEFT] * 18 + [RIGHT] * 40 + [LEFT] * 40 + [RIGHT] * 40, [RIGHT] * 18):
        ale, pot = make_ale(), k.POT_START
        for a in script:
            act(ale, a)
            pot = next_pot(pot, a)
            seen[pot] = int(ale.getRAM()[70])
    assert len(seen) == 101
    ours = {p: int(game.pot_reading(p)) for p in seen}
    assert ours == seen


# ---- whole games, fast versions -------------------------------------------------------------------------
def test_a_random_game_matches_ale_frame_for_frame():
    c = compare(random_actions(0, 2000), pixel_every=7)
    assert c.terminated and c.frames > 400
    _exact(c)


def test_a_human_like_game_matches_ale_frame_for_frame():
    """Actions held for 1..8 frames, the way a person presses keys."""
    c = compare(random_actions(3, 2000, hold=8), pixel_every=7)
    assert c.terminated
    _exact(c)


def test_a_tracking_players_game_matches_ale_frame_for_frame():
    """A player that follows the ball: bricks fall, the ball speeds up."""
    c = compare(tracker_actions(2, 1500), pixel_every=5)
    assert c.score >= 10
    _exact(c)


def test_the_84x84_grey_picture_samples_ales_grey_screen():
    game = make_game()
    actions = tracker_actions(1, 400)
    ale = make_ale()
    states, _ = rollout(game, game.reset(jax.random.key(0))[1], actions)
    frames = list(range(50, 400, 50))
    ours = gray84_frames(game, states, frames)
    for t, theirs in zip(frames, ale_screens(ale, actions, frames, gray84=True)):
        assert np.array_equal(ours[frames.index(t)], theirs), t


# ---- modes ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", [4, 8, 12, 16, 32])
def test_a_game_in_each_kind_of_mode_matches_ale(mode):
    """Steerable (4), catch (8), invisible (12), timed (16), breakthru (32) games, difficulty 1."""
    c = compare(tracker_actions(mode, 600, mode=mode, difficulty=1), mode=mode, difficulty=1,
                pixel_every=6)
    _exact(c)


@pytest.mark.parametrize("dy", [0x100, 0x180, 0x200, 0x300])
def test_a_ball_held_in_a_catch_game_is_drawn_where_ale_draws_it(dy):
    """Catch game (mode 8): the served ball, its speed written (RAM 103/104) on its way down,
    caught with FIRE held, carried both ways and released. A held ball is drawn a line higher when
    the line it last moved to was odd (1, 1.5 and 3 px a frame arrive at 177 or 179; 2 at 178)."""
    ale, state, _ = scripted_start({103: dy >> 8, 104: dy & 0xFF}, mode=8,
                                   warmup=[FIRE] * 2 + [LEFT] * 16 + [NOOP] * 40)
    actions = [FIRE] * 20 + [RIGHT] * 5 + [FIRE] * 5 + [LEFT] * 10 + [NOOP] * 40
    c = compare(actions, mode=8, ale=ale, state=state, pixel_every=1)
    _exact(c)
    assert c.frames == len(actions)


# ---- the long versions ------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("hold", [1, 8])
def test_whole_random_games_match_ale(seed, hold):
    c = compare(random_actions(100 + seed, 20_000, hold=hold), pixel_every=10)
    assert c.terminated
    _exact(c)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_whole_tracking_games_match_ale(seed):
    c = compare(tracker_actions(200 + seed, 30_000), pixel_every=10)
    assert c.terminated
    _exact(c)


@pytest.mark.slow
@pytest.mark.parametrize("mode", k.MODES)
@pytest.mark.parametrize("difficulty", [0, 1])
def test_games_in_every_mode_match_ale(mode, difficulty):
    c = compare(tracker_actions(mode + difficulty, 3000, mode=mode, difficulty=difficulty),
                mode=mode, difficulty=difficulty, pixel_every=10)
    _exact(c)
