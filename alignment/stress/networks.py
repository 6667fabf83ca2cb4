"""The actor-critics: a shared torso, a policy head (logits) and a value head.

Pixels: the Nature DQN CNN (Mnih et al. 2015) over 84x84x4 grey frames. Object-centric features:
an MLP of 461 then 512 units, the sizes the JAXtari paper and upstream's scripts use so pixel and
object agents have matching capacity. Initialisation follows CleanRL's Atari PPO: orthogonal, gain
sqrt(2) in the torso, 0.01 for the policy head and 1 for the value head, zero biases.
"""

from __future__ import annotations

from typing import Sequence

import flax.linen as nn
import jax.numpy as jnp
import numpy as np

PIXEL_SCALE = 1.0 / 255.0
# Object features are screen coordinates and small counters (0..255); the same fixed scale keeps the
# MLP's inputs near [0, 1] on both backends.
OBJECT_SCALE = 1.0 / 255.0


def _dense(features: int, gain: float) -> nn.Dense:
    return nn.Dense(features, kernel_init=nn.initializers.orthogonal(gain),
                    bias_init=nn.initializers.zeros)


def _heads(x, num_actions: int):
    logits = _dense(num_actions, 0.01)(x)
    value = _dense(1, 1.0)(x)
    return logits, jnp.squeeze(value, -1)


class NatureCNN(nn.Module):
    """Input (..., k, 84, 84) uint8: the frame stack first, as the wrappers and ALE's vector env
    give it."""

    num_actions: int

    @nn.compact
    def __call__(self, obs):
        x = jnp.moveaxis(obs.astype(jnp.float32) * PIXEL_SCALE, -3, -1)
        for feats, kernel, stride in ((32, 8, 4), (64, 4, 2), (64, 3, 1)):
            x = nn.Conv(feats, (kernel, kernel), (stride, stride), padding="VALID",
                        kernel_init=nn.initializers.orthogonal(np.sqrt(2)),
                        bias_init=nn.initializers.zeros)(x)
            x = nn.relu(x)
        x = x.reshape(x.shape[:-3] + (-1,))
        x = nn.relu(_dense(512, np.sqrt(2))(x))
        return _heads(x, self.num_actions)


class ObjectMLP(nn.Module):
    """Input (..., features) float32: the game's flat object-centric vector."""

    num_actions: int
    sizes: Sequence[int] = (461, 512)

    @nn.compact
    def __call__(self, obs):
        x = obs.astype(jnp.float32) * OBJECT_SCALE
        for size in self.sizes:
            x = nn.relu(_dense(size, np.sqrt(2))(x))
        return _heads(x, self.num_actions)


def make_network(obs: str, num_actions: int, mlp_sizes: Sequence[int] = (461, 512)) -> nn.Module:
    if obs == "pixels":
        return NatureCNN(num_actions)
    return ObjectMLP(num_actions, tuple(mlp_sizes))
