"""The Asteroids port's objects and signals (jaxtari/games/asteroids/objects.py) against ALE (ale-py,
sticky actions off, one frame per act) over whole random games: every signal equal to what the
ground truth decodes from ALE's RAM on every frame (asteroid edge pairs merged into one object,
whether drawn on that frame or not), and every pixel ALE lights inside the boxes of the objects
that frame's picture shows."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from alignment.porting import ramtrace
from jaxtari.games.asteroids import constants as c
from jaxtari.games.asteroids import objects
from jaxtari.games.asteroids.logic import field
from jaxtari.games.asteroids import game as g
from alignment.reference.games.asteroids import ram as k

ROM = "asteroids"
BLOCK = 4096
FIRST_PLAY_LINE = 15   # lines above are the score's


def _padded(actions) -> np.ndarray:
    n = -(-max(len(actions), 1) // BLOCK) * BLOCK
    return np.concatenate([actions, np.zeros(n - len(actions), np.int64)]).astype(np.int32)


def _game(seed: int):
    hold = (1, 12) if seed % 2 else (4, 30)
    trace = ramtrace.record(ROM, frames=20000, seed=seed, hold=hold, screens=True)
    states = g.rollout(g.reset(), _padded(trace.actions))
    return trace, jax.tree.map(lambda a: a[:trace.frames], states)


def reference_signals(ram) -> dict:
    """The same signals read off ALE's RAM by the reference module (reference/ram.py
    ``signals()``, the catalog's extractors: one object per asteroid, the list's last slot merged
    into the first when it is the first's copy 89 rows down), and the lives and the score."""
    out = {s.name: s.ale(ram) for s in k.signals()}
    out.update(lives=k.lives(ram), score=k.score(ram))
    return out


def test_the_reference_signals_are_the_games():
    """The catalog's signals (reference/ram.py) are the names the JAX game's ``signals`` gives,
    each with its public source."""
    state = g.reset()
    names = {s.name for s in k.signals()}
    assert names <= set(objects.signals(None, state))
    assert all(s.source and s.ale is not None for s in k.signals())


def _check_signals(trace, states):
    ours = jax.device_get(jax.vmap(lambda s: objects.signals(None, s))(states))
    for t in range(trace.frames):
        theirs = reference_signals(trace.rams[t + 1])
        for name, value in theirs.items():
            assert np.array_equal(np.asarray(ours[name][t]), np.asarray(value)), (t + 1, name)


def _in_boxes(group, lines, cols):
    """Whether each lit pixel (lines, cols) lies in an active box (x wrapping at 160, y at the
    play area's 178 lines)."""
    inside = np.zeros(len(lines), bool)
    for x, y, w, h, on in zip(group.x, group.y, group.w, group.h, group.active):
        if on:
            dx = (cols - x) % c.SCREEN_WIDTH
            dy = (lines - y) % objects.PLAY_LINES
            inside |= (dx < w) & (dy < h)
    return inside


def _check_boxes(trace, states):
    counts = np.asarray(states.ship.count)
    # the picture of an asteroid frame is the field before the overscan, its up list's first
    # asteroid placed by its code before the frame's sideways step (AsteroidsState.screen)
    memory = states.screen.field.at[:, field.X0 + c.UP_FIRST].set(states.screen.top_code)
    drawn = states.replace(field=states.field.replace(memory=memory))
    boxes = jax.device_get(jax.vmap(lambda s: objects.objects(None, s))(drawn))
    for t in range(trace.frames):
        screen = trace.screens[t + 1][FIRST_PLAY_LINE:].any(-1)
        lines, cols = np.nonzero(screen)
        lines = lines + FIRST_PLAY_LINE
        names = ("asteroids",) if counts[t] % 2 else ("ship", "shots")
        inside = np.zeros(len(lines), bool)
        for name in names:
            group = jax.tree.map(lambda a: a[t], boxes[name])
            inside |= _in_boxes(group, lines, cols)
        assert inside.all(), (t + 1, names, list(zip(lines[~inside][:5], cols[~inside][:5])))


@pytest.fixture(scope="module")
def whole_game():
    return _game(0)


def test_signals_and_boxes_match_ale_over_a_whole_game(whole_game):
    trace, states = whole_game
    assert trace.game_over[-1]
    _check_signals(trace, states)
    _check_boxes(trace, states)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_signals_and_boxes_match_ale_over_more_games(seed):
    trace, states = _game(seed)
    _check_signals(trace, states)
    _check_boxes(trace, states)


def test_an_edge_pair_is_one_object(whole_game):
    """An up-drifting asteroid reaching the top is listed twice (field.py): the signals count it
    once (the whole-game test above checks its box, which wraps onto the bottom lines)."""
    trace, states = whole_game
    pairs = 0
    for t in range(trace.frames):
        mem = np.asarray(states.field.memory[t])
        y0 = mem[field.Y0 + c.UP_FIRST]
        if y0 >= 128 and y0 != c.OFF_SCREEN_Y:   # above the top (224 ends the list)
            active, *_ = objects.asteroid_slots(mem)
            listed = len(k.asteroid_list(trace.rams[t + 1], k.UP_LIST_FIRST))
            pairs += int(np.asarray(active)[:c.LIST_SLOTS].sum() == listed - 1)
    assert pairs > 0


def test_a_box_without_the_vertical_wrap_is_caught(whole_game, monkeypatch):
    """The containment check sees the bottom half of an edge pair outside a box that does not
    wrap onto the bottom lines."""
    trace, states = whole_game
    monkeypatch.setattr(objects, "PLAY_LINES", 10 ** 6)
    with pytest.raises(AssertionError):
        _check_boxes(trace, states)
