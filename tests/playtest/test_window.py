"""The play window, headless, driven by events posted to pygame's queue: what it records is what
both games did with the keys pressed; marks, pause and single steps; SIGKILL loses at most a second;
no display gives a message naming the headless options."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import jax
import numpy as np
import pytest

import jaxtari
from alignment import catalog
from alignment.playtest import scripted
from alignment.playtest.session import read_session
from alignment.playtest.window import PlayError, PlayWindow
from alignment.reference.ale import AleGame

from .conftest import record


class KeyScript:
    """Posts a fixed key plan: {tick: [(key name, down)]}, plus marks and quit."""

    def __init__(self, plan, quit_at):
        self.plan = plan
        self.quit_at = quit_at

    def __call__(self, window):
        for key, down in self.plan.pop(window.tick, []):
            if key == "note":
                scripted.tap("K_n", "n")
                scripted.type_text(down)
                scripted.tap("K_RETURN", "\r")
            else:
                scripted.post_key(key, down)
        if window.tick >= self.quit_at:
            scripted.tap("K_q", "q")


def _play(game, root, plan, quit_at):
    w = PlayWindow(game, fps=0, root=root, scale=1, player={"kind": "scripted", "name": "test"})
    return w, w.run(hook=KeyScript(plan, quit_at))


def test_recorder_writes_what_both_games_did_with_the_keys(tmp_path):
    plan = {0: [("K_UP", True)], 40: [("K_UP", False)], 60: [("K_s", True)], 70: [("K_s", False)],
            75: [("K_w", True), ("K_SPACE", True)]}
    window, result = _play("freeway", tmp_path, plan, quit_at=90)
    s = read_session(result.path)
    names = s.header["actions"]
    played = [names[f["action"]] for f in s.frames]
    assert len(played) == 90 and s.end["reason"] == "quit"
    # arrows and WASD map to the same controls; fire is not in Freeway's set, so UP+fire is UP
    assert played == ["UP"] * 40 + ["NOOP"] * 20 + ["DOWN"] * 10 + ["NOOP"] * 5 + ["UP"] * 15
    e = catalog.entry("freeway")
    ale = AleGame("freeway", seed=0)
    game = jaxtari.make("freeway")
    _, state = game.reset(jax.random.key(0))
    step = jax.jit(game.step)
    signals = jax.jit(lambda st: {k: sig.jax(game, st) for k, sig in e.signals.items()})
    for f, name in zip(s.frames, played):
        ale.step(ale.action_names.index(name))
        _, state, *_ = step(state, game.action_index(name))
        now_ale, now_jax = ale.signals(), {k: np.asarray(v) for k, v in signals(state).items()}
        for k in e.signals:
            assert np.array_equal(f["ale"][k], now_ale[k]), (f["tick"], k)
            assert np.array_equal(f["jax"][k], now_jax[k]), (f["tick"], k)
    assert s.frames[39]["ale"]["chicken_y"] < s.frames[0]["ale"]["chicken_y"]  # it walked up


def test_marks_pause_and_single_steps_through_keys(tmp_path):
    plan = {10: [("K_b", True)], 20: [("K_g", True)], 30: [("note", "ball looks | odd")],
            40: [("K_p", True)]}
    w = PlayWindow("pong", fps=0, root=tmp_path, scale=1, player={"kind": "scripted", "name": "t"})
    calls = {"paused_hooks": 0}

    def hook(window):
        KeyScript(plan, quit_at=10**9)(window)
        if window.paused:
            calls["paused_hooks"] += 1
            if calls["paused_hooks"] in (3, 6):
                scripted.tap("K_PERIOD")
            if calls["paused_hooks"] == 9:
                scripted.tap("K_q", "q")

    result = w.run(hook=hook)
    s = read_session(result.path)
    assert [(m["tick"], m["kind"], m["text"]) for m in s.marks] == [
        (9, "bug", ""), (19, "looks-right", ""), (29, "note", "ball looks | odd")]
    assert s.ticks == 40 + 2  # paused at frame 40, then two single steps
    assert s.header["player"] == {"kind": "scripted", "name": "t"}


def test_no_display_names_the_headless_options(monkeypatch, tmp_path):
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    with pytest.raises(PlayError) as err:
        PlayWindow("pong", root=tmp_path)
    assert "SDL_VIDEODRIVER=dummy" in str(err.value) and "xvfb-run" in str(err.value)
    assert not (tmp_path / "pong").exists()


CHILD = textwrap.dedent("""
    import os, sys, time
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from pathlib import Path
    from alignment.playtest.scripted import player_for
    from alignment.playtest.window import PlayWindow
    player = player_for("pong", 10**6, [])
    w = PlayWindow("pong", fps=60, root=Path(sys.argv[1]), scale=1, player=player.identity)
    print("path", w.path, flush=True)
    def hook(window):
        player(window)
        print("tick", window.tick, time.monotonic(), flush=True)
    w.run(hook=hook)
""")


def test_sigkill_loses_at_most_the_last_second(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path)], stdout=subprocess.PIPE,
                            text=True, cwd=os.getcwd())
    path, seen = None, []
    try:
        deadline = time.monotonic() + 300
        for line in proc.stdout:
            parts = line.split()
            if parts[0] == "path":
                path = parts[1]
            elif parts[0] == "tick":
                seen.append((int(parts[1]), float(parts[2])))
                if int(parts[1]) >= 200:  # over three seconds of play at 60 fps
                    break
            assert time.monotonic() < deadline
        killed_at = time.monotonic()
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    s = read_session(path)
    assert s.end is None and s.problem is None  # whole gzip members: the file reads cleanly
    # every frame played more than a second before the kill is in the file
    # (the hook reports tick t before frame t is played, so frames 0..t-1 were done by then)
    settled = max(t for t, when in seen if when <= killed_at - 1.0)
    assert s.ticks >= settled
    assert s.ticks <= seen[-1][0] + 1


def test_pacer_makes_up_for_late_wake_ups():
    from alignment.playtest.window import Pacer

    t = [0.0]

    def sleep(dt):  # a loaded machine: every sleep runs 4 ms long
        t[0] += dt + 0.004

    pacer = Pacer(clock=lambda: t[0], sleep=sleep)
    for _ in range(600):
        t[0] += 0.005  # the frame's work
        pacer.wait(60)
    assert abs(600 / t[0] - 60) < 0.5  # a sleep-per-frame limiter would give ~48 fps here


def test_a_mod_with_an_ale_counterpart_runs_on_both_sides(tmp_path):
    from alignment.playtest import core

    result = record("freeway", tmp_path, 90, schedule=[], mods=("stop_cars",))
    s = read_session(result.path)
    assert s.header["mods"] == ["stop_cars"] and s.header["settings"]["ale_mods"] == ["stop_cars"]
    assert all(f["agree"] for f in s.frames)
    assert {x for f in s.frames for side in ("ale", "jax") for x in f[side]["car_x"]} == {-3}
    [r] = core.replay([result.path])
    assert r.passed and r.frames == 90
