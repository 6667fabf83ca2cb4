"""Seaquest's 84x84 picture in its two forms (draw.render_gray84: indexed table reads on the CPU,
masked ones on an accelerator; jaxtari/games/seaquest/logic/reads.py): the masked reads read what
jnp indexing reads, the two forms draw the same pixels on every frame of random vmapped games of
the plain game and of the mods that change the picture (a variant's switch as data too), and the
accelerator's form lowers for a TPU with no gather or scatter. Both forms against ALE's screen:
tests/games/test_seaquest_render.py."""

from __future__ import annotations

import collections
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
from jaxtari.games.seaquest import art, draw
from jaxtari.games.seaquest.logic import latches
from jaxtari.games.seaquest.logic.common import pick
from jaxtari.games.seaquest.logic.reads import pick_masked, spread_indexed, spread_masked
from jaxtari.variants import Variants

ENVS, FRAMES, CHUNK = 8, 768, 256
PICTURE_MODS = [None, "rectangles", "grey_enemies", "swapped_enemies"]


@pytest.mark.parametrize("table", [art.OBSTACLE_ROWS, draw.COPYRIGHT.T, latches._PAGE],
                         ids=["short", "rows", "page"])
def test_masked_pick_reads_what_indexed_pick_reads_inside_and_outside_the_table(table):
    index = jnp.arange(-3, len(table) + 4).reshape(-1, 1) * jnp.ones((1, 2), jnp.int32)
    want = np.asarray(pick(table, index))
    np.testing.assert_array_equal(np.asarray(pick_masked(table, index)), want)
    # a traced table (a Constants field passed as data) and a vmapped index
    traced = jax.jit(jax.vmap(pick_masked, in_axes=(None, 0)))(jnp.asarray(table), index)
    np.testing.assert_array_equal(np.asarray(traced), want)


@pytest.mark.parametrize("dtype", [jnp.int32, jnp.bool_])
def test_masked_spread_reads_what_indexing_reads(dtype):
    values = (jnp.arange(3 * 7).reshape(3, 7) * 37 % 11).astype(dtype)
    index = np.asarray([6, 0, 0, 3, 5, 6, 1])
    want = np.asarray(values)[..., index]
    np.testing.assert_array_equal(np.asarray(spread_indexed(values, index)), want)
    got = spread_masked(values, index)
    assert got.dtype == values.dtype
    np.testing.assert_array_equal(np.asarray(got), want)


def _states(game, seed):
    """ENVS random games (actions held 1 to ~30 frames), every frame's state, in CHUNKs."""
    pick_key, hold_key, reset_key = jax.random.split(jax.random.key(seed), 3)
    drawn = jax.random.randint(pick_key, (FRAMES, ENVS), 0, game.num_actions)
    change = jax.random.uniform(hold_key, (FRAMES, ENVS)) < 1 / 12
    actions = jax.lax.scan(lambda held, x: (jnp.where(x[1], x[0], held),) * 2, drawn[0],
                           (drawn, change))[1]
    step = jax.jit(lambda s, a: jax.lax.scan(
        lambda s, a: (jax.vmap(game._step)(s, a)[0],) * 2, s, a))
    state = jax.vmap(game._reset)(jax.random.split(reset_key, ENVS))
    for start in range(0, FRAMES, CHUNK):
        state, states = step(state, actions[start:start + CHUNK])
        yield states


# the colour mods' pixels in CI through the plain game and rectangles; every mod with -m slow
@pytest.mark.parametrize("mod", [m if m in (None, "rectangles") else
                                 pytest.param(m, marks=pytest.mark.slow) for m in PICTURE_MODS],
                         ids=lambda m: m or "plain")
def test_both_forms_draw_the_same_pixels_on_every_frame_of_random_games(mod):
    game = jaxtari.make("seaquest", mods=[mod] if mod else ())
    swap, c = game._swap(), game.consts
    every = lambda f: jax.jit(jax.vmap(jax.vmap(f)))  # noqa: E731  (frames, envs)
    forms = {"render_gray84": every(game.render_gray84),
             "indexed": every(lambda s: draw.gray84_indexed(s, swap, c)),
             "masked": every(lambda s: draw.gray84_masked(s, swap, c))}
    pixels = set()
    for states in _states(game, seed=len(mod or "")):
        pictures = {name: np.asarray(f(states)) for name, f in forms.items()}
        for name in ("render_gray84", "masked"):
            differs = np.argwhere(np.any(pictures[name] != pictures["indexed"], axis=(2, 3)))
            assert differs.size == 0, (name, differs[:5].tolist())
        pixels |= set(np.unique(pictures["indexed"]).tolist())
    assert len(pixels) > 8  # what the test covers: the pictures are not blank


def test_the_rectangles_switch_as_data_draws_the_same_pixels_in_both_forms():
    v = Variants("seaquest", ("sprites_as_boxes",))
    values = v.stack([{}, v.mod_values(["rectangles"])])
    states = jax.tree_util.tree_map(lambda x: x[-1], next(_states(v.game(v.values()), seed=5)))

    def both(values, s):
        c = v.game(values).consts
        return draw.gray84_indexed(s, None, c), draw.gray84_masked(s, None, c)

    indexed, masked = jax.jit(jax.vmap(jax.vmap(both, in_axes=(None, 0)), in_axes=(0, None)))(
        values, states)
    assert not np.array_equal(indexed[0], indexed[1])
    np.testing.assert_array_equal(np.asarray(masked), np.asarray(indexed))


def _ops(hlo: str) -> collections.Counter:
    return collections.Counter(re.findall(r"\s(gather|scatter)\(", hlo))


@pytest.mark.parametrize("mod", PICTURE_MODS, ids=lambda m: m or "plain")
def test_the_accelerators_form_lowers_for_a_tpu_with_no_gather_or_scatter(mod):
    """Under vmap (an index per env) the 84x84 picture lowered for a TPU reads its tables by
    masks; lowered for the CPU it is the indexed form (gathers)."""
    game = jaxtari.make("seaquest", mods=[mod] if mod else ())
    states = jax.vmap(game._reset)(jax.random.split(jax.random.key(0), 24))
    traced = jax.jit(jax.vmap(game.render_gray84)).trace(states)
    on = {p: _ops(traced.lower(lowering_platforms=(p,)).as_text(dialect="hlo"))
          for p in ("tpu", "cpu")}
    assert on["tpu"] == collections.Counter()
    assert on["cpu"]["gather"] > 0
