"""Indexed reads and writes on short axes by one-hot masks: ``take`` for ``values[i]``, ``put``
for ``values.at[i].set(v)``, each computing exactly what jnp indexing does.

Why: under ``vmap`` an index that differs per env turns an indexed read into a gather and an
indexed write into a scatter, and an accelerator runs those as sequences of single reads and
writes: at a small batch (the PPO's 24 envs) a step costs about as much per gather as a whole
vector pass over its data (issue 45). The field's 58 bytes, the 2 shots, the 8 to 19 entries of
the art and Constants tables are short enough that a compare per entry and a select or a sum is
a few fused vector ops instead. tests/games/test_asteroids_onehot.py holds both to jnp indexing
and the vmapped step to no scatter and no gather of its own."""

from __future__ import annotations

import jax
import jax.numpy as jnp


def _one_hot(index, n: int, clamp: bool) -> jax.Array:
    """``index[..., None] == arange(n)`` after jnp indexing's reading of ``index``: a negative one
    counts from the end; one still outside is clamped to the nearest entry (a read, ``clamp``)
    or matches nothing (a write, which then writes nothing)."""
    index = jnp.asarray(index)
    index = jnp.where(index < 0, index + n, index)
    if clamp:
        index = jnp.clip(index, 0, n - 1)
    return index[..., None] == jnp.arange(n, dtype=index.dtype)


def take(values, *index) -> jax.Array:
    """``values[index]`` for traced indices into the leading axes of ``values`` (one index per
    axis, broadcast together; the result is their shape followed by the axes not indexed), as jnp
    indexing reads it, by a one-hot mask over each indexed axis and the sum (for bools the any) of
    what it selects. Integers and bools only: the sum is then exact. The mask costs a compare per
    entry: for short axes only."""
    values = jnp.asarray(values)
    if not (jnp.issubdtype(values.dtype, jnp.integer) or values.dtype == jnp.bool_):
        raise TypeError(f"take sums what the mask selects, exact for integers and bools only; "
                        f"got {values.dtype}: index a float table with plain indexing")
    if not 0 < len(index) <= values.ndim:
        raise ValueError(f"take takes 1 to {values.ndim} indices for an array of shape "
                         f"{values.shape}, got {len(index)}")
    index = jnp.broadcast_arrays(*(jnp.asarray(i) for i in index))
    lead, k = index[0].shape, len(index)
    hits = None
    for axis, i in enumerate(index):
        n = values.shape[axis]
        hot = _one_hot(i, n, clamp=True).reshape(lead + (1,) * axis + (n,) + (1,) * (k - axis - 1))
        hits = hot if hits is None else hits & hot
    hits = hits.reshape(hits.shape + (1,) * (values.ndim - k))
    axes = tuple(range(len(lead), len(lead) + k))
    if values.dtype == jnp.bool_:
        return jnp.any(hits & values, axis=axes)
    return jnp.sum(jnp.where(hits, values, jnp.zeros((), values.dtype)), axis=axes,
                   dtype=values.dtype)


def put(values, index, value) -> jax.Array:
    """``values.at[index].set(value)`` for one traced index into the leading axis (a negative one
    counts from the end, one still outside writes nothing), by a mask and a select (``.at[].set``
    is a scatter even at a fixed index)."""
    values = jnp.asarray(values)
    n = values.shape[0]
    hit = _one_hot(index, n, clamp=False).reshape((n,) + (1,) * (values.ndim - 1))
    return jnp.where(hit, jnp.asarray(value, values.dtype), values)
