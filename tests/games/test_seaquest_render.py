"""Seaquest's picture (jaxtari/games/seaquest/draw.py) against ALE's screen: the whole 210x160
picture pixel-exact on every frame of whole random games, and the 84x84 grey picture (drawn
directly at that size; both its forms, the CPU's and the accelerator's) equal to ALE's grey
screen at the pixels it samples and to the full picture's grey at those pixels, bit for bit."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment.porting import ramtrace as rt
from jaxtari.render import SMALL_GRAY, gray
from jaxtari.games.seaquest import Seaquest
from jaxtari.games.seaquest.draw import gray84_masked

GAME = Seaquest()


CHUNK = 128  # frames rendered per call


def _scan(state, actions):
    def body(s, a):
        s, _ = GAME._step(s, a)
        return s, s
    return jax.lax.scan(body, state, actions)[1]


_STATES = jax.jit(_scan)
_JIT_PICTURES = jax.jit(jax.vmap(lambda s: (GAME.render(s), GAME.render_gray84(s),
                                              gray84_masked(s))))


def _pictures(states):
    """Both pictures of each state; the 84x84 one's other form (the accelerator's, by masked
    table reads: logic/reads.py) equal to it on every state."""
    full, small, masked = (np.asarray(p) for p in _JIT_PICTURES(states))
    differs = np.argwhere(np.any(masked != small, axis=(1, 2)))
    assert differs.size == 0, ("the masked form differs", differs[:5].tolist())
    return full, small


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
        pictures, small = _pictures(chunk)
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
        pictures, small = _pictures(chunk)
        for i in range(min(CHUNK, len(actions) - c)):
            ale.act(ale_py.Action(int(actions[c + i])))
            if i % 2 == 0:
                differs = np.any(pictures[i // 2] != ale.getScreenRGB(), axis=2)
                assert not differs.any(), (c + i + 1, np.argwhere(differs)[:5].tolist())
                sampled = gray(pictures[i // 2])[SMALL_GRAY.ys, SMALL_GRAY.xs]
                assert np.array_equal(small[i // 2], sampled), c + i + 1


def test_the_copyright_scroll_is_drawn_for_every_value_of_its_byte():
    """Once the game is over the cartridge counts ram[35] down every frame (255..1) and its
    copyright kernel scrolls the copyright line in over the logo (lines 190..197). ALE emulates
    no frame after the game's end, so each value is put in RAM on a state from the game (ALE runs
    that one frame: its game-over test follows the frame): the picture and every mirrored byte
    after the frame agree for all 256 values, the 9 line pointers among them."""
    import ale_py

    from alignment.reference.games.seaquest import ram as gt
    from jaxtari.games.seaquest import constants as k
    from jaxtari.games.seaquest.game import state_from_ram

    ale = rt.open_rom("seaquest")
    for action in [ale_py.Action.DOWN] * 40 + [ale_py.Action.NOOP] * 300:
        ale.act(action)
    start = ale.cloneState()
    states, screens, rams = [], [], []
    for value in range(256):
        ale.restoreState(start)
        ale.setRAM(k.RAM_GAME_OVER, value)
        states.append(state_from_ram(ale.getRAM(), frame=340))
        ale.act(ale_py.Action.NOOP)
        screens.append(ale.getScreenRGB())
        rams.append(ale.getRAM())
    batch = jax.tree_util.tree_map(lambda *x: jnp.stack(x), *states)
    after = jax.jit(jax.vmap(lambda s: GAME._step(s, jnp.int32(0))[0]))(batch)
    pictures, small = _pictures(after)
    logo = slice(190, 198)
    assert len({s[logo].tobytes() for s in screens}) == 9  # what the test covers
    for value in range(256):
        differs = np.any(pictures[value] != screens[value], axis=2)
        assert not differs.any(), (value, sorted(set(np.argwhere(differs)[:, 0].tolist())))
        state = jax.tree_util.tree_map(lambda x: x[value], after)
        assert gt.state_differences(state, rams[value]) == {}, value
        assert np.array_equal(small[value], gray(pictures[value])[SMALL_GRAY.ys, SMALL_GRAY.xs])
