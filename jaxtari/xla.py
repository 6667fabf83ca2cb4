"""Workarounds for how XLA compiles our code on the CPU, in one place, each with its reason.

Everything here computes exactly what the plain expression would; what differs is the compiled
program. Each helper has a test (tests/test_xla.py) that reads the compiled HLO
(``jax.jit(f).lower(...).compile().as_text()``) and checks that the program does what the helper
claims, so an XLA upgrade that changes the picture shows up as a failing test, not as a silent
slowdown. How much each one is worth is measured in benchmarks/ and quoted in commit messages.

- :func:`materialize`: keep a per-line (or per-sprite) table in memory instead of letting XLA fuse
  its computation into, and repeat it for, every pixel that reads it.
- :func:`batch_mean`: a mean over the batch axis split into reductions small enough for the CPU
  backend's fast path (a per-pixel running mean of stacked frames).
- :func:`select_tree`: choose between two already computed states with an elementwise select,
  never a branch.
- :class:`StatePacker`: a state as one int32 row, so picking one of several stored states costs one
  gather, not one per state leaf.
- :func:`random_bits`: ``jax.random.bits`` of a threefry key, bit for bit, with the hash's rounds
  written out so that XLA fuses them instead of running them as a loop.
- :func:`opaque_zero`: a zero that XLA cannot see through, to keep values computed from an index
  inside the loop that uses them instead of hoisted out of it as tables.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp


def materialize(x: jax.Array) -> jax.Array:
    """``x`` unchanged, but computed once into a buffer that its consumers read.

    Why: XLA's CPU backend fuses cheap elementwise producers into each consumer and recomputes them
    there (a renderer into every slot of a frame stack, a per-line table into every pixel of the
    line), and it drops ``optimization_barrier`` before fusion. An in-place update of one element
    with itself needs its operand in memory, so it stops that fusion, for the cost of one element.

    It is not a guarantee: XLA has been seen to fuse the update itself into its reader (and so
    recompute the table per pixel again) where the result had a single elementwise reader, or
    several ``where`` readers of a rendered frame. It holds where the result is read through slices
    (a table per sprite or layer, ``table[i]``). Check the compiled HLO when relying on it.
    """
    corner = (0,) * x.ndim
    return jax.lax.dynamic_update_slice(x, jax.lax.slice(x, corner, (1,) * x.ndim), corner)


# XLA's CPU backend hands a convert-and-reduce to YNNPACK (a ``__ynn_fusion`` in the HLO). Reducing
# the leading axis of a (256, m) uint8 array as float32 takes 0.75 ms up to m = 16,384 kept
# elements and 10.9 ms from m = 16,385 on (jax 0.10.2, one measurement each side, idle machine):
# a (256, 4, 84, 84) stack keeps 28,224 and falls over the edge, one 84x84 frame (7,056) does not.
YNN_REDUCE_KEPT_LIMIT = 16384
BATCH_MEAN_UNROLL = 8  # rows added per loop trip: fewer trips, same adds in the same order


def batch_mean(x: jax.Array, dtype=jnp.float32) -> jax.Array:
    """``x.astype(dtype).mean(axis=0)``, summed row by row in a loop instead of as one reduction.

    Why: a per-pixel mean over the batch of stacked frames (observation normalisation) keeps
    k*84*84 elements; past :data:`YNN_REDUCE_KEPT_LIMIT` the CPU backend's YNNPACK reduction runs
    ~15x slower. The edge is in the reduction, not in the frame stack: the same mean of any buffer
    of that size falls off it. Adding the N rows in turn reads each row once, contiguously, with
    no reduction op at all; measured on (256, 4, 84, 84) uint8: 0.61 ms, against 17 ms for the
    plain mean, 2.7 ms for two reductions under the edge, and 0.37 ms for the plain mean of a
    single (256, 84, 84) frame (median of 15, load ~2). Each element sums the same values in the
    same order as the plain reduction. Disabling YNNPACK's reductions for the whole process
    (``XLA_FLAGS=--xla_cpu_experimental_ynn_fusion_type=-reduce``) is the other way round it.
    """
    x = jnp.asarray(x)
    n = x.shape[0]
    total = jax.lax.fori_loop(0, n, lambda i, acc: acc + x[i].astype(dtype),
                              jnp.zeros(x.shape[1:], dtype), unroll=min(BATCH_MEAN_UNROLL, max(n, 1)))
    return total / jnp.asarray(n, dtype)


def select_tree(pred, on_true, on_false):
    """Tree-wise ``where(pred, on_true, on_false)`` for a scalar predicate.

    Why: both sides are already computed where this is used (the state after a frame and the frozen
    one; a fresh episode's start and the running state). Under ``vmap`` a ``lax.cond`` on a batched
    predicate becomes a select of both branches anyway; a select says so and costs the same with
    and without ``vmap``, with no branch in the program.
    """
    return jax.tree_util.tree_map(lambda a, b: jnp.where(pred, a, b), on_true, on_false)


class StatePacker:
    """Packs a state's leaves into one int32 vector and back (shapes and dtypes from ``like``).

    Why: a new episode picks one of several stored start states by a random index. Stored as one
    (k, words) int32 table, the pick is one gather of one row; stored as a state of stacked leaves,
    it is a gather per leaf, which under ``vmap`` cost a large share of a small game's step.

    Keys are stored as their key data, 4-byte values bit for bit, bools and small integers widened.
    """

    def __init__(self, like):
        self.leaves, self.treedef = jax.tree_util.tree_flatten(like)

    @staticmethod
    def _plain(x) -> jax.Array:
        """A key as its key data; any other leaf as it is."""
        return jax.random.key_data(x) if jnp.issubdtype(x.dtype, jax.dtypes.prng_key) else x

    @staticmethod
    def _bitcast(dtype) -> bool:
        """Whether a dtype is stored bit for bit (4-byte) rather than widened."""
        return dtype.itemsize == 4 and dtype != jnp.int32

    def _words(self, x) -> jax.Array:
        x = self._plain(x)
        if self._bitcast(x.dtype):
            x = jax.lax.bitcast_convert_type(x, jnp.int32)
        elif x.dtype.itemsize > 4 or jnp.issubdtype(x.dtype, jnp.floating):
            raise TypeError(f"cannot pack a game-state leaf of dtype {x.dtype}: use 4-byte floats "
                            "or integers of at most 4 bytes")
        return x.astype(jnp.int32).reshape(-1)

    def pack(self, tree) -> jax.Array:
        return jnp.concatenate([self._words(x) for x in jax.tree_util.tree_leaves(tree)])

    def unpack(self, row: jax.Array):
        out, at = [], 0
        for like in self.leaves:
            plain = self._plain(like)
            words = row[at:at + plain.size].reshape(plain.shape)
            at += plain.size
            if self._bitcast(plain.dtype):
                x = jax.lax.bitcast_convert_type(words, plain.dtype)
            else:
                x = words.astype(plain.dtype)
            if plain is not like:  # a key
                x = jax.random.wrap_key_data(x, impl=jax.random.key_impl(like))
            out.append(x)
        return jax.tree_util.tree_unflatten(self.treedef, out)


# Threefry-2x32 with 20 rounds (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as
# 1, 2, 3", SC 2011), the hash behind JAX's default keys: 5 groups of 4 rounds, the rotation
# distances of the two alternating groups, and the key schedule's parity constant.
THREEFRY_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
THREEFRY_GROUPS = 5
THREEFRY_PARITY = 0x1BD11BDA
THREEFRY_IMPL = "threefry2x32"


def _rotl32(x: jax.Array, distance: int) -> jax.Array:
    return (x << jnp.uint32(distance)) | (x >> jnp.uint32(32 - distance))


def _threefry2x32(k0: jax.Array, k1: jax.Array, x0: jax.Array, x1: jax.Array):
    """The two output words of Threefry-2x32 for the key (k0, k1) and the counter (x0, x1)."""
    schedule = (k0, k1, k0 ^ k1 ^ jnp.uint32(THREEFRY_PARITY))
    x0, x1 = x0 + schedule[0], x1 + schedule[1]
    for group in range(THREEFRY_GROUPS):
        for distance in THREEFRY_ROTATIONS[group % 2]:
            x0 = x0 + x1
            x1 = x0 ^ _rotl32(x1, distance)
        # the key schedule's injection after each group: words s+1 and s+2, plus the group count
        x0 = x0 + schedule[(group + 1) % 3]
        x1 = x1 + schedule[(group + 2) % 3] + jnp.uint32(group + 1)
    return x0, x1


def _unrolls(key) -> bool:
    """Whether :func:`random_bits` can compute ``jax.random.bits`` itself for this key: a single
    typed threefry key, under JAX's partitionable layout of the bits (one hash per word, counter i
    for word i; the layout jax.random uses by default since JAX 0.5)."""
    return (isinstance(key, jax.Array) and jnp.issubdtype(key.dtype, jax.dtypes.prng_key)
            and key.shape == () and str(jax.random.key_impl(key)) == THREEFRY_IMPL
            and bool(getattr(jax.config, "jax_threefry_partitionable", True)))


def random_bits(key: jax.Array, count: int) -> jax.Array:
    """``jax.random.bits(key, (count,), jnp.uint32)``, bit for bit.

    Why: on the CPU, JAX lowers the threefry hash as a loop over its 5 groups of rounds (to keep
    compile times down), so every draw is a while loop of its own that XLA can neither fuse nor
    unroll. Written out here, the hash is one elementwise fusion: under ``vmap`` over 4,096 keys,
    9 words each, 0.11 ms instead of 0.41 ms (best of 50, load ~8), and the agent step of
    :class:`jaxtari.wrappers.AtariWrapper` draws once per step. Any other key (another
    implementation, a batch of keys, the non-partitionable layout) goes to ``jax.random.bits``.
    """
    if not _unrolls(key) or not 0 < count < 2 ** 32:
        return jax.random.bits(key, (count,), jnp.uint32)
    k0, k1 = jax.random.key_data(key)
    counter = jnp.arange(count, dtype=jnp.uint32)
    hi, lo = _threefry2x32(k0, k1, jnp.zeros_like(counter), counter)
    return hi ^ lo


# two int32 masks with no bit in common (opaque_zero)
_EVEN_BITS = sum(1 << i for i in range(0, 31, 2))
_ODD_BITS = sum(1 << i for i in range(1, 31, 2))


def opaque_zero(x: jax.Array) -> jax.Array:
    """0, whatever ``x`` (int32): ``x`` masked by two masks with no bit in common.

    Why: an agent runs a draw inside a compiled loop (a ``lax.scan`` of steps), and XLA moves
    whatever does not change between the loop's trips out of it, values computed from a column
    index alone included: the draw then loads them from memory for every pixel instead of holding
    them as constants. Computed from a zero that depends on the state (``index + opaque_zero(
    state.frame)``), they stay in the loop; XLA does not simplify this zero away, LLVM (which
    compiles XLA's loops) does, and folds them into constants again (benchmarks/README.md,
    Breakout's and Freeway's draws).
    """
    return (x & _EVEN_BITS) & (x & _ODD_BITS)
