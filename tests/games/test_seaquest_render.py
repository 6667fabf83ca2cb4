"""Seaquest's picture (jaxtari/games/seaquest/draw.py) against ALE's screen: the whole 210x160
picture pixel-exact on every frame of whole random games, and the 84x84 grey picture (drawn
directly at that size) equal to ALE's grey screen at the pixels it samples and to the full
picture's grey at those pixels, bit for bit."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment.porting import ramtrace as rt
from jaxtari.render import SMALL_GRAY, gray
from jaxtari.games.seaquest import Seaquest

GAME = Seaquest()


CHUNK = 128  # frames rendered per call


def _scan(state, actions):
    def body(s, a):
        s, _ = GAME._step(s, a)
        return s, s
    return jax.lax.scan(body, state, actions)[1]


_STATES = jax.jit(_scan)
_PICTURES = jax.jit(jax.vmap(lambda s: (GAME.render(s), GAME.render_gray84(s))))


def _compare(seed, frames, hold):
    import ale_py

    ale = rt.open_rom("seaquest")
    actions = rt.record("seaquest", frames=frames, seed=seed, hold=(1, hold)).actions
    padded = np.zeros(-(-len(actions) // CHUNK) * CHUNK, np.int32)
    padded[:len(actions)] = actions
    states = _STATES(GAME._reset(jax.random.key(0)), jnp.asarray(padded))
    checked = 0
    for c in range(0, len(actions), CHUNK):
        chunk = jax.tree_util.tree_map(lambda x: x[c:c + CHUNK], states)
        pictures, small = (np.asarray(p) for p in _PICTURES(chunk))
        for i in range(min(CHUNK, len(actions) - c)):
            ale.act(ale_py.Action(int(actions[c + i])))
            theirs = ale.getScreenRGB()
            differs = np.any(pictures[i] != theirs, axis=2)
            assert not differs.any(), (c + i + 1, np.argwhere(differs)[:5].tolist())
            grey = ale.getScreenGrayscale()[SMALL_GRAY.ys, SMALL_GRAY.xs]
            assert np.array_equal(small[i], grey), c + i + 1
            # drawn at 84x84, it is the full picture's samples (not only ALE's, which the
            # full picture equals on this frame)
            assert np.array_equal(small[i], gray(pictures[i])[SMALL_GRAY.ys, SMALL_GRAY.xs])
            checked += 1
    return checked


def test_the_picture_is_pixel_exact_over_a_random_game():
    # the opening, then random play into the first lost sub (the whole game: slow below)
    assert _compare(seed=2, frames=640, hold=8) == 640


@pytest.mark.slow
@pytest.mark.parametrize("seed, hold", [(2, 8), (0, 8), (3, 4), (5, 30)])
def test_the_picture_is_pixel_exact_over_more_games(seed, hold):
    assert _compare(seed=seed, frames=8000, hold=hold) > 1000


@pytest.mark.slow
def test_the_picture_is_pixel_exact_over_the_deep_game():
    """The lookahead player's game to wave 3 (the patrol sub on the surface, the blinking
    indicator of six divers, the bonuses), every 2nd frame."""
    import ale_py

    from alignment.deepplay import load_actions
    from tests.games.test_seaquest_logic import DEEP

    _, actions = load_actions(DEEP)
    ale = rt.open_rom("seaquest")
    padded = np.zeros(-(-len(actions) // CHUNK) * CHUNK, np.int32)
    padded[:len(actions)] = actions
    states = _STATES(GAME._reset(jax.random.key(0)), jnp.asarray(padded))
    for c in range(0, len(actions), CHUNK):
        chunk = jax.tree_util.tree_map(lambda x: x[c:c + CHUNK:2], states)
        pictures, small = (np.asarray(p) for p in _PICTURES(chunk))
        for i in range(min(CHUNK, len(actions) - c)):
            ale.act(ale_py.Action(int(actions[c + i])))
            if i % 2 == 0:
                differs = np.any(pictures[i // 2] != ale.getScreenRGB(), axis=2)
                assert not differs.any(), (c + i + 1, np.argwhere(differs)[:5].tolist())
                sampled = gray(pictures[i // 2])[SMALL_GRAY.ys, SMALL_GRAY.xs]
                assert np.array_equal(small[i // 2], sampled), c + i + 1
