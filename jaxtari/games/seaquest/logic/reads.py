"""How the picture reads a table at an index that differs from env to env: two forms that compute
the same values, :data:`INDEXED` and :data:`MASKED`.

Under ``vmap`` a per-env index makes a read a gather. XLA:CPU runs a gather as a loop of loads,
which is cheap; a TPU runs one as a sequence of single-element moves, which at the PPO's small
batch costs about as much as a whole vector pass (issue 45: the picture was ~83% of Seaquest's
pixel step on a TPU v5e). :data:`MASKED` reads instead by comparing the index with every entry
and summing the one that matches: a few whole-array compares, selects and a reduction, which the
TPU's vector units do at full width. Seaquest's tables are short (at most the cartridge's
256-byte graphics page), so the compares are few.

Both forms read an index outside the table as its first entry (:func:`.common.pick`'s reading)."""

from __future__ import annotations

from typing import Callable, NamedTuple

import jax.numpy as jnp
import numpy as np

from jaxtari.games.seaquest.logic.common import pick


def pick_masked(table, index):
    """``pick(table, index)`` by masks: ``table[index]`` (``table[0]`` for an index outside it),
    the table's trailing axes kept, with no gather. The table may be traced (a Constants field
    passed as data); integer tables only, so the sum of the one matching entry is exact."""
    table = jnp.asarray(table, jnp.int32)
    entries = table.shape[0]
    index = jnp.asarray(index)
    index = jnp.where((index >= 0) & (index < entries), index, 0)
    matches = index[..., None] == jnp.arange(entries)
    matches = matches.reshape(matches.shape + (1,) * (table.ndim - 1))
    return jnp.sum(jnp.where(matches, table, 0), axis=index.ndim)


def spread_indexed(values, index):
    """``values[..., index]`` for a static index (numpy): by jnp indexing."""
    return values[..., np.asarray(index)]


def spread_masked(values, index):
    """``values[..., index]`` for a static index (numpy, within the last axis) as a sum over a
    constant mask of which entry each output takes: jnp indexing makes a gather even of a constant
    index."""
    index = np.asarray(index)
    takes = jnp.asarray(index[:, None] == np.arange(values.shape[-1])[None, :])
    values = values[..., None, :]
    if values.dtype == jnp.bool_:
        return jnp.any(takes & values, axis=-1)
    return jnp.sum(jnp.where(takes, values, jnp.zeros((), values.dtype)), axis=-1,
                   dtype=values.dtype)


class Reads(NamedTuple):
    """A form of the picture's table reads: ``pick(table, index)`` for a per-env index (see
    :func:`.common.pick`), ``spread(values, index)`` for a static one (``values[..., index]``)."""
    pick: Callable
    spread: Callable


INDEXED = Reads(pick, spread_indexed)  # gathers: XLA:CPU's fast form, and the game's logic's
MASKED = Reads(pick_masked, spread_masked)  # compares and sums: an accelerator's
