"""Drawing of a Frostbite state, at 210x160 RGB or directly at 84x84 grey (same code, two rasters).

Each screen line is looked up in static tables (which floe line or enemy line it belongs to), and the
pixels are computed from the state with the same geometry the collisions use, so the picture shows
every object where ``objects()`` and the collisions put it. The aurora lines (33..41) are drawn in
colours the cartridge derives from its random byte (ram[2]).

How it is computed (fast on a CPU, no per-pixel gathers, no large constants mixed with traced
values): everything is worked out per raster *line* first, and only the last few selects touch every
pixel.

* Each sampled screen line gets its background colour (sky, aurora, shore, water, black).
* The HUD, the igloo, the bear, the enemies and the floes never share a screen line with each other
  (checked at import), and each is a single colour on its line. So they form one layer: per line a
  160-bit bitmap of lit screen pixels (5 uint32 words, like the 2600's graphics registers) and one
  colour. Sprites are placed into the words with shifts; the floes, which wrap around the screen, are
  placed on a 160-bit ring where a copy 32 px further is exactly the next word.
* The igloo door is a static mask, Bailey is an 8-px sprite drawn with a per-line bit row and column
  shifts; where the kernel writes his registers mid-line (logic/kernel.py) each line has an x left of which,
  and one from which on, he shows another colour (two per-pixel compares, not a mask per write);
  the Activision logo (static) replaces the few lines it covers, the left 8 columns are black.
"""

from __future__ import annotations

import functools

import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.games.frostbite import art
from jaxtari.games.frostbite.logic import kernel
from jaxtari.games.frostbite.constants import (
    BEAR_LEVEL_INDEX, BEAR_WALKS_RIGHT, FACE_LEFT, FULL_IGLOO, PLAYER_SPRITE_TOP,
    ROW_ENEMY_LEFT, ROW_KIND,
)
from jaxtari.games.frostbite.logic.geometry import bear_left, window_mask
from jaxtari.games.frostbite.logic.sprites import (
    BEAR_ROWS, DEGREE_ROWS, DIGIT_ROWS, ENEMY_ROWS, FISH_ROWS, PLAYER_LINES, PLAYER_ROWS,
)

_U32 = jnp.uint32
_WORDS = 5  # 160 screen columns = 5 x 32 bits
_NOWHERE = 255  # an x right of every screen column: a split that never happens

# igloo stage (ram[77] + 1, 0 = none) -> its 5 bands (y, x, width); unused bands have width 0
_IGLOO = np.zeros((17, 5, 3), np.int32)
for _k, _bs in enumerate(art.IGLOO_BANDS):
    for _b, (_y, _x, _w) in enumerate(_bs):
        _IGLOO[_k + 1, _b] = (_y, _x, _w)
assert _IGLOO[..., 2].max() <= 32

# floe pieces: the second piece as bits of the first's pattern (both within 32 px)
_FLOE_A = np.array([p[0][0] for p in art.FLOE_PIECES], np.int32)
_FLOE_PATTERN = np.zeros(len(art.FLOE_PIECES), np.uint32)
for _k, ((_a, _wa), (_b, _wb)) in enumerate(art.FLOE_PIECES):
    assert 0 <= _b - _a and _b - _a + _wb <= 32 and _wa <= 32
    _FLOE_PATTERN[_k] = (((1 << _wa) - 1) | (((1 << _wb) - 1) << (_b - _a))) & 0xFFFFFFFF
assert art.FLOE_COPY_SPACING == 32 and art.FLOE_COPIES == 3  # a copy = the next word of the ring

_AURORA_CODES = np.array([[c, c ^ 2] for c in art.AURORA_CODES])  # [line - 33, bit]
_DOOR_MASK = np.zeros((210, 160), bool)
_DOOR_MASK[art.DOOR_XY[1]:art.DOOR_XY[1] + len(art.DOOR_ART),
           art.DOOR_XY[0]:art.DOOR_XY[0] + len(art.DOOR_ART[0])] = render.art_mask(art.DOOR_ART)


def _logo():
    rgb = np.zeros((210, 160, 3), np.uint8)
    mask = np.zeros((210, 160), bool)
    for y, x, w, c in art.LOGO_RUNS:
        rgb[y, x:x + w] = c
        mask[y, x:x + w] = True
    return rgb, mask


_LOGO_RGB, _LOGO_MASK = _logo()

# Bailey's row bits fit his 8 columns (a pixel shifts them by its column less his x, see draw_frame)
assert int(np.max(PLAYER_ROWS)) <= 0xFF
# Bailey's colour on a line: one split on the left (a late graphic or a late colour write, never
# both) and one on the right (an early colour write), so each pixel makes two choices, not three
assert not set(kernel.LATE_COLOUR_X) & (set(kernel.LATE_GRAPHIC_X) | set(kernel.CLEAR_GRAPHIC_X))
assert all(max(k.get(y, 0) for k in (kernel.LATE_GRAPHIC_X, kernel.CLEAR_GRAPHIC_X, kernel.LATE_COLOUR_X))
           <= x for y, x in kernel.EARLY_COLOUR_X.items())

# screen lines of each single-colour object band (they must not share a line: one layer)
_HUD_LINES = set(range(art.HUD_SCORE_Y, art.HUD_SCORE_Y + 8)) | set(range(art.HUD_TEMP_Y, art.HUD_TEMP_Y + 8))
_IGLOO_LINES = {int(y) + i for y in _IGLOO[..., 0][_IGLOO[..., 2] > 0] for i in range(4)}
_BEAR_LINES = set(range(art.BEAR_Y, art.BEAR_Y + art.BEAR_H))
_ENEMY_LINES = {y + j for y in art.ENEMY_TOP_Y for j in range(art.ENEMY_LINES)}
_FLOE_LINES = {y + k for y in art.FLOE_TOP_Y for k in range(art.FLOE_LINES)}
_BANDS = (_HUD_LINES, _IGLOO_LINES, _BEAR_LINES, _ENEMY_LINES, _FLOE_LINES)
assert sum(map(len, _BANDS)) == len(set().union(*_BANDS)), "object bands share a screen line"


def _fmt(raster, rgb):
    """RGB colour(s) (..., 3) in the raster's channel format (..., C), as numpy uint8."""
    rgb = np.asarray(rgb, np.uint8)
    return rgb if raster.channels == 3 else render.gray(rgb)[..., None]


@functools.lru_cache(maxsize=8)
def _static(height, width, channels, ys_bytes, xs_bytes):
    """Per-raster tables: everything about the picture that does not depend on the state."""
    ys = np.frombuffer(ys_bytes, np.int32)
    xs = np.frombuffer(xs_bytes, np.int32)
    raster = render.Raster(height, width, ys[:, None], xs[None, :], channels)
    t = {}
    # line kinds
    t["sky"] = (ys >= art.SKY_Y[0]) & (ys < 33)
    t["aurora"] = (ys >= 33) & (ys < art.SKY_Y[1])
    t["shore"] = (ys >= art.SHORE_Y[0]) & (ys < art.SHORE_Y[1])
    t["water"] = (ys >= art.WATER_Y[0]) & (ys < art.WATER_Y[1])
    i = np.clip(ys - 33, 0, 8)
    t["aurora_i"] = i
    rgb = np.array([[art.AURORA_RGB[c] for c in cs] for cs in _AURORA_CODES])  # (9, 2, 3)
    t["aurora_col"] = _fmt(raster, rgb[i]).astype(np.int32)                    # (H, 2, C)
    floe = np.full(ys.shape, -1, np.int32)
    enemy = np.full(ys.shape, -1, np.int32)
    for r in range(4):
        for k in range(art.FLOE_LINES):
            floe[ys == art.FLOE_TOP_Y[r] + k] = r * art.FLOE_LINES + k
        for j in range(art.ENEMY_LINES):
            enemy[ys == art.ENEMY_TOP_Y[r] + j] = r * art.ENEMY_LINES + j
    t["floe"] = floe >= 0
    t["floe_r"] = np.clip(floe // art.FLOE_LINES, 0, 3)
    t["floe_shift"] = np.asarray(art.FLOE_LINE_SHIFT, np.int32)[np.clip(floe % art.FLOE_LINES, 0, art.FLOE_LINES - 1)]
    t["enemy"] = enemy >= 0
    t["enemy_r"] = np.clip(enemy // art.ENEMY_LINES, 0, 3)
    t["enemy_j"] = enemy % art.ENEMY_LINES
    t["score"] = (ys >= art.HUD_SCORE_Y) & (ys < art.HUD_SCORE_Y + 8)
    t["temp"] = (ys >= art.HUD_TEMP_Y) & (ys < art.HUD_TEMP_Y + 8)
    t["deg"] = (ys >= art.HUD_TEMP_Y) & (ys < art.HUD_TEMP_Y + 3)
    t["hud"] = t["score"] | t["temp"]
    t["score_row"] = np.clip(ys - art.HUD_SCORE_Y, 0, 7)
    t["temp_row"] = np.clip(ys - art.HUD_TEMP_Y, 0, 7)
    t["deg_row"] = np.clip(ys - art.HUD_TEMP_Y, 0, 2)
    t["bear_line"] = ys - art.BEAR_Y
    t["bear"] = (t["bear_line"] >= 0) & (t["bear_line"] < art.BEAR_H)
    t["igloo"] = np.isin(ys, sorted(_IGLOO_LINES))
    t["door"] = _DOOR_MASK[ys][:, xs]
    # Bailey's mid-line register writes (logic/kernel.py): the pixels left of a late write, right of an
    # early one; the lines that keep the registers when not his, and the line after the black one
    at = lambda table, none: np.array([table.get(int(y), none) for y in ys], np.int32)
    t["late_graphic_x"], t["clear_graphic_x"] = at(kernel.LATE_GRAPHIC_X, 0), at(kernel.CLEAR_GRAPHIC_X, 0)
    t["late_colour_x"] = at(kernel.LATE_COLOUR_X, 0)
    t["early_colour_x"] = at(kernel.EARLY_COLOUR_X, _NOWHERE)
    t["late_colour_line"] = np.isin(ys, list(kernel.LATE_COLOUR_X))
    t["stale"] = np.isin(ys, sorted(kernel.STALE_LINES))
    t["stale_twice"] = t["stale"] & np.isin(ys - 1, sorted(kernel.STALE_LINES))
    t["after_black"] = np.isin(ys - 1, kernel.BLACK_WHEN_NOT_HIS)
    # the raster lines of each object band, and where each line finds its bitmap among the bands'
    # (a line of no band takes the all-zero row at the end)
    bands = ("hud", "igloo", "bear", "enemy", "floe")
    order = np.concatenate([np.nonzero(t[b])[0] for b in bands])
    for b in bands:
        t[b + "_rows"] = np.nonzero(t[b])[0]
    perm = np.full(height, order.size, np.int32)
    perm[order] = np.arange(order.size)
    t["band_perm"] = perm
    # columns: which word and bit of a line bitmap each raster column samples
    t["word"] = (xs // 32)[None, :]
    t["bit"] = (xs % 32).astype(np.uint32)[None, :]
    t["bar"] = (xs < 8)[None, :]
    # the logo: the raster lines it covers (contiguous), their mask and colours
    rows = np.nonzero(_LOGO_MASK[ys].any(1))[0]
    assert rows.size and (np.diff(rows) == 1).all()
    t["logo_rows"] = (int(rows[0]), int(rows[-1]) + 1)
    t["logo_mask"] = _LOGO_MASK[ys[rows]][:, xs][..., None]
    t["logo_col"] = _fmt(raster, _LOGO_RGB[ys[rows]][:, xs])
    # colours
    for name in ("SKY_DAY", "SKY_NIGHT", "SHORE_DAY", "SHORE_NIGHT", "WATER", "IGLOO", "DOOR", "DOOR_FLASH",
                 "BEAR_DAY", "BEAR_NIGHT", "HUD", "WHITE_FLOE", "BLUE_FLOE", "BLACK"):
        t[name] = _fmt(raster, getattr(art, name + "_RGB")).astype(np.int32)
    t["ENEMY"] = _fmt(raster, art.ENEMY_RGB).astype(np.int32)            # (4, C)
    t["PLAYER_STRIP"] = _fmt(raster, art.PLAYER_COLOUR_STRIP).astype(np.int32)  # (39, C)
    return t


def _tables(raster):
    return _static(raster.height, raster.width, raster.channels,
                   np.ascontiguousarray(raster.ys[:, 0], np.int32).tobytes(),
                   np.ascontiguousarray(raster.xs[0], np.int32).tobytes())


def _place(v, x, ring=False):
    """Line bitmaps (..., 5) uint32 of a pattern ``v`` (..., uint32, bit j = pixel x + j) at screen
    x ``x``: pixels off the screen dropped, or (``ring``) wrapped modulo 160."""
    v = jnp.asarray(v, _U32)[..., None]
    off = jnp.asarray(x, jnp.int32)[..., None] - 32 * jnp.arange(_WORDS, dtype=jnp.int32)
    if ring:
        off = off % 160
        lo = jnp.where(off < 32, v << jnp.clip(off, 0, 31).astype(_U32), _U32(0))
        hi = jnp.where(off > 128, v >> jnp.clip(160 - off, 0, 31).astype(_U32), _U32(0))
    else:
        lo = jnp.where((off >= 0) & (off < 32), v << jnp.clip(off, 0, 31).astype(_U32), _U32(0))
        hi = jnp.where((off < 0) & (off > -32), v >> jnp.clip(-off, 0, 31).astype(_U32), _U32(0))
    return lo | hi


def _expand(t, words):
    """(H, 5) line bitmaps -> (H, W) bool at the raster's sampled columns."""
    sel = words[:, :1]
    for k in range(1, _WORDS):
        sel = jnp.where(t["word"] == k, words[:, k:k + 1], sel)
    return ((sel >> t["bit"]) & _U32(1)) != 0


def _digit_bits(value, n, show_leading):
    """Digit glyph indices (n,) of ``value`` and whether each is shown (leading zeros hidden)."""
    powers = 10 ** np.arange(n - 1, -1, -1)
    digits = (value // jnp.asarray(powers)) % 10
    vis = show_leading | (value >= jnp.asarray(powers)) | (jnp.arange(n) == n - 1)
    return digits, vis


def _place_static(acc, v, x, w):
    """OR a w-px pattern ``v`` (..., uint32) at the static screen x ``x`` into words ``acc`` {k: ...}."""
    k, off = divmod(x, 32)
    acc[k] = acc.get(k, 0) | (v << off)
    if off + w > 32 and k + 1 < _WORDS:
        acc[k + 1] = acc.get(k + 1, 0) | (v >> (32 - off))


def _hud_words(t, s, blink):
    rows = t["hud_rows"]
    score_d, score_v = _digit_bits(s.shown_score, 6, False)
    temp_d, temp_v = _digit_bits(s.temperature, 2, False)
    lives_d, lives_v = _digit_bits(s.shown_lives, 1, False)
    on = ~blink
    temp_v = temp_v & on
    lives_v = lives_v & (s.shown_lives > 0) & on
    magic = (s.level_index >= 20) & on
    sr, tr = jnp.asarray(t["score_row"][rows]), jnp.asarray(t["temp_row"][rows])
    score_line, temp_line = t["score"][rows], t["temp"][rows]
    dig = jnp.asarray(DIGIT_ROWS)
    acc = {}
    x0 = art.DIGIT_CELL_X
    for i in range(6):
        v = jnp.where(score_v[i] & score_line, dig[score_d[i], sr], _U32(0))
        _place_static(acc, v, x0 + i * art.DIGIT_SPACING, 8)
    cells = [(temp_d[0], temp_v[0], 0), (temp_d[1], temp_v[1], 1), (lives_d[0], lives_v[0], 5)]
    for d, vis, cell in cells:
        v = jnp.where(vis & temp_line, dig[d, tr], _U32(0))
        _place_static(acc, v, x0 + cell * art.DIGIT_SPACING, 8)
    fish = jnp.where(magic & temp_line, jnp.asarray(FISH_ROWS)[tr], _U32(0))
    _place_static(acc, fish, x0 + 3 * art.DIGIT_SPACING, 8)
    deg = jnp.where(on & t["deg"][rows], jnp.asarray(DEGREE_ROWS)[jnp.asarray(t["deg_row"][rows])], _U32(0))
    _place_static(acc, deg, 38, 3)
    zero = jnp.zeros(rows.shape, _U32)
    return jnp.stack([jnp.broadcast_to(acc.get(k, zero), rows.shape) for k in range(_WORDS)], -1)


def _igloo_words(t, ys, blocks):
    ys = ys[t["igloo_rows"]]
    bk = jnp.asarray(_IGLOO)[jnp.clip(blocks + 1, 0, 16)]                 # (5, 3)
    words = 0
    for b in range(5):
        iy, ix, iw = bk[b, 0], bk[b, 1], bk[b, 2]
        on = (ys >= iy) & (ys < iy + 4) & (iw > 0)
        pat = jnp.where(iw >= 32, _U32(0xFFFFFFFF), (_U32(1) << jnp.clip(iw, 0, 31).astype(_U32)) - _U32(1))
        words = words | _place(jnp.where(on, pat, _U32(0)), jnp.broadcast_to(ix, ys.shape))
    return words


def _floe_words(t, s):
    rows = t["floe_rows"]
    fr = jnp.asarray(t["floe_r"][rows])
    shape = s.shown_shape
    p0 = s.floe_x[fr] + jnp.asarray(t["floe_shift"][rows]) + jnp.asarray(_FLOE_A)[shape]   # (n,)
    pat = jnp.broadcast_to(jnp.asarray(_FLOE_PATTERN)[shape], p0.shape)
    # the copies 32 and 64 px further are the same bits one and two words on (a 160-bit ring)
    return (_place(pat, p0, ring=True) | _place(pat, p0 + 32, ring=True)
            | _place(pat, p0 + 64, ring=True))


def _enemy_words(t, s, mono):
    rows = t["enemy_rows"]
    er = jnp.asarray(t["enemy_r"][rows])
    eff = (s.enemy_copies & window_mask(s.enemy_x))[er]                               # (H,)
    left = ((s.row_byte[er] & ROW_ENEMY_LEFT) != 0).astype(jnp.int32)
    grow = jnp.asarray(t["enemy_j"][rows]) - s.enemy_bob[er]
    on = grow >= 0
    if mono:
        pat = jnp.full(er.shape, 0xFF, _U32)
    else:
        pat = jnp.asarray(ENEMY_ROWS)[s.enemy_glyph[er], jnp.clip(grow, 0, 7), left]
    ex = s.enemy_x[er]
    words = 0
    for c in range(3):
        vis = on & (((eff >> (2 - c)) & 1) == 1)
        cx = (ex + art.ENEMY_COPY_SPACING * c) & 0xFF
        words = words | _place(jnp.where(vis, pat, _U32(0)), cx)
    return words


def _bear_words(t, s, game, mono):
    bear_on = (s.level_index >= BEAR_LEVEL_INDEX) & game.consts.bear
    line = jnp.asarray(t["bear_line"][t["bear_rows"]])
    flip = ((s.facing & BEAR_WALKS_RIGHT) != 0).astype(jnp.int32)
    if mono:
        pat = jnp.full(line.shape, 0xFFFF, _U32)
    else:
        pat = jnp.asarray(BEAR_ROWS)[s.bear_frame, jnp.clip(line, 0, art.BEAR_H - 1), flip]
    pat = jnp.where(bear_on, pat, _U32(0))
    return _place(pat, jnp.broadcast_to(bear_left(s), line.shape))


def draw_frame(game, s, raster):
    t = _tables(raster)
    mono = bool(game.consts.monochrome)
    night = ((s.level_index >> 2) & 1) == 1
    ys = jnp.asarray(raster.ys[:, 0])
    xs = jnp.asarray(raster.xs)
    col = lambda name: jnp.asarray(t[name])
    sel = lambda c, a, b: jnp.where(c, a, b)   # per-line colour selects, (H, C)
    line = lambda name: jnp.asarray(t[name])[:, None]

    # background colour of each line
    lfsr = s.sky_lfsr
    i = jnp.asarray(t["aurora_i"])
    rot = ((lfsr << i) | (lfsr >> (8 - i))) & 0xFF
    ac = jnp.asarray(t["aurora_col"])
    aurora = jnp.where((((rot >> 1) & 1) == 1)[:, None], ac[:, 1], ac[:, 0])       # (H, C)
    bg = jnp.zeros(aurora.shape, jnp.int32)
    bg = sel(line("sky"), sel(night, col("SKY_NIGHT"), col("SKY_DAY")), bg)
    bg = sel(line("aurora"), aurora, bg)
    bg = sel(line("shore"), sel(night, col("SHORE_NIGHT"), col("SHORE_DAY")), bg)
    bg = sel(line("water"), col("WATER"), bg)

    # one layer for the HUD, igloo, bear, enemies and floes (they never share a line)
    blink = (s.temperature < 10) & (s.flags == 0) & ((s.fc & 8) == 0)
    bands = [_hud_words(t, s, blink), _igloo_words(t, ys, s.shown_blocks), _bear_words(t, s, game, mono),
             _enemy_words(t, s, mono), _floe_words(t, s)]
    words = jnp.concatenate([render.materialize(b) for b in bands] + [jnp.zeros((1, _WORDS), _U32)],
                            axis=0)[jnp.asarray(t["band_perm"])]
    fr = jnp.asarray(t["floe_r"])
    er = jnp.asarray(t["enemy_r"])
    obj = sel(s.floe_white[fr][:, None], col("WHITE_FLOE"), col("BLUE_FLOE"))
    obj = sel(line("enemy"), col("ENEMY")[s.row_byte[er] & ROW_KIND], obj)
    obj = sel(line("bear"), sel(night, col("BEAR_NIGHT"), col("BEAR_DAY")), obj)
    obj = sel(line("igloo"), col("IGLOO"), obj)
    obj = sel(line("hud"), col("HUD"), obj)

    # Frostbite Bailey: whether a line is his (the kernel's row counter in range), his sprite row
    # and colour on it, then the kernel's mid-line writes (logic/kernel.py) and column shifts
    flip = ((s.facing & FACE_LEFT) != 0).astype(jnp.int32)
    his_rows = jnp.asarray(PLAYER_ROWS)[s.anim, :, flip]      # this frame's 19 rows, picked once
    top = s.y + PLAYER_SPRITE_TOP

    def his_line(lines):
        """Whether screen lines ``lines`` are his (H,) bool."""
        return ((lines - top >= 0) & (lines - top < PLAYER_LINES) & (s.y > 0)
                & (lines >= art.PLAYER_FIRST_LINE))

    def bailey_bits(lines):
        """Bailey's row bits (H,) on screen lines ``lines``."""
        row = lines - top - s.sink
        row_ok = his_line(lines) & (row >= 0) & (row < PLAYER_LINES)
        if mono:
            return jnp.where(row_ok, _U32(0xFF), _U32(0))
        return jnp.where(row_ok, his_rows[jnp.clip(row, 0, PLAYER_LINES - 1)], _U32(0))

    def bailey_colour(lines):
        """Bailey's colour (H, C) on screen lines ``lines``."""
        strip = (jnp.asarray(art.PLAYER_COLOUR_BASE)[s.anim] + s.sink + s.frozen
                 + PLAYER_LINES - 1 - (lines - top))
        return col("PLAYER_STRIP")[jnp.clip(strip, 0, len(art.PLAYER_COLOUR_STRIP) - 1)]

    his, pbits, pcol = his_line(ys), bailey_bits(ys), bailey_colour(ys)
    his1, bits1, col1 = his_line(ys - 1), bailey_bits(ys - 1), bailey_colour(ys - 1)
    his2, his_next, next_col = his_line(ys - 2), his_line(ys + 1), bailey_colour(ys + 1)
    # a stale line not his repeats the registers as the last line that wrote them left them: his last
    # row, one or (after another stale line) two lines up (his lines are contiguous, so that line is
    # his bottom one: its row and colour are worked out once per frame)
    bottom = jnp.reshape(top + PLAYER_LINES - 1, (1,))
    last_bits, last_col = bailey_bits(bottom), bailey_colour(bottom)
    stale = jnp.asarray(t["stale"]) & ~his
    from2 = jnp.asarray(t["stale_twice"]) & ~his1 & his2
    line_bits = jnp.where(his, pbits, jnp.where(stale & his1, bits1, jnp.where(stale & from2, last_bits, _U32(0))))
    line_col = jnp.where((his | ~stale)[:, None], pcol, jnp.where(his1[:, None], col1, last_col))
    # Each mid-line write splits the line at one x (logic/kernel.py), so every choice below is a per-line
    # threshold, and a pixel only compares its x with it. Left of a late graphic write (or of the
    # clearing on a line not his) the line above's graphic, in this line's colour when his (written
    # before it), else in the line above's; left of a late colour write the colour the line above
    # left: its own, or black from the line that clears it when not his; from an early colour write
    # on, the next line's colour when that line is his (x _NOWHERE: nowhere). No line has both a late
    # graphic and a late colour write, and every early write is right of them (checked at import), so
    # a line's Bailey shows one colour left of ``left_x``, another from ``early_x`` on, his line's between.
    left_x = jnp.where(his, jnp.asarray(t["late_graphic_x"]), jnp.asarray(t["clear_graphic_x"]))
    late_col = jnp.where((jnp.asarray(t["after_black"]) & ~his1)[:, None], col("BLACK"), col1)
    late_line = jnp.asarray(t["late_colour_line"])
    left_col = jnp.where(late_line[:, None], late_col, jnp.where(his[:, None], pcol, col1))
    split_x = jnp.where(late_line, jnp.where(his, jnp.asarray(t["late_colour_x"]), 0), left_x)
    early_x = jnp.where(his & his_next, jnp.asarray(t["early_colour_x"]), _NOWHERE)
    # his 8 columns' bits, the line above's left of the late graphic write: one row per line, so a
    # pixel reads bit (x - his x) of it (a shift of 8 or more, or of a negative amount as uint32, is 0)
    left_n = jnp.clip(left_x - s.x, 0, 8).astype(_U32)
    left_mask = (_U32(1) << left_n) - _U32(1)
    shown_bits = (bits1 & left_mask) | (line_bits & ~left_mask)

    # compose: background, object layer, door, Bailey. The per-line values must be computed once per
    # line, not once per pixel: XLA fuses cheap elementwise chains into their consumer (and would
    # repeat each line's few hundred operations for every pixel of it), so each is materialised
    # (jaxtari.xla.materialize).
    # RGB is composed as one uint32 a pixel (the three bytes of its colour), split into channels at the
    # end, so each choice is made once per pixel and not once per channel; grey as one byte
    rgb = raster.channels == 3
    if rgb:
        pack = lambda a: (a[..., 0].astype(_U32) | (a[..., 1].astype(_U32) << 8)
                          | (a[..., 2].astype(_U32) << 16))
        pack_np = lambda a: (a[..., 0].astype(np.uint32) | (a[..., 1].astype(np.uint32) << 8)
                             | (a[..., 2].astype(np.uint32) << 16))
    else:
        pack = lambda a: a[..., 0].astype(jnp.uint8)
        pack_np = lambda a: a[..., 0].astype(np.uint8)
    bg, obj, line_col, left_col, next_col = (pack(v) for v in (bg, obj, line_col, left_col, next_col))
    shown_bits, bg, obj, line_col, left_col, next_col, split_x, early_x = (
        render.materialize(v) for v in (shown_bits, bg, obj, line_col, left_col, next_col, split_x, early_x))
    c = (xs - s.x).astype(_U32)                                                     # (1, W)
    player = ((shown_bits[:, None] >> c) & _U32(1)) != 0
    # the door of the complete igloo is black; on night levels it flashes when bit 3 of the frame
    # counter and of the random byte the picture used agree (measured on ALE frames)
    door_on = s.blocks == FULL_IGLOO
    flash = night & (((s.fc ^ s.sky_lfsr) & 8) == 0)
    img = jnp.where(_expand(t, words), obj[:, None], bg[:, None])
    door_colour = jnp.where(flash, pack_np(t["DOOR_FLASH"]), pack_np(t["DOOR"]))
    img = jnp.where(jnp.asarray(t["door"]), jnp.where(door_on, door_colour, img), img)
    pcolour = jnp.where(xs < split_x[:, None], left_col[:, None],
                        jnp.where(xs >= early_x[:, None], next_col[:, None], line_col[:, None]))
    img = jnp.where(player, pcolour, img)
    # the Activision logo (static) over its lines, the black bar of the left 8 columns
    r0, r1 = t["logo_rows"]
    logo = jnp.where(t["logo_mask"][..., 0], pack_np(t["logo_col"]), img[r0:r1])
    img = jnp.concatenate([img[:r0], logo, img[r1:]], axis=0)
    img = jnp.where(jnp.asarray(t["bar"]), img.dtype.type(0), img)
    if rgb:
        img = ((img[..., None] >> jnp.asarray([0, 8, 16], _U32)) & _U32(0xFF)).astype(jnp.uint8)
    return img
