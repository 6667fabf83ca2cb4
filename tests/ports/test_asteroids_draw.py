"""The Asteroids port's picture (ports/asteroids/game/draw.py) against ALE's ``getScreenRGB()``
(ale-py, sticky actions off, one frame per act), frame for frame over whole games.

What is claimed exact, and checked on every frame: the score and lives digits (lines 0..16) on
every frame, and the whole 210x160 screen on every ship frame (the frames after which the counter
is even: ship or its explosion, both shots, digits). The asteroid frames' asteroids are not drawn
yet (NOTES.md, open), so on those frames only the digits are compared. ``render_gray84`` is
checked against ALE's screen sampled at ``jaxtari.render.SMALL_GRAY``'s pixels in ALE's grey."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from alignment.porting import ramtrace
from jaxtari import render as raster_lib
from ports.asteroids.game import draw
from ports.asteroids.game import game as g

ROM = "asteroids"
BLOCK = 4096
DIGIT_LINES = 17   # lines 0..16: the digits; the first shot line is 17


def _padded(actions) -> np.ndarray:
    n = -(-max(len(actions), 1) // BLOCK) * BLOCK
    return np.concatenate([actions, np.zeros(n - len(actions), np.int64)]).astype(np.int32)


def _pictures(states, frames, fn=draw.render_rgb, chunk=512):
    out = []
    for i in range(0, frames, chunk):
        part = jax.tree.map(lambda a: a[i:min(i + chunk, frames)], states)
        out.append(np.asarray(jax.vmap(fn)(part)))
    return np.concatenate(out)


def first_wrong(ours, screens, counts, start=0):
    """The first frame (1-based, from ``start``) whose claimed pixels differ, or None."""
    ship_frame = counts % 2 == 0
    for t in range(len(ours)):
        a, b = ours[t], screens[t]
        wrong = (a != b).any() if ship_frame[t] else (a[:DIGIT_LINES] != b[:DIGIT_LINES]).any()
        if wrong:
            rows = np.where((a != b).any(-1).any(-1))[0]
            return start + t + 1, bool(ship_frame[t]), rows[:8].tolist()
    return None


def _random_game(seed: int, frames: int = 20000):
    hold = (1, 12) if seed % 2 else (4, 30)
    return ramtrace.record(ROM, frames=frames, seed=seed, hold=hold, screens=True)


def _check(trace):
    states = g.rollout(g.reset(), _padded(trace.actions))
    ours = _pictures(states, trace.frames)
    counts = np.asarray(states.ship.count)[:trace.frames]
    assert first_wrong(ours, trace.screens[1:], counts) is None
    # the 84x84 picture: ALE's screen at the sampled pixels, in ALE's grey
    small = _pictures(states, trace.frames, draw.render_gray84)
    r = raster_lib.SMALL_GRAY
    theirs = raster_lib.gray(trace.screens[1:, r.ys[:, 0]][:, :, r.xs[0]])
    ship_frame = counts % 2 == 0
    band = int(np.searchsorted(r.ys[:, 0], DIGIT_LINES))
    assert (small[ship_frame] == theirs[ship_frame]).all()
    assert (small[:, :band] == theirs[:, :band]).all()
    return states, ours, counts


def test_the_picture_matches_ale_on_every_frame():
    trace = _random_game(0)
    assert trace.game_over[-1]
    _check(trace)


# Seed 1 holds its actions 1..12 frames (seed 0: 4..30): the same draw code on a busier game, so
# the default run keeps one whole game and the others run with the slow tests.
@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7])
def test_the_picture_matches_ale_on_more_games(seed):
    trace = _random_game(seed)
    assert trace.game_over[-1]
    _check(trace)


def test_a_wrong_sprite_row_is_caught(monkeypatch):
    """The comparison sees one wrong row of the ship's sprite (heading 0, the start's)."""
    trace = _random_game(0, frames=400)
    states = g.rollout(g.reset(), _padded(trace.actions))
    counts = np.asarray(states.ship.count)[:trace.frames]
    table = draw._SHIP_TABLE.copy()
    table[0, 2] = ~table[0, 2]
    monkeypatch.setattr(draw, "_SHIP_TABLE", table)
    wrong = jax.jit(lambda s: draw.draw(raster_lib.FULL, s))
    ours = _pictures(states, trace.frames, wrong)
    found = first_wrong(ours, trace.screens[1:], counts)
    assert found is not None and found[1]


@pytest.mark.slow
def test_the_gunners_game_picture_matches_ale():
    """The first 20,000 frames of the gunner's stored game (ports/asteroids/reference/
    gunner_route.json): five-digit scores past 10,000, waves cleared, deaths; compared block by
    block against a fresh ALE replay (no whole-game screen stack in memory)."""
    import ale_py

    from ports.asteroids.reference import gunner

    names = ramtrace.ACTION_NAMES
    plan = [names.index(n) for n, k in gunner.script() for _ in range(int(k))][:20000]
    states = g.rollout(g.reset(), _padded(np.asarray(plan)))
    ale = ramtrace.open_rom(ROM, seed=0)
    chunk = 1000
    for i in range(0, len(plan), chunk):
        screens = []
        for a in plan[i:i + chunk]:
            ale.act(ale_py.Action(a))
            screens.append(ale.getScreenRGB().copy())
        part = jax.tree.map(lambda x: x[i:i + len(screens)], states)
        ours = _pictures(part, len(screens))
        counts = np.asarray(part.ship.count)
        assert first_wrong(ours, np.stack(screens), counts, start=i) is None
    assert int(g.score(jax.tree.map(lambda x: x[len(plan) - 1], states))) >= 10000
