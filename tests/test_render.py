"""The rasteriser against a plain numpy painter: same pixels at 210x160 RGB and 84x84 grey."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from jaxtari import render


def numpy_painter(raster, background, items):
    """Reference: paint each item's lit screen pixels, sampled at the raster's coordinates."""
    ys, xs = raster.ys[:, 0], raster.xs[0]
    img = np.broadcast_to(np.asarray(background, np.uint8), (raster.height, raster.width, 3)).copy()
    for lit_fn, colour_fn in items:
        for r, sy in enumerate(ys):
            for c, sx in enumerate(xs):
                if lit_fn(sy, sx):
                    img[r, c] = colour_fn(sy, sx)
    return img if raster.channels == 3 else render.gray(img)


def compiled(draw, *arrays):
    """``draw(*arrays)`` compiled with the arrays traced, as a game draws its objects: one compile
    per example instead of every eager op compiled afresh for each new shape (~5x faster here)."""
    return np.asarray(jax.jit(draw)(*(jnp.asarray(a) for a in arrays)))


def sprite_items(sheet, which, x, y, active, flip):
    items = []
    for k, px, py, a, f in zip(which, x, y, active, flip):
        def lit(sy, sx, k=k, px=px, py=py, a=a, f=f):
            ty, tx = sy - py, sx - px
            if not a or not (0 <= ty < sheet.height and 0 <= tx < sheet.width):
                return False
            tx = sheet.width - 1 - tx if f else tx
            return bool(sheet.mask[k, ty, tx])

        def colour(sy, sx, k=k, px=px, py=py, f=f):
            tx = sx - px
            tx = sheet.width - 1 - tx if f else tx
            return sheet.rgb[k, sy - py, tx]

        items.append((lit, colour))
    return items


@st.composite
def sheets(draw):
    k = draw(st.integers(1, 3))
    h = draw(st.integers(1, 9))
    w = draw(st.integers(1, 40))  # wider than 32 exercises the chunked layers
    palette = np.array([[0, 0, 0], [200, 72, 72], [84, 92, 214], [252, 252, 84]], np.uint8)
    idx = np.array(draw(st.lists(st.integers(0, 4), min_size=k * h * w, max_size=k * h * w))).reshape(k, h, w)
    mask = idx > 0
    rgb = np.where(mask[..., None], palette[np.clip(idx - 1, 0, 3)], 0).astype(np.uint8)
    return render.SpriteSheet(rgb, render.gray(rgb), mask)


@settings(max_examples=15, deadline=None)
@given(sheet=sheets(), data=st.data())
def test_sprites_match_the_numpy_painter(sheet, data):
    n = data.draw(st.integers(1, 4))
    which = data.draw(st.lists(st.integers(0, sheet.mask.shape[0] - 1), min_size=n, max_size=n))
    x = data.draw(st.lists(st.integers(-45, 165), min_size=n, max_size=n))
    y = data.draw(st.lists(st.integers(-10, 215), min_size=n, max_size=n))
    active = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    flip = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    bg = (24, 26, 167)
    items = sprite_items(sheet, which, x, y, active, flip)
    for raster in (render.FULL, render.SMALL_GRAY):
        got = compiled(lambda *a: render.draw_sprites(raster.blank(bg), raster, sheet, *a[:4],
                                                      flip=a[4]),
                       np.array(which), np.array(x), np.array(y), np.array(active), np.array(flip))
        np.testing.assert_array_equal(got, numpy_painter(raster, bg, items))


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_rects_match_the_numpy_painter(data):
    n = data.draw(st.integers(1, 5))
    ints = lambda lo, hi: data.draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n))
    x, y, w, h = ints(-20, 170), ints(-20, 220), ints(0, 60), ints(0, 60)
    active = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    colours = np.array(data.draw(st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=n, max_size=n)), np.uint8)
    items = [
        (lambda sy, sx, i=i: active[i] and x[i] <= sx < x[i] + w[i] and y[i] <= sy < y[i] + h[i],
         lambda sy, sx, i=i: colours[i])
        for i in range(n)
    ]
    for raster in (render.FULL, render.SMALL_GRAY):
        got = compiled(lambda *a: render.draw_rects(raster.blank((0, 0, 0)), raster, *a),
                       np.array(x), np.array(y), np.array(w), np.array(h), colours, np.array(active))
        np.testing.assert_array_equal(got, numpy_painter(raster, (0, 0, 0), items))


def test_drawing_traces_under_jit_and_vmap():
    sheet = render.SpriteSheet.from_art([["##", "#."]], [(255, 255, 255)])
    f = jax.jit(jax.vmap(lambda x: render.draw_sprites(render.SMALL_GRAY.blank((0, 0, 0)),
                                                       render.SMALL_GRAY, sheet, 0, x, 100, True)))
    out = np.asarray(f(np.array([0, 40, 80])))
    assert out.shape == (3, 84, 84)
    assert [int(np.nonzero(o.any(axis=0))[0].min()) for o in out] == [0, 21, 42]


def lane_sprites(sheet, data, max_n, x_max):
    """n sprites, one per lane (disjoint row bands): which, x, y, active, flip."""
    n = data.draw(st.integers(1, max_n))
    lane = sheet.height + data.draw(st.integers(0, 4))
    which = np.array(data.draw(st.lists(st.integers(0, sheet.mask.shape[0] - 1), min_size=n, max_size=n)))
    x = np.array(data.draw(st.lists(st.integers(-45, x_max), min_size=n, max_size=n)))
    y = 3 + lane * np.arange(n)
    active = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    flip = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    return which, x, y, active, flip


@settings(max_examples=6, deadline=None)
@given(sheet=sheets(), data=st.data())
def test_sprite_rows_equal_draw_sprites_for_lanes(sheet, data):
    """Sprites in disjoint row bands (lanes): the one-pass drawing equals the general one."""
    which, x, y, active, flip = lane_sprites(sheet, data, 6, 165)
    for raster in (render.FULL, render.SMALL_GRAY):
        bg = raster.blank((24, 26, 167))
        a = compiled(lambda *v: render.draw_sprites(bg, raster, sheet, *v[:4], flip=v[4]),
                     which, x, y, active, flip)
        b = compiled(lambda *v: render.draw_sprite_rows(bg, raster, sheet, *v[:4], flip=v[4]),
                     which, x, y, active, flip)
        np.testing.assert_array_equal(a, b)


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_bands_equal_one_canvas_when_objects_stay_in_their_band(data):
    """A picture drawn by bands equals the whole-canvas drawing of the same rects, band by band."""
    cuts = sorted(data.draw(st.sets(st.integers(1, 209), min_size=1, max_size=4)))
    edges = [0, *cuts, render.SCREEN_H]
    rects = []  # one rect per band, clipped to it, so drawing it in its band loses nothing
    for y0, y1 in zip(edges, edges[1:]):
        ry = data.draw(st.integers(y0, y1 - 1))
        rh = data.draw(st.integers(1, y1 - ry))
        rx, rw = data.draw(st.integers(-10, 150)), data.draw(st.integers(1, 40))
        rects.append((rx, ry, rw, rh, data.draw(st.tuples(*[st.integers(0, 255)] * 3))))

    x, y, w, h, c = (np.array(v) for v in zip(*rects))
    c = c.astype(np.uint8)

    def paint(raster, x, y, w, h, c):
        canvas = raster.blank((10, 20, 30))
        return render.draw_rects(canvas, raster, x, y, w, h, c, jnp.ones(x.shape[0], bool))

    for raster in (render.FULL, render.SMALL_GRAY):
        def by_bands(*v, raster=raster):  # band i paints rect i alone
            return render.draw_bands(raster, [(y1, lambda sub, i=i: paint(sub, *(a[i:i + 1] for a in v)))
                                              for i, y1 in enumerate(edges[1:])])
        got = compiled(by_bands, x, y, w, h, c)
        np.testing.assert_array_equal(got, compiled(lambda *v, raster=raster: paint(raster, *v),
                                                    x, y, w, h, c))


def test_bands_must_be_ordered_and_cover_the_screen():
    blank = lambda sub: sub.blank((0, 0, 0))
    with pytest.raises(ValueError, match="increasing"):
        render.draw_bands(render.FULL, [(100, blank), (50, blank), (210, blank)])
    with pytest.raises(ValueError, match="end at screen line 210"):
        render.draw_bands(render.FULL, [(100, blank), (200, blank)])
    rows = render.SMALL_GRAY.rows(34, 194)
    assert rows.height == len(rows.ys) and rows.ys.min() >= 34 and rows.ys.max() < 194


@settings(max_examples=10, deadline=None)
@given(sheet=sheets(), data=st.data())
def test_sprite_rows_wrapped_equal_copies_one_screen_width_apart(sheet, data):
    """wrap=160 shows what runs off one edge on the other: the same as drawing the sprites at x,
    x - 160 and x + 160."""
    which, x, y, active, flip = lane_sprites(sheet, data, 4, 159)
    for raster in (render.FULL, render.SMALL_GRAY):
        bg = raster.blank((24, 26, 167))
        got = render.draw_sprite_rows(bg, raster, sheet, which, x, y, active, flip=flip, wrap=160)
        want = bg
        for shift in (-160, 0, 160):
            want = render.draw_sprite_rows(want, raster, sheet, which, x + shift, y, active, flip=flip)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("value,leading", [(0, False), (7, False), (42, False), (305, False), (7, True)])
def test_digits_mask_lights_what_draw_digits_draws(value, leading):
    """The table-driven digits (glyph_table) light exactly the pixels the sprite path draws, on
    both rasters: hidden leading zeros, a lone 0, and leading zeros shown."""
    rng = np.random.default_rng(3)
    masks = rng.random((10, 7, 5)) < 0.5
    sheet = render.SpriteSheet.from_masks(masks, np.full((10, 3), 255, np.uint8))
    for raster in (render.FULL, render.SMALL_GRAY):
        want = render.draw_digits(raster.blank((0, 0, 0)), raster, sheet, value, 30, 11, 3, 6,
                                  leading_zeros=leading)
        got = render.digits_mask(raster, masks, value, 30, 11, 3, 6, leading_zeros=leading)
        want = np.asarray(want).reshape(raster.height, raster.width, -1).max(axis=-1) > 0
        np.testing.assert_array_equal(np.asarray(got), want)


def test_art_mask_reads_text_art_of_any_nesting():
    one = render.art_mask(("#.", ".#", "##"))
    assert one.dtype == bool and one.tolist() == [[True, False], [False, True], [True, True]]
    frames = render.art_mask([[("#.", ".#")], [("..", "##")]])
    assert frames.shape == (2, 1, 2, 2) and frames[1, 0, 1].all() and not frames[1, 0, 0].any()
    assert render.art_mask(("#k.",), lit="#k").tolist() == [[True, True, False]]


def test_art_mask_names_a_ragged_row_or_a_bare_string():
    with pytest.raises(ValueError, match=r"\[1\] has rows of widths \[2, 3\]"):
        render.art_mask([("##", ".."), ("##", "...")])
    with pytest.raises(ValueError, match="single string"):
        render.art_mask("##")
    with pytest.raises(ValueError, match="differ in size"):
        render.art_mask([("##",), ("##", "##")])
