"""The 6502's arithmetic as the cartridge uses it (bytes, the sign flag, BCD) and the JAX helpers
the step is written with: a select between two states, a loop over slots, a table look-up."""

from __future__ import annotations

import jax
import jax.numpy as jnp

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


def table(values, index):
    """``values[index]`` for a constant table and a traced index."""
    return jnp.asarray(values, jnp.int32)[index]


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


def put(values, i, value, cond):
    """``values`` with ``values[i] = value`` where ``cond``."""
    return values.at[i].set(jnp.where(cond, value, values[i]))
