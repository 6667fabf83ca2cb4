"""The one place jaxtari bridges JAX releases older than the one it is developed on.

CleanRL's published EnvPool scripts need their era's libraries: ``jax.tree_map`` (gone in JAX 0.6)
and flax 0.7.4's ``TrainState`` (flax 0.7.5+ reads its params with ``in``, which a dataclass of
params does not support), and flax 0.7.4 imports only on JAX <= 0.4.23 (it names
``jax.random.KeyArray``, gone in 0.4.24). So jaxtari also runs on JAX 0.4.23. On a JAX that has
the API, each name here *is* JAX's own function: nothing is wrapped, nothing changes."""

from __future__ import annotations

import jax


def register_dataclass_by_hand(cls, data_fields, meta_fields):
    """``jax.tree_util.register_dataclass`` (JAX 0.4.26+) for older JAX: the same PyTree, its
    children named by attribute in key paths (``.x``, as JAX's gives them), rebuilt through
    ``cls(...)``."""
    data_fields, meta_fields = tuple(data_fields), tuple(meta_fields)
    keys = tuple(jax.tree_util.GetAttrKey(n) for n in data_fields)

    def flatten_with_keys(x):
        return (tuple((k, getattr(x, k.name)) for k in keys),
                tuple(getattr(x, n) for n in meta_fields))

    def flatten(x):
        return tuple(getattr(x, n) for n in data_fields), tuple(getattr(x, n) for n in meta_fields)

    def unflatten(meta, data):
        return cls(**dict(zip(data_fields, data)), **dict(zip(meta_fields, meta)))

    jax.tree_util.register_pytree_with_keys(cls, flatten_with_keys, unflatten, flatten)
    return cls


register_dataclass = getattr(jax.tree_util, "register_dataclass", register_dataclass_by_hand)
