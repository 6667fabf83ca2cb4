"""Each workaround in jaxtari.xla checked against the program XLA actually compiles (its HLO text)."""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxtari import render, xla
from tests.games.hlo_helpers import carried_tables

H, W, SLOTS, ROUNDS = 64, 96, 4, 6


def hlo(fn, *args) -> str:
    return jax.jit(fn).lower(*args).compile().as_text()


def count(text: str, op: str) -> int:
    """Instructions of one HLO opcode, inside fusions or not."""
    return len(re.findall(rf"= \S+ {re.escape(op)}\(", text))


def frame(x):
    """A cheap elementwise picture: ROUNDS xor-shift-adds per pixel, the kind XLA likes to fuse."""
    t = jnp.arange(H, dtype=jnp.int32)[:, None] * x + jnp.arange(W, dtype=jnp.int32)[None, :]
    for i in range(ROUNDS):
        t = (t ^ (t >> 3)) + 7 * i
    return t


def stack_slots(x, olds, restart, keep):
    """A frame written into SLOTS older slots by selects, as a frame stack's restart did."""
    fr = xla.materialize(frame(x)) if keep else frame(x)
    return [jnp.where(restart == i, fr, old) for i, old in enumerate(olds)]


def test_materialize_keeps_a_frame_out_of_its_readers():
    args = (jnp.int32(3), [jnp.zeros((H, W), jnp.int32)] * SLOTS, jnp.int32(1))
    fused = hlo(lambda x, o, r: stack_slots(x, o, r, False), *args)
    kept = hlo(lambda x, o, r: stack_slots(x, o, r, True), *args)
    # the reason: left alone, XLA recomputes the picture inside every reader
    assert count(fused, "xor") == SLOTS * ROUNDS
    # materialised, it is computed into one buffer the readers load (one reader may still fuse
    # the one-element update and recompute it, as the docstring warns: at most twice, never SLOTS)
    assert count(kept, "xor") <= 2 * ROUNDS
    assert count(kept, "dynamic-update-slice") >= 1
    # and the value is unchanged
    a = jax.jit(lambda x, o, r: stack_slots(x, o, r, True))(*args)
    b = jax.jit(lambda x, o, r: stack_slots(x, o, r, False))(*args)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(np.asarray(u), np.asarray(v))


def test_render_still_exports_materialize():
    assert render.materialize is xla.materialize


def _state(leaves=10):
    s = {f"f{i}": jnp.full((i % 3 + 1,), i, jnp.int32) for i in range(leaves)}
    s.update(flag=jnp.bool_(True), byte=jnp.uint8(200), key=jax.random.key(0))
    return s


def test_state_packer_picks_a_start_with_one_gather():
    state = _state()
    packer = xla.StatePacker(state)
    starts = jnp.stack([packer.pack(state)] * 5)
    pick = jax.vmap(lambda i: packer.unpack(starts[i]))
    assert count(hlo(pick, jnp.zeros(16, jnp.int32)), "gather") == 1
    # the reason: the same pick from stacked leaves gathers once per leaf
    stacked = jax.tree_util.tree_map(lambda x: jnp.stack([x] * 5), state)
    per_leaf = jax.vmap(lambda i: jax.tree_util.tree_map(lambda x: x[i], stacked))
    assert count(hlo(per_leaf, jnp.zeros(16, jnp.int32)), "gather") > 1


def test_select_tree_is_selects_without_a_branch():
    a, b = _state(), jax.tree_util.tree_map(lambda x: x, _state())
    text = hlo(xla.select_tree, jnp.bool_(True), a, b)
    assert count(text, "conditional") == 0
    assert count(text, "select") >= 1
    out = jax.jit(xla.select_tree)(jnp.bool_(False), {"v": jnp.int32(1)}, {"v": jnp.int32(2)})
    assert int(out["v"]) == 2


def test_packing_refuses_an_unpackable_leaf_with_the_fix():
    with pytest.raises(TypeError, match="float16.*4-byte"):
        xla.StatePacker({"x": jnp.zeros(2, jnp.float16)}).pack({"x": jnp.zeros(2, jnp.float16)})


def _kept_by_reduces(text: str) -> list[int]:
    """How many elements each float32 reduce in the HLO keeps (its output's size)."""
    sizes = []
    for dims in re.findall(r"= f32\[([\d,]*)\]\{[^}]*\} reduce\(", text):
        sizes.append(int(np.prod([int(d) for d in dims.split(",") if d] or [1])))
    return sizes


@pytest.mark.parametrize("shape", [(16, 4, 84, 84), (8, 3, 84, 84), (5, 4, 84, 84), (4, 84, 84),
                                   (5, 7)])
def test_batch_mean_stays_off_the_ynnpack_reduction_edge(shape):
    x = jnp.asarray(np.random.default_rng(0).integers(0, 256, shape, dtype=np.uint8))
    plain = lambda v: v.astype(jnp.float32).mean(axis=0)  # noqa: E731
    text = hlo(xla.batch_mean, x)
    # no reduction keeps more elements than YNNPACK's fast path takes (it adds rows in a loop)
    assert max(_kept_by_reduces(text), default=0) <= xla.YNN_REDUCE_KEPT_LIMIT
    assert count(text, "add") >= 1
    if np.prod(shape[1:]) > xla.YNN_REDUCE_KEPT_LIMIT:
        # the reason: the plain mean of a stack of frames is one reduction past the edge
        assert max(_kept_by_reduces(hlo(plain, x))) > xla.YNN_REDUCE_KEPT_LIMIT
    got = np.asarray(jax.jit(xla.batch_mean)(x))
    assert got.shape == shape[1:] and got.dtype == np.float32
    np.testing.assert_allclose(got, np.asarray(x, np.float64).mean(axis=0), rtol=1e-6)
    np.testing.assert_allclose(got, np.asarray(jax.jit(plain)(x)), rtol=1e-7, atol=0)


RANDOM_COUNTS = (1, 2, 9, 33)


@pytest.mark.parametrize("count_", RANDOM_COUNTS)
def test_random_bits_equals_jax_random_bits(count_):
    keys = jax.random.split(jax.random.key(7), 64)
    mine = jax.jit(jax.vmap(lambda k: xla.random_bits(k, count_)))(keys)
    theirs = jax.jit(jax.vmap(lambda k: jax.random.bits(k, (count_,), jnp.uint32)))(keys)
    np.testing.assert_array_equal(np.asarray(mine), np.asarray(theirs))
    # unbatched, eagerly, too
    np.testing.assert_array_equal(np.asarray(xla.random_bits(keys[3], count_)),
                                  np.asarray(jax.random.bits(keys[3], (count_,), jnp.uint32)))


def test_random_bits_hands_other_keys_to_jax():
    rbg = jax.random.key(3, impl="rbg")
    np.testing.assert_array_equal(np.asarray(xla.random_bits(rbg, 5)),
                                  np.asarray(jax.random.bits(rbg, (5,), jnp.uint32)))


def test_random_bits_compiles_without_a_loop():
    keys = jax.random.split(jax.random.key(0), 256)
    plain = hlo(jax.vmap(lambda k: jax.random.bits(k, (9,), jnp.uint32)), keys)
    mine = hlo(jax.vmap(lambda k: xla.random_bits(k, 9)), keys)
    # the reason: JAX's CPU lowering runs threefry's rounds as a while loop
    assert plain.count(" while(") >= 1  # (a while's tuple type has spaces: count() misses it)
    # written out, the rounds are straight-line code XLA fuses (no loop at all)
    assert mine.count(" while(") == 0
    assert count(mine, "xor") >= 20


def test_the_opaque_zero_is_zero():
    x = np.array([0, 1, 2, 3, 255, 8191, 8192, 2**31 - 1, -1, -2**31], np.int32)
    assert (np.asarray(xla.opaque_zero(jnp.asarray(x))) == 0).all()


def _column_picture(frame, opaque):
    """An 84x84 picture whose columns' values (a screen x, its playfield byte's bit) come from the
    column index alone, as a draw's do."""
    zero = xla.opaque_zero(frame) if opaque else 0
    col = jax.lax.broadcasted_iota(jnp.int32, (1, 84), 1) + zero
    bit = ((col * 160) // 84 // 4 * 7 + 3) % 8
    byte = (frame + jnp.arange(84, dtype=jnp.int32)[:, None] * 3) & 255
    return jnp.where(((byte >> bit) & 1) == 1, jnp.uint8(200), jnp.uint8(0))


@pytest.mark.parametrize("opaque", [False, True])
def test_the_opaque_zero_keeps_column_tables_in_the_loop(opaque):
    """Inside a scan, XLA computes the columns' values once, outside the loop, as a (1, 84) table
    the picture's loop loads per pixel; with the opaque zero added to the column index it does not
    (the game draws' own tests check their pictures: tests/games/test_*_draw.py)."""
    picture = lambda f: _column_picture(f, opaque)  # noqa: E731
    frames = jnp.arange(16, dtype=jnp.int32)
    tables = [op for op in carried_tables(picture, frames, lambda f: f + 1)
              if op[1].startswith("s32[1,84]")]
    assert bool(tables) is not opaque, tables
    np.testing.assert_array_equal(np.asarray(jax.jit(jax.vmap(picture))(frames)),
                                  np.asarray(jax.vmap(lambda f: _column_picture(f, False))(frames)))
