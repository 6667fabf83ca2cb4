"""Breakout's ground truth (alignment/reference/games/breakout/) re-checked on the emulator: each
RAM address against what the screen shows, and the catalog's signals of both backends agreeing
frame for frame with zero tolerance."""

from __future__ import annotations

import numpy as np

from alignment.backends import REWARD, make_backend
from alignment.catalog import entry
from alignment.reference import AleGame
from jaxtari.games.breakout import constants as k
from tests.games.breakout_helpers import tracker_actions

RED = np.array([200, 72, 72], np.uint8)


def _play(frames=900, seed=1):
    """(per-frame signals, screens) of a tracking player's game on ALE."""
    actions = tracker_actions(seed, frames)
    ale = AleGame("breakout")
    signals, screens, rewards = [], [], []
    for a in actions:
        rewards.append(ale.step(a))
        signals.append(ale.signals())
        screens.append(ale.rgb())
    return signals, screens, rewards, ale


def test_entry_names_the_minimal_set_and_core_signals():
    e = entry("ALE/Breakout-v5")
    assert e.minimal_actions == ("NOOP", "FIRE", "RIGHT", "LEFT")
    assert {"paddle_x", "ball_x", "ball_y", "bricks_per_row", "lives", "score"} <= set(e.signals)
    full = entry("breakout").ale_signals(np.asarray(k.FULL_WALL + (0,) * 92, np.uint8))
    assert full["bricks_per_row"].tolist() == [18] * 6


def test_every_address_matches_the_screen():
    signals, screens, rewards, ale = _play()
    seen_ball = 0
    for s, img in zip(signals, screens):
        # the paddle: its left edge on line 190 (left of the right wall, which is red there too),
        # while the (also red) ball is not on its lines
        red = np.nonzero((img[190, 8:152] == RED).all(-1))[0] + 8
        if not 186 <= s["ball_y"] <= 190:
            assert red.min() == s["paddle_x"]
        if s["paddle_x"] + 16 <= 152 and not 186 <= s["ball_y"] <= 190:
            assert len(red) == (12 if s["paddle_shrunk"] else 16)
        # the ball, where it is alone on screen (below the wall, above the paddle)
        if 100 <= s["ball_y"] <= 180 and 10 <= s["ball_x"] <= 148:
            lit = np.argwhere((img[96:186, 8:152] != 0).any(-1))
            assert (lit.min(0) + [96, 8]).tolist() == [s["ball_y"], s["ball_x"]]
            seen_ball += 1
        # the wall: a brick is lit at both ends of its 8 px (the 2-px ball cannot fake that)
        for row in range(k.NUM_ROWS):
            line = img[57 + 6 * row + 2]
            count = sum(bool(line[8 + 8 * c].any() and line[15 + 8 * c].any())
                        for c in range(k.NUM_COLUMNS))
            assert count == s["bricks_per_row"][row]
    assert seen_ball > 300
    assert sum(rewards) == signals[-1]["score"] > 0
    assert signals[-1]["lives"] == int(ale.ram[57]) < 5  # ALE's lives() is the balls byte


def test_the_hit_count_picks_the_balls_speed():
    """After each paddle bounce the vertical speed is the ROM table's for (hit count, angle)."""
    actions = tracker_actions(3, 1500)
    ale = AleGame("breakout")
    checked = 0
    for a in actions:
        ale.step(a)
        ram = ale.ram
        if ram[107] & 0x40 and ram[103] >= 0x80:  # just bounced off the paddle, going up
            hits = entry("breakout").ale_signals(ram)["hit_count"]
            dy = (-((int(ram[103]) << 8) | int(ram[104]))) & 0xFFFF
            assert dy == k.SPEED_TABLE[(hits & 0x3C) + int(ram[109])][1]
            checked += 1
    assert checked > 100


def test_both_backends_report_the_same_signals_every_frame():
    actions = tracker_actions(4, 1200)
    traces = {}
    for kind in ("ale", "jax"):
        b = make_backend(kind, "breakout")
        b.reset(seed=0)
        traces[kind] = b.run(actions)
    for name in list(entry("breakout").signals) + [REWARD]:
        a, j = np.asarray(traces["ale"][name]), np.asarray(traces["jax"][name])
        bad = np.nonzero(np.any((a != j).reshape(len(a), -1), axis=1))[0]
        assert bad.size == 0, (name, int(bad[0]), a[bad[0]], j[bad[0]])
    assert traces["ale"]["score"][-1] > 0
