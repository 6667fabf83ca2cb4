"""Seaquest's picture (ports/seaquest/game/draw.py) against ALE's screen: the lanes (screen lines
57..152: the sea, sharks, enemy subs, divers, enemy missiles, the sub and its torpedo) pixel-exact
on every frame. The rest of the screen is not drawn yet (README)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment.porting import ramtrace as rt
from ports.seaquest.game import Seaquest
from ports.seaquest.game.draw import LANES_END, LANES_TOP
from ports.seaquest.game.palette import PALETTE

GAME = Seaquest()


CHUNK = 128  # frames rendered per call


def _scan(state, actions):
    def body(s, a):
        s, _ = GAME._step(s, a)
        return s, s
    return jax.lax.scan(body, state, actions)[1]


_STATES = jax.jit(_scan)
_RENDER = jax.jit(jax.vmap(GAME.render))


def _compare(seed, frames, hold):
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(roms.get_rom_path("seaquest"))
    ale.reset_game()
    actions = rt.record("seaquest", frames=frames, seed=seed, hold=(1, hold)).actions
    padded = np.zeros(-(-len(actions) // CHUNK) * CHUNK, np.int32)
    padded[:len(actions)] = actions
    states = _STATES(GAME._reset(jax.random.key(0)), jnp.asarray(padded))
    checked = 0
    for c in range(0, len(actions), CHUNK):
        chunk = jax.tree_util.tree_map(lambda x: x[c:c + CHUNK], states)
        pictures = np.asarray(_RENDER(chunk))[:, LANES_TOP:LANES_END]
        for i in range(min(CHUNK, len(actions) - c)):
            ale.act(ale_py.Action(int(actions[c + i])))
            theirs = ale.getScreenRGB()[LANES_TOP:LANES_END]
            differs = np.any(pictures[i] != theirs, axis=2)
            assert not differs.any(), (c + i + 1, np.argwhere(differs)[:5].tolist())
            checked += 1
    return checked


def test_the_palette_holds_what_the_sea_and_the_sub_show():
    assert tuple(PALETTE[0x90 >> 1]) == (0, 28, 136) and tuple(PALETTE[0x18 >> 1]) == (187, 187, 53)


def test_the_lanes_are_pixel_exact_over_a_whole_random_game():
    assert _compare(seed=2, frames=2500, hold=8) == 1521  # the whole game


@pytest.mark.slow
@pytest.mark.parametrize("seed, hold", [(0, 8), (3, 4), (5, 30)])
def test_the_lanes_are_pixel_exact_over_more_games(seed, hold):
    assert _compare(seed=seed, frames=8000, hold=hold) > 1000
