"""Asteroids' picture facts, measured on ale-py 0.12.1 ``getScreenRGB()`` frames of random games
(sticky actions off, default mode): each sprite below is the set of lit pixels found on every ALE
frame showing it, relative to the position named (ports/asteroids/NOTES.md, "The picture").
Colours are NTSC palette entries (the TIA colour byte named; disassembly COLORS_PLAYER1_SCORE,
COLORS_PLAYER1_SHIP, ...)."""

from __future__ import annotations

from jaxtari.atari.fonts import DIGITS_3X5

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
