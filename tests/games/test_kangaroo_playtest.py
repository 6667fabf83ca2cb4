"""Kangaroo's playtest player: the route the JAX planner found for the plain game
(alignment/reference/games/kangaroo/route.py) climbs layout 0 to the baby on ALE and on the JAX game
alike, and the scripted player plays it by the frame the ALE side reports."""

from __future__ import annotations

from pathlib import Path

from alignment import deepplay
from alignment.actions import ACTION_NAMES
from alignment.playtest import core
from alignment.playtest.session import read_session
from alignment.reference.games.kangaroo import players, route

SESSIONS = Path(__file__).resolve().parents[2] / "playtest"

LAYOUT_1_AFTER = 2_340  # frames the route plays before the level reads 1 (measured)


def test_the_route_reaches_layout_1_with_every_life_on_both_backends():
    actions = [ACTION_NAMES.index(a) for a in route.actions()]
    assert len(actions) == route.FRAMES
    result = deepplay.compare("kangaroo", actions[:LAYOUT_1_AFTER - 1], render=False)
    assert result.final["level"] == 0  # one frame before the baby's round ends
    result = deepplay.compare("kangaroo", actions, render_every=200)
    assert result.first_mismatch is None, result.signal_mismatches
    assert not result.pixel_mismatches and result.rendered > 10
    assert result.final["level"] == 1 and result.final["lives"] == 3
    assert result.peak["mother_floor"] == 3


def test_the_scripted_player_plays_the_route_by_the_reported_frame_then_punches():
    policy = players.SCRIPTED.make()
    wanted = route.actions()
    for frame in (0, 170, 171, 500, LAYOUT_1_AFTER, route.FRAMES - 1):
        held = policy({"frame": frame}, tick=frame + 7)  # the tick (window frames) is not used
        assert held == players.controls_of(wanted[frame]), frame
    assert players.controls_of("UPRIGHTFIRE") == {"up", "right", "fire"}
    assert players.controls_of("NOOP") == set()
    after = [policy({"frame": route.FRAMES + i}, tick=0) for i in range(players.PUNCH_PERIOD)]
    assert after.count({"fire"}) == players.PUNCH_ON and after.count(set()) == 4
    assert policy({}, tick=0) == set()  # before the first signals
    # RAM-decoded signals carry no frame: the window's tick stands in
    assert policy({"level": 0}, tick=171) == players.controls_of(wanted[171])



def test_the_committed_session_reaches_layout_1_with_both_sides_agreeing():
    """The recorded session (playtest/kangaroo/): the scripted player's route through the real
    window; both sides agreed on every frame when it was recorded (its replay on both backends is
    tests/playtest/test_committed.py, slow)."""
    paths = core.sessions_for("kangaroo", SESSIONS)
    assert paths
    for path in paths:
        s = read_session(path)
        assert s.problem is None and s.header["player"]["name"] == players.SCRIPTED.name
        assert all(f["agree"] for f in s.frames)
        first = next(f for f in s.frames if f["ale"]["level"] == 1)
        assert first["episode"] == 0 and first["ale"]["lives"] == 3
