"""The picture of one frame: ALE | JAX | where they differ, and text drawn with pygame's font.

Shared by the window and the video export, so a video shows what the player saw.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

SCREEN_H, SCREEN_W = 210, 160
DIFF_COLOUR = np.array([255, 40, 40], np.uint8)
GAP = 4  # pixels between panes (unscaled)
TEXT = (230, 230, 230)
BAD = (255, 90, 90)
GOOD = (120, 220, 120)
DIM = (150, 150, 150)


def difference(ale_rgb: np.ndarray, jax_rgb: np.ndarray) -> np.ndarray:
    """The ALE frame dimmed to grey, with every pixel where the two frames differ in red."""
    grey = (ale_rgb.astype(np.uint16).sum(axis=-1) // 9).astype(np.uint8)
    out = np.repeat(grey[..., None], 3, axis=-1)
    out[np.any(ale_rgb != jax_rgb, axis=-1)] = DIFF_COLOUR
    return out


def panes(ale_rgb: np.ndarray, jax_rgb: np.ndarray, scale: int = 1) -> np.ndarray:
    """(210*scale, 3*160*scale + 2*GAP*scale, 3) uint8: ALE, JAX and their difference."""
    gap = np.zeros((SCREEN_H, GAP, 3), np.uint8)
    row = np.concatenate([ale_rgb, gap, jax_rgb, gap, difference(ale_rgb, jax_rgb)], axis=1)
    if scale > 1:
        row = np.repeat(np.repeat(row, scale, axis=0), scale, axis=1)
    return row


def panes_width(scale: int) -> int:
    return (3 * SCREEN_W + 2 * GAP) * scale


@lru_cache(maxsize=4)
def font(size: int):
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, size)


class TextCache:
    """Rendered text surfaces by (text, colour): a panel redraws the same strings most frames."""

    def __init__(self, size: int = 18, limit: int = 2048):
        self.size = size
        self.limit = limit
        self._cache: dict[tuple, object] = {}

    def render(self, text: str, colour=TEXT):
        key = (text, colour)
        surf = self._cache.get(key)
        if surf is None:
            if len(self._cache) >= self.limit:
                self._cache.clear()
            surf = font(self.size).render(text, True, colour)
            self._cache[key] = surf
        return surf


def caption(image: np.ndarray, text: str, size: int = 20) -> np.ndarray:
    """``image`` with ``text`` on a dark band at the bottom (for marks in a video)."""
    import pygame

    surf = font(size).render(text, True, (255, 255, 120))
    band_h = surf.get_height() + 6
    out = image.copy()
    out[-band_h:] = (out[-band_h:] // 4)
    text_px = pygame.surfarray.pixels3d(surf).swapaxes(0, 1)
    alpha = pygame.surfarray.array_alpha(surf).swapaxes(0, 1) if surf.get_flags() & pygame.SRCALPHA \
        else np.full(text_px.shape[:2], 255, np.uint8)
    h = min(text_px.shape[0], band_h - 3)
    w = min(text_px.shape[1], out.shape[1] - 6)
    region = out[-band_h + 3:-band_h + 3 + h, 3:3 + w]
    a = (alpha[:h, :w, None].astype(np.uint16))
    region[:] = ((text_px[:h, :w] * a + region * (255 - a)) // 255).astype(np.uint8)
    return out
