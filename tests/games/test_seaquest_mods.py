"""Seaquest's mods (jaxtari/games/seaquest/mods.py) change what they claim and nothing before it."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxtari.games.seaquest import Seaquest
from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest.mods import MODS

FRAMES = 2500


def _game(mod=None):
    c = k.SeaquestConstants()
    if mod is not None:
        c = dataclasses.replace(c, **mod.constants)
    return Seaquest(c)


def _run(game, actions):
    def body(s, a):
        s, r = game._step(s, a)
        return s, s

    _, states = jax.jit(lambda s, a: jax.lax.scan(body, s, a))(
        game._reset(jax.random.key(0)), jnp.asarray(actions, jnp.int32))
    return jax.device_get(states)


@pytest.fixture(scope="module")
def original():
    # just under the surface (ram[97] 20: the oxygen drains; above the lanes, so nothing hits the
    # sub) while the lanes' groups come and go, enemy subs among them
    actions = np.zeros(FRAMES, np.int32)
    actions[130:137] = 5  # DOWN
    return actions, _run(_game(), actions)


def _first_difference(a, b):
    leaves = jax.tree_util.tree_leaves(jax.tree_util.tree_map(
        lambda x, y: np.any((x != y).reshape(len(x), -1), axis=1), a, b))
    differs = np.any(np.stack(leaves), axis=0)
    return int(np.argmax(differs)) if differs.any() else None


def _mod(name):
    return next(m for m in MODS if m.name == name)


@pytest.mark.slow
def test_no_enemy_missiles(original):
    actions, base = original
    sub_lanes = (base.attributes & k.ATTR_SUB) != 0
    assert np.any(base.missile_x[sub_lanes] != 0), "the original's enemy subs fire"
    modded = _run(_game(_mod("no_enemy_missiles")), actions)
    assert np.all(modded.missile_x[(modded.attributes & k.ATTR_SUB) != 0] == 0)
    t = _first_difference(base, modded)
    # nothing differs before the original's first missile
    first_missile = int(np.argmax(np.any(sub_lanes & (base.missile_x != 0), axis=1)))
    assert t == first_missile


@pytest.mark.slow
def test_endless_oxygen(original):
    actions, base = original
    drained = np.diff(base.oxygen) < 0
    assert drained.any()
    modded = _run(_game(_mod("endless_oxygen")), actions)
    under = modded.sub_y[1:] >= k.OXYGEN_DRAIN_Y
    assert not np.any((np.diff(modded.oxygen) < 0) & under & (modded.death[1:] == 0))
    t = _first_difference(base, modded)
    assert t == int(np.argmax(drained)) + 1  # the first drain is the first difference


@pytest.mark.slow
def test_grey_enemies_changes_the_sharks_colour_and_nothing_else(original):
    from jaxtari.games.seaquest.draw import render
    from jaxtari.atari.palette import PALETTE

    actions, base = original
    modded = _run(_game(_mod("grey_enemies")), actions)
    colours = {"obstacle_colours", "shown_colours"}
    for f in dataclasses.fields(base):
        if f.name not in colours:
            x, y = getattr(base, f.name), getattr(modded, f.name)
            if f.name == "key":
                x, y = jax.random.key_data(x), jax.random.key_data(y)
            np.testing.assert_array_equal(x, y, err_msg=f.name)
    sharks = (base.attributes & k.ATTR_SUB) == 0
    assert np.all(modded.obstacle_colours == k.ENEMY_SUB_COLOUR)
    assert np.any(base.obstacle_colours[sharks] != k.ENEMY_SUB_COLOUR)
    # the pictures: only shark pixels change, to the subs' grey
    shown = np.flatnonzero(np.any(base.pattern != 0, axis=1))[::50]
    pick = lambda st: jax.tree_util.tree_map(lambda x: x[shown], st)  # noqa: E731
    a = np.asarray(jax.jit(jax.vmap(render))(pick(base)))
    b = np.asarray(jax.jit(jax.vmap(render))(pick(modded)))
    changed = np.any(a != b, axis=-1)
    assert changed.any()
    grey = PALETTE[k.ENEMY_SUB_COLOUR >> 1]
    assert np.all(b[changed] == grey)
    shark_rgb = {tuple(PALETTE[c >> 1]) for c in k.SHARK_COLOURS}
    assert {tuple(p) for p in a[changed]} <= shark_rgb
