"""Collisions, splitting, scoring, deaths, hyperspace, waves and the game's end of the Asteroids
port (jaxtari/games/asteroids/: collisions.py, spawn.py, player.py, game.step) in lockstep with ALE
(ale-py, sticky actions off, one frame per act): every byte the port mirrors (ship, both
asteroid lists, random number, list ends, collision bytes, lives, score, player state, timers)
equal to ALE's on every frame of whole games, from reset to game over; the first difference
fails."""

from __future__ import annotations

import numpy as np
import pytest

from alignment.porting import ramtrace
from alignment.signals import RamWrite
from jaxtari.games.asteroids import constants as c
from jaxtari.games.asteroids import game as g
from alignment.reference.games.asteroids import ram as k

ROM = "asteroids"
BLOCK = 4096  # games are padded to whole blocks so they share compiled rollouts
# a turning gunner: fires every other pair of frames while turning left; it clears the first
# wave in ALE (measured: both lists empty after frame 2,899, 2,650 points by the game's end)
SPIN = [("LEFTFIRE", 2), ("LEFT", 2)]


def _padded(actions) -> np.ndarray:
    n = -(-max(len(actions), 1) // BLOCK) * BLOCK
    return np.concatenate([actions, np.zeros(n - len(actions), actions.dtype)]).astype(np.int32)


def first_difference(trace, start=None, consts=c.DEFAULTS):
    """(frame, action, {name: (jax, ale)}) of the first frame whose mirrored bytes differ, the
    JAX game (its numbers ``consts``) played from ``start`` (its reset when None)."""
    start = g.reset(consts) if start is None else start
    ours = g.signals(g.rollout(start, _padded(trace.actions), consts))
    for t in range(trace.frames):
        theirs = k.all_bytes(trace.rams[t + 1])
        diff = {n: (int(ours[n][t]), theirs[n]) for n in ours if int(ours[n][t]) != theirs[n]}
        if diff:
            return t, trace.action_names[trace.actions[t]], diff
    return None


def _random_game(seed: int):
    hold = (1, 12) if seed % 2 else (4, 30)
    return ramtrace.record(ROM, frames=20000, seed=seed, hold=hold)


def _went_through(trace) -> dict[str, bool]:
    rams = trace.rams.astype(int)
    flags = rams[:, k.PLAYER_STATE]
    return {
        "points of every size": set(trace.rewards[trace.rewards > 0].tolist())
        >= set(c.POINTS.values()),
        "a death": bool((np.diff(rams[:, k.PLAYER_ATTRIBUTES] >> k.LIVES_SHIFT) < 0).any()),
        "a respawn": bool(((rams[:-1, k.SHIP_Y] == k.OFF_SCREEN_Y)
                           & (rams[1:, k.SHIP_Y] != k.OFF_SCREEN_Y)).any()),
        "hyperspace": bool((flags & k.PLAYER_HYPERSPACE).any()),
        "game over": bool(trace.game_over[-1]),
    }


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_whole_random_games_match_ale(seed):
    trace = _random_game(seed)
    assert trace.game_over[-1]
    assert first_difference(trace) is None


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 12))
def test_more_whole_random_games_match_ale(seed):
    trace = _random_game(seed)
    assert trace.game_over[-1]
    assert first_difference(trace) is None


def test_the_random_games_go_through_every_mechanic():
    seen = {}
    for seed in (0, 1, 2):
        for name, happened in _went_through(_random_game(seed)).items():
            seen[name] = seen.get(name, False) or happened
    assert all(seen.values()), seen


@pytest.mark.slow
def test_a_game_clearing_a_wave_matches_ale():
    """The spinning gunner's whole game: the first wave cleared, the next one (above 1,000
    points) starts with three large asteroids in each list."""
    trace = ramtrace.record(ROM, SPIN, frames=30000)
    assert trace.game_over[-1]
    assert first_difference(trace) is None
    rams = trace.rams
    cleared = [t for t in range(1, trace.frames + 1)
               if rams[t, k.ASTEROID_Y + k.UP_LIST_FIRST] == k.OFF_SCREEN_Y
               and rams[t, k.ASTEROID_Y + k.DOWN_LIST_FIRST] == k.OFF_SCREEN_Y]
    assert cleared, "the wave was not cleared"
    wave = k.asteroids(rams[cleared[0] + 1])
    assert k.score(rams[cleared[0]]) >= 1000
    assert [a["y"] for a in wave] == [1, 42, 63, 1, 21, 63]
    assert all(c.SIZE_OF_KIND[a["kind"]] == c.SIZE_LARGE for a in wave)


def test_a_changed_split_fails_the_lockstep():
    """The comparison sees a wrong split: the second medium 9 lines below the first, not 10 (a
    changed ``AsteroidsConstants.second_piece_drop``: the step reads its numbers from the
    Constants)."""
    import dataclasses

    trace = ramtrace.record(ROM, SPIN, frames=1500)
    assert first_difference(trace) is None
    wrong = dataclasses.replace(c.DEFAULTS, second_piece_drop=c.SECOND_PIECE_DROP - 1)
    found = first_difference(trace, consts=wrong)
    assert found is not None
    assert any(name.startswith("ram") for name in found[2]), found


def _from_score(thousands_bcd: int, tens_bcd: int, frames: int):
    """The spinning gunner's game from a score written into both sides at reset."""
    writes = (RamWrite(k.SCORE[0], thousands_bcd, when="reset"),
              RamWrite(k.SCORE[1], tens_bcd, when="reset"))
    trace = ramtrace.record(ROM, SPIN, frames=frames, writes=writes)
    start = g.reset()
    score = start.player.score.at[0].set(thousands_bcd).at[1].set(tens_bcd)
    return trace, start.replace(player=start.player.replace(score=score))


def _lives_gained(trace) -> int:
    return int((np.diff(trace.rams[:, k.PLAYER_ATTRIBUTES].astype(int) >> k.LIVES_SHIFT) > 0).sum())


def test_the_bonus_life_at_5000_matches_ale():
    trace, start = _from_score(0x04, 0x98, 1500)
    assert k.score(trace.rams[0]) == 4980
    assert _lives_gained(trace) == 1
    assert first_difference(trace, start) is None


@pytest.mark.slow
def test_waves_past_15000_have_four_asteroids_a_list():
    """From 14,900 points the gunner passes 15,000 (a bonus life) and clears waves: each new wave
    starts with four large asteroids in each list (ys 1, 21, 42, 63), every byte as ALE's."""
    trace, start = _from_score(0x14, 0x90, 30000)
    assert first_difference(trace, start) is None
    assert _lives_gained(trace) >= 1
    rams = trace.rams
    cleared = [t for t in range(1, trace.frames + 1)
               if rams[t, k.ASTEROID_Y + k.UP_LIST_FIRST] == k.OFF_SCREEN_Y
               and rams[t, k.ASTEROID_Y + k.DOWN_LIST_FIRST] == k.OFF_SCREEN_Y]
    assert cleared
    assert [a["y"] for a in k.asteroids(rams[cleared[0] + 1])] == [1, 21, 42, 63] * 2


@pytest.mark.parametrize("seed", [0, 1])
def test_reward_lives_and_the_end_are_ales(seed):
    """ALE's signals read off the JAX state: the reward (the score's change) on every frame,
    ``lives()`` and ``game_over()`` on every frame of a whole game."""
    trace = _random_game(seed)
    states = g.rollout(g.reset(), _padded(trace.actions))
    scores = np.asarray(g.score(states))[:trace.frames]
    rewards = np.diff(np.concatenate([[0], scores]))
    assert rewards.tolist() == trace.rewards.tolist()
    assert np.asarray(g.lives(states))[:trace.frames].tolist() == trace.lives[1:].tolist()
    assert np.asarray(g.is_terminal(states))[:trace.frames].tolist() == trace.game_over[1:].tolist()


@pytest.mark.slow
def test_the_gunners_long_game_matches_ale():
    """45,000 frames of play from reset stored as data (alignment/reference/games/asteroids/
    gunner_route.json): 13 waves cleared, the later ones (past 15,000 points) with four large
    asteroids a list, five bonus lives earned in play, four deaths, every mirrored byte equal to
    ALE's on every frame."""
    from alignment.reference.games.asteroids import gunner

    route = gunner.load()
    trace = ramtrace.record(ROM, gunner.script())
    assert trace.frames == route["frames"]
    assert first_difference(trace) is None
    rams = trace.rams
    cleared = [t for t in range(1, trace.frames + 1)
               if rams[t, k.ASTEROID_Y + k.UP_LIST_FIRST] == k.OFF_SCREEN_Y
               and rams[t, k.ASTEROID_Y + k.DOWN_LIST_FIRST] == k.OFF_SCREEN_Y]
    sizes = [len(k.asteroids(rams[t + 1])) for t in cleared]
    assert len(cleared) >= 12 and sizes[0] == 6 and sizes[-1] == 8
    assert _lives_gained(trace) == 5
    assert k.score(rams[-1]) >= 25000
