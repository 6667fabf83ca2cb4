"""Rasterisation shared by every game, at ALE's 210x160 and directly at 84x84.

A :class:`Raster` holds, for each pixel of the target image, the ALE screen coordinate it samples.
At full size that is the pixel itself; at 84x84 it is the screen pixel under the centre of the target
pixel (nearest-neighbour sampling, the same pixels ``cv2.resize(..., INTER_NEAREST)`` would pick).
Every draw call takes positions in ALE screen pixels, so one drawing routine produces both
resolutions without ever building (and shrinking) a 210x160 frame for the small one.

Grey levels use ALE's own conversion, :func:`gray`, the one grey function of jaxtari (the sprite
sheets, the 84x84 rasters and the drop-in's ``grayscale`` screens all go through it).
"""

from __future__ import annotations

import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.atari.screen import SCREEN_H, SCREEN_W  # noqa: F401  (the names every game draws with)
from jaxtari.xla import materialize  # noqa: F401  (the name games and wrappers have used)

SMALL = 84


@dataclasses.dataclass(frozen=True)
class Raster:
    """Target resolution and the ALE coordinates each target row/column samples."""

    height: int
    width: int
    ys: np.ndarray  # (height, 1) int32: ALE y sampled by each target row
    xs: np.ndarray  # (1, width) int32: ALE x sampled by each target column
    channels: int  # 3 for RGB, 1 for grey (the channel axis is dropped for grey)

    @staticmethod
    def full_rgb() -> "Raster":
        return Raster(
            SCREEN_H, SCREEN_W,
            np.arange(SCREEN_H, dtype=np.int32)[:, None],
            np.arange(SCREEN_W, dtype=np.int32)[None, :],
            3,
        )

    @staticmethod
    def small_gray(size: int = SMALL) -> "Raster":
        ys = np.floor((np.arange(size) + 0.5) * SCREEN_H / size).astype(np.int32)
        xs = np.floor((np.arange(size) + 0.5) * SCREEN_W / size).astype(np.int32)
        return Raster(size, size, ys[:, None], xs[None, :], 1)

    @property
    def key(self) -> tuple:
        """A hashable identity (for caching static pictures per raster)."""
        return (self.height, self.width, self.channels, self.ys.tobytes(), self.xs.tobytes())

    def rows(self, y0: int, y1: int) -> "Raster":
        """The part of this raster whose rows sample screen lines ``y0 <= y < y1``."""
        r0, r1 = np.searchsorted(self.ys[:, 0], [y0, y1])
        return dataclasses.replace(self, height=int(r1 - r0), ys=self.ys[r0:r1])

    def blank(self, colour) -> jax.Array:
        """A canvas filled with one colour (RGB triple; converted to grey for a grey raster)."""
        c = colour_for(self, colour)
        shape = (self.height, self.width) + ((3,) if self.channels == 3 else ())
        return jnp.broadcast_to(c, shape).astype(jnp.uint8)


FULL = Raster.full_rgb()
SMALL_GRAY = Raster.small_gray()


def art_mask(art, lit: str = "#") -> np.ndarray:
    """Pixel art written as text -> a boolean mask: a character in ``lit`` is a lit pixel.

    ``art`` is one sprite (a sequence of equal-length strings, one per row) or any nesting of
    sprites of one size (frames of an animation, kinds of enemy, ...); the result has shape
    ``(..., rows, columns)``. Every game's sprites go through here, so a ragged row is caught once,
    with its place named, instead of surfacing as a numpy shape error.
    """
    def rows_of(a, where):
        if isinstance(a, str):
            raise ValueError(f"pixel art at {where or 'top level'} is a single string; give its rows "
                             "as a sequence of strings")
        if all(isinstance(r, str) for r in a):
            widths = {len(r) for r in a}
            if len(widths) > 1:
                raise ValueError(f"pixel art at {where or 'top level'} has rows of widths "
                                 f"{sorted(widths)}; every row of a sprite must be equally wide")
            return [[ch in lit for ch in r] for r in a]
        return [rows_of(b, f"{where}[{i}]") for i, b in enumerate(a)]

    out = rows_of(art, "")
    try:
        return np.array(out, bool)
    except ValueError as exc:  # sprites of different sizes in one nesting
        raise ValueError(f"pixel art sprites differ in size and cannot be stacked: {exc}") from None


def draw_bands(raster: Raster, bands) -> jax.Array:
    """A picture made of horizontal bands drawn separately and stacked.

    ``bands`` is a list of ``(y_end, draw)`` in screen order: band i covers the screen lines from the
    previous band's ``y_end`` (0 for the first) to its own, the last ending at 210, and ``draw(sub)``
    returns the band's canvas for the sub-raster ``sub`` (see :meth:`Raster.rows`). Whatever a band
    draws only costs work on the raster rows inside it, so a game that knows where its objects can
    ever be (scores at the top, paddles in the court) pays per object only for its own rows.
    """
    parts, y0 = [], 0
    for y_end, draw in bands:
        if y_end <= y0:
            raise ValueError(f"bands must be in increasing screen order, got {y_end} after {y0}")
        sub = raster.rows(y0, y_end)
        if sub.height:
            parts.append(draw(sub))
        y0 = y_end
    if y0 != SCREEN_H:
        raise ValueError(f"bands must end at screen line {SCREEN_H}, got {y0}")
    return jnp.concatenate(parts, axis=0)


# ALE's grey level is round(0.299 R + 0.587 G + 0.114 B), half to even (checked against
# getScreenGrayscale on every colour the games' screens show: tests/test_palette.py), computed in
# integer thousandths so that numpy and XLA give it exactly, with no float rounding between them.
GREY_WEIGHTS = (299, 587, 114)
GREY_SCALE = 1000


def gray(rgb):
    """ALE's grey level of RGB colours (any leading shape, last axis 3), as uint8: a numpy array
    for numpy (or list) input, a JAX array for a JAX array or a traced value."""
    if not isinstance(rgb, jax.Array):
        rgb = np.asarray(rgb)
    total = (rgb.astype(np.int32) * np.asarray(GREY_WEIGHTS, np.int32)).sum(-1)
    whole, part = total // GREY_SCALE, total % GREY_SCALE
    half = GREY_SCALE // 2
    up = (part > half) | ((part == half) & (whole % 2 == 1))
    return (whole + up).astype(np.uint8)


def colour_for(raster: Raster, colour) -> jax.Array:
    """A colour (RGB, shape (..., 3)) in the raster's channel format; traced values allowed."""
    c = jnp.asarray(colour)
    if raster.channels == 3:
        return c.astype(jnp.uint8)
    return gray(c)


def _spans(raster: Raster, x, y, w, h, active):
    """Per rectangle (leading axis), which raster rows (n, H) and columns (n, W) it covers."""
    ys, xs = jnp.asarray(raster.ys[:, 0]), jnp.asarray(raster.xs[0])
    rows = (ys >= y[:, None]) & (ys < (y + h)[:, None]) & active[:, None]
    cols = (xs >= x[:, None]) & (xs < (x + w)[:, None])
    return rows, cols


def paint(canvas: jax.Array, mask: jax.Array, colour) -> jax.Array:
    """Paint ``colour`` (RGB) where ``mask`` (height, width) is true; RGB or grey canvas."""
    if canvas.ndim == 3:
        return jnp.where(mask[..., None], jnp.asarray(colour, jnp.uint8), canvas).astype(jnp.uint8)
    return jnp.where(mask, colour_for(SMALL_GRAY, colour), canvas).astype(jnp.uint8)


def draw_rect(canvas, raster: Raster, x, y, w, h, colour, active=True):
    """Draw one solid rectangle."""
    return draw_rects(canvas, raster, x, y, w, h, colour, active)


def draw_rects(canvas, raster: Raster, x, y, w, h, colours, active):
    """Draw n solid rectangles; where they overlap the later one wins.

    ``colours`` is (n, 3) RGB (or one RGB triple for all). Painted one after the other: each is a
    single elementwise select that XLA fuses with the next, which is far cheaper on a CPU than
    building (n, H, W) masks and gathering a colour per pixel. A rectangle is the product of the
    rows and the columns it covers, computed once per rectangle and kept in memory (materialize),
    so a pixel costs two loads and an ``and`` per rectangle instead of four comparisons against
    traced bounds.
    """
    x, y, w, h = (jnp.atleast_1d(jnp.asarray(v, jnp.int32)) for v in (x, y, w, h))
    n = max(v.shape[0] for v in (x, y, w, h))
    x, y, w, h = (jnp.broadcast_to(v, (n,)) for v in (x, y, w, h))
    active = jnp.broadcast_to(jnp.asarray(active, bool), (n,))
    cols = colour_for(raster, jnp.broadcast_to(jnp.asarray(colours), (n, 3)))
    rows_in, cols_in = _spans(raster, x, y, w, h, active)
    rows_in, cols_in, cols = materialize(rows_in), materialize(cols_in), materialize(cols)
    for i in range(n):
        mask = rows_in[i][:, None] & cols_in[i][None, :]
        m = mask[..., None] if canvas.ndim == 3 else mask
        canvas = jnp.where(m, cols[i], canvas)
    return canvas.astype(jnp.uint8)


BITS = 32  # sprite rows are drawn as 32-bit masks; wider sprites are split into 32-column chunks


@dataclasses.dataclass(frozen=True)
class SpriteSheet:
    """Same-size sprites stacked as (k, h, w): an RGB atlas (k, h, w, 3), its grey twin, a mask.

    Built once in numpy from the games' pixel art. For drawing, each sprite is split into layers
    (one per colour and 32-column chunk) whose rows are bit masks, like the 2600's own graphics
    registers: a pixel is lit when bit (sampled column) of its row's mask is set, so a sprite is
    drawn with shifts and selects instead of a per-pixel gather, at any raster size.
    """

    rgb: np.ndarray  # (k, h, w, 3) uint8
    grey: np.ndarray  # (k, h, w) uint8
    mask: np.ndarray  # (k, h, w) bool

    @staticmethod
    def from_masks(masks, colours) -> "SpriteSheet":
        """Sprites given as boolean masks (k, h, w) and one RGB colour per sprite (k, 3)."""
        masks = np.asarray(masks, bool)
        colours = np.asarray(colours, np.uint8).reshape(-1, 3)
        colours = np.broadcast_to(colours, (masks.shape[0], 3))
        rgb = np.where(masks[..., None], colours[:, None, None, :], 0).astype(np.uint8)
        return SpriteSheet(rgb, gray(rgb), masks)

    @staticmethod
    def from_art(rows_per_sprite, colours) -> "SpriteSheet":
        """Sprites as ASCII art (a list of lists of strings, '#' = lit), one colour each."""
        masks = art_mask(rows_per_sprite)
        return SpriteSheet.from_masks(masks, colours)

    @property
    def height(self) -> int:
        return self.mask.shape[1]

    @property
    def width(self) -> int:
        return self.mask.shape[2]

    @functools.cached_property
    def layers(self):
        """(bits (k, L, h) uint32, rgb (k, L, 3) uint8, grey (k, L) uint8, dx (k, L) int32)."""
        k, h, w = self.mask.shape
        per_sprite = []
        for s in range(k):
            layers = []
            for dx in range(0, w, BITS):
                m = self.mask[s, :, dx:dx + BITS]
                c = self.rgb[s, :, dx:dx + BITS]
                for colour in np.unique(c[m].reshape(-1, 3), axis=0):
                    lit = m & np.all(c == colour, axis=-1)
                    bits = (lit.astype(np.uint64) << np.arange(lit.shape[1], dtype=np.uint64)).sum(axis=1)
                    layers.append((bits.astype(np.uint32), colour, dx))
            per_sprite.append(layers)
        n_layers = max(1, max(len(ls) for ls in per_sprite))
        bits = np.zeros((k, n_layers, h), np.uint32)
        rgb = np.zeros((k, n_layers, 3), np.uint8)
        dxs = np.zeros((k, n_layers), np.int32)
        for s, ls in enumerate(per_sprite):
            for l, (b, c, dx) in enumerate(ls):
                bits[s, l], rgb[s, l], dxs[s, l] = b, c, dx
        return bits, rgb, gray(rgb), dxs


def _sprite_args(which, x, y, active, flip):
    """Broadcast the per-sprite arguments to one common length n (int32 / bool arrays)."""
    which = jnp.atleast_1d(jnp.asarray(which, jnp.int32))
    x = jnp.atleast_1d(jnp.asarray(x, jnp.int32))
    y = jnp.atleast_1d(jnp.asarray(y, jnp.int32))
    n = max(which.shape[0], x.shape[0], y.shape[0])
    which, x, y = (jnp.broadcast_to(v, (n,)) for v in (which, x, y))
    active = jnp.broadcast_to(jnp.asarray(active, bool), (n,))
    flip = jnp.zeros((n,), bool) if flip is None else jnp.broadcast_to(jnp.asarray(flip, bool), (n,))
    return which, x, y, active, flip


def draw_sprites(canvas, raster: Raster, sheet: SpriteSheet, which, x, y, active, flip=None):
    """Draw n sprites from ``sheet`` (sprite index ``which``) with top-left corners at (x, y).

    ``flip`` (n,) bool mirrors a sprite horizontally. Later sprites win where they overlap.
    """
    which, x, y, active, flip = _sprite_args(which, x, y, active, flip)
    n = which.shape[0]
    bits, rgb, grey, dxs = sheet.layers
    colours = jnp.asarray(rgb if canvas.ndim == 3 else grey)[which]  # (n, L[, 3])
    sh, sw = sheet.height, sheet.width
    n_layers = bits.shape[1]
    ys = jnp.asarray(raster.ys[:, 0])
    xs = jnp.asarray(raster.xs[0])
    # Per raster row: the sprite row's bit mask of each layer; per raster column: the bit to test.
    ty = ys[None, :] - y[:, None]  # (n, H) sprite row sampled by each raster row
    row_in = (ty >= 0) & (ty < sh) & active[:, None]
    sprite_bits = jnp.asarray(bits)[which]  # (n, L, h)
    row_bits = jnp.take_along_axis(sprite_bits, jnp.clip(ty, 0, sh - 1)[:, None, :], axis=2)
    row_bits = jnp.where(row_in[:, None, :], row_bits, jnp.uint32(0))  # (n, L, H)
    col = xs[None, :] - x[:, None]
    col = jnp.where(flip[:, None], sw - 1 - col, col)  # (n, W) sprite column sampled
    bit = col[:, None, :] - jnp.asarray(dxs)[which][:, :, None]  # (n, L, W)
    ok = (col[:, None, :] >= 0) & (col[:, None, :] < sw) & (bit >= 0) & (bit < BITS)
    # A zero mask never lights: fold the column test into the row masks' companion.
    shift = jnp.where(ok, bit, BITS).astype(jnp.uint32)  # BITS: shifted past every bit
    # The per-row/per-column tables are built once above, vectorised over sprites and layers, and
    # kept in memory so the per-pixel loop reads them instead of recomputing them (materialize).
    row_bits, shift = materialize(row_bits), materialize(shift)
    for i in range(n):
        for l in range(n_layers):
            # uint32 >> 32 is undefined in XLA; clamp and test the sentinel separately.
            sft = shift[i, l]
            lit = ((row_bits[i, l][:, None] >> jnp.minimum(sft, BITS - 1)[None, :]) & jnp.uint32(1)) == 1
            lit = lit & (sft < BITS)[None, :]
            canvas = jnp.where(lit[..., None] if canvas.ndim == 3 else lit, colours[i, l], canvas)
    return canvas.astype(jnp.uint8)


def glyph_table(raster: Raster, masks, xs, y) -> np.ndarray:
    """(len(xs), k + 1, H, W) bool, built in numpy: the raster pixels glyph g of ``masks`` (k, h, w)
    lights with its top-left corner at the static screen position (xs[j], y); entry k lights none.

    For glyphs at fixed places (score digits), drawing is then one table lookup per pixel and
    place, ``table[j][glyph]``, instead of a shift-and-test per sprite layer over the whole band.
    """
    masks = np.asarray(masks, bool)
    k, h, w = masks.shape
    ty = raster.ys[:, 0] - int(y)
    out = np.zeros((len(xs), k + 1, raster.height, raster.width), bool)
    for j, x in enumerate(xs):
        tx = raster.xs[0] - int(x)
        inside = ((ty >= 0) & (ty < h))[:, None] & ((tx >= 0) & (tx < w))[None, :]
        lit = masks[:, np.clip(ty, 0, h - 1)][:, :, np.clip(tx, 0, w - 1)]
        out[j, :k] = lit & inside
    return out


def digits_mask(raster: Raster, masks, value, x: int, y: int, n_digits: int, spacing: int,
                leading_zeros: bool = False) -> jax.Array:
    """(H, W) bool: the pixels a non-negative integer lights, drawn with glyphs ``masks`` (10, h, w)
    at a static place, laid out like :func:`draw_digits` (right-aligned, leading zeros hidden).

    Built from :func:`glyph_table` over the rows the digits cover: one lookup per pixel and digit.
    """
    masks = np.asarray(masks, bool)
    h = masks.shape[1]
    sub = raster.rows(y, y + h)
    r0 = int(np.searchsorted(raster.ys[:, 0], y))
    table = jnp.asarray(glyph_table(sub, masks, [x + i * spacing for i in range(n_digits)], y))
    value = jnp.asarray(value, jnp.int32)
    powers = 10 ** np.arange(n_digits - 1, -1, -1)
    lit = jnp.zeros((sub.height, sub.width), bool)
    for i, p in enumerate(powers):
        shown = (value >= p) | (i == n_digits - 1) | leading_zeros
        lit = lit | table[i][jnp.where(shown, (value // p) % 10, masks.shape[0])]
    return jnp.pad(lit, ((r0, raster.height - r0 - sub.height), (0, 0)))


def draw_digits(canvas, raster: Raster, digit_sheet: SpriteSheet, value, x, y, n_digits: int,
                spacing: int, colour_sheet_index_offset: int = 0, leading_zeros: bool = False):
    """Draw a non-negative integer with ``n_digits`` digit sprites (sheet index = digit).

    Digits are right-aligned: the last digit's left edge is at ``x + (n_digits-1)*spacing``.
    Leading zeros are hidden unless ``leading_zeros`` (a value of 0 still shows one '0').
    """
    value = jnp.asarray(value, jnp.int32)
    powers = 10 ** np.arange(n_digits - 1, -1, -1)
    digits = (value // jnp.asarray(powers)) % 10
    shown = jnp.asarray(leading_zeros) | (value >= jnp.asarray(powers)) | (jnp.arange(n_digits) == n_digits - 1)
    xs = x + jnp.arange(n_digits) * spacing
    return draw_sprites(canvas, raster, digit_sheet, digits + colour_sheet_index_offset, xs, y, shown)


def draw_sprite_rows(canvas, raster: Raster, sheet: SpriteSheet, which, x, y, active, flip=None,
                     wrap: int | None = None):
    """Like :func:`draw_sprites` for sprites whose row ranges do not overlap (one per lane, say).

    Each raster row belongs to at most one sprite, so all n sprites are drawn in one pass per layer
    instead of n. Where row ranges do overlap, the later sprite owns the shared rows. With ``wrap``
    (e.g. 160), columns wrap around at that width: a sprite running off one edge shows on the other
    (x must lie within (-wrap, wrap)).
    """
    which, x, y, active, flip = _sprite_args(which, x, y, active, flip)
    n = which.shape[0]
    bits, rgb, grey, dxs = sheet.layers
    colours = jnp.asarray(rgb if canvas.ndim == 3 else grey)
    sh, sw = sheet.height, sheet.width
    ys = jnp.asarray(raster.ys[:, 0])
    xs = jnp.asarray(raster.xs[0])
    ty = ys[None, :] - y[:, None]  # (n, H)
    covers = (ty >= 0) & (ty < sh) & active[:, None]
    owner = jnp.where(covers, jnp.arange(1, n + 1)[:, None], 0).max(axis=0)  # (H,)
    has = owner > 0
    idx = jnp.clip(owner - 1, 0, n - 1)
    rows = jnp.arange(ys.shape[0])
    ty_r = jnp.clip(ty[idx, rows], 0, sh - 1)
    w_r = which[idx]  # sprite of each raster row
    row_bits = jnp.where(has[None, :], jnp.asarray(bits)[w_r, :, ty_r].T, jnp.uint32(0))  # (L, H)
    col = xs[None, :] - x[idx][:, None]  # (H, W)
    if wrap is not None:  # x within (-wrap, wrap): one add or subtract (cheaper than a remainder)
        col = jnp.where(col < 0, col + wrap, jnp.where(col >= wrap, col - wrap, col))
    col = jnp.where(flip[idx][:, None], sw - 1 - col, col)
    # Sprites up to 32 columns wide have every layer at column 0: one shift table serves them all.
    shared = bool((dxs == 0).all())
    col = col[None]  # (1, H, W)
    bit = col if shared else col - jnp.asarray(dxs)[w_r].T[:, :, None]  # (1 or L, H, W)
    ok = (col >= 0) & (col < sw) & (bit >= 0) & (bit < BITS)
    shift = jnp.where(ok, bit, BITS).astype(jnp.uint32)
    row_colour = colours[w_r]  # (H, L[, 3])
    # Keep the tables out of the per-pixel loop (see draw_sprites).
    row_bits, shift, row_colour = (materialize(v) for v in (row_bits, shift, row_colour))
    for l in range(bits.shape[1]):
        sft = shift[0 if shared else l]
        lit = ((row_bits[l][:, None] >> jnp.minimum(sft, BITS - 1)) & jnp.uint32(1)) == 1
        lit = lit & (sft < BITS)
        c = row_colour[:, l]
        if canvas.ndim == 3:
            canvas = jnp.where(lit[..., None], c[:, None, :], canvas)
        else:
            canvas = jnp.where(lit, c[:, None], canvas)
    return canvas.astype(jnp.uint8)
