"""The actor-critics: a shared torso, a policy head (logits) and a value head.

Pixels: the Nature DQN CNN (Mnih et al. 2015) over 84x84x4 grey frames. Object-centric features:
an MLP of 461 then 512 units, the sizes the JAXtari paper and upstream's scripts use so pixel and
object agents have matching capacity. Initialisation follows CleanRL's Atari PPO: orthogonal, gain
sqrt(2) in the torso, 0.01 for the policy head and 1 for the value head, zero biases.
"""

from __future__ import annotations

import functools
from typing import Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

PIXEL_SCALE = 1.0 / 255.0
# Object features are screen coordinates and small counters (0..255); the same fixed scale keeps the
# MLP's inputs near [0, 1] on both backends.
OBJECT_SCALE = 1.0 / 255.0


_NHWC = ("NHWC", "HWIO", "NHWC")


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _valid_conv(x, w, stride: int):
    return lax.conv_general_dilated(x, w, (stride, stride), "VALID", dimension_numbers=_NHWC)


def _valid_conv_fwd(x, w, stride):
    return _valid_conv(x, w, stride), (x, w)


def _valid_conv_bwd(stride, res, dy):
    # Both gradients written as plain NHWC/HWIO convolutions. JAX's own transpose rules emit
    # convolutions with permuted dimension labels; XLA's CPU backend rewrites those into the form
    # its fast (Eigen) convolution takes everywhere except inside a loop body, where it falls back to
    # a naive loop nest. Measured (jax 0.10.2, 2 cores): the Nature CNN's gradient on 256 frames took
    # 0.4-0.5 s called alone and 6.5 s as the body of a one-step lax.scan, so every PPO update (epochs
    # and minibatches are scans) crawled. With these rules the compiled loop body holds only NHWC/HWIO
    # convolutions; the gradients equal autodiff's (tests/learning/test_networks.py).
    x, w = res
    kh, kw = w.shape[:2]
    (h, wd), (ho, wo) = x.shape[1:3], dy.shape[1:3]
    # d/dw: the images' channels play the batch, the images play the channels.
    dw = lax.conv_general_dilated(jnp.transpose(x, (3, 1, 2, 0)), jnp.transpose(dy, (1, 2, 0, 3)),
                                  (1, 1), "VALID", rhs_dilation=(stride, stride),
                                  dimension_numbers=_NHWC)
    dw = jnp.transpose(dw[:, :kh, :kw, :], (1, 2, 0, 3))
    # d/dx: dy spread out by the stride and padded back to the input's size, against the kernel
    # flipped in space with its in and out channels swapped.
    flipped = jnp.transpose(w[::-1, ::-1], (0, 1, 3, 2))
    pad_h = (kh - 1, h - stride * (ho - 1) - 1)
    pad_w = (kw - 1, wd - stride * (wo - 1) - 1)
    dx = lax.conv_general_dilated(dy, flipped, (1, 1), (pad_h, pad_w),
                                  lhs_dilation=(stride, stride), dimension_numbers=_NHWC)
    return dx, dw


_valid_conv.defvjp(_valid_conv_fwd, _valid_conv_bwd)


def valid_conv(lhs, rhs, window_strides, padding, lhs_dilation=None, rhs_dilation=None,
               dimension_numbers=None, feature_group_count=1, precision=None, **_):
    """What ``flax.linen.Conv`` calls in place of ``lax.conv_general_dilated``: the one
    configuration the Nature CNN uses (NHWC, square stride, VALID, no dilation, no groups), with
    the gradients of :func:`_valid_conv_bwd`."""
    strides = tuple(window_strides)
    pads = [tuple(p) for p in padding] if not isinstance(padding, str) else padding
    if (len(set(strides)) != 1 or pads not in ("VALID", [(0, 0)] * len(strides))
            or any(d not in (None, 1) and set(d) != {1} for d in (lhs_dilation, rhs_dilation))
            or feature_group_count != 1 or lhs.ndim != 4
            or (dimension_numbers is not None and lax.conv_dimension_numbers(
                lhs.shape, rhs.shape, dimension_numbers) != lax.conv_dimension_numbers(
                lhs.shape, rhs.shape, _NHWC))):
        raise ValueError("valid_conv supports 2-D NHWC convolutions with a square stride, VALID "
                         "padding, no dilation and no feature groups")
    return _valid_conv(lhs, rhs, strides[0])


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
                        bias_init=nn.initializers.zeros, conv_general_dilated=valid_conv)(x)
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
