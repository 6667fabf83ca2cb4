"""The Asteroids port's players (alignment/reference/games/asteroids/players.py): the deep player on the
catalog's lookahead handle replays the gunner's stored game (gunner_route.json) frame for frame,
and the scripted player holds controls the playtest window knows."""

from __future__ import annotations

import numpy as np

from alignment.deepplay import Lookahead
from alignment.porting import ramtrace
from alignment.reference.games.asteroids import gunner, players

ROM = "asteroids"
FRAMES = 1200


def test_the_deep_player_plays_the_stored_gunner_game():
    handle = Lookahead.of_rom(ROM)
    players.deep_player(handle, np.random.default_rng(0), max_frames=FRAMES)
    taken = [handle.names[i] for i in handle.taken]
    stored = [name for name, n in gunner.script() for _ in range(int(n))]
    assert len(taken) >= FRAMES
    assert taken[:FRAMES] == stored[:FRAMES]


def test_the_scripted_player_spins_fires_and_jumps_away():
    policy = players.SCRIPTED.make()
    assert policy({}, 0) == set()
    far = {"ship_visible": 1, "ship_x": 78, "ship_y": 41, "asteroid_active": [1, 0],
           "asteroid_x": [10, 0], "asteroid_y": [1, 0]}
    held = [policy(far, t) for t in range(4)]
    assert held == [{"left", "fire"}, {"left", "fire"}, {"left"}, {"left"}]
    near = dict(far, asteroid_x=[80, 0], asteroid_y=[43, 0])
    assert policy(near, 0) == {"down"}
    assert all(n in ramtrace.ACTION_NAMES for n in ("LEFTFIRE", "LEFT", "DOWN"))
