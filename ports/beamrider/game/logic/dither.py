"""The cartridge's one way of moving things by fractional speeds (measured on the grid's clock,
then on every saucer move: constants.py, "the grid's clock"): a speed in sixteenths a logic frame,
its fraction spread over 16 logic frames by the frame counter's low nibble read backwards."""

from __future__ import annotations

import jax.numpy as jnp

from ..constants import BYTE


def reversed_nibble(v):
    """The low 4 bits of ``v`` read backwards (bit 0 becomes bit 3): the dither's order."""
    return ((v & 1) << 3) | ((v & 2) << 1) | ((v & 4) >> 1) | ((v & 8) >> 3)


def dithered(k, speed, count):
    """One logic frame's move at ``speed`` sixteenths (a signed number; as a byte its high nibble
    is the whole part, arithmetically): the whole part, plus one when the count's dither position
    falls below the fraction (constants.py, "the grid's clock")."""
    fraction = (1 << k.speed_fraction_bits) - 1
    byte = jnp.asarray(speed) & BYTE
    signed = jnp.where(byte > BYTE >> 1, byte - (BYTE + 1), byte)
    return (signed >> k.speed_fraction_bits) + (
        reversed_nibble(count & fraction) < (byte & fraction)).astype(jnp.int32)
