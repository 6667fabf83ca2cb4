"""Asteroids' numbers (jaxtari/games/asteroids/constants.py) measured again on the emulator (ale-py,
sticky actions off, one frame per act, mode 0, difficulty 0)."""

from __future__ import annotations

import numpy as np
import pytest

from alignment.porting import ramtrace
from jaxtari.games.asteroids import constants as c
from alignment.reference.games.asteroids import ram as k

ROM = "asteroids"


@pytest.fixture(scope="module")
def idle():
    return ramtrace.record(ROM, [("NOOP", 120)])


def test_the_game_starts_with_two_large_asteroids_in_each_list(idle):
    r0 = idle.rams[0]
    for first in (k.UP_LIST_FIRST, k.DOWN_LIST_FIRST):
        listed = k.asteroid_list(r0, first)
        assert [a["y"] for a in listed] == list(c.START_ASTEROID_Y)
        assert all(c.SIZE_OF_KIND[a["kind"]] == c.SIZE_LARGE and not a["hit"] for a in listed)
    assert (k.ship_x(r0), k.ship_y(r0)) == (k.horizontal_pixel(c.START_X_CODE), c.START_Y)
    assert k.ship_rotation(r0) == 0


def _signed(y: int) -> int:
    return y - 256 if y >= 128 else y


def _follow(trace, slot):
    """Per snapshot the (x pixel, signed y) of the asteroid that starts in ``slot``: the lists are
    kept sorted by height, so an asteroid changes slot when one wraps past it; it is found again
    in its list by its attributes and a position at most one step away (modulo the wrap).
    Asteroids of equal attributes side by side would confuse it: the reset's four do not meet."""
    first = k.UP_LIST_FIRST if slot < k.DOWN_LIST_FIRST else k.DOWN_LIST_FIRST
    attributes = int(trace.rams[0, k.ASTEROID_ATTRIBUTES + slot])
    x, y = k.horizontal_pixel(trace.rams[0, k.ASTEROID_X + slot]), _signed(int(trace.rams[0, k.ASTEROID_Y + slot]))
    path = [(x, y)]
    for r in trace.rams[1:]:
        near = [(a["x"], _signed(a["y"])) for a in k.asteroid_list(r, first)
                if int(r[k.ASTEROID_ATTRIBUTES + a["slot"]]) == attributes
                and abs(a["x"] - x) <= 1 and (_signed(a["y"]) - y + 1) % c.PLAY_HEIGHT <= 2]
        # while it crosses the top or bottom edge an asteroid is listed twice, once at each edge
        # (its copy is y -/+ the kernel height): follow the one it is, then the copy once it is gone
        same_side = [n for n in near if abs(n[1] - y) <= 1]
        assert len(same_side) == 1 or (not same_side and len(near) == 1), (len(path), near)
        x, y = (same_side or near)[0]
        path.append((x, y))
    return path


@pytest.mark.parametrize("slot, step", [(0, -1), (1, -1), (k.DOWN_LIST_FIRST, 1), (k.DOWN_LIST_FIRST + 1, 1)])
def test_asteroids_step_one_line_on_every_asteroid_frame(idle, slot, step):
    ys = [y for _, y in _follow(idle, slot)]
    for t in range(idle.frames):
        moved = (ys[t + 1] - ys[t]) % c.PLAY_HEIGHT
        on_asteroid_frame = k.frame_count(idle.rams[t + 1]) % c.ASTEROID_STEP_PERIOD == c.ASTEROID_FRAME_PARITY
        assert moved == ((step % c.PLAY_HEIGHT) if on_asteroid_frame else 0), t


@pytest.mark.parametrize("slot", [0, 1, k.DOWN_LIST_FIRST, k.DOWN_LIST_FIRST + 1])
def test_asteroids_drift_one_pixel_sideways_every_fourteen_frames(idle, slot):
    xs = [x for x, _ in _follow(idle, slot)]
    left = bool(idle.rams[0, k.ASTEROID_ATTRIBUTES + slot] & k.ASTEROID_LEFT)
    moves = [t for t in range(idle.frames) if xs[t + 1] != xs[t]]
    assert all(xs[t + 1] - xs[t] == (-1 if left else 1) for t in moves)
    assert np.diff(moves).tolist() == [c.ASTEROID_SIDEWAYS_PERIOD] * (len(moves) - 1)
    assert len(moves) >= 7


def test_thrust_adds_the_heading_entry_to_the_velocity_each_logic_frame():
    tr = ramtrace.record(ROM, [("NOOP", 10), ("UP", 24)])
    logic = [t for t in range(10, tr.frames) if k.frame_count(tr.rams[t + 1]) % c.LOGIC_PERIOD == 0]

    def velocity_y(r):
        v = (int(r[k.SHIP_VELOCITY_HIGH[1]]) << 8) | int(r[k.SHIP_VELOCITY_LOW[1]])
        return v - (1 << 16) if v & 0x8000 else v

    assert [velocity_y(tr.rams[t + 1]) for t in logic] == [c.THRUST[0] * (n + 1) for n in range(len(logic))]
    assert all(tr.rams[t + 1, k.SHIP_VELOCITY_HIGH[0]] == 0 for t in logic)  # heading up: no x push


def test_shot_lifetime_by_heading_needs_a_real_heading():
    assert c.shot_lifetime_frames(0, 12) == 20 and c.shot_lifetime_frames(0, 14) == 22
    with pytest.raises(ValueError, match="heading"):
        c.shot_lifetime_frames(16)
    with pytest.raises(ValueError, match="even"):
        c.shot_lifetime_frames(0, 3)


def test_an_asteroid_crossing_an_edge_is_listed_twice(idle):
    """The cartridge draws an asteroid across the top/bottom edge by listing a copy at the other
    edge (y -/+ the kernel height, same attributes and x) until the original has left."""
    pairs = 0
    for r in idle.rams:
        for first in (k.UP_LIST_FIRST, k.DOWN_LIST_FIRST):
            listed = k.asteroid_list(r, first)
            for a in listed:
                twins = [b for b in listed if b is not a and b["x"] == a["x"]
                         and r[k.ASTEROID_ATTRIBUTES + b["slot"]] == r[k.ASTEROID_ATTRIBUTES + a["slot"]]]
                for b in twins:
                    assert _signed(b["y"]) - _signed(a["y"]) in (c.PLAY_HEIGHT, -c.PLAY_HEIGHT)
                    pairs += 1
    assert pairs > 20
