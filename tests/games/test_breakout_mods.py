"""Breakout's mods: each changes what it says and nothing else (the modded game is run beside the
original from the same state with the same actions, and every state field compared)."""

import jax
import numpy as np
import pytest

import jaxtari
from jaxtari.games.breakout import constants as k
from jaxtari.mods import ModError
from tests.games.breakout_helpers import (
    NOOP, make_game, random_actions, render_frames, rollout, scripted_start,
)
from tests.games.test_breakout_mechanics import WARMUP, _ball, _no_bricks

FIELDS = ("paddle_x", "ball_x", "ball_y", "ball_dx", "ball_dy", "hits", "angle", "shrunk",
          "bricks", "wall", "lives", "score", "clock", "active", "sound", "pot_reading")


def _both(mod, writes, actions):
    """States of the original and of the modded game from the same scripted start."""
    _, state, _ = scripted_start(writes, warmup=WARMUP)
    plain, modded = make_game(), make_game(mods=(mod,))
    return (plain, *rollout(plain, state, actions)), (modded, *rollout(modded, state, actions))


def _differing(a, b):
    return [f for f in FIELDS if not np.array_equal(np.asarray(getattr(a, f)), np.asarray(getattr(b, f)))]


def test_the_mods_are_registered():
    game = jaxtari.make("breakout", mods=["no_shrink", "constant_speed", "grey_bricks"])
    assert game.mod_names == ("no_shrink", "constant_speed", "grey_bricks")
    with pytest.raises(ModError, match="unknown mod 'bigger_ball'"):
        jaxtari.make("breakout", mods=["bigger_ball"])


def test_no_shrink_keeps_the_paddle_and_nothing_else():
    (plain, p, _), (modded, m, _) = _both(
        "no_shrink", {**_ball(100, 30, 0, 0xFF00), **_no_bricks()}, [NOOP] * 12)
    # the top wall sets the cartridge's shrink flag in the original only: the flag is the paddle's
    # width (as ALE's counterpart, which clears that bit, keeps it)
    assert bool(p.shrunk[-1]) and not bool(np.asarray(m.shrunk).any())
    assert _differing(p, m) == ["shrunk"]
    at = lambda s, t: jax.tree_util.tree_map(lambda v: v[t], s)  # noqa: E731
    assert int(plain.objects(at(p, 11))["paddle"].w[0]) == 12
    assert int(modded.objects(at(m, 11))["paddle"].w[0]) == 16
    # on screen: only the paddle's lines differ
    a, b = render_frames(plain, p, [11])[0], render_frames(modded, m, [11])[0]
    rows = np.nonzero((a != b).any(axis=(1, 2)))[0]
    assert rows.size and rows.min() >= 189 and rows.max() <= 192


def test_constant_speed_keeps_the_first_speed_and_the_hit_count():
    (_, p, _), (_, m, _) = _both("constant_speed", _ball(149, 176, 0xFF00, 0x0100, hits=11),
                                 [NOOP] * 12)
    assert int(p.hits[-1]) & 0x3F == int(m.hits[-1]) & 0x3F == 12
    assert (-int(p.ball_dy[-1])) & 0xFFFF == 0x0200
    assert (-int(m.ball_dy[-1])) & 0xFFFF == k.SPEED_TABLE[0][1]
    bounce = int(np.argmax(np.asarray(p.hits) & 0x40))
    before = jax.tree_util.tree_map(lambda v: v[:bounce], (p, m))
    assert _differing(*before) == []  # identical up to the bounce


def test_constant_speed_ignores_the_speed_bricks():
    rows_3_to_5 = {b: 0 for g in range(6) for b in (6 * g, 6 * g + 1, 6 * g + 2)}
    (_, p, pr), (_, m, mr) = _both("constant_speed", {**_ball(99, 70, 0, 0xFF00), **rows_3_to_5},
                                   [NOOP] * 12)
    assert pr.sum() == mr.sum() == 4
    assert int(p.ball_dy[-1]) == 0x0360 and int(m.ball_dy[-1]) == k.SPEED_TABLE[0][1]


def test_grey_bricks_changes_only_the_bricks_colour():
    plain, modded = make_game(), make_game(mods=("grey_bricks",))
    state = plain.reset(jax.random.key(0))[1]
    actions = random_actions(5, 600, hold=6)
    p, _ = rollout(plain, state, actions)
    m, _ = rollout(modded, state, actions)
    assert _differing(p, m) == []
    frames = list(range(0, 600, 37))
    a, b = render_frames(plain, p, frames), render_frames(modded, m, frames)
    differ = (a != b).any(-1)
    ys = np.nonzero(differ.any(axis=(0, 2)))[0]
    assert ys.min() >= 57 and ys.max() <= 92  # the wall's lines only
    assert (b[differ] == np.asarray(k.BreakoutConstants().wall_colour, np.uint8)).all()
