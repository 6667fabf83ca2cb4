"""Asteroids' indexed reads and writes in two forms (issue 45): the CPU's (jnp indexing, the move
tables looked up, per-pixel sprite reads) and the accelerator's (one-hot masks, the move rule by
compares: no gather or scatter of its own under ``vmap``), chosen by the platform the program is
lowered for (jaxtari/games/asteroids/logic/onehot.py). Both forms compute what jnp indexing and the
ROM's tables do, the CPU's program holds the indexed form and the TPU's none of it, and whole
vmapped games played in both forms on the CPU (the accelerator's forced there) agree on everything
a game reports, frame by frame."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxtari import mods as mods_lib
from jaxtari import render as raster_lib
from jaxtari.env import joystick
from jaxtari.games.asteroids import Asteroids
from jaxtari.games.asteroids import constants as c
from jaxtari.games.asteroids import draw
from jaxtari.games.asteroids import game as g
from jaxtari.games.asteroids import mods as asteroid_mods
from jaxtari.games.asteroids import objects as objects_of
from jaxtari.games.asteroids.logic import onehot, positions, ship
from jaxtari.games.asteroids.logic.onehot import put, put_onehot, take, take_onehot

ENVS = 4
RASTERS = (raster_lib.SMALL_GRAY, raster_lib.FULL)


@contextlib.contextmanager
def onehot_everywhere():
    """The accelerator's form on the CPU too, for what is traced inside (functions jitted before
    keep their programs: trace afresh inside)."""
    onehot.ONEHOT_EVERYWHERE = True
    try:
        yield
    finally:
        onehot.ONEHOT_EVERYWHERE = False


# ---- take and put against a model of jnp indexing ----------------------------------------------

def _read_model(values: np.ndarray, index: tuple) -> np.ndarray:
    """jnp indexing's read of traced indices, in numpy: negative from the end, then clamped."""
    fixed = tuple(np.clip(np.where(i < 0, i + n, i), 0, n - 1) for i, n in zip(index, values.shape))
    return values[fixed]


def _write_model(values: np.ndarray, i: int, value) -> np.ndarray:
    """``.at[i].set``'s write, in numpy: negative from the end, still outside writes nothing."""
    out = values.copy()
    n = len(values)
    if -n <= i < n:
        out[i] = value
    return out


CASES = [((7,), np.int32, 1), ((7, 3), np.int32, 1), ((7, 3), np.int32, 2), ((16,), np.uint8, 1),
         ((10,), np.bool_, 1), ((5, 4, 3), np.int32, 2), ((19, 5, 8), np.bool_, 1)]


@pytest.mark.parametrize("shape, dtype, k", CASES)
def test_take_reads_as_indexing_does_in_both_forms_inside_outside_and_negative(shape, dtype, k):
    rng = np.random.default_rng(sum(shape) * 10 + k)
    values = rng.integers(-100, 100, shape).astype(dtype)
    for index_shape in ((), (6,), (2, 3)):
        index = tuple(rng.integers(-2 * n, 2 * n, index_shape).astype(np.int32)
                      for n in shape[:k])
        expected = _read_model(values, index)
        for form in (take, take_onehot):
            np.testing.assert_array_equal(form(values, *map(jnp.asarray, index)), expected)
    # traced and vmapped, as the game calls it (the platform's choice is made when it is lowered)
    index = tuple(rng.integers(-2 * n, 2 * n, (9, 4)).astype(np.int32) for n in shape[:k])
    expected = _read_model(values, index)
    for form in (take, take_onehot):
        fn = jax.jit(jax.vmap(lambda *i, form=form: form(values, *i)))
        np.testing.assert_array_equal(fn(*index), expected)


@pytest.mark.parametrize("shape, dtype", [((10,), np.int32), ((6, 3), np.int32), ((9,), np.uint8)])
def test_put_writes_as_at_set_does_in_both_forms_and_drops_outside(shape, dtype):
    rng = np.random.default_rng(shape[0])
    values = rng.integers(0, 100, shape).astype(dtype)
    n = shape[0]
    value = rng.integers(100, 200, shape[1:]).astype(dtype)
    for i in range(-2 * n, 2 * n):
        expected = _write_model(values, i, value)
        for form in (put, put_onehot):
            np.testing.assert_array_equal(form(values, jnp.int32(i), value), expected)
    indices = jnp.arange(-2 * n, 2 * n, dtype=jnp.int32)
    expected = np.stack([_write_model(values, int(i), value) for i in indices])
    for form in (put, put_onehot):
        fn = jax.jit(jax.vmap(lambda i, form=form: form(values, i, value)))
        np.testing.assert_array_equal(fn(indices), expected)


def test_take_refuses_what_it_cannot_sum_exactly():
    for form in (take, take_onehot):
        with pytest.raises(TypeError, match="integers and bools only"):
            form(jnp.zeros(4, jnp.float32), jnp.int32(1))
        with pytest.raises(ValueError, match="1 to 1 indices"):
            form(jnp.zeros(4, jnp.int32), jnp.int32(1), jnp.int32(2))


# ---- the move tables and the rule -----------------------------------------------------------------

@pytest.mark.parametrize("moves, tables", [
    (positions.SHIP_MOVES, (positions.EAST, positions.WEST)),
    (positions.ASTEROID_MOVES, (positions.ASTEROID_EAST, positions.ASTEROID_WEST))])
def test_one_pixel_is_the_move_tables_in_both_forms_on_every_code(moves, tables):
    codes = jnp.arange(positions.CODES, dtype=jnp.int32)
    for west, table in zip((False, True), tables):
        for form in (positions.one_pixel, positions.one_pixel_by_table, positions.one_pixel_by_rule):
            np.testing.assert_array_equal(form(codes, west, moves), table)
    # per code a direction, traced
    west = jnp.asarray(np.random.default_rng(0).integers(0, 2, positions.CODES).astype(bool))
    expected = np.where(west, tables[1], tables[0])
    for form in (positions.one_pixel_by_table, positions.one_pixel_by_rule):
        fn = jax.jit(jax.vmap(lambda code, w, form=form: form(code, w, moves)))
        np.testing.assert_array_equal(fn(codes, west), expected)


def test_a_move_of_n_pixels_walks_the_table_n_times_in_both_forms():
    codes = np.arange(positions.CODES)
    for west, table in ((False, positions.EAST), (True, positions.WEST)):
        walked = codes
        for n in range(ship.MAX_PIXELS_PER_MOVE + 1):
            for form in (ship.move_code, ship.move_code_by_table, ship.move_code_by_rule):
                np.testing.assert_array_equal(form(jnp.asarray(codes), n, west), walked)
            walked = table[walked]


def test_a_sprite_reads_the_same_per_pixel_in_both_forms_and_nothing_outside_it():
    rng = np.random.default_rng(3)
    table = rng.integers(0, 2, (19, 5, 8)).astype(bool)
    rows, cols = table.shape[1:]
    for which in (0, 7, 18):
        row = rng.integers(-3, rows + 3, (40, 1))
        col = rng.integers(-3, cols + 3, (1, 30))
        inside = (row >= 0) & (row < rows) & (col >= 0) & (col < cols)
        expected = np.where(inside, table[which, np.clip(row, 0, rows - 1), np.clip(col, 0, cols - 1)],
                            False)
        for form in (draw._sprite_mask, draw._sprite_mask_by_index, draw._sprite_mask_by_onehot):
            np.testing.assert_array_equal(form(table, jnp.int32(which), jnp.asarray(row),
                                               jnp.asarray(col)), expected)


# ---- what each platform's program holds -----------------------------------------------------------

def _count(hlo: str, op: str) -> int:
    return len(re.findall(rf"\s{op}\(", hlo))


def _lowered(fn, *args, platform: str = "cpu") -> str:
    return jax.jit(jax.vmap(fn)).trace(*args).lower(lowering_platforms=(platform,)) \
        .as_text(dialect="hlo")


def _states():
    return jax.vmap(lambda key: g.reset(c.DEFAULTS, key))(jax.random.split(jax.random.key(0), ENVS))


def _programs(platform: str):
    """The vmapped frame's and both pictures' lowered programs, and the joystick's gathers."""
    states, actions = _states(), jnp.arange(ENVS, dtype=jnp.int32)
    frame = _lowered(functools.partial(g.frame, c.DEFAULTS), states, actions, platform=platform)
    pictures = [_lowered(functools.partial(draw.draw, r), states, platform=platform) for r in RASTERS]
    joystick_gathers = _count(_lowered(lambda a: dataclasses.astuple(joystick(a)), actions), "gather")
    return frame, pictures, joystick_gathers


@pytest.mark.parametrize("platform", ["tpu", "forced"])
def test_the_accelerators_program_keeps_no_gather_or_scatter_of_its_own(platform):
    """Lowered for a TPU (or on the CPU with the accelerator's form forced), the vmapped frame and
    both pictures hold no scatter and no gather but the joystick's own reading of the action
    (jaxtari/env.py)."""
    if platform == "forced":
        with onehot_everywhere():
            frame, pictures, joystick_gathers = _programs("cpu")
    else:
        frame, pictures, joystick_gathers = _programs(platform)
    assert _count(frame, "scatter") == 0
    assert _count(frame, "gather") == joystick_gathers
    for picture in pictures:
        assert _count(picture, "gather") == 0 and _count(picture, "scatter") == 0


def test_the_cpus_program_reads_and_writes_by_index():
    """Lowered for the CPU the same frame writes by scatters and reads by gathers (the field's
    slots, the move tables) and the pictures read sprites by gathers: the indexed form, not the
    masks."""
    frame, pictures, joystick_gathers = _programs("cpu")
    assert _count(frame, "scatter") > 0
    assert _count(frame, "gather") > joystick_gathers
    for picture in pictures:
        assert _count(picture, "gather") > 0


# ---- whole games in both forms --------------------------------------------------------------------

MODS = {m.name: m for m in asteroid_mods.MODS}


def _game(mod: str | None) -> Asteroids:
    consts, _ = mods_lib.apply_internal(Asteroids, [MODS[mod]] if mod else [])
    return Asteroids(consts)


def _held_actions(envs: int, frames: int, seed: int) -> np.ndarray:
    """(frames, envs) ALE actions of the minimal set, each held 1 to 40 frames (random play that
    shoots, turns, thrusts and warps, and so hits asteroids and dies)."""
    rng = np.random.default_rng(seed)
    out = np.empty((frames, envs), np.int32)
    for e in range(envs):
        t = 0
        while t < frames:
            hold = int(rng.integers(1, 41))
            out[t:t + hold, e] = rng.choice(Asteroids.minimal_actions)
            t += hold
    return out


def _report(game, before, after):
    """Everything a game reports after a frame: the state's leaves, the reward, the
    object-centric features, the signals and both pictures."""
    return {"state": jax.tree.leaves(after), "reward": g.score(after) - g.score(before),
            "done": g.is_terminal(after), "objects": game.observation(after),
            "signals": objects_of.signals(game, after),
            "pictures": [draw.draw(r, after) for r in RASTERS]}


def _lockstep(game, envs: int, frames: int, seed: int):
    """Both forms stepped on the same actions from the same starts in one program (the
    accelerator's form traced with it forced): per frame and item, whether they agree, and the
    CPU form's rewards and ALE's lives."""
    k = game.consts
    names = list(_report(game, g.reset(k), g.reset(k)))

    def body(carry, actions):
        indexed, masked = carry
        new_indexed = jax.vmap(functools.partial(g.frame, k))(indexed, actions)
        ours = jax.vmap(functools.partial(_report, game))(indexed, new_indexed)
        with onehot_everywhere():
            new_masked = jax.vmap(functools.partial(g.frame, k))(masked, actions)
            theirs = jax.vmap(functools.partial(_report, game))(masked, new_masked)
        same = jnp.stack([jnp.all(jnp.stack([jnp.array_equal(a, b) for a, b in
                                              zip(jax.tree.leaves(ours[n]), jax.tree.leaves(theirs[n]))]))
                          for n in names])
        return (new_indexed, new_masked), (same, ours["reward"], g.lives(new_indexed))

    starts = jax.vmap(lambda key: g.reset(k, key))(jax.random.split(jax.random.key(seed), envs))
    actions = jnp.asarray(_held_actions(envs, frames, seed))
    _, (same, rewards, lives) = jax.jit(lambda s, a: jax.lax.scan(body, (s, s), a))(starts, actions)
    return names, np.asarray(same), np.asarray(rewards), np.asarray(lives)


@pytest.mark.slow
@pytest.mark.parametrize("mod", [None, "slow_asteroids", "endless_lives"])
def test_whole_games_agree_in_both_forms_on_everything_reported(mod):
    """8 envs x 1,536 frames of held random actions from 8 starts: the state's every leaf, the
    reward, the end, the object features, the signals and both pictures equal on every frame in
    the CPU's form and the accelerator's; the games hit asteroids and lose ships (what the
    indexed reads and writes are for). Slow: 2-3 minutes, most of it the compile."""
    names, same, rewards, lives = _lockstep(_game(mod), envs=8, frames=1536, seed=5)
    bad = np.argwhere(~same)
    assert not len(bad), f"the forms differ first on frame {bad[0][0]} in {names[bad[0][1]]}"
    assert (rewards > 0).sum() >= 8 and (rewards > 0).any(0).all()
    # ALE's lives (endless_lives' too: it reads them before the mod's write) drop on a death
    assert (np.diff(lives, axis=0) < 0).any(0).sum() >= 4
