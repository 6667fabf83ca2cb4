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
