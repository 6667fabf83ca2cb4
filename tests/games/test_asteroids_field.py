"""The asteroid field of the Asteroids port (jaxtari/games/asteroids/logic/field.py, game.step) in lockstep
with ALE (ale-py, sticky actions off, one frame per act): every byte of both asteroid lists
(ram[3..56]), the speed counters, the random number and the list ends equal on every frame, the
first difference fails, here up to the first hit (whole games: test_asteroids_collisions.py)."""

from __future__ import annotations

import numpy as np

from alignment.porting import ramtrace
from jaxtari.games.asteroids import constants as c
from jaxtari.games.asteroids import game as g
from alignment.reference.games.asteroids import ram as k

ROM = "asteroids"
# every ALE action but the two reading as the joystick pushed down alone (hyperspace in mode 0)
PLAYED = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT",
          "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE",
          "DOWNLEFTFIRE")
NOT_YET = ()
ONE_SLOW_STEP = c.SPEED_TICK & 0xF0


def _script(seed: int, steps: int):
    rng = np.random.default_rng(seed)
    return [(PLAYED[rng.integers(len(PLAYED))], int(rng.integers(1, 13))) for _ in range(steps)]


def padded(actions, block: int = 1024) -> np.ndarray:
    """The actions padded with NOOPs to a whole number of blocks, so games of different lengths
    share one compiled rollout (the frames past the game are not compared)."""
    n = -(-max(len(actions), 1) // block) * block
    return np.concatenate([actions, np.zeros(n - len(actions), actions.dtype)]).astype(np.int32)


def first_difference(trace, frames: int, skip=NOT_YET, consts=c.DEFAULTS):
    """(frame, {name: (jax, ale)}) of the first frame whose ship or field bytes differ, or None
    (the JAX game with the numbers ``consts``)."""
    states = g.rollout(g.reset(consts), padded(trace.actions[:frames]), consts)
    ours = {**g.field_signals(states), **g.ship_signals(states.ship)}
    for t in range(frames):
        r = trace.rams[t + 1]
        theirs = {**k.field_bytes(r), **k.ship_bytes(r)}
        diff = {n: (int(ours[n][t]), theirs[n]) for n in ours
                if n not in skip and int(ours[n][t]) != theirs[n]}
        if diff:
            return t, diff
    return None


def frames_before_a_hit(trace) -> int:
    """Frames from reset before the first collision: a hit asteroid, a reward, the ship killed,
    exploding, in hyperspace or off the screen."""
    for t in range(trace.frames):
        after = trace.rams[t + 1]
        if (trace.rewards[t] or after[k.ASTEROID_COLLISION] or after[k.FEATURE_TIMER]
                or any(a["hit"] for a in k.asteroids(after))
                or after[k.PLAYER_STATE] & (k.PLAYER_KILLED | k.PLAYER_HYPERSPACE)
                or after[k.SHIP_Y] == k.OFF_SCREEN_Y):
            return t
    return trace.frames


def _edge_copies(rams) -> int:
    """Frames on which some list holds an asteroid twice (above the top or at y 89 beside its
    copy): the field's wrap was exercised."""
    ys = rams[:, k.ASTEROID_Y:k.ASTEROID_Y + 2 * k.LIST_LENGTH].astype(int)
    return int(((ys >= 128) & (ys != k.OFF_SCREEN_Y)).any(axis=1).sum())


def test_the_field_matches_ale_until_the_ship_is_hit():
    trace = ramtrace.record(ROM, [("NOOP", 3000)])
    frames = frames_before_a_hit(trace)
    assert frames >= 1000
    assert first_difference(trace, frames) is None
    assert _edge_copies(trace.rams[1:frames + 1]) >= 100


def test_the_field_matches_ale_in_plain_games_until_the_first_hit():
    compared = 0
    for seed in range(8):
        trace = ramtrace.record(ROM, _script(seed, 150))
        frames = frames_before_a_hit(trace)
        assert first_difference(trace, frames) is None, seed
        compared += frames
    assert compared >= 1000


def test_a_wrong_sideways_period_fails_the_lockstep():
    """The comparison sees one wrong byte: the slow counter reloaded at 6 instead of 7 (a changed
    ``AsteroidsConstants.speed_slow_reload``)."""
    import dataclasses

    trace = ramtrace.record(ROM, [("NOOP", 200)])
    wrong = dataclasses.replace(c.DEFAULTS, speed_slow_reload=c.SPEED_SLOW_RELOAD - ONE_SLOW_STEP)
    found = first_difference(trace, trace.frames, consts=wrong)
    assert found is not None and "speed" in found[1]
