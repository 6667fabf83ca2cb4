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


def _whole_game(game, actions):
    """States, rewards and signals of every frame, and the pictures of every 5th."""
    def body(s, a):
        s, r = game._step(s, a)
        return s, (s, r, game.signals(s))

    @jax.jit
    def play(actions):
        _, (states, rewards, signals) = jax.lax.scan(body, game._reset(jax.random.key(0)), actions)
        shown = jax.tree_util.tree_map(lambda x: x[::5], states)
        return states, rewards, signals, jax.vmap(game.render)(shown)

    return jax.device_get(play(jnp.asarray(actions, jnp.int32)))


def _visual_mod_games(mod_name, seed, frames):
    """A random game (ALE's actions until its game over, or its first ``frames`` frames) played by
    the original and by a visual mod: checks that no state byte, signal or reward differs on any
    frame, and returns both games (:func:`_whole_game`)."""
    from alignment.porting import ramtrace as rt

    actions = rt.record("seaquest", frames=frames or 8000, seed=seed, hold=(1, 8)).actions
    base = _whole_game(_game(), actions)
    modded = _whole_game(_game(_mod(mod_name)), actions)
    if frames is None:
        assert bool(base[0].game_over[-1]) and len(actions) > 1000  # a whole game
    for a, b in zip(jax.tree_util.tree_leaves(base[:3]), jax.tree_util.tree_leaves(modded[:3])):
        if jnp.issubdtype(a.dtype, jax.dtypes.prng_key):
            a, b = jax.random.key_data(a), jax.random.key_data(b)
        np.testing.assert_array_equal(a, b)
    return base, modded


@pytest.mark.parametrize("seed, frames", [(1, 1100), pytest.param(0, None, marks=pytest.mark.slow),
                                          pytest.param(1, None, marks=pytest.mark.slow)])
def test_swapped_enemies_changes_the_enemies_pictures_and_nothing_else(seed, frames):
    """Whole random games (ALE's actions until its game over; the default run plays the first
    1,100 frames of one, enemy subs from frame 938): the swap changes no state byte,
    signal or reward on any frame; in the pictures only lane pixels change, each from what lies
    behind the group (the sea, a diver or missile) or the lane's own kind's colour to what lies
    behind or the other kind's colour (sharks in the subs' grey, subs in the wave's shark
    colour)."""
    from jaxtari.atari.palette import PALETTE
    from jaxtari.games.seaquest.draw import BALL_COLOUR, LANES_END, LANES_TOP, SEA

    base, modded = _visual_mod_games("swapped_enemies", seed, frames)
    plain, swapped = base[3], modded[3]
    changed = np.any(plain != swapped, axis=-1)  # (frame, line, column)
    assert changed.any()
    lines = np.nonzero(changed.any(axis=(0, 2)))[0]
    assert lines.min() >= LANES_TOP and lines.max() < LANES_END
    rgb = lambda c: tuple(int(v) for v in PALETTE[c >> 1])  # noqa: E731
    behind, grey = {rgb(SEA), rgb(BALL_COLOUR)}, rgb(k.ENEMY_SUB_COLOUR)
    sharks = {rgb(c) for c in k.SHARK_COLOURS}
    frames, ys, xs = np.nonzero(changed)
    lane = (k.NUM_LANES - 1) - (ys - LANES_TOP) // 24
    states = base[0]
    sub = (states.attributes[::5][frames, lane] & k.ATTR_SUB) != 0
    was = [tuple(p) for p in plain[frames, ys, xs]]
    now = [tuple(p) for p in swapped[frames, ys, xs]]
    for is_sub, p, q in zip(sub, was, now):
        own, other = ({grey}, sharks) if is_sub else (sharks, {grey})
        assert p in own | behind and q in other | behind, (is_sub, p, q)
    assert sub.any() and (~sub).any()  # both kinds were swapped
    assert {q for is_sub, q in zip(sub, now) if is_sub} & sharks  # subs drawn in shark colours
    assert grey in {q for is_sub, q in zip(sub, now) if not is_sub}  # sharks in the subs' grey


def _boxes_by_hand(groups, t):
    """(210, 160) bool: the pixels inside the active boxes of every object group at picture t."""
    inside = np.zeros((210, 160), bool)
    for g in groups.values():
        for x, y, w, h, on in zip(*(np.asarray(v)[t] for v in (g.x, g.y, g.w, g.h, g.active))):
            if on:
                inside[y:y + h, x:x + w] = True
    return inside


@pytest.mark.parametrize("seed, frames", [(1, 1100), pytest.param(0, None, marks=pytest.mark.slow),
                                          pytest.param(1, None, marks=pytest.mark.slow)])
def test_rectangles_draws_the_objects_boxes_and_changes_nothing_else(seed, frames):
    """The paper's sprite-to-rectangle mod over whole random games (ALE's actions until its game
    over; the default run the first 1,100 frames of one): no state byte, signal or reward differs
    on any frame; in the pictures (every 5th frame) every pixel inside an object's box (from
    ``Seaquest.objects``; the HMOVE bar aside) is the mod's white, and every other pixel is the
    original's, or, where the original showed a moving object's sprite outside its box, the sea
    behind it; the 84x84 picture is the full one sampled."""
    from jaxtari import render as r
    from jaxtari.atari.palette import PALETTE
    from jaxtari.games.seaquest import draw as d

    base, modded = _visual_mod_games("rectangles", seed, frames)
    rect_game = _game(_mod("rectangles"))
    shown = jax.tree_util.tree_map(lambda x: x[::5], base[0])
    groups = jax.device_get(jax.jit(jax.vmap(rect_game.objects))(shown))
    small = np.asarray(jax.jit(jax.vmap(rect_game.render_gray84))(shown))
    plain, rect = base[3], modded[3]
    rgb = lambda c: tuple(int(v) for v in PALETTE[c >> 1])  # noqa: E731
    white = np.array(rgb(d.BOX_COLOUR), np.uint8)
    # what a sprite leaves behind it, and the colours a moving object's sprite is drawn in
    behind = {rgb(d.SEA), rgb(d.SEA ^ d.SURFACE_FLICKER)}
    sprites = {rgb(c) for c in (d.SUB_COLOUR, d.BALL_COLOUR, d.PATROL_COLOUR, k.ENEMY_SUB_COLOUR,
                                *k.SHARK_COLOURS, *k.DEATH_COLOURS)}
    boxed = 0
    for t in range(len(plain)):
        inside = _boxes_by_hand(groups, t)
        inside[:, :d.HMOVE_BAR] = False
        assert (rect[t][inside] == white).all(), t
        boxed += inside.sum()
        changed = ~inside & (plain[t] != rect[t]).any(-1)
        ys = np.nonzero(changed)[0]
        assert not ys.size or (ys.min() >= d.SURFACE_TOP and ys.max() < d.LANES_END), t
        for was, now in zip(plain[t][changed], rect[t][changed]):
            assert tuple(was) in sprites and tuple(now) in behind, (t, was, now)
        np.testing.assert_array_equal(small[t], r.gray(rect[t][r.SMALL_GRAY.ys, r.SMALL_GRAY.xs]))
    assert boxed > 0
