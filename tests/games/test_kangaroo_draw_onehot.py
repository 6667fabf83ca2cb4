"""Kangaroo's picture without gathers or scatters under ``vmap`` on an accelerator (issue 45): its
table reads (jaxtari/games/kangaroo/draw.py ``_lookup``: a one-hot mask there, a read on the CPU)
read what jnp indexing reads in both forms, the drawing tables are the graphics at each address,
both forms draw the same pictures, and the vmapped pictures lowered for a TPU have no gather,
scatter or dynamic slice of their own (the full RGB picture keeps its palette's one). That the
pictures equal ALE's screens is tests/games/test_kangaroo_render.py's."""

from __future__ import annotations

import functools
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxtari.games.kangaroo import art, draw
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.constants import KangarooConstants
from jaxtari.games.kangaroo.game import Kangaroo

ENVS = 4


@pytest.mark.parametrize("shape", [(7,), (7, 3), (36,), (256, 32)])
def test_lookup_reads_as_indexing_does_in_range_negative_and_outside(shape):
    values = (np.arange(np.prod(shape), dtype=np.int32).reshape(shape) * 7 - 40)
    n = shape[0]
    index = jnp.asarray([[0, 3, n - 1], [-1, -n, -n - 2], [n, n + 5, 2]])
    want = jnp.asarray(values)[index]
    np.testing.assert_array_equal(draw._lookup(values, index), want)
    inside = jnp.clip(jnp.where(index < 0, index + n, index), 0, n - 1)
    for form in (draw._read, draw._masked):
        np.testing.assert_array_equal(form(values, inside), want)


def test_the_drawing_tables_are_the_graphics_up_to_the_drawings_end():
    """Each row of a drawing's table is the graphics from its address for as many lines as the
    kernel draws it (its rows up to the first whose first byte is zero), zero after."""
    graphics = np.frombuffer(art.GRAPHICS, np.uint8).astype(np.int32)
    for page_low, table, first_row_drawn in [
            ([(art.ITEM_PAGE, low) for low in art.BELL_LOW], draw._BELL_BYTES, False),
            ([(art.BABY_PAGE, low) for low in art.BABY_LOW], draw._BABY_BYTES, False),
            (list(zip(art.MOTHER_HIGH, art.MOTHER_LOW)), draw._MOTHER_BYTES, False),
            ([(art.MONKEY_PAGE, s) for s in range(256)], draw._MONKEY_BYTES, True)]:
        for (page, low), drawn in zip(page_low, table):
            start = page * 256 + low - art.GRAPHICS_BASE
            raw = [int(graphics[start + i]) if 0 <= start + i < len(graphics) else 0
                   for i in range(draw.SPRITE_LINES)]
            rows = 0
            while rows < 4 and (raw[8 * rows] != 0 or (first_row_drawn and rows == 0)):
                rows += 1
            assert drawn.tolist() == raw[:8 * rows] + [0] * (draw.SPRITE_LINES - 8 * rows), (page, low)
    assert draw._MONKEY_ROWS[0xFF] >= 1  # the kernel draws a monkey's first row whatever it holds


def _count(hlo, op) -> int:
    return len(re.findall(rf"\s{op}\(", hlo))


def _states(frames):
    """A random game's states on ``frames`` frames of ENVS envs, and one game-over state each."""
    game = Kangaroo()

    def play(key):
        def frame(s, key):
            s = game.step(s, jax.random.randint(key, (), 0, game.num_actions))[1]
            return s, s
        start = game._reset(key)
        return jax.lax.scan(frame, start, jax.random.split(key, frames))[1]

    states = jax.jit(jax.vmap(play))(jax.random.split(jax.random.key(3), ENVS))
    states = jax.tree_util.tree_map(lambda x: x.reshape((-1,) + x.shape[2:]), states)
    over = states.replace(attract=states.attract | k.SIGN)
    return jax.tree_util.tree_map(lambda a, b: jnp.concatenate([a, b]), states, over)


def test_the_vmapped_pictures_lowered_for_a_tpu_keep_no_gather_or_scatter_of_their_own():
    states = _states(1)
    c = KangarooConstants()
    for fn, gathers in [(functools.partial(draw.render_gray84, c), 0),
                        (functools.partial(draw.colour_indices, c), 0),
                        (functools.partial(draw.render, c), 1)]:  # ALE's palette, per pixel
        hlo = jax.jit(jax.vmap(fn)).trace(states).lower(lowering_platforms=("tpu",)).as_text(dialect="hlo")
        assert _count(hlo, "gather") == gathers
        for op in ("scatter", "dynamic-slice", "dynamic-update-slice"):
            assert _count(hlo, op) == 0, op


def test_the_accelerators_form_draws_the_cpus_pictures(monkeypatch):
    """Both forms of the table reads on the CPU: a random game's first 400 frames (4 envs) and
    their game-over frames, the 84x84 grey and the full picture's colour bytes."""
    states = _states(400)
    c = KangarooConstants()
    fns = [functools.partial(draw.render_gray84, c), functools.partial(draw.colour_indices, c)]
    cpu = [np.asarray(jax.jit(jax.vmap(fn))(states)) for fn in fns]
    gathers = _count(jax.jit(jax.vmap(fns[0])).lower(states).as_text(dialect="hlo"), "gather")
    monkeypatch.setattr(draw, "_read", draw._masked)
    masked = [np.asarray(jax.jit(jax.vmap(fn))(states)) for fn in fns]
    # the forms are two programs: the CPU's reads its tables, the other masks them
    assert gathers > 0 == _count(jax.jit(jax.vmap(fns[0])).lower(states).as_text(dialect="hlo"), "gather")
    for a, b in zip(cpu, masked):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert (a == b).all(), np.argwhere((a != b).reshape(len(a), -1).any(1))[:10].ravel().tolist()
