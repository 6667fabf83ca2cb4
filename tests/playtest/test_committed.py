"""The committed sessions (playtest/<game>/, three minutes of scripted play each, recorded through
the window's event queue) replay clean on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from alignment.playtest import core
from alignment.playtest.session import read_session

ROOT = Path(__file__).resolve().parents[2] / "playtest"
THREE_MINUTES = 3 * 60 * 60  # frames at 60 Hz


@pytest.mark.parametrize("game", [
    "pong",
    "freeway",
    pytest.param("frostbite", marks=pytest.mark.slow),
    pytest.param("kangaroo", marks=pytest.mark.slow),
    pytest.param("asteroids", marks=pytest.mark.slow),
])
def test_committed_sessions_replay_clean(game):
    paths = core.sessions_for(game, ROOT)
    assert paths, f"no committed session for {game} under {ROOT / game}"
    for path in paths:
        s = read_session(path)
        assert s.problem is None and s.end is not None
        assert s.ticks >= THREE_MINUTES
        assert s.header["player"]["kind"] == "scripted"
        assert s.header["settings"]["sticky"] == 0.0 and s.header["settings"]["frameskip"] == 1
    for r in core.replay(paths):
        assert r.passed, f"{r.path}: {r.failure or r.error or r.read_problem}"
        assert r.frames == r.recorded_frames >= THREE_MINUTES


def test_the_committed_asteroids_session_clears_a_wave():
    # issue 52's bar: a recorded session that clears a wave, both sides seeing every asteroid gone
    # on the same frame (it replays clean: the slow replay test above, and `jaxtari-align gate`)
    paths = core.sessions_for("asteroids", ROOT)
    assert paths
    cleared = []
    for path in paths:
        s = read_session(path)
        assert s.problem is None and s.header["player"]["kind"] == "scripted"
        cleared += [(path.name, f["tick"]) for f in s.frames
                    if not any(f["ale"]["asteroid_active"]) and not any(f["jax"]["asteroid_active"])]
    assert cleared, "no committed Asteroids session clears a wave"
