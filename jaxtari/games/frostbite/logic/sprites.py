"""Frostbite's sprites as numpy tables, built once from the pixel art (art.py) for the collisions
and the drawing alike: boolean masks, and rows packed as bits (bit j = pixel j from the sprite's
left edge, the 2600's own way of holding a sprite line), as drawn and mirrored."""

from __future__ import annotations

import numpy as np

from jaxtari import render
from jaxtari.games.frostbite import art


def row_bits(bits, flip=False):
    """(..., w) bool sprite rows -> (...,) uint32 with bit j = pixel j from the sprite's left edge
    (``flip``: mirrored, bit j = sprite column w-1-j)."""
    if flip:
        bits = bits[..., ::-1]
    w = bits.shape[-1]
    assert w <= 32
    return (bits.astype(np.uint64) << np.arange(w, dtype=np.uint64)).sum(-1).astype(np.uint32)


def both_ways(bits):
    """Row bits as drawn and mirrored, stacked on a last axis [mirrored]."""
    return np.stack([row_bits(bits), row_bits(bits, True)], -1)


PLAYER_BITS = render.art_mask(art.PLAYER_ART)                                 # (6, 19, 8)
PLAYER_LINES = PLAYER_BITS.shape[1]                                          # 19 lines of sprite
ENEMY_BITS = render.art_mask(art.ENEMY_ART).reshape(8, 8, 8)                 # glyph = kind*2 + anim
BEAR_BITS = render.art_mask(art.BEAR_ART)[np.asarray(art.BEAR_FRAME_GLYPH)]  # (8, 16, 16) by ram[111]
DIGIT_BITS = render.art_mask(art.DIGIT_ART)                                  # (10, 8, 8)

PLAYER_ROWS = both_ways(PLAYER_BITS)       # (6, 19, 2)  [anim, row, mirrored]
ENEMY_ROWS = both_ways(ENEMY_BITS)         # (8, 8, 2)   [glyph, row, mirrored]
BEAR_ROWS = both_ways(BEAR_BITS)           # (8, 16, 2)  [frame, row, mirrored]
DIGIT_ROWS = row_bits(DIGIT_BITS)          # (10, 8)
FISH_ROWS = row_bits(ENEMY_BITS[2])        # (8,)  the magic fish of the HUD (enemy glyph 2, as drawn)
DEGREE_ROWS = row_bits(render.art_mask(art.DEGREE_ART)[:, :3])  # (3,)  3 px wide (x 38..40)

# floe pieces of each shape (ram[30]): offset from the floe's x and width of its two pieces
FLOE_PIECE_START = np.array([[p[0] for p in s] for s in art.FLOE_PIECES], np.int32)  # (16, 2)
FLOE_PIECE_W = np.array([[p[1] for p in s] for s in art.FLOE_PIECES], np.int32)
