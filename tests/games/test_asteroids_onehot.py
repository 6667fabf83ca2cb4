"""Asteroids' indexed reads and writes without gathers or scatters (issue 45): the one-hot helpers
(jaxtari/games/asteroids/logic/onehot.py) and the move tables read as their rule and exceptions
(logic/positions.py) compute exactly what the plain indexing does, and the vmapped frame keeps no
scatter and no gather of its own."""

from __future__ import annotations

import dataclasses
import functools
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxtari.env import joystick
from jaxtari.games.asteroids import constants as c
from jaxtari.games.asteroids import draw
from jaxtari.games.asteroids import game as g
from jaxtari.games.asteroids.logic import positions, ship
from jaxtari.games.asteroids.logic.onehot import put, take
from jaxtari import render as raster_lib

ENVS = 4


def test_take_reads_as_indexing_does_in_range_negative_and_outside():
    table = jnp.asarray(np.arange(7 * 3, dtype=np.int32).reshape(7, 3) * 5 - 40)
    index = jnp.asarray([[0, 3, 6], [-1, -7, -9], [7, 12, 2]])
    np.testing.assert_array_equal(take(table, index), table[index])
    rows = jnp.asarray([1, -2, 9, 0])
    cols = jnp.asarray([2, 0, -1, 5])
    np.testing.assert_array_equal(take(table, rows, cols), table[rows, cols])
    flags = jnp.asarray(np.arange(10) % 3 == 0)
    np.testing.assert_array_equal(take(flags, index), flags[index])
    small = jnp.asarray(np.arange(16, dtype=np.uint8) * 13)
    np.testing.assert_array_equal(take(small, jnp.int32(11)), small[11])


def test_put_writes_as_at_set_does_and_drops_outside():
    values = jnp.asarray(np.arange(10, dtype=np.int32))
    for i in (0, 4, 9, -1, -10, 10, 15, -11):
        np.testing.assert_array_equal(put(values, jnp.int32(i), 99), values.at[i].set(99))
    rows = jnp.zeros((5, 3), jnp.int32)
    np.testing.assert_array_equal(put(rows, jnp.int32(2), jnp.asarray([1, 2, 3])),
                                  rows.at[2].set(jnp.asarray([1, 2, 3])))


def test_take_refuses_what_it_cannot_sum_exactly():
    with pytest.raises(TypeError, match="integers and bools only"):
        take(jnp.zeros(4, jnp.float32), jnp.int32(1))
    with pytest.raises(ValueError, match="1 to 1 indices"):
        take(jnp.zeros(4, jnp.int32), jnp.int32(1), jnp.int32(2))


@pytest.mark.parametrize("tables, exceptions", [
    ((positions.EAST, positions.WEST), positions.SHIP_EXCEPTIONS),
    ((positions.ASTEROID_EAST, positions.ASTEROID_WEST), positions.ASTEROID_EXCEPTIONS)])
def test_one_pixel_is_the_roms_move_tables(tables, exceptions):
    codes = jnp.arange(positions.CODES, dtype=jnp.int32)
    for west, table in zip((False, True), tables):
        np.testing.assert_array_equal(positions.one_pixel(codes, west, exceptions), table)


def test_a_move_of_n_pixels_walks_the_table_n_times():
    codes = np.arange(positions.CODES)
    for west, table in ((False, positions.EAST), (True, positions.WEST)):
        walked = codes
        for n in range(ship.MAX_PIXELS_PER_MOVE + 1):
            np.testing.assert_array_equal(ship.move_code(jnp.asarray(codes), n, west), walked)
            walked = table[walked]


def _count(hlo: str, op: str) -> int:
    return len(re.findall(rf"\s{op}\(", hlo))


def _lowered(fn, *args) -> str:
    return jax.jit(jax.vmap(fn)).lower(*args).as_text(dialect="hlo")


def test_the_vmapped_frame_and_picture_keep_no_gather_or_scatter_of_their_own():
    """Under vmap (an index per env) the frame and both pictures lower without a scatter, and
    with no gather but the joystick's own reading of the action (jaxtari/env.py)."""
    states = jax.vmap(lambda key: g.reset(c.DEFAULTS, key))(jax.random.split(jax.random.key(0), ENVS))
    actions = jnp.arange(ENVS, dtype=jnp.int32)
    frame = _lowered(functools.partial(g.frame, c.DEFAULTS), states, actions)
    joystick_gathers = _count(_lowered(lambda a: dataclasses.astuple(joystick(a)), actions), "gather")
    assert _count(frame, "scatter") == 0
    assert _count(frame, "gather") == joystick_gathers
    for raster in (raster_lib.SMALL_GRAY, raster_lib.FULL):
        picture = _lowered(functools.partial(draw.draw, raster), states)
        assert _count(picture, "gather") == 0 and _count(picture, "scatter") == 0
