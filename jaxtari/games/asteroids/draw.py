"""Asteroids' picture at 210x160 RGB (``render``, as ALE's ``getScreenRGB()``) or 84x84 grey
(``render_gray84``, drawn directly: every target pixel samples the screen pixel
``jaxtari.render.SMALL_GRAY`` names, no resize), from one drawing routine.

The cartridge alternates pictures (measured, NOTES.md): after a frame whose counter is odd the
screen shows the asteroids, after an even one the ship and its shots; the score and lives digits
are on every frame. The kernel draws with the bytes as they were before the frame's overscan
(``AsteroidsState.screen``). The asteroids are drawn by a model of the cartridge's two-list kernel
(:func:`kernel_rows`). Exact on every frame of whole games, both kinds of frame
(tests/games/test_asteroids_draw.py)."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import render as raster_lib

from . import art
from . import constants as c
from .logic.onehot import by_platform, take, take_onehot

NIBBLE = 4
NIBBLE_MASK = 0x0F
BYTE = 256
SIGNED_FROM = 128
MAX_DIGIT = 9

_FONT = raster_lib.art_mask(art.DIGIT_FONT)          # (10, 5, 3)
_SHIP = raster_lib.art_mask(art.SHIP)                # (16, 5, 8)
_EXPLOSION = raster_lib.art_mask(art.EXPLOSION)      # (3, 5, 8)
# one table: the 16 headings, then the explosion's steps
_SHIP_TABLE = np.concatenate([_SHIP, _EXPLOSION])
_FINE = np.asarray(c.FINE_PIXELS, np.int32)
_COARSE = np.asarray(c.COARSE_PIXELS, np.int32)


def pixel(code):
    """The screen column of a horizontal position code (the collision code's reading)."""
    code = jnp.asarray(code, jnp.int32)
    return (take(_FINE, code >> NIBBLE) + take(_COARSE, code & NIBBLE_MASK)) % c.SCREEN_WIDTH


def _signed(byte):
    return jnp.where(byte >= SIGNED_FROM, byte - BYTE, byte)


def _sprite_mask_by_index(table, which, row, col):
    """:func:`_sprite_mask` as a per-pixel lookup (the CPU's form)."""
    rows, cols = table.shape[1:]
    inside = (row >= 0) & (row < rows) & (col >= 0) & (col < cols)
    lit = jnp.asarray(table)[which, jnp.clip(row, 0, rows - 1), jnp.clip(col, 0, cols - 1)]
    return lit & inside


def _sprite_mask_by_onehot(table, which, row, col):
    """:func:`_sprite_mask` through one-hot masks of the sprite's rows per raster row and of its
    columns per raster column (the accelerator's form: no per-pixel gather, issue 45)."""
    sprite = take_onehot(table, which)                                 # (rows, cols)
    rows_hot = row == jnp.arange(sprite.shape[0])                      # (H, rows)
    cols_hot = col[0][None, :] == jnp.arange(sprite.shape[1])[:, None]   # (cols, W)
    lines = jnp.any(rows_hot[:, :, None] & sprite[None], axis=1)       # (H, cols)
    return jnp.any(lines[:, :, None] & cols_hot[None], axis=1)


def _sprite_mask(table, which, row, col):
    """(H, W) bool: sprite ``which`` of ``table`` (sprites, rows, cols) at each raster row's sprite
    row ``row`` (H, 1) and each column's sprite column ``col`` (1, W); false where either is
    outside the sprite."""
    return by_platform(functools.partial(_sprite_mask_by_index, table),
                       functools.partial(_sprite_mask_by_onehot, table), which, row, col)


def _digits_mask(raster, values, xs0, blank):
    """(H, W) bool: digits ``values`` (n,) at columns ``xs0`` (n,), those in ``blank`` hidden."""
    ys, xs = np.asarray(raster.ys), np.asarray(raster.xs)            # (H, 1), (1, W)
    row = (ys - art.DIGIT_TOP) // art.DIGIT_CELL_H
    mask = jnp.zeros((raster.height, raster.width), bool)
    for i in range(len(xs0)):
        col = np.where(xs >= xs0[i], (xs - xs0[i]) // art.DIGIT_CELL_W, -1)
        lit = _sprite_mask(_FONT, values[i], row, col)
        mask = mask | (lit & ~blank[i])
    return mask


def _score_mask(raster, state):
    thousands, tens = state.screen.score[0], state.screen.score[1]
    digits = jnp.stack([thousands >> NIBBLE, thousands & NIBBLE_MASK, tens >> NIBBLE,
                        tens & NIBBLE_MASK, jnp.int32(0)])
    # leading zeros are blank; the last (tens of points, always drawn) is the RAM's zero unit
    shown = jnp.cumsum(digits != 0) > 0
    blank = ~jnp.concatenate([shown[:-1], jnp.ones((1,), bool)])
    values = jnp.concatenate([digits, jnp.minimum(state.screen.lives, MAX_DIGIT)[None]])
    blank = jnp.concatenate([blank, jnp.zeros((1,), bool)])
    return _digits_mask(raster, values, art.SCORE_DIGIT_X + (art.LIVES_DIGIT_X,), blank)


def _play_line(raster, top):
    """(H, 1) the line of each raster row counted from ``top`` inside the wrapping play area,
    and whether the row is in the play area at all."""
    ys = jnp.asarray(raster.ys)
    line = (ys - top) % art.PLAY_LINES
    # a 2-line row that starts above the play area is not drawn at all
    row_start = ys - line % art.SHIP_LINES_PER_ROW
    inside = (ys >= art.PLAY_TOP) & (ys < art.PLAY_BOTTOM) & (row_start >= art.PLAY_TOP)
    return line, inside


def _ship_mask(raster, state):
    s = state.ship
    y = state.screen.ship_y
    top = art.SHIP_TOP + 2 * _signed(y) + (s.subpixel[1] >= art.SUBPIXEL_HALF)
    line, inside = _play_line(raster, top)
    edge = jnp.where((s.x_code & NIBBLE_MASK) == art.EDGE_COARSE, art.EDGE_SHOT_DX, 0)
    dx = (jnp.asarray(raster.xs) - pixel(s.x_code) - art.SHIP_DX - edge) % c.SCREEN_WIDTH
    row = line // art.SHIP_LINES_PER_ROW
    timer = state.player.feature_timer
    # the timer is set to 128 in the overscan, after the picture: the ship is still whole then
    exploding = timer > c.EXPLODING
    step = (timer >> art.EXPLOSION_STEP_SHIFT) & art.EXPLOSION_STEP_MASK
    which = jnp.where(exploding, c.ROTATIONS + step, s.rotation)
    lit = _sprite_mask(_SHIP_TABLE, which, row, dx)
    drawn = y != c.OFF_SCREEN_Y
    return lit & inside & drawn


def shot_place(ship_state, i):
    """Shot slot ``i``'s screen column and first line (2 lines, 1 pixel): slot 0 wrapped past the
    right edge onto columns 0..3 shows one line lower (measured, art.EDGE_LOWER_COLUMNS)."""
    code, y = ship_state.shot_x[..., i], ship_state.shot_y[..., i]
    dx = art.SHOT_DX + jnp.where((code & NIBBLE_MASK) == art.EDGE_COARSE, art.EDGE_SHOT_DX, 0)
    x = pixel(code) + dx
    top = art.SHOT_TOP + 2 * y
    if i == 0:
        top = top + ((x >= c.SCREEN_WIDTH) & (x < c.SCREEN_WIDTH + art.EDGE_LOWER_COLUMNS))
    return x % c.SCREEN_WIDTH, top


def _shot_mask(raster, state, i):
    x, top = shot_place(state.ship, i)
    line = jnp.asarray(raster.ys) - top
    col = jnp.asarray(raster.xs) == x
    # the kernel ends on line 194: a shot at the bottom pushed a line lower loses its second line
    # (measured in the gunner's game: slot 0 at y 88, code 0xEA)
    kernel = jnp.asarray(raster.ys) < art.PLAY_BOTTOM
    return (line >= 0) & (line < art.SHOT_LINES) & col & kernel & (state.ship.shot_y[i] != c.OFF_SCREEN_Y)


# ---- the asteroid kernel ---------------------------------------------------------------------------
# Each list is drawn by a small state machine stepped once per 2-line kernel row (disassembly
# UpMovingAsteroidKernel / DownMovingAsteroidKernel and their branches): it WAITs until the row
# equals its next asteroid's y, POSITIONs the player on the next row (RESPx at a cycle set by the
# code's coarse count and side, then the code's fine HMOVE), then DRAWs one sprite row per kernel
# row, each moved by its table entry, until the kind's table ends, and then waits for the next
# asteroid of its list. An asteroid whose y has passed by then is not drawn this frame, and neither
# is anything after it in its list (the overlap flicker).
WAIT, POSITION, DRAW = 0, 1, 2
KERNEL_FIRST_ROW = -1            # disassembly StartAsteroidsKernel: the row counter starts at $FF
KERNEL_ROWS = c.PLAY_HEIGHT + 1  # rows -1..88
ROW_BYTE = 0xFF
SIGNED_FROM_ROW = 0x80
# RESPx cycles (disassembly UpMovingAsteroidOnLeft/OnRight): the left half's loop strobes at cycle
# 24 + 5 (count - 1) for counts 1..6, the right half's at 53 + 5 (count - 1) for 1..5; the loop
# falls through to its last strobe for any other count.
LEFT_FIRST_CYCLE, RIGHT_FIRST_CYCLE, CYCLES_PER_COUNT = 24, 53, 5
LEFT_COUNTS, RIGHT_COUNTS = 6, 5
PIXELS_PER_CYCLE = 3
COARSE_SHIFT, COARSE_MASK, SIDE_BIT = 1, 7, 1
# measured: a player strobed at cycle n shows its first pixel at 3n - 63 (one-copy), 3n - 62
# (double width: the TIA draws double and quad players one pixel later)
RESP_OFFSET, DOUBLE_OFFSET = -63, -62
# measured: the up list's rows show on lines 2Y + 18 and 2Y + 19, the down list's on 2Y + 19 and
# 2Y + 20; nothing from line 195 on (the kernel's last row ends on 194)
UP_ROW_LINE, DOWN_ROW_LINE = 18, 19
KERNEL_LAST_LINE = 194
SPRITE_BITS = 8
FINE_ADJUST = 0x10               # one more HMOVE step west, added to the code's fine nibble


def _kind_table(rows, fill):
    out = np.full((art.ASTEROID_KINDS, art.ASTEROID_SPRITE_ROWS), fill, np.int32)
    for k, r in enumerate(rows):
        out[k, :len(r)] = r
    return out


_ROWS = np.asarray([len(s) for s in art.ASTEROID_SPRITES], np.int32)
_SPRITE_BYTES = _kind_table(
    [[int(row.replace("#", "1").replace(".", "0"), 2) for row in s] for s in art.ASTEROID_SPRITES], 0)
_ROW_MOVES = _kind_table(art.ASTEROID_ROW_MOVES, 0)
_ROW_ADJUST = _kind_table(art.ASTEROID_ROW_ADJUST, 1)
_ASTEROID_RGB = np.asarray(art.ASTEROID_RGB, np.uint8)


# the ROM's HorizMoveSizeTable byte of a row: HMOVE nibble, the adjust bit, the NUSIZ size
ADJUST_BIT = 0x08
DOUBLE_NUSIZ = 5


def size_table() -> np.ndarray:
    """(kinds, 16) uint8: HorizMoveSizeTable as the ROM holds it, rebuilt from art.py (each
    kind's rows, then the 0 that ends them); tests/games/test_asteroids_draw.py finds it there."""
    out = np.zeros((art.ASTEROID_KINDS, art.ASTEROID_SPRITE_ROWS), np.uint8)
    for kind in range(art.ASTEROID_KINDS):
        nusiz = DOUBLE_NUSIZ if kind < art.ASTEROID_DOUBLE_KINDS else 0
        for row in range(_ROWS[kind]):
            move = _ROW_MOVES[kind, row] & NIBBLE_MASK
            out[kind, row] = move << NIBBLE | _ROW_ADJUST[kind, row] * ADJUST_BIT | nusiz
    return out


def _hm_signed(nibble):
    """A TIA HMxx nibble as the pixels it moves west (-8..7)."""
    return jnp.where(nibble >= 8, nibble - 16, nibble)


def strobe_pixel(code):
    """Where a RESPx at the kernel's cycle for ``code`` (coarse count and side) puts a one-copy
    player, before the fine HMOVE."""
    count = (code >> COARSE_SHIFT) & COARSE_MASK
    left = (code & SIDE_BIT) != 0
    k_left = jnp.where((count >= 1) & (count <= LEFT_COUNTS), count, LEFT_COUNTS)
    k_right = jnp.where((count >= 1) & (count <= RIGHT_COUNTS), count, RIGHT_COUNTS)
    cycle = jnp.where(left, LEFT_FIRST_CYCLE + CYCLES_PER_COUNT * (k_left - 1),
                      RIGHT_FIRST_CYCLE + CYCLES_PER_COUNT * (k_right - 1))
    return PIXELS_PER_CYCLE * cycle


def kernel_rows(field_memory, top_code):
    """Per kernel row (-1..88) and list (up, down): the sprite byte the row draws (0: none), the
    player's position before its offset, whether it is double width, and the colour index.
    ``field_memory`` is the field the kernel draws (after the moves, before the overscan),
    ``top_code`` the up list's first code as the kernel has it (AsteroidsState.screen)."""
    mem = jnp.asarray(field_memory, jnp.int32)
    size = mem.shape[0]
    first = jnp.asarray([c.UP_FIRST, c.DOWN_FIRST])

    def at(array, idx):
        return take(mem, jnp.clip(array + idx, 0, size - 1))

    y0, a0 = at(0, first), at(2 * c.FIELD_SLOTS, first)
    kind0 = (a0 >> c.ATTR_TYPE_SHIFT) & c.ATTR_TYPE_MASK
    # an asteroid above the top enters already positioned, at the sprite row the kernel's top cuts
    # (y -2 starts at row 0); y $FF is met by the first row's compare instead
    above = (y0 >= SIGNED_FROM_ROW) & (y0 != c.OFF_SCREEN_Y) & (y0 != ROW_BYTE)
    r0 = jnp.where(above, (BYTE - y0) - 2, 0)
    fine0 = jnp.stack([top_code, at(c.FIELD_SLOTS, first[1])])
    adjust = above & (take(_ROW_ADJUST, kind0, jnp.clip(r0, 0, art.ASTEROID_SPRITE_ROWS - 1)) == 0)
    fine0 = jnp.where(adjust, (fine0 + FINE_ADJUST) & ROW_BYTE, fine0)
    carry = dict(mode=jnp.where(above, POSITION, WAIT), idx=first, row=r0, x=jnp.zeros(2, jnp.int32),
                 code=fine0, kind=kind0, colour=a0 & c.ATTR_COLOUR_MASK)

    def step(s, y):
        ys = at(0, s["idx"])
        attributes = at(2 * c.FIELD_SLOTS, s["idx"])
        waiting, positioning, drawing = (s["mode"] == m for m in (WAIT, POSITION, DRAW))
        kind = jnp.where(waiting, (attributes >> c.ATTR_TYPE_SHIFT) & c.ATTR_TYPE_MASK, s["kind"])
        colour = jnp.where(waiting, attributes & c.ATTR_COLOUR_MASK, s["colour"])
        row = jnp.where(waiting, 0, s["row"])
        more = row < take(_ROWS, kind)
        safe_row = jnp.clip(row, 0, art.ASTEROID_SPRITE_ROWS - 1)
        placed = strobe_pixel(s["code"]) - _hm_signed(s["code"] >> NIBBLE)
        moved = s["x"] - take(_ROW_MOVES, kind, safe_row)
        shown = drawing & more
        done = drawing & ~more
        x = jnp.where(positioning, placed, jnp.where(shown, moved, s["x"]))
        sprite = jnp.where(shown, take(_SPRITE_BYTES, kind, safe_row), 0)
        nxt = s["idx"] + done
        mode = jnp.where(waiting, jnp.where((y & ROW_BYTE) == ys, POSITION, WAIT),
                         jnp.where(positioning, DRAW, jnp.where(done, WAIT, DRAW)))
        code = jnp.where(done, at(c.FIELD_SLOTS, nxt), s["code"])
        out = (sprite, x, kind < art.ASTEROID_DOUBLE_KINDS, colour)
        return dict(mode=mode, idx=nxt, row=row + shown, x=x, code=code, kind=kind,
                    colour=colour), out

    rows = jnp.arange(KERNEL_FIRST_ROW, KERNEL_FIRST_ROW + KERNEL_ROWS)
    return jax.lax.scan(step, carry, rows)[1]    # each (KERNEL_ROWS, 2)


def _asteroid_canvas(raster, state, canvas):
    rows = jnp.stack(kernel_rows(state.screen.field, state.screen.top_code), -1)  # (rows, 2, 4)
    rows = rows.astype(jnp.int32)
    ys, xs = np.asarray(raster.ys), jnp.asarray(raster.xs)         # (H, 1), (1, W)
    table = raster_lib.colour_for(raster, jnp.asarray(_ASTEROID_RGB))
    for lst, first_line in ((1, DOWN_ROW_LINE), (0, UP_ROW_LINE)):   # the up list's P0 in front
        k = (ys[:, 0] - first_line) // 2 - KERNEL_FIRST_ROW
        inside = jnp.asarray((k >= 0) & (k < KERNEL_ROWS) & (ys[:, 0] <= KERNEL_LAST_LINE))
        # each raster line's kernel row (a fixed map) read by a one-hot mask, not a gather
        line = take(rows[:, lst], jnp.asarray(np.clip(k, 0, KERNEL_ROWS - 1)))    # (H, 4)
        byte, x, dbl, colour = (line[:, i] for i in range(4))
        left = x + jnp.where(dbl == 1, DOUBLE_OFFSET, RESP_OFFSET)
        # the player wraps at the right edge: column 0 follows column 159 (no HMOVE bar on ALE)
        bit = ((xs - left[:, None]) % c.SCREEN_WIDTH) >> dbl[:, None]
        shift = SPRITE_BITS - 1 - jnp.minimum(bit, SPRITE_BITS - 1)
        lit = (bit < SPRITE_BITS) & (((byte[:, None] >> shift) & 1) == 1) & inside[:, None]
        col = take(table, colour)[:, None]                          # one colour per line
        canvas = jnp.where(lit[..., None] if canvas.ndim == 3 else lit, col, canvas)
    return canvas


def draw(raster, state):
    """The screen of ``state`` (the state after the frame) on ``raster``."""
    canvas = raster.blank(art.BACKGROUND)
    ship_frame = state.ship.count % c.LOGIC_PERIOD != c.ASTEROID_FRAME_PARITY
    canvas = jnp.where(ship_frame, canvas, _asteroid_canvas(raster, state, canvas))
    canvas = raster_lib.paint(canvas, _shot_mask(raster, state, 1) & ship_frame, art.SECOND_SHOT_RGB)
    canvas = raster_lib.paint(canvas, (_shot_mask(raster, state, 0) | _ship_mask(raster, state))
                          & ship_frame, art.SHIP_RGB)
    return raster_lib.paint(canvas, _score_mask(raster, state), art.SCORE_RGB)


@jax.jit
def render_rgb(state):
    return draw(raster_lib.FULL, state)


def render(state):
    """(210, 160, 3) uint8: ALE's ``getScreenRGB()`` after the frame that led to ``state``."""
    return render_rgb(state)


@jax.jit
def render_gray84(state):
    """(84, 84) uint8: the same picture drawn directly at 84x84 in ALE's grey levels."""
    return draw(raster_lib.SMALL_GRAY, state)
