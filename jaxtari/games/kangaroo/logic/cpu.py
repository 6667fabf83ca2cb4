"""The 6502's arithmetic as the cartridge uses it (bytes, the sign flag, BCD) and the JAX helpers
the step is written with: a select between two states, a loop over slots, a table look-up."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.games.kangaroo import constants as k

BYTE = k.BYTE


def where(cond, a, b):
    """``a`` where ``cond`` else ``b``, field by field of two states (a field both branches left
    as it was is passed through: fewer selects to compile)."""
    return jax.tree_util.tree_map(lambda x, y: x if x is y else jnp.where(cond, x, y), a, b)


def down_slots(n, body, s, fields, extra=None):
    """``body(s, i)`` for slots i = n-1 down to 0, in the cartridge's order, as one loop (not
    unrolled: the step then compiles one body per loop instead of one per slot). Only ``fields``
    (the state's fields the body changes) are carried through the loop, and ``extra`` beside them
    where given (``body(s, i, extra)`` then returns ``(s, extra)``); the rest stay outside it."""
    def step(j, carry):
        fields_now, more = carry
        t = s.replace(**fields_now)
        if extra is None:
            out = body(t, n - 1 - j)
        else:
            out, more = body(t, n - 1 - j, more)
        changed = {path[0].name for (path, a), (_, b) in zip(jax.tree_util.tree_leaves_with_path(t),
                                                             jax.tree_util.tree_leaves_with_path(out))
                   if a is not b}
        if not changed <= set(fields):  # a change the loop would drop
            raise ValueError(f"the slot loop changes {sorted(changed - set(fields))}, not carried")
        return {f: getattr(out, f) for f in fields}, more

    out, more = jax.lax.fori_loop(0, n, step, ({f: getattr(s, f) for f in fields}, extra))
    s = s.replace(**out)
    return s if extra is None else (s, more)


# a constant table longer than this is still read by a gather: its one-hot mask (a compare and a
# select an entry) costs a CPU more than the gather at thousands of envs (measured: issue 45)
MASKED_AT_MOST = 32


def table(values, index):
    """``values[index]`` for a constant table and a traced index, as ``jnp`` indexing reads it (a
    negative index counts from the end, one still outside is clamped to the nearest entry). A
    short table is read with no gather: an accelerator runs a gather under ``vmap`` as a sequence
    of single reads, a one-hot mask over the entries and its sum as one fused vector op (issue
    45)."""
    try:
        values = np.asarray(values, np.int32)
    except jax.errors.TracerArrayConversionError:  # a traced table: no fixed entries to mask
        return jnp.asarray(values, jnp.int32)[index]
    n = len(values)
    if n > MASKED_AT_MOST:
        return jnp.asarray(values)[index]
    index = jnp.asarray(index, jnp.int32)
    index = jnp.clip(jnp.where(index < 0, index + n, index), 0, n - 1)
    hits = index[..., None] == jnp.arange(n, dtype=jnp.int32)
    return jnp.sum(jnp.where(hits, jnp.asarray(values), 0), axis=-1, dtype=jnp.int32)


def minus(a, b):
    """The 6502's N flag after ``cmp``/``sbc``: the sign bit of ``(a - b) & 0xFF``."""
    return ((a - b) & k.SIGN) != 0


def bcd_add(a, b):
    """``a + b`` of two BCD bytes in decimal mode: (sum byte, carry)."""
    lo = (a & 0xF) + (b & 0xF)
    lo_carry = lo > 9
    lo = jnp.where(lo_carry, lo - 10, lo)
    hi = (a >> 4) + (b >> 4) + lo_carry.astype(jnp.int32)
    carry = hi > 9
    hi = jnp.where(carry, hi - 10, hi)
    return (hi << 4) | lo, carry


def bcd_decrement(a):
    """``a - 1`` of a BCD byte in decimal mode (0 gives 0x99, with the sign bit set)."""
    return jnp.where(a == 0, 0x99, jnp.where((a & 0xF) == 0, a - 7, a - 1))


def at(values, i):
    """``values[i]`` for a traced ``i`` (a slot loop's counter), as ``jnp`` indexing reads it (a
    negative ``i`` counts from the end, one still outside is clamped), by a one-hot mask rather
    than the gather it is under ``vmap``."""
    n = values.shape[0]
    hits = jnp.arange(n) == jnp.clip(jnp.where(i < 0, i + n, i), 0, n - 1)
    if values.dtype == jnp.bool_:
        return jnp.any(hits & values)
    return jnp.sum(jnp.where(hits, values, 0), dtype=values.dtype)


def put(values, i, value, cond):
    """``values`` with ``values[i] = value`` where ``cond`` (as ``.at[i].set``: a negative ``i``
    counts from the end, one outside writes nothing), by a mask rather than a scatter."""
    n = values.shape[0]
    i = jnp.where(i < 0, i + n, i)
    return jnp.where((jnp.arange(n) == i) & cond, jnp.asarray(value, values.dtype), values)
