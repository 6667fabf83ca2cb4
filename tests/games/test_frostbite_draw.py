"""Frostbite's picture inside a compiled loop (issue 32): what the draw's loop reads."""

from __future__ import annotations

import jax

import jaxtari
from tests.games.hlo_helpers import carried_tables


def test_the_draw_inside_a_compiled_loop_reads_no_hoisted_table_of_columns_or_pixels():
    """Inside a ``lax.scan`` (how an agent runs the env) no table computed from the raster's columns
    or pixels alone is moved out of the loop and loaded per pixel by the picture's loop (XLA did that
    to Breakout's and Freeway's column values): the picture's operands of shape (84,), (1, 84) or
    (84, 84) are constants of the program (the columns' words and bits, the door, the mid-line
    register-write masks), none a value carried through the loop. Read off the compiled HLO."""
    game, n = jaxtari.make("frostbite"), 64
    states = jax.vmap(game.reset)(jax.random.split(jax.random.key(0), n))[1]
    tables = carried_tables(game.render_gray84, states, lambda s: s.replace(
        frame=s.frame + 1, fc=(s.fc + 1) & 0xFF, x=(s.x + 1) & 0xFF))
    assert not tables, f"the picture reads tables carried through the loop: {tables}"
