"""Asteroids' RAM map (alignment/reference/games/asteroids/ram.py) re-checked on the emulator (ale-py, sticky
actions off, one frame per act): each address is held against what ALE itself reports (rewards,
lives(), game over) or against ALE's screen."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from alignment.porting import ramtrace
from jaxtari.games.asteroids import constants as c
from alignment.reference.games.asteroids import ram as k

ROM = "asteroids"
SCREEN_WIDTH = 160
PLAY_LINES = slice(18, 195)  # below the score and lives digits, above the bottom border (measured)


@pytest.fixture(scope="module")
def random_game():
    """A whole game of random held actions (seed 5: 2,106 frames, 680 points, every size shot)."""
    return ramtrace.record(ROM, frames=20_000, seed=5, hold=(2, 8))


@pytest.fixture(scope="module")
def screened():
    """1,200 frames of random play with every screen."""
    return ramtrace.record(ROM, frames=1_200, seed=4, hold=(2, 8), screens=True)


def _lit(screen):
    return screen[PLAY_LINES].any(-1)


def test_the_score_bytes_are_the_summed_reward(random_game):
    tr = random_game
    assert tr.game_over[-1], "the random game should be played to its end"
    summed = np.concatenate([[0], np.cumsum(tr.rewards)])
    assert [k.score(r) for r in tr.rams] == summed.tolist()
    assert set(tr.rewards.tolist()) == {0, *c.POINTS.values()}


def test_each_reward_pays_for_the_size_of_the_asteroid_hit(random_game):
    tr = random_game
    checked = 0
    for t in np.flatnonzero(tr.rewards):
        before, after = tr.rams[t], tr.rams[t + 1]
        # the asteroid the shot hit is the one whose HIT bit appears on this frame
        newly_hit = [a["kind"] for a in k.asteroids(after) if a["hit"]]
        was_hit = [a["kind"] for a in k.asteroids(before) if a["hit"]]
        fresh = [kind for kind in newly_hit if newly_hit.count(kind) > was_hit.count(kind)]
        assert fresh, f"frame {t}: reward {tr.rewards[t]} without a newly hit asteroid"
        assert c.POINTS[c.SIZE_OF_KIND[fresh[0]]] == tr.rewards[t], t
        checked += 1
    assert checked >= 10


def test_lives_are_the_high_nibble_and_a_death_takes_one(random_game):
    tr = random_game
    assert [k.lives(r) for r in tr.rams] == tr.lives.tolist()
    assert k.lives(tr.rams[0]) == c.START_LIVES
    drops = np.flatnonzero(np.diff(tr.lives))
    assert (np.diff(tr.lives)[drops] == -1).all()
    assert len(drops) == c.START_LIVES
    for t in drops:
        # the ship is off the screen (its explosion over, waiting to respawn) when the life goes
        assert tr.rams[t + 1, k.SHIP_Y] == k.OFF_SCREEN_Y
    over = np.flatnonzero(tr.game_over)
    assert over[0] == drops[-1] + 1 and k.lives(tr.rams[over[0]]) == 0


def test_rotation_steps_once_every_four_frames_left_anticlockwise():
    tr = ramtrace.record(ROM, [("NOOP", 10), ("LEFT", 80), ("RIGHT", 40)])
    rot = [k.ship_rotation(r) for r in tr.rams]
    steps = [(t, (rot[t + 1] - rot[t]) % c.ROTATIONS) for t in range(tr.frames) if rot[t + 1] != rot[t]]
    # the counter after a turning frame is 2 mod 4: the ship logic runs on even frames, and of
    # those, turns on every other one
    assert all(k.frame_count(tr.rams[t + 1]) % c.ROTATION_PERIOD == c.ROTATION_PHASE for t, _ in steps)
    left = [s for t, s in steps if t < 90]
    right = [s for t, s in steps if t >= 90]
    assert left == [1] * 20 and right == [c.ROTATIONS - 1] * 10
    # 20 steps anticlockwise wrapped the heading past 15 to 4 without touching the lives nibble
    assert rot[90] == 20 % c.ROTATIONS and all(k.lives(r) == c.START_LIVES for r in tr.rams)


def test_a_shot_starts_at_the_ship_and_flies_its_range():
    tr = ramtrace.record(ROM, [("NOOP", 10), ("FIRE", 2), ("NOOP", 60)])
    # the first shot takes the second slot (the cartridge tries slot 1 first)
    active = tr.rams[:, k.SHOT_DIRECTION[1]] != 0
    t0 = int(np.flatnonzero(active)[0])
    r0 = tr.rams[t0]
    assert k.frame_count(r0) % 2 == 0
    shot = k.shots(r0)[1]
    assert shot["active"] and shot["rotation"] == 0
    assert shot["x"] == k.ship_x(r0)
    # launched 3 below the ship's y and moved once on its first frame
    assert shot["y"] == k.ship_y(r0) + c.SHOT_LAUNCH_DY + c.SHOT_STEP_DY[0]
    assert shot["range"] == c.SHOT_RANGE[0] - 1
    flight = np.flatnonzero(active)
    assert (tr.rams[flight, k.SHOT_Y[1]] != k.OFF_SCREEN_Y).all()
    assert flight[-1] - flight[0] + 1 == c.shot_lifetime_frames(0, k.frame_count(r0))
    assert not k.shots(tr.rams[-1])[1]["active"] and not k.shots(tr.rams[-1])[0]["active"]


def test_two_shots_at_most_and_each_needs_a_fresh_press():
    held = ramtrace.record(ROM, [("NOOP", 10), ("FIRE", 40)])
    assert sum(k.shots(held.rams[-1])[i]["active"] for i in range(2)) == 0
    assert max(sum(s["active"] for s in k.shots(r)) for r in held.rams) == 1
    tapped = ramtrace.record(ROM, [("NOOP", 10)] + [("FIRE", 2), ("NOOP", 2)] * 6)
    counts = [sum(s["active"] for s in k.shots(r)) for r in tapped.rams]
    assert max(counts) == c.MAX_SHOTS
    starts = sum(1 for i in range(2) for t in range(tapped.frames)
                 if tapped.rams[t + 1, k.SHOT_DIRECTION[i]] > tapped.rams[t, k.SHOT_DIRECTION[i]])
    assert starts < 6  # of six presses some found both slots busy


def test_the_screen_alternates_asteroids_and_ship(screened):
    tr = screened
    on_ship_frames, asteroid_colours = collections.Counter(), set()
    for t in range(2, tr.frames + 1):
        colours = collections.Counter(tuple(int(v) for v in p)
                                      for p in tr.screens[t][PLAY_LINES][_lit(tr.screens[t])])
        if k.ship_frame(tr.rams[t]):
            on_ship_frames.update(colours)
        else:
            asteroid_colours.update(colours)
    # ship frames: the ship's colour and its shots' (which one asteroid colour index shares);
    # the ship's own colour never appears on an asteroid frame
    assert len(on_ship_frames) == 2 and len(asteroid_colours) >= 3
    ship_colour = on_ship_frames.most_common(1)[0][0]
    assert ship_colour not in asteroid_colours


def test_the_ship_is_drawn_where_its_bytes_say(screened):
    tr = screened
    checked = 0
    for t in range(2, tr.frames + 1):
        r = tr.rams[t]
        # a ship back from hyperspace or respawned is first drawn on the next ship frame
        if not k.ship_frame(r) or not k.ship_visible(tr.rams[t - 2]) or not 0 < k.ship_y(r) < 80:
            continue
        x0 = k.ship_x(r) + k.SHIP_SCREEN_X_OFFSET
        y0 = 2 * k.ship_y(r) + k.SHIP_SCREEN_Y_OFFSET
        if not 0 <= x0 <= 150:
            continue
        shot_lines = {2 * s["y"] + k.SHIP_SCREEN_Y_OFFSET for s in k.shots(r) if s["active"]}
        box = tr.screens[t][y0 - 1:y0 + 2 * c.SHIP_HEIGHT + 1, x0:x0 + 8].any(-1)
        assert box.any(), t
        if not shot_lines:
            lit = np.argwhere(_lit(tr.screens[t])) + [PLAY_LINES.start, 0]
            assert (lit[:, 1] >= x0).all() and (lit[:, 1] < x0 + 8).all(), t
            assert (lit[:, 0] >= y0).all() and (lit[:, 0] <= y0 + 2 * c.SHIP_HEIGHT).all(), t
        checked += 1
    assert checked > 200


def test_the_asteroid_slots_follow_what_is_drawn(screened):
    """On an asteroid frame every lit pixel of the play area lies in the box of a listed asteroid,
    and every listed asteroid well inside the screen lights pixels in its box, in the one screen
    colour its colour index always has."""
    tr = screened
    colour_of: dict[int, collections.Counter] = {}
    checked = 0
    for t in range(2, tr.frames + 1):
        r = tr.rams[t]
        if k.ship_frame(r):
            continue
        screen = tr.screens[t]
        listed = k.asteroids(r)
        inside = [a for a in listed if 2 <= a["y"] <= 75 and 2 <= a["x"] <= 136]
        boxes = np.zeros(screen.shape[:2], bool)
        for a in listed:
            x0, y0 = a["x"] + k.ASTEROID_SCREEN_X_OFFSET, 2 * a["y"] + k.ASTEROID_SCREEN_Y_OFFSET
            # the picture wraps at the right edge onto column 0
            columns = (x0 + np.arange(k.ASTEROID_BOX_COLUMNS)) % SCREEN_WIDTH
            boxes[max(y0, 0):y0 + k.ASTEROID_BOX_LINES, columns] = True
        if len(inside) == len(listed):
            stray = _lit(screen) & ~boxes[PLAY_LINES]
            assert not stray.any(), (t, np.argwhere(stray)[:3])
        for a in inside:
            x0, y0 = a["x"] + k.ASTEROID_SCREEN_X_OFFSET, 2 * a["y"] + k.ASTEROID_SCREEN_Y_OFFSET
            patch = screen[y0:y0 + k.ASTEROID_BOX_LINES, x0:x0 + k.ASTEROID_BOX_COLUMNS]
            lit = patch[patch.any(-1)]
            assert len(lit), (t, a)
            alone = all(abs(b["x"] - a["x"]) >= k.ASTEROID_BOX_COLUMNS
                        or abs(2 * (b["y"] - a["y"])) >= k.ASTEROID_BOX_LINES
                        for b in listed if b is not a)
            if alone and not a["hit"]:
                colours, counts = np.unique(lit, axis=0, return_counts=True)
                dominant = tuple(int(v) for v in colours[np.argmax(counts)])
                colour_of.setdefault(a["colour"], collections.Counter())[dominant] += 1
            checked += 1
    assert checked > 500
    # an asteroid with no other near it is drawn in the one colour of its colour index (a wrapped
    # neighbour's pixels may still fall in its box now and then)
    assert len(colour_of) >= 3
    for index, seen in colour_of.items():
        assert seen.most_common(1)[0][1] >= 0.95 * sum(seen.values()), (index, seen)
    firsts = [seen.most_common(1)[0][0] for seen in colour_of.values()]
    assert len(set(firsts)) >= 3


def test_no_ufo_in_the_default_difficulty(random_game):
    tr = random_game
    assert (tr.rams[:, k.UFO_Y] == k.OFF_SCREEN_Y).all()
    assert (tr.rams[:, k.UFO_SHOT_DIRECTION] == 0).all()


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="128 bytes"):
        k.lives(np.zeros(64, np.uint8))
    with pytest.raises(ValueError, match="one byte"):
        k.horizontal_pixel(300)
    with pytest.raises(ValueError, match="list starts"):
        k.asteroid_list(np.zeros(128, np.uint8), 4)
