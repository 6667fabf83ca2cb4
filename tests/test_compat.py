"""jaxtari._compat: on the JAX the project runs, its names are JAX's own; the hand-made
``register_dataclass`` that older JAX (CleanRL's era, 0.4.23) gets builds the same PyTree as JAX's:
the same leaves, key paths, static fields and round trip, through jit too."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import _compat


def _twin_classes():
    """Two identical frozen dataclasses, one registered by JAX (where it can) and one by hand."""

    def make():
        @dataclasses.dataclass(frozen=True)
        class State:
            x: jax.Array
            parts: dict
            mode: str  # a static field: part of the tree's structure, not a leaf

        return State

    by_hand = _compat.register_dataclass_by_hand(make(), data_fields=("x", "parts"), meta_fields=("mode",))
    native = make()
    if hasattr(jax.tree_util, "register_dataclass"):
        jax.tree_util.register_dataclass(native, data_fields=["x", "parts"], meta_fields=["mode"])
    else:
        native = None
    return by_hand, native


def test_on_a_jax_that_has_it_the_name_is_jaxs_own():
    if hasattr(jax.tree_util, "register_dataclass"):
        assert _compat.register_dataclass is jax.tree_util.register_dataclass
    else:
        assert _compat.register_dataclass is _compat.register_dataclass_by_hand


def test_the_hand_made_pytree_is_jaxs():
    by_hand, native = _twin_classes()
    s = by_hand(x=jnp.arange(3), parts={"b": jnp.int32(2), "a": jnp.float32(1.5)}, mode="easy")
    paths = [(jax.tree_util.keystr(p), np.asarray(v).tolist())
             for p, v in jax.tree_util.tree_leaves_with_path(s)]
    assert paths == [(".x", [0, 1, 2]), (".parts['a']", 1.5), (".parts['b']", 2)]
    assert jax.tree_util.tree_leaves_with_path(s)[0][0][0].name == "x"  # the key kangaroo's CPU reads
    leaves, tree = jax.tree_util.tree_flatten(s)
    assert jax.tree_util.tree_unflatten(tree, leaves) == s
    # the static field is structure: another mode is another tree, and jit keeps it as given
    other = by_hand(x=jnp.arange(3), parts=s.parts, mode="hard")
    assert jax.tree_util.tree_structure(other) != tree
    doubled = jax.jit(lambda t: jax.tree_util.tree_map(lambda v: v * 2, t))(other)
    assert doubled.mode == "hard" and doubled.x.tolist() == [0, 2, 4]
    if native is not None:  # and the same key paths and leaves as JAX's own registration
        n = native(x=s.x, parts=s.parts, mode="easy")
        assert [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_leaves_with_path(n)] == \
            [p for p, _ in paths]
        assert jax.tree_util.tree_structure(n).num_leaves == tree.num_leaves
