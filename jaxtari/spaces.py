"""Jittable observation/action spaces following gymnasium's conventions (``Discrete``, ``Box``).

They mirror gymnasium's attributes (``n``, ``low``, ``high``, ``shape``, ``dtype``) but sample with
an explicit ``jax.random`` key, so they work inside ``jit``/``vmap``. ``to_gymnasium()`` gives the
equivalent gymnasium space for code that expects one.
"""

from __future__ import annotations

import dataclasses

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class Discrete:
    n: int
    dtype: type = np.int32

    @property
    def shape(self) -> tuple[int, ...]:
        return ()

    def sample(self, key: jax.Array) -> jax.Array:
        return jax.random.randint(key, (), 0, self.n, dtype=jnp.int32)

    def contains(self, x) -> bool:
        x = np.asarray(x)
        return x.shape == () and np.issubdtype(x.dtype, np.integer) and 0 <= int(x) < self.n

    def to_gymnasium(self) -> gymnasium.spaces.Discrete:
        return gymnasium.spaces.Discrete(self.n)


@dataclasses.dataclass(frozen=True)
class Box:
    low: float | np.ndarray
    high: float | np.ndarray
    shape: tuple[int, ...]
    dtype: type = np.float32

    def sample(self, key: jax.Array) -> jax.Array:
        low = np.broadcast_to(np.asarray(self.low, np.float64), self.shape)
        high = np.broadcast_to(np.asarray(self.high, np.float64), self.shape)
        # Unbounded dimensions sample from a standard normal, as gymnasium does.
        finite = np.isfinite(low) & np.isfinite(high)
        lo = np.where(finite, low, 0.0)
        hi = np.where(finite, high, 1.0)
        k1, k2 = jax.random.split(key)
        u = jax.random.uniform(k1, self.shape, minval=lo, maxval=hi)
        n = jax.random.normal(k2, self.shape)
        out = jnp.where(finite, u, n)
        if np.issubdtype(self.dtype, np.integer):
            out = jnp.floor(out)
        return out.astype(self.dtype)

    def contains(self, x) -> bool:
        x = np.asarray(x)
        return (
            x.shape == tuple(self.shape)
            and bool(np.all(x >= self.low))
            and bool(np.all(x <= self.high))
        )

    def to_gymnasium(self) -> gymnasium.spaces.Box:
        return gymnasium.spaces.Box(low=self.low, high=self.high, shape=self.shape, dtype=self.dtype)
