"""Freeway's picture inside a compiled loop (issue 32): what the draw's loop reads."""

from __future__ import annotations

import jax
import numpy as np

import jaxtari
from jaxtari import render
from jaxtari.games.freeway import draw
from tests.games.hlo_helpers import carried_tables


def test_the_draw_inside_a_compiled_loop_reads_no_hoisted_table_of_columns_or_pixels():
    """Inside a ``lax.scan`` (how an agent runs the env) no table computed from the raster's columns
    or pixels alone (the HMOVE bar's mask was one) is moved out of the loop and loaded per pixel by
    the picture's loop: the picture's operands of shape (1, 84) or (84, 84) are constants of the
    program (the static road, the standing chicken), none a value carried through the loop. Read off
    the compiled HLO (jax.jit(...).lower(...).compile().as_text())."""
    game, n = jaxtari.make("freeway"), 64
    states = jax.vmap(game.reset)(jax.random.split(jax.random.PRNGKey(0), n))[1]

    tables = carried_tables(game.render_gray84, states, lambda s: s.replace(
        frame=s.frame + 1, car_x=(s.car_x + 1) % render.SCREEN_W))
    assert not tables, f"the picture reads tables carried through the loop: {tables}"


def test_the_hmove_bar_covers_the_columns_of_x_0_to_7_black():
    game = jaxtari.make("freeway")
    state = game.reset(jax.random.PRNGKey(0))[1]
    for raster in (render.FULL, render.SMALL_GRAY):
        canvas = np.full((raster.height, raster.width, raster.channels), 77, np.uint8)
        canvas = canvas if raster.channels == 3 else canvas[..., 0]
        out = np.asarray(draw.hmove_bar(raster, jax.numpy.asarray(canvas), state))
        under = raster.xs[0] < 8
        assert (out[:, under] == 0).all() and (out[:, ~under] == 77).all()
