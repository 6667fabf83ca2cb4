"""The plain game's route through the three floor layouts and back to the first
(alignment/reference/games/kangaroo/cycle_route.json, data) played on ALE and on the JAX game with
the same actions (sticky actions off): every signal and the reward equal on every frame, the
210x160 picture equal (slow: every frame; fast: the frames where the kernel's monkey list leaves
its marks on ALE's screen)."""

from __future__ import annotations

import functools
import ale_py
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment import deepplay
from alignment.actions import ACTION_NAMES
from alignment.porting import ramtrace as rt
from alignment.reference.games.kangaroo import ram as gt
from alignment.reference.games.kangaroo import route
from jaxtari.games.kangaroo import Kangaroo, KangarooConstants, draw
from jaxtari.render import SMALL_GRAY, gray

GAME = Kangaroo()
# frames of the route where two shown monkeys are exactly two rows apart: ALE draws the lower
# one nowhere and writes line 1's right half late on the row after the upper one (measured;
# jaxtari/games/kangaroo/draw.monkey_tops), and the frames either side
LIST_MARKS = (2_924, 5_090, 5_728, 5_731, 5_734)


def _actions(n=None):
    names = route.cycle_actions()[:n]
    return np.asarray([ACTION_NAMES.index(a) for a in names], np.int32)


def _screens(actions, frames) -> dict[int, np.ndarray]:
    """ALE's 210x160 screens after the given frames (1-based) of ``actions`` from reset."""
    ale = rt.open_rom("kangaroo")
    wanted, out = set(frames), {}
    for f, a in enumerate(actions, start=1):
        ale.act(ale_py.Action(int(a)))
        if f in wanted:
            out[f] = ale.getScreenRGB().copy()
    return out


def _states(actions):
    def body(s, a):
        s, _ = GAME._step(s, a)
        return s, s

    _, states = jax.jit(lambda s, a: jax.lax.scan(body, s, a))(GAME._reset(jax.random.key(0)),
                                                                jnp.asarray(actions))
    return states


_RENDER = jax.jit(jax.vmap(functools.partial(draw.render, KangarooConstants())))


def _differing(states, screens: dict[int, np.ndarray]) -> dict[int, int]:
    """{frame: pixels that differ} between ALE's screens and the JAX pictures of those frames."""
    frames = sorted(screens)
    out = {}
    for i in range(0, len(frames), 256):
        chunk = np.asarray(frames[i:i + 256])
        images = np.asarray(_RENDER(jax.tree_util.tree_map(lambda x: x[chunk - 1], states)))
        for j, f in enumerate(chunk):
            n = int((images[j] != screens[int(f)]).any(-1).sum())
            if n:
                out[int(f)] = n
    return out


def test_the_route_is_data_naming_ale_actions():
    doc = route.cycle()
    assert {name for name, _ in doc["runs"]} <= set(ACTION_NAMES)
    assert len(route.cycle_actions()) == doc["frames"] == 6_224
    assert [layout for layout, _ in doc["layouts"]] == [1, 2, 0]


def test_the_monkey_lists_marks_are_drawn_as_ale_draws_them():
    """Each frame in LIST_MARKS and its neighbours: equal to ALE's screen pixel for pixel (the
    code before the kernel's monkey list was modelled drew the lower monkey and the playfield's
    right half as usual there, 20-32 pixels off on each of the five frames)."""
    last = max(LIST_MARKS) + 1
    actions = _actions(last)
    frames = sorted({f + d for f in LIST_MARKS for d in (-1, 0, 1)})
    screens = _screens(actions, frames)
    states = _states(actions)
    assert _differing(states, screens) == {}
    # the first mark is there: monkeys on rows 9 and 11, and line 1 of row 11 (line 93) is the
    # one ALE writes late
    ram = jax.tree_util.tree_map(lambda x: x[LIST_MARKS[0] - 1], states.picture.ram)
    assert {9, 11} <= set(np.asarray(ram["monkey_row"]).tolist())
    assert int(jax.jit(draw.monkey_tops)(ram)[1]) == 11


@pytest.mark.slow
def test_the_route_agrees_with_ale_on_every_frame_through_three_layouts():
    """6,224 frames: every catalog signal and the reward equal on every frame, the layouts on the
    frames the route's header names, no life lost, every frame's picture equal to ALE's, and
    the 84x84 grey picture (drawn at that size) the full picture's samples on every frame."""
    actions = _actions()
    result = deepplay.compare("kangaroo", actions, render=False)
    assert result.first_mismatch is None, result.signal_mismatches
    ale = rt.open_rom("kangaroo")
    levels, lives, screens = [], [], {}
    states = _states(actions)
    bad = {}
    for f, a in enumerate(actions, start=1):
        ale.act(ale_py.Action(int(a)))
        ram = ale.getRAM()
        levels.append(int(ram[gt.LEVEL]))
        lives.append(int(ale.lives()))
        screens[f] = ale.getScreenRGB().copy()
        if len(screens) == 256 or f == len(actions):
            bad.update(_differing(states, screens))
            screens = {}
    assert bad == {}
    small = jax.jit(jax.vmap(functools.partial(draw.render_gray84, KangarooConstants())))
    for i in range(0, len(actions), 256):
        picked = jax.tree_util.tree_map(lambda x: x[i:i + 256], states)
        want = np.stack([gray(f)[SMALL_GRAY.ys, SMALL_GRAY.xs] for f in np.asarray(_RENDER(picked))])
        assert (np.asarray(small(picked)) == want).all(), i
    changes = [[levels[t], t + 1] for t in range(1, len(levels)) if levels[t] != levels[t - 1]]
    assert changes == route.cycle()["layouts"]
    assert set(lives) == {3}
