"""Where Frostbite's objects are on screen, pixel by pixel: the sprite masks (captured from ALE
frames, see art.py) and the geometry the collisions and the picture share."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from jaxtari.atari.screen import SCREEN_W
from jaxtari.games.frostbite import art
from jaxtari.games.frostbite.constants import (
    BEAR_MIRROR_SHIFT, BEAR_WALKS_RIGHT, BEAR_X_OFFSET, FACE_LEFT, PLAYER_SPRITE_TOP, PLAYER_W,
)
from jaxtari.games.frostbite.logic.sprites import (
    BEAR_BITS, ENEMY_ROWS, FLOE_PIECE_START, FLOE_PIECE_W, PLAYER_BITS, PLAYER_LINES,
)

SCREEN_WINDOW = (6, 4, 0, 0, 0, 0, 1, 3)  # (x - 128) >> 4 for x >= 128; all copies below 128
# A row whose enemy has no copy on screen (gone off an edge, or every fish of it eaten) is still drawn:
# the cartridge's DetermineObstacleNUSIZValues gives pattern 0 one copy (ONE_COPY) at kernel x 0,
# which the kernel places at screen x 0, under the HMOVE bar - unseen, but the TIA tests collisions
# there. Measured on ALE 0.12.1: at the start, every enemy off screen, Bailey standing on a row at
# x 153..159 (his columns wrapped) or 0..7 (how far by glyph and facing) meets the row's enemy in
# ram[56], for geese, fish, crabs and clams, whatever ram[92+i] holds; over 7,488 such pokes
# (x 148..159 and 0..13, every row, both facings and directions) every mirrored byte equals ALE's
# (tests/games/test_frostbite.py: test_parked_enemy_under_the_hmove_bar_meets_bailey_as_on_ale).
PARKED_X, PARKED_COPIES = 0, 0b100


def window_mask(enemy_x):
    idx = jnp.clip((enemy_x - 128) >> 4, 0, 7)
    return jnp.where(enemy_x < 128, 7, jnp.asarray(SCREEN_WINDOW, jnp.int32)[idx])


def _bands_met(tops, lines):
    """Most bands (tops, ``lines`` high) that a PLAYER_LINES-high window on any line meets."""
    a = np.arange(-PLAYER_LINES, 256)[:, None]
    return int(((np.asarray(tops) < a + PLAYER_LINES) & (np.asarray(tops) + lines > a)).sum(1).max())


# The collisions test one floe band and one enemy band only: Bailey cannot meet two at once.
assert _bands_met(art.FLOE_TOP_Y, art.FLOE_LINES) == 1 and _bands_met(art.ENEMY_TOP_Y, art.ENEMY_LINES) == 1
assert art.FLOE_COPY_SPACING == 32 and art.FLOE_COPIES == 3 and FLOE_PIECE_W.max() <= 32  # floe_lit


def player_pixels(anim, sink, facing, x, y, line_y):
    """Bailey's lit pixels on screen lines ``line_y`` (any shape ...): (..., 8) bool and their x."""
    row = line_y - (y + PLAYER_SPRITE_TOP) - sink
    ok = (row >= 0) & (row < PLAYER_LINES) & (line_y - (y + PLAYER_SPRITE_TOP) < PLAYER_LINES)
    bits = jnp.asarray(PLAYER_BITS)[anim, jnp.clip(row, 0, PLAYER_LINES - 1)]        # (..., 8)
    bits = jnp.where((facing & FACE_LEFT) != 0, bits[..., ::-1], bits)
    return bits & ok[..., None], x + jnp.arange(PLAYER_W)


def floe_lit(floe_x, shape, px, missile_from=0):
    """Whether screen x ``px`` (..., 8) is ice on each floe line: floe_x, shape broadcast; the
    second piece (missile 1) lights only from screen x ``missile_from`` (..., ) on (the band's
    first line enables it late: kernel.FLOE_MISSILE_FIRST_LINE_X)."""
    # (px - start - 32c) % 160 < w for some copy c < 3  <=>  r = (px - start) % 160 lies in
    # [32c, 32c + w): r < 96 and r % 32 < w (w <= 32, 64 + w <= 160), one remainder for all copies
    starts = floe_x[..., None] + jnp.asarray(FLOE_PIECE_START)[shape]       # (..., 2)
    widths = jnp.asarray(FLOE_PIECE_W)[shape][..., None, :]
    rel = (px[..., None] - starts[..., None, :]) % 160                     # (..., 8, 2)
    lit = (rel < art.FLOE_COPY_SPACING * art.FLOE_COPIES) & ((rel & 31) < widths)
    enabled = (px % SCREEN_W) >= jnp.asarray(missile_from)[..., None]       # (..., 8)
    return lit[..., 0] | (lit[..., 1] & enabled)


def enemy_lit(enemy_x, copies, glyph, bob, left, line, px, parked=True):
    """Enemy pixels at px (rows, lines, 8) for enemy band line index ``line`` (rows, lines); with
    ``parked``, a row with no copy on screen has one at x 0, under the HMOVE bar (PARKED_X)."""
    eff = copies & window_mask(enemy_x)                                  # (4,)
    none = (eff == 0) & parked
    eff = jnp.where(none, PARKED_COPIES, eff)
    cx = (jnp.where(none, PARKED_X, enemy_x)[:, None] + art.ENEMY_COPY_SPACING * jnp.arange(3)) & 0xFF
    vis = ((eff[:, None] >> (2 - jnp.arange(3))) & 1) == 1
    grow = line - bob[:, None]                                           # (4, L)
    # the parked copy meets Bailey's columns that wrap past x 159 (the others lie on screen)
    px = jnp.where(none[:, None, None], px % SCREEN_W, px)
    rel = px[:, :, :, None] - cx[:, None, None, :]                       # (4, L, 8, 3)
    inside = (rel >= 0) & (rel < 8) & vis[:, None, None, :] & (grow >= 0)[:, :, None, None]
    # the glyph row as bits (mirrored when moving left), bit = pixel offset from the copy's x
    row = jnp.asarray(ENEMY_ROWS)[glyph[:, None], jnp.clip(grow, 0, 7), left.astype(jnp.int32)[:, None]]
    bits = ((row[:, :, None, None] >> jnp.clip(rel, 0, 7).astype(jnp.uint32)) & 1) != 0
    return jnp.any(bits & inside, axis=-1)


def bear_left(state):
    """Screen x of the bear's 16-px box: ram[104] + 3, 4 px further left when it walks right
    (the mirrored double-width sprite lands there; measured on ALE frames)."""
    walks_right = (state.facing & BEAR_WALKS_RIGHT) != 0
    return state.bear_x + BEAR_X_OFFSET - jnp.where(walks_right, BEAR_MIRROR_SHIFT, 0)


def bear_lit(state, px):
    """Whether the bear lights screen x ``px`` (..., ) on each of its lines: (BEAR_H, ...) bool."""
    rel = px - bear_left(state)
    col = jnp.where((state.facing & BEAR_WALKS_RIGHT) != 0, art.BEAR_W - 1 - rel, rel)
    inside = (rel >= 0) & (rel < art.BEAR_W)
    return jnp.asarray(BEAR_BITS)[state.bear_frame][:, jnp.clip(col, 0, art.BEAR_W - 1)] & inside


def enemy_screen_x(state):
    """x of the first visible copy of each row's enemy, as ram[84+i] holds it (0 when none)."""
    eff = state.enemy_copies & window_mask(state.enemy_x)
    offset = jnp.asarray([0, 32, 16, 16, 0, 0, 0, 0], jnp.int32)[eff]
    x = (state.enemy_x + offset) & 0xFF
    x = jnp.where(x >= 0xA0, x - 0x60, x)
    return jnp.where(eff == 0, 0, x)
