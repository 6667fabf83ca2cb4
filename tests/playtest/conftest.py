"""Playtest tests run the real pygame window headless (SDL's dummy video driver)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from alignment.playtest.scripted import Event, player_for  # noqa: E402
from alignment.playtest.window import PlayWindow  # noqa: E402

SHORT = 360  # frames: past Pong's first serve (frame ~59) and a few paddle sweeps


def record(game: str, root: Path, frames: int, schedule=None, mods=(), hook=None):
    """A session played by the game's scripted player through the window's event queue."""
    player = player_for(game, frames, schedule)
    window = PlayWindow(game, fps=0, root=root, player=player.identity, mods=mods, scale=1)
    return window.run(hook=hook or player)


@pytest.fixture(scope="session")
def pong_session(tmp_path_factory):
    root = tmp_path_factory.mktemp("sessions")
    schedule = [Event(50, "ok"), Event(120, "note", "paddle looks | right"), Event(200, "bug")]
    return record("pong", root, SHORT, schedule)
