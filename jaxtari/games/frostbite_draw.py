"""Drawing of a Frostbite state, at 210x160 RGB or directly at 84x84 grey (same code, two rasters).

Each screen line is looked up in static tables (which floe line or enemy line it belongs to), and the
pixels are computed from the state with the same geometry the collisions use, so the picture shows
every object where ``objects()`` and the collisions put it. The aurora lines (33..41) are drawn in
colours the cartridge derives from its random byte (ram[2]).
"""

from __future__ import annotations

import numpy as np
import jax.numpy as jnp

from jaxtari import render
from jaxtari.games import frostbite_art as art

# aurora colour of line 33 + i: [i, bit] -> RGB, bit = bit 1 of the rotated random byte
_AURORA = np.array([[art.AURORA_RGB[c], art.AURORA_RGB[c ^ 2]] for c in art.AURORA_CODES], np.int32)


def _bits(rows):
    return np.array([[ch == "#" for ch in r] for r in rows], bool)


_PLAYER = np.stack([_bits(f) for f in art.PLAYER_ART])
_ENEMY = np.stack([np.stack([_bits(a) for a in k]) for k in art.ENEMY_ART]).reshape(8, 8, 8)
_BEAR = np.stack([_bits(a) for a in art.BEAR_ART])[np.asarray(art.BEAR_FRAME_GLYPH)]
_DIGITS = np.stack([_bits(d) for d in art.DIGIT_ART])
_ROW_RGB = np.array(art.PLAYER_ROW_RGB, np.int32)
_ENEMY_RGB = np.array(art.ENEMY_RGB, np.int32)


def _logo():
    rgb = np.zeros((210, 160, 3), np.uint8)
    mask = np.zeros((210, 160), bool)
    for y, x, w, c in art.LOGO_RUNS:
        rgb[y, x:x + w] = c
        mask[y, x:x + w] = True
    return rgb, mask


_LOGO_RGB, _LOGO_MASK = _logo()


def _line_tables(raster):
    ys = raster.ys[:, 0]
    floe = np.full(ys.shape, -1, np.int32)
    enemy = np.full(ys.shape, -1, np.int32)
    for r in range(4):
        for k in range(art.FLOE_LINES):
            floe[ys == art.FLOE_TOP_Y[r] + k] = r * art.FLOE_LINES + k
        for j in range(art.ENEMY_LINES):
            enemy[ys == art.ENEMY_TOP_Y[r] + j] = r * art.ENEMY_LINES + j
    return floe[:, None], enemy[:, None]


def _background(raster, night, lfsr):
    ys = jnp.asarray(raster.ys)
    xs = jnp.asarray(raster.xs)
    sky = jnp.where(night, jnp.array(art.SKY_NIGHT_RGB), jnp.array(art.SKY_DAY_RGB))
    shore = jnp.where(night, jnp.array(art.SHORE_NIGHT_RGB), jnp.array(art.SHORE_DAY_RGB))
    i = jnp.clip(ys - 33, 0, 8)
    rot = ((lfsr << i) | (lfsr >> (8 - i))) & 0xFF
    aurora = jnp.asarray(_AURORA)[i, (rot >> 1) & 1]                           # (H,1,3)
    img = jnp.zeros((raster.height, raster.width, 3), jnp.int32)
    in_sky = (ys >= art.SKY_Y[0]) & (ys < 33)
    in_aurora = (ys >= 33) & (ys < art.SKY_Y[1])
    in_shore = (ys >= art.SHORE_Y[0]) & (ys < art.SHORE_Y[1])
    in_water = (ys >= art.WATER_Y[0]) & (ys < art.WATER_Y[1])
    img = jnp.where(in_sky[..., None], sky, img)
    img = jnp.where(in_aurora[..., None], aurora, img)
    img = jnp.where(in_shore[..., None], shore, img)
    img = jnp.where(in_water[..., None], jnp.array(art.WATER_RGB), img)
    return jnp.broadcast_to(img, (raster.height, raster.width, 3)), ys, xs


def _digits(img, ys, xs, value, n, x0, y0, show_leading, colour, shown=True):
    powers = 10 ** np.arange(n - 1, -1, -1)
    digits = (value // jnp.asarray(powers)) % 10
    vis = show_leading | (value >= jnp.asarray(powers)) | (jnp.arange(n) == n - 1)
    cell = (xs - x0) // art.DIGIT_SPACING
    inside = (xs >= x0) & (cell < n) & (ys >= y0) & (ys < y0 + 8)
    cellc = jnp.clip(cell, 0, n - 1)
    d = digits[cellc]
    lit = jnp.asarray(_DIGITS)[d, jnp.clip(ys - y0, 0, 7), jnp.clip(xs - x0 - cellc * 8, 0, 7)]
    m = inside & lit & vis[cellc] & shown
    return jnp.where(m[..., None], jnp.asarray(colour), img)


def draw_frame(game, s, raster):
    from jaxtari.games.frostbite_geometry import FLOE_PIECE_START, FLOE_PIECE_W, bear_left, window_mask

    mono = game.consts.monochrome
    night = ((s.level_index >> 2) & 1) == 1
    img, ys, xs = _background(raster, night, s.sky_lfsr)
    floe_id, enemy_id = (jnp.asarray(t) for t in _line_tables(raster))

    # HUD: score, temperature + degree sign, lives in reserve
    img = _digits(img, ys, xs, s.shown_score, 6, art.DIGIT_CELL_X, art.HUD_SCORE_Y, False, art.HUD_RGB)
    blink = (s.temperature < 10) & (s.flags == 0) & ((s.fc & 8) == 0)
    img = _digits(img, ys, xs, s.temperature, 2, art.DIGIT_CELL_X, art.HUD_TEMP_Y, False, art.HUD_RGB, ~blink)
    img = _digits(img, ys, xs, s.lives, 1, art.DIGIT_CELL_X + 5 * art.DIGIT_SPACING, art.HUD_TEMP_Y, False,
                  art.HUD_RGB, (s.lives > 0) & ~blink)
    # the magic fish (manual: "near your score" at high levels): from level 21 (ram[75] >= 20) the
    # fish glyph takes the 4th cell of the temperature line
    magic = (s.level_index >= 20) & ~blink
    mx = art.DIGIT_CELL_X + 3 * art.DIGIT_SPACING
    mrow, mcol = ys - art.HUD_TEMP_Y, xs - mx
    fish = jnp.asarray(_ENEMY)[2, jnp.clip(mrow, 0, 7), jnp.clip(mcol, 0, 7)]
    fish = fish & (mrow >= 0) & (mrow < 8) & (mcol >= 0) & (mcol < 8) & magic
    img = jnp.where(fish[..., None], jnp.asarray(art.HUD_RGB), img)
    deg = (ys >= art.HUD_TEMP_Y) & (ys < art.HUD_TEMP_Y + 3) & (xs >= 38) & (xs < 41)
    deg = deg & jnp.asarray(_bits(art.DEGREE_ART))[jnp.clip(ys - art.HUD_TEMP_Y, 0, 2), jnp.clip(xs - 38, 0, 7)]
    img = jnp.where((deg & ~blink)[..., None], jnp.asarray(art.HUD_RGB), img)

    # igloo stage
    blocks = s.shown_blocks
    bands = np.zeros((17, 5, 3), np.int32)
    for k, bs in enumerate(art.IGLOO_BANDS):
        for b, (y, x, w) in enumerate(bs):
            bands[k + 1, b] = (y, x, w)
    bk = jnp.asarray(bands)[jnp.clip(blocks + 1, 0, 16)]                  # (5, 3)
    iy, ix, iw = bk[:, 0, None, None], bk[:, 1, None, None], bk[:, 2, None, None]
    igloo = jnp.any((ys >= iy) & (ys < iy + 4) & (xs >= ix) & (xs < ix + iw) & (iw > 0), axis=0)
    img = jnp.where(igloo[..., None], jnp.asarray(art.IGLOO_RGB), img)
    door = (blocks == 15) & ((s.fc & 8) == 0) & (ys >= 44) & (ys < 55) & (xs >= 124) & (xs < 132)
    img = jnp.where(door[..., None], jnp.asarray(art.DOOR_RGB), img)

    # floes
    fr = jnp.clip(floe_id // art.FLOE_LINES, 0, 3)
    fk = jnp.clip(floe_id % art.FLOE_LINES, 0, art.FLOE_LINES - 1)
    shape = s.shown_shape
    fx = s.floe_x[fr] + jnp.asarray(art.FLOE_LINE_SHIFT, jnp.int32)[fk]      # (H,1)
    start = fx[..., None, None] + jnp.asarray(FLOE_PIECE_START)[shape] + 32 * jnp.arange(3)[:, None]
    rel = (xs[..., None, None] - start) % 160                                 # (H,W,3,2)
    ice = jnp.any(rel < jnp.asarray(FLOE_PIECE_W)[shape], axis=(-1, -2)) & (floe_id >= 0)
    fcol = jnp.where(s.floe_white[fr][..., None], jnp.array(art.WHITE_FLOE_RGB), jnp.array(art.BLUE_FLOE_RGB))
    img = jnp.where(ice[..., None], fcol, img)

    # enemies
    er = jnp.clip(enemy_id // art.ENEMY_LINES, 0, 3)
    ej = enemy_id % art.ENEMY_LINES
    eff = (s.enemy_copies & window_mask(s.enemy_x))[er]                       # (H,1)
    cx = (s.enemy_x[er][..., None] + 16 * jnp.arange(3)) & 0xFF               # (H,1,3)
    vis = ((eff[..., None] >> (2 - jnp.arange(3))) & 1) == 1
    erel = xs[..., None] - cx                                                 # (H,W,3)
    left = ((s.row_byte[er] & 0x80) != 0)[..., None]
    col = jnp.where(left, 7 - erel, erel)
    grow = (ej - s.enemy_bob[er])[..., None]
    inside = (erel >= 0) & (erel < 8) & vis & (grow >= 0) & (enemy_id >= 0)[..., None]
    glyph = s.enemy_glyph[er][..., None]
    ebit = jnp.asarray(_ENEMY)[glyph, jnp.clip(grow, 0, 7), jnp.clip(col, 0, 7)]
    ebit = jnp.where(mono, inside, ebit & inside)
    foe = jnp.any(ebit, axis=-1)
    img = jnp.where(foe[..., None], jnp.asarray(_ENEMY_RGB)[s.row_byte[er] & 3], img)

    # polar bear (from level 4; before, the cartridge draws it in the shore's colour)
    bear_on = (s.level_index >= 3) & game.consts.bear
    brel = xs - bear_left(s)
    bcolx = jnp.where((s.facing & 0x10) != 0, art.BEAR_W - 1 - brel, brel)
    bline = ys - art.BEAR_Y
    bear = bear_on & (bline >= 0) & (bline < art.BEAR_H) & (brel >= 0) & (brel < art.BEAR_W)
    bbit = jnp.asarray(_BEAR)[s.bear_frame, jnp.clip(bline, 0, art.BEAR_H - 1), jnp.clip(bcolx, 0, art.BEAR_W - 1)]
    bear = jnp.where(mono, bear, bear & bbit)
    bcol = jnp.where(night, jnp.array(art.BEAR_NIGHT_RGB), jnp.array(art.BEAR_DAY_RGB))
    img = jnp.where(bear[..., None], bcol, img)

    # Frostbite Bailey
    top = s.y + 28
    row = ys - top - s.sink
    c = xs - s.x
    c = jnp.where((s.facing & 8) != 0, 7 - c, c)
    inb = (row >= 0) & (row < 19) & (ys - top < 19) & (xs - s.x >= 0) & (xs - s.x < 8) & (s.y > 0)
    pbit = jnp.asarray(_PLAYER)[s.anim, jnp.clip(row, 0, 18), jnp.clip(c, 0, 7)]
    pbit = jnp.where(mono, inb, pbit & inb)
    pcol = jnp.asarray(_ROW_RGB)[s.anim, jnp.clip(row, 0, 18)]                 # (H,1,3)
    pcol = jnp.where((row < s.frozen)[..., None], jnp.asarray(art.FROZEN_RGB), pcol)
    img = jnp.where(pbit[..., None], pcol, img)

    # the Activision logo (static), the black bar of the left 8 columns
    r_ys, r_xs = raster.ys[:, 0], raster.xs[0]
    logo = _LOGO_MASK[r_ys][:, r_xs]
    img = jnp.where(jnp.asarray(logo)[..., None], jnp.asarray(_LOGO_RGB[r_ys][:, r_xs].astype(np.int32)), img)
    img = jnp.where((xs < 8)[..., None], 0, img)
    img = img.astype(jnp.uint8)
    if raster.channels == 1:
        return render.colour_for(raster, img)
    return img
