"""Each mechanic of Breakout from a scripted start: a state reached on ALE (40 frames after reset,
past the start-up wall animation) and RAM writes, the same state on the JAX side (state_from_ram).
Every test replays the same frames on both and compares every mirrored RAM byte, the reward,
lives() and game_over() on every frame and the screen on every frame; then it checks the mechanic's
own outcome on the JAX game."""

import jax
import numpy as np
import pytest

from jaxtari.games.breakout import constants as k
from tests.games.breakout_helpers import (
    FIRE, NOOP, compare, make_game, rollout, scripted_start,
)

WARMUP = [NOOP] * 40
PADDLE = 147  # ram[72] that the paddle keeps with the pot at rest (ram[70] = 88)


def _ball(x, y, dx, dy, hits=0, angle=0, shrunk=False):
    """RAM writes for a ball at byte x, y moving by the 8.8 values dx (x -= dx), dy (y += dy)."""
    return {99: x, 100: 0, 101: y, 102: 0, 103: (dy >> 8) & 0xFF, 104: dy & 0xFF,
            105: (dx >> 8) & 0xFF, 106: dx & 0xFF, 107: hits, 109: angle, 97: 0x80 if shrunk else 0,
            72: PADDLE}


def _no_bricks():
    return {i: 0 for i in range(36)}


def _run(writes, actions, **kw):
    """Compare on ALE and JAX from the scripted start; the JAX states and rewards."""
    ale, state, _ = scripted_start(writes, warmup=WARMUP, **kw)
    c = compare(actions, ale=ale, state=state, pixel_every=1, written_points=int(state.score), **kw)
    assert c.mismatches == [], f"first mismatches (frame, {{field: (ale, jax)}}): {c.mismatches[:3]}"
    assert c.pixel_mismatches == [], f"(frame, pixels that differ): {c.pixel_mismatches[:5]}"
    game = make_game(kw.get("mode", 0), kw.get("difficulty", 0))
    states, rewards = rollout(game, state, actions)
    return game, states, np.asarray(rewards)


def _at(states, t):
    return jax.tree_util.tree_map(lambda v: v[t], states)


# ---- the serve -----------------------------------------------------------------------------------
@pytest.mark.parametrize("wait, x_after, moving_right", [
    (39, 0x41, True), (40, 0x7F, False), (41, 0x81, True), (42, 0xBF, False)])
def test_fire_serves_from_the_frame_counters_place(wait, x_after, moving_right):
    """FIRE on frame ``wait`` (the frame counter then reads wait + 1; its two low bits pick the
    serve): from x 0x40, 0x80, 0x80 or 0xC0 at line 0x70, 1 px a frame down and sideways towards
    the middle."""
    actions = [NOOP] * wait + [FIRE] + [NOOP] * 20
    c = compare(actions, pixel_every=1)
    assert c.mismatches == [] and c.pixel_mismatches == []
    game = make_game()
    states, _ = rollout(game, game.reset(jax.random.key(0))[1], actions)
    served = _at(states, wait)
    assert int(served.ball_y) >> 8 == k.SERVE_Y + 1
    assert int(served.ball_x) >> 8 == x_after
    assert (int(served.ball_dx) >= 0x8000) == moving_right
    assert int(_at(states, wait - 1).ball_y) == 0  # nothing in play before the button


# ---- the paddle sets the angle ---------------------------------------------------------------------
@pytest.mark.parametrize("ball_x, angle, leaves_left", [
    (149, 0, True),    # 6 px left of the middle: the shallow angle, turned back to the left
    (153, 2, True),    # 2 px left: the steep angle
    (155, 2, True),    # dead centre: pushed 4 px back, steep, to the left
    (156, 2, False),   # 1 px right: steep, on to the right
    (158, 2, False),   # 3 px right
    (163, 0, False),   # 8 px right: shallow, to the right
])
def test_where_the_ball_meets_the_paddle_sets_its_angle(ball_x, angle, leaves_left):
    # coming from the left at 1 px a frame: one frame later it is drawn on the paddle's top line and
    # the frame after that the bounce reads ram[99] == ball_x
    game, states, _ = _run(_ball(ball_x - 1, 176, 0xFF00, 0x0100), [NOOP] * 12)
    after = _at(states, 11)
    assert int(after.angle) == angle
    assert int(after.hits) & 0x3F == 1
    assert int(after.ball_dy) >= 0x8000  # going up
    dx, dy = k.SPEED_TABLE[angle]
    assert (-int(after.ball_dy)) & 0xFFFF == dy
    assert (int(after.ball_dx) < 0x8000) == leaves_left  # x -= dx: positive dx moves left


# ---- speed-ups ------------------------------------------------------------------------------------
@pytest.mark.parametrize("hits_before, dy_after", [(3, 0x0200), (11, 0x0200), (0, 0x0100)])
def test_paddle_hits_speed_the_ball_up(hits_before, dy_after):
    """The 4th and 12th paddle hits move to faster rows of the speed table."""
    game, states, _ = _run(_ball(149, 176, 0xFF00, 0x0100, hits=hits_before), [NOOP] * 12)
    after = _at(states, 11)
    assert int(after.hits) & 0x3F == hits_before + 1
    assert (-int(after.ball_dy)) & 0xFFFF == dy_after


def test_a_brick_of_the_upper_rows_speeds_the_ball_up():
    """Rows 3..5 gone: the ball meets row 2 (yellow, 4 points) and goes at the top speed."""
    writes = {**_ball(99, 70, 0, 0xFF00), **{b: 0 for g in range(6) for b in (6 * g, 6 * g + 1,
                                                                              6 * g + 2)}}
    game, states, rewards = _run(writes, [NOOP] * 12)
    assert rewards.sum() == 4
    t = int(np.argmax(rewards))
    after = _at(states, t)
    assert int(after.hits) & 0x3F == k.FAST_HIT_COUNT
    assert int(after.ball_dy) == k.SPEED_TABLE[k.FAST_HIT_COUNT][1]  # turned down, 3.375 px a frame


# ---- points by row ------------------------------------------------------------------------------------
@pytest.mark.parametrize("row", range(6))
def test_each_rows_bricks_are_worth_their_points(row):
    below = {b: 0 for r in range(row + 1, 6) for g in range(6) for b in [6 * g + 5 - r]}
    game, states, rewards = _run({**_ball(99, 60 + 6 * row, 0, 0xFF00), **below}, [NOOP] * 14)
    assert rewards.sum() == k.ROW_POINTS[row]
    final = _at(states, 13)
    grid = np.asarray(game.bricks_grid(final))
    assert grid[row].sum() == 17 and grid[:row].all()


# ---- the paddle shrinks --------------------------------------------------------------------------------
def test_the_paddle_shrinks_when_the_ball_reaches_the_top_wall():
    game, states, _ = _run({**_ball(100, 30, 0, 0xFF00), **_no_bricks()}, [NOOP] * 12)
    widths = [int(game.objects(_at(states, t))["paddle"].w[0]) for t in range(12)]
    assert widths[0] == 16 and widths[-1] == 12
    assert bool(_at(states, 11).shrunk) and int(_at(states, 11).ball_dy) < 0x8000  # going down


# ---- a lost ball, the end of the game ---------------------------------------------------------------------
def test_a_missed_ball_costs_a_life_and_restores_the_paddle():
    game, states, _ = _run(_ball(180, 0xCE, 0, 0x0100, shrunk=True), [NOOP] * 6)
    final = _at(states, 5)
    assert int(game.lives(final)) == 4
    assert int(final.ball_y) >> 8 == 0 and not bool(final.shrunk)
    assert int(game.objects(final)["paddle"].w[0]) == 16


def test_the_last_ball_ends_the_game():
    game, states, _ = _run({**_ball(180, 0xCE, 0, 0x0100), 57: 1}, [NOOP] * 6)
    assert bool(game.is_terminal(_at(states, 5)))
    assert not bool(game.is_terminal(_at(states, 0)))


# ---- the second wall -----------------------------------------------------------------------------------------
def test_a_paddle_hit_at_432_points_brings_the_second_wall():
    writes = {**_ball(149, 176, 0xFF00, 0x0100), **_no_bricks(), 76: 0x04, 77: 0x32}
    game, states, rewards = _run(writes, [NOOP] * 16)
    walls = [int(_at(states, t).wall) for t in range(16)]
    hit = walls.index(k.SECOND_WALL_STATE)
    assert walls[hit + 1] == 0
    assert np.array_equal(np.asarray(_at(states, hit + 1).bricks), k.FULL_WALL)
    assert not np.asarray(_at(states, hit).bricks).any()
    assert rewards.sum() == 0
