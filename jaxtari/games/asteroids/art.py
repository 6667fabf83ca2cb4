"""Asteroids' picture facts, measured on ale-py 0.12.1 ``getScreenRGB()`` frames of random games
(sticky actions off, default mode): each sprite below is the set of lit pixels found on every ALE
frame showing it, relative to the position named (alignment/reference/games/asteroids/NOTES.md, "The picture").
Colours are NTSC palette entries (the TIA colour byte named; disassembly COLORS_PLAYER1_SCORE,
COLORS_PLAYER1_SHIP, ...)."""

from __future__ import annotations

from jaxtari.atari.fonts import DIGITS_3X5
from jaxtari.atari.palette import PALETTE

BACKGROUND = (0, 0, 0)
SCORE_RGB = (184, 50, 50)        # colour byte 0x44 (disassembly COLORS_PLAYER1_SCORE = RED + 4)
SHIP_RGB = (240, 128, 128)       # 0x4C (COLORS_PLAYER1_SHIP = RED + 12); the first shot too
SECOND_SHOT_RGB = (117, 181, 239)  # 0x9C, measured: the second shot slot's colour

# ---- the score and the lives (playfield digits) ---------------------------------------------------
# Each digit is 3 cells by 5 rows, a cell 4 pixels wide and 2 lines high, lines 5..14. The score's
# five digits (ten thousands .. tens) start at x 4, 20, 36, 52, 68, leading zeros blank but the
# tens always drawn ("0" at reset); a sixth, always 0, is not drawn. The lives digit at x 132.
# Measured on every frame of random games; 7 read from the disassembly's NumberFonts (stored
# bottom row first, mirrored), never shown in those games.
# Atari's 3x5 font (jaxtari.atari.fonts, as Pong and Breakout draw it) but for its "1", which
# here has a foot and a flag.
ONE = (".#.", "##.", ".#.", ".#.", "###")
DIGIT_FONT = (DIGITS_3X5[0], ONE, *DIGITS_3X5[2:])
DIGIT_TOP = 5
DIGIT_CELL_W, DIGIT_CELL_H = 4, 2
SCORE_DIGIT_X = (4, 20, 36, 52, 68)
LIVES_DIGIT_X = 132

# ---- the ship (ship frames only) --------------------------------------------------------------------
# 8 columns by 5 rows of 2 lines, by heading (0 up, +1 anticlockwise); column 0 at the position
# code's pixel + 5, first line 2y + 18 plus one when the y subpixel's top bit (ram[76] bit 7) is
# set. Lines wrap inside the play area (lines 18.. 18 + 2 * 89).
SHIP = (
    ("...#....", "...#....", "..###...", "..###...", ".#####.."),
    ("..#.....", "..##....", "..###...", "..####..", "..##...."),
    (".#......", "..##....", "..####..", "...##...", "...#...."),
    ("........", ".#......", "..#####.", "...###..", "....##.."),
    (".....#..", "...###..", "######..", "...###..", ".....#.."),
    ("....##..", "...###..", "..#####.", ".#......", "........"),
    ("...#....", "...##...", "..####..", "..##....", ".#......"),
    ("..##....", "..####..", "..###...", "..##....", "..#....."),
    ("..#####.", "...###..", "...###..", "....#...", "....#..."),
    ("....##..", "..####..", "...###..", "....##..", ".....#.."),
    ("....#...", "...##...", "..####..", "....##..", "......#."),
    ("..##....", "..###...", ".#####..", "......#.", "........"),
    ("..#.....", "..###...", "..######", "..###...", "..#....."),
    ("........", "......#.", ".#####..", "..###...", "..##...."),
    ("......#.", "....##..", "..####..", "...##...", "....#..."),
    (".....#..", "....##..", "...###..", "..####..", "....##.."),
)
# the explosion (measured): drawn in the ship's place and colour while the feature timer ram[94]
# is 129..133, by (timer >> 1) & 3 (129: 0, 130-131: 1, 132-133: 2)
EXPLOSION = (
    ("...#....", "......#.", "....#...", "..#...#.", "....#..."),
    ("....#...", "...#....", "#.......", ".....#..", "#.#...#."),
    ("..#.....", "#......#", "..#...#.", "...#....", ".....#.."),
)
EXPLOSION_STEP_SHIFT, EXPLOSION_STEP_MASK = 1, 3
SHIP_DX = 5
SHIP_TOP = 18
SHIP_LINES_PER_ROW = 2
SUBPIXEL_HALF = 0x80
PLAY_TOP = 18
PLAY_LINES = 2 * 89
PLAY_BOTTOM = 195                # measured: no ship line drawn from line 195 on
# measured: a ship above the top (y 251..255) shows none of its 2-line rows that start above line 18
# a shot: one pixel wide, two lines, at the position code's pixel + 7, lines 2y + 17 (no wrap)
SHOT_DX = 7
SHOT_TOP = 17
SHOT_LINES = 2
# measured: a shot or the ship at a code of coarse value 3 (low nibble 3, the left edge) shows 2
# pixels west of its pixel (the shared-pixel codes 0x83, 0x93 among them)
EDGE_COARSE, EDGE_SHOT_DX = 3, -2
# measured: the first slot's shot wrapped past the right edge onto columns 0..3 (codes 0xBA, 0xDA,
# 0xEA seen) shows one line lower; at column 5 (0x9A) and at 159 (0xFA) it does not, nor does the
# second slot's
EDGE_LOWER_COLUMNS = 4

# ---- the asteroids (asteroid frames only) -----------------------------------------------------------
# The kernel draws each list with one player (the up list P0, the down list P1, P0 in front), one
# sprite row per 2-line kernel row, by the asteroid's kind (attribute bits 4-6: hit and size).
# Sprites and per-row moves: disassembly AsteroidSprites and HorizMoveSizeTable (16 bytes a kind);
# every pixel re-checked on ALE frames (tests/games/test_asteroids_draw.py). Rows by kind: large
# (two shapes), medium, small, then the debris of each (drawn while the hit bit is set).
ASTEROID_SPRITES = (
    ("........", "...#....", "...###..", "...####.", "..#####.", "..######", ".#######", "########",
     ".#######", "########", ".#######", "..#####.", "..#####.", "...###..", "....##.."),
    ("........", "..####..", ".######.", ".#######", "..######", ".#######", "########", "#######.",
     "#######.", ".#######", ".#######", "..######", "..#####.", "..#####.", "...###.."),
    ("...##...", "..####..", ".######.", "########", "########", ".######.", "....##.."),
    (".##.....", "####....", "####....", "..#....."),
    ("#.#.....", ".....#..", ".#......", "....#..#", "..#.....", "........", "#...#...", ".......#",
     "...#....", ".#......", "...#...#"),
    (".#..#...", "......#.", "..#.....", "#...#...", ".......#", ".#......", "...#.#..", ".#......",
     "........", "..#....#", "#....#.."),
    (".#.#....", "......#.", "..#.....", "#......#", ".....#..", ".#......", "...#....", ".#.....#"),
    (".#......", "...#....", "#.......", "..#....."),
)
# The move each row's HMOVE makes before the row is drawn (TIA HMxx: +1 one pixel west), the
# large kinds' zig-zag outline; 0 for the others.
ASTEROID_ROW_MOVES = (
    (0, 0, 1, 0, 0, 0, 0, -1, 1, -1, 1, -1, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0),
)
# The table's ASTEROID_HORIZ_ADJ bit by row: an asteroid entering the kernel above the top starts
# at a later row, and when that row's bit is clear the cartridge starts it one pixel further west
# (disassembly DetermineUp/DownAsteroidKernelVector). Set on every row of the other kinds.
ASTEROID_ROW_ADJUST = (
    (1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1),
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1),
)
ASTEROID_DOUBLE_KINDS = 2    # kinds 0 and 1 (large) are drawn double width (NUSIZ 5)
ASTEROID_KINDS = 8
ASTEROID_SPRITE_ROWS = 16    # each kind's 16-byte slot in the tables
# disassembly AsteroidColorTable (NTSC: WHITE - 2, RED + 4, DK_BLUE + 12, YELLOW + 8, RED_ORANGE + 6,
# PURPLE + 6, ULTRAMARINE_BLUE + 6, ORANGE_GREEN + 6), by attribute bits 0-2; the RGB is ALE's
# palette's, each re-checked on ALE frames showing that colour index
ASTEROID_COLOUR_BYTES = (0x0C, 0x44, 0x9C, 0x18, 0x26, 0x56, 0x76, 0xE6)
ASTEROID_RGB = tuple(tuple(int(v) for v in PALETTE[b >> 1]) for b in ASTEROID_COLOUR_BYTES)
