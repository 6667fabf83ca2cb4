"""The collision latches by bit masks (kernel.latch) against the picture's column-by-column model
of the same objects (kernel._lane_geometry, _group_lit, _bits: what draw.py draws), on random
states: every latch equal. The ALE comparisons (lockstep, whole games) check both against the
emulator; this one reaches positions and overlaps that play rarely shows."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import jaxtari
from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest.logic import latches as kernel
from jaxtari.games.seaquest.logic import BYTE, NONE

WIDTH = kernel.WIDTH
COLUMNS = jnp.arange(WIDTH)


def _first_lane(hits):
    out = jnp.int32(NONE)
    for lane in range(k.NUM_LANES - 1, -1, -1):
        out = jnp.where(hits[lane], lane, out)
    return out


def reference(s):
    """Every latch from whole 160-column lines of each object, per loop line of each lane."""
    graphic, pos, n, reflect, ball_x, size = kernel._lane_geometry(s)
    cols = COLUMNS[None, None, :]
    group = kernel._group_lit(graphic[:, :, None], pos[:, None, None], n[:, None, None],
                              reflect[:, None, None], cols)
    ball = ((cols - ball_x[:, :, None]) % WIDTH) < size[:, :, None]
    lines = (kernel.TOP_SECTION_LOOP_END - (kernel.LOOP_LINES - 1)
             + kernel.SECTION_LINES * (k.NUM_LANES - 1 - jnp.arange(k.NUM_LANES))[:, None]
             + jnp.arange(kernel.LOOP_LINES)[None, :])
    row = (s.sub_y + kernel.SUB_ROW_LINE - lines) & BYTE
    sub_graphic = jnp.where(row < kernel.SUB_ROWS_DRAWN,
                            kernel._page(kernel._sub_rows(s) + row), 0)
    sub = kernel._bits(sub_graphic[:, :, None], (cols - s.sub_x) % WIDTH, s.sub_direction != 0,
                       scale=2)
    torpedo = (row == kernel.TORPEDO_ROW)[:, :, None] & (
        ((cols - s.torpedo_x) % WIDTH) < k.TORPEDO_WIDTH)
    per_lane = lambda a: jnp.any(a, axis=(1, 2))  # noqa: E731
    xs = jnp.asarray(np.asarray(kernel.PATROL_LINES))
    sub_row = (s.sub_y - (kernel.SURFACE_LINES - xs)) & BYTE
    surface_sub = jnp.where(sub_row < kernel.SUB_ROWS_DRAWN,
                            kernel._page(kernel._sub_rows(s) + sub_row), 0)
    patrol_graphic = kernel._page(kernel.patrol_rows(s, s.sub_animation) + xs)
    px = jnp.where(s.patrol_x < WIDTH, s.patrol_x, 0)
    line_cols = COLUMNS[None, :]
    patrol = jnp.any(kernel._bits(surface_sub[:, None], (line_cols - s.sub_x) % WIDTH,
                                  s.sub_direction != 0, scale=2)
                     & kernel._bits(patrol_graphic[:, None], (line_cols - px) % WIDTH, True))
    return {
        "hit_lanes": jnp.where(per_lane(group & ball), jnp.arange(k.NUM_LANES), NONE),
        "torpedo_lane": _first_lane(per_lane(torpedo & group)),
        "sub_lane": _first_lane(per_lane(sub & group)),
        "ball_lane": _first_lane(per_lane(sub & ball)),
        "patrol_hit": patrol,
    }


def _random_states(n, seed):
    rng = np.random.default_rng(seed)
    _, s0 = jaxtari.make("seaquest").reset(jax.random.key(0))
    s = jax.tree_util.tree_map(lambda x: jnp.broadcast_to(x, (n,) + jnp.shape(x)), s0)

    def r(lo, hi, shape=()):
        return jnp.asarray(rng.integers(lo, hi, size=(n,) + shape), jnp.int32)

    sub_x = r(0, 256)
    near = r(0, 2) == 1  # half the states: everything within reach of the sub
    sub_x = jnp.where(near, sub_x % WIDTH, sub_x)
    around = lambda lo, hi, shape=(): (  # noqa: E731
        jnp.reshape(sub_x, (n,) + (1,) * len(shape)) + r(lo, hi, shape)) & BYTE
    pick = lambda a, b: jnp.where(jnp.reshape(near, near.shape + (1,) * (a.ndim - 1)), a, b)  # noqa: E731
    return s.replace(
        sub_x=sub_x, sub_y=pick(r(0, 130), r(0, 256)),
        obstacle_x=pick(around(-40, 20, (4,)), r(0, 256, (4,))),
        missile_x=pick(around(-20, 20, (4,)), r(0, 256, (4,))),
        torpedo_x=pick(around(-30, 30), r(0, 256)), patrol_x=pick(around(-12, 20), r(0, 256)),
        attributes=r(0, 32, (4,)), nusiz_index=r(0, 9, (4,)), shark_float=r(0, 20),
        death=r(0, 25), sub_animation=r(0, 3), sub_direction=r(0, 2) * k.REFLECT,
        reserve_subs=r(0, 7))


def test_latches_by_masks_equal_the_column_model():
    s = _random_states(40_000, 0)
    got = jax.jit(jax.vmap(kernel.latch))(s)
    want = jax.jit(jax.vmap(reference))(s)
    for name, value in want.items():
        assert np.array_equal(np.asarray(getattr(got, name)), np.asarray(value)), name
    # the states do reach every latch
    assert np.any(np.asarray(got.sub_lane) != NONE) and np.any(np.asarray(got.ball_lane) != NONE)
    assert np.any(np.asarray(got.torpedo_lane) != NONE) and np.any(np.asarray(got.patrol_hit))
