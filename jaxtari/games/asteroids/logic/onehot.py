"""Indexed reads and writes on short axes in the form each platform runs well: ``take`` for
``values[i]``, ``put`` for ``values.at[i].set(v)``, both computing exactly what jnp indexing does.

Why two forms: under ``vmap`` an index that differs per env turns an indexed read into a gather and
an indexed write into a scatter. An accelerator runs those as sequences of single reads and writes:
at a small batch (the PPO's 24 envs) a step costs about as much per gather as a whole vector pass
over its data (issue 45), while a one-hot mask over the field's 58 bytes, the 2 shots or the 8 to
19 entries of an art or Constants table is a few fused vector ops. A CPU is the other way round:
its gathers are cheap and the masks multiply the work by the axis' length. So the program names
both and :func:`by_platform` lets the compiler's platform choose (``jax.lax.platform_dependent``,
settled when the program is lowered: the compiled program holds one form only).
tests/games/test_asteroids_onehot.py holds the two forms to each other and to jnp indexing."""

from __future__ import annotations

import jax
import jax.numpy as jnp

# True: the accelerator's form on every platform, the CPU included (tests compare it there with
# the CPU's form). Read when a function is traced: clear jax's caches after changing it.
ONEHOT_EVERYWHERE = False


def by_platform(indexed, onehot, *args):
    """``indexed(*args)`` where the program runs on a CPU, ``onehot(*args)`` on any other
    platform (or everywhere while ``ONEHOT_EVERYWHERE``). The two must compute the same thing."""
    if ONEHOT_EVERYWHERE:
        return onehot(*args)
    return jax.lax.platform_dependent(*args, cpu=indexed, default=onehot)


def _one_hot(index, n: int, clamp: bool) -> jax.Array:
    """``index[..., None] == arange(n)`` after jnp indexing's reading of ``index``: a negative one
    counts from the end; one still outside is clamped to the nearest entry (a read, ``clamp``)
    or matches nothing (a write, which then writes nothing)."""
    index = jnp.asarray(index)
    index = jnp.where(index < 0, index + n, index)
    if clamp:
        index = jnp.clip(index, 0, n - 1)
    return index[..., None] == jnp.arange(n, dtype=index.dtype)


def _checked(values, index) -> jax.Array:
    values = jnp.asarray(values)
    if not (jnp.issubdtype(values.dtype, jnp.integer) or values.dtype == jnp.bool_):
        raise TypeError(f"take sums what the mask selects, exact for integers and bools only; "
                        f"got {values.dtype}: index a float table with plain indexing")
    if not 0 < len(index) <= values.ndim:
        raise ValueError(f"take takes 1 to {values.ndim} indices for an array of shape "
                         f"{values.shape}, got {len(index)}")
    return values


def take_onehot(values, *index) -> jax.Array:
    """:func:`take`'s accelerator form: a one-hot mask over each indexed axis and the sum (for
    bools the any) of what it selects. The mask costs a compare per entry: for short axes only."""
    values = _checked(values, index)
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


def take(values, *index) -> jax.Array:
    """``values[index]`` for traced indices into the leading axes of ``values`` (one index per
    axis, broadcast together; the result is their shape followed by the axes not indexed), as jnp
    indexing reads it (a negative index counts from the end, one outside is clamped). Integers
    and bools only (the accelerator's form sums exactly only those)."""
    values = _checked(values, index)
    return by_platform(lambda *i: values[i], lambda *i: take_onehot(values, *i), *index)


def put_onehot(values, index, value) -> jax.Array:
    """:func:`put`'s accelerator form: a mask and a select (``.at[].set`` is a scatter even at a
    fixed index)."""
    values = jnp.asarray(values)
    n = values.shape[0]
    hit = _one_hot(index, n, clamp=False).reshape((n,) + (1,) * (values.ndim - 1))
    return jnp.where(hit, jnp.asarray(value, values.dtype), values)


def put(values, index, value) -> jax.Array:
    """``values.at[index].set(value)`` for one traced index into the leading axis (a negative one
    counts from the end, one still outside writes nothing)."""
    return by_platform(lambda v, i, x: v.at[i].set(x), put_onehot, jnp.asarray(values), index, value)
