"""Sprite art and screen layout of Frostbite, captured from ALE 0.12.1 frames (getScreenRGB).

Every mask below was read off real emulator frames by a capture script (FB animation frames
with ram[110] forced during the opening freeze, enemies with ram[17]/ram[96]/ram[92] forced,
igloo stages with ram[77] forced, floe shapes with ram[30] forced); colours are the exact RGB
values of those frames. The score digits are Activision's font (jaxtari.atari.fonts).
"""

from jaxtari.atari.fonts import DIGITS_8X8

# Frostbite Bailey: 6 animation frames (ram[110]), 19 rows from y = ram[100] + 28, 8 columns
# (bit order as drawn, unreflected). 0 stand, 1/0 walk, 2 = 3 jump, 4/5 sinking or freezing.
PLAYER_ART = (
    ('........', '.###....', '.####...', '#####...', '#######.', '#######.', '#######.', '.#####..', '.######.', '..####..', '.#####..', '.#.####.', '.#.####.', '.##.###.', '.###.##.', '.######.', '..##.##.', '..##.##.', '########'),
    ('.###....', '.####...', '#####...', '#######.', '#######.', '#######.', '.#####..', '.######.', '..####..', '.#####..', '.#.####.', '.#..###.', '.###.##.', '.######.', '.######.', '...###..', '...###..', '...###..', '########'),
    ('........', '........', '.###....', '.####...', '#####...', '#######.', '#######.', '#######.', '.######.', '..####..', '.#####..', '.#.####.', '.#....#.', '.######.', '.######.', '...#.#..', '.######.', '........', '........'),
    ('........', '........', '.###....', '.####...', '#####...', '#######.', '#######.', '#######.', '.######.', '..####..', '.#####..', '.#.####.', '.#....#.', '.######.', '.######.', '...#.#..', '.######.', '........', '........'),
    ('........', '...##...', '..####..', '..####..', '########', '########', '########', '.######.', '.##..##.', '.######.', '#.####..', '#.#####.', '####.###', '########', '.###.#.#', '.#####.#', '..####..', '..#..#..', '.######.'),
    ('........', '...##...', '..####..', '..####..', '########', '########', '########', '.######.', '.##..##.', '.##..##.', '..####.#', '.#####.#', '####.###', '########', '#.##.##.', '#.#####.', '..####..', '..#..#..', '.######.'),
)
# The first screen line Bailey can be drawn on: the kernel draws him only from the igloo's fifth
# line down, so jumping into the igloo he vanishes line by line into it (measured on ALE frames).
PLAYER_FIRST_LINE = 47
# Lines where the kernel writes Bailey's graphic (LATE_GRAPHIC_X) or colour (LATE_COLOUR_X) while
# the line is being drawn: left of that screen x the line still shows the previous line's value.
# {line: x}, measured on ALE frames (Bailey jumping onto the shore at its left end).
LATE_GRAPHIC_X = {**{line: 23 for line in range(47, 55)}, 77: 11}
LATE_COLOUR_X = {57: 16}
# Lines where the kernel writes the next line's colour of Bailey early: from that screen x on, the
# line shows it (the last line of each enemy band and the line after it, and the line after each
# floe band; measured on ALE frames, levels 6 to 8).
EARLY_COLOUR_X = {**{top + 7: 118 for top in (160, 134, 108, 82)},
                  **{top + 8: 109 for top in (160, 134, 108, 82)},
                  **{top + 8: 109 for top in (174, 148, 122, 96)}}
# Igloo stage k (ram[77] = k, 0..15): 4-line-tall bands (y, x, width), colour IGLOO_RGB.
IGLOO_BANDS = (
    ((51, 112, 8),),
    ((51, 112, 16),),
    ((51, 112, 24),),
    ((51, 112, 32),),
    ((47, 136, 8), (51, 112, 32)),
    ((47, 128, 16), (51, 112, 32)),
    ((47, 120, 24), (51, 112, 32)),
    ((47, 112, 32), (51, 112, 32)),
    ((43, 112, 8), (47, 112, 32), (51, 112, 32)),
    ((43, 112, 16), (47, 112, 32), (51, 112, 32)),
    ((43, 112, 24), (47, 112, 32), (51, 112, 32)),
    ((43, 112, 32), (47, 112, 32), (51, 112, 32)),
    ((39, 128, 12), (43, 112, 32), (47, 112, 32), (51, 112, 32)),
    ((39, 116, 24), (43, 112, 32), (47, 112, 32), (51, 112, 32)),
    ((35, 120, 16), (39, 116, 24), (43, 112, 32), (47, 112, 32), (51, 112, 32)),
    ((35, 120, 16), (39, 116, 24), (43, 112, 32), (47, 112, 32), (51, 112, 32)),
)
# The door of the complete igloo (the cartridge's second player sprite, over the igloo's bricks),
# its top-left corner at (DOOR_XY); measured on ALE frames with ram[77] = 15.
DOOR_XY = (123, 47)
DOOR_ART = ('.######.',) + ('########',) * 7
# Enemy glyphs [kind][anim] (kind 0 goose, 1 fish, 2 crab, 3 clam), 8x8, as drawn moving right
# (bit 7 of the row byte ram[17+i] clear); mirrored when moving left.
ENEMY_ART = (
    (
        ('......#.', '.....###', '######..', '.####...', '..##....', '.##.....', '##......', '........'),
        ('###..#..', '..##.##.', '######..', '.####...', '..##....', '.#......', '........', '........'),
    ),
    (
        ('#..###..', '##..###.', '.#####.#', '..######', '.######.', '##..####', '#..###..', '........'),
        ('....##..', '##.####.', '######.#', '..######', '########', '##.####.', '....##..', '........'),
    ),
    (
        ('#......#', '#.#..#.#', '##....##', '#......#', '#.####.#', '.##.#.#.', '###.#.##', '########'),
        ('.#....#.', '###..###', '##....##', '#......#', '#.####.#', '.##.#.#.', '###.#.##', '########'),
    ),
    (
        ('..####..', '.######.', '#.#.#.##', '#.......', '#.......', '##.#.#.#', '.######.', '..####..'),
        ('..####..', '.######.', '########', '#.#.#.##', '##.#.#.#', '########', '.######.', '..####..'),
    ),
)
ENEMY_RGB = ((132, 144, 252), (111, 210, 111), (213, 130, 74), (210, 210, 64))

# Floe shape per ram[30] (0..15): the two pieces (offset from the floe x ram[31+i], width) of each
# of the three floes of a row (floes repeat every 32 px); 8 = whole 16-px floes. Each of the 7
# lines of a floe band is shifted by FLOE_LINE_SHIFT (measured: identical for every shape).
FLOE_PIECES = (
    ((-4, 8), (12, 8)), ((-3, 8), (12, 8)), ((-2, 8), (12, 8)), ((-1, 8), (12, 8)),
    ((0, 8), (12, 8)), ((0, 8), (11, 8)), ((0, 8), (10, 8)), ((0, 8), (9, 8)),
    ((0, 8), (8, 8)), ((0, 8), (9, 8)), ((0, 8), (10, 8)), ((0, 8), (11, 8)),
    ((0, 8), (12, 8)), ((-1, 8), (12, 8)), ((-2, 8), (12, 8)), ((-3, 8), (12, 8)),
)
FLOE_LINE_SHIFT = (0, -2, -3, -5, -4, -6, -8)
FLOE_COPY_SPACING = 32
FLOE_COPIES = 3
FLOE_LINES = 7
FLOE_TOP_Y = (174, 148, 122, 96)  # row 0 (bottom) .. row 3 (top)
ENEMY_TOP_Y = (160, 134, 108, 82)
ENEMY_LINES = 8
ENEMY_COPY_SPACING = 16

# Colours (exact RGB of ALE frames; the NTSC codes they come from in brackets).
WHITE_FLOE_RGB = (214, 214, 214)   # 0x0C
BLUE_FLOE_RGB = (84, 138, 210)     # 0x98
WATER_RGB = (0, 28, 136)
SHORE_DAY_RGB = (192, 192, 192)    # 0x0A
SHORE_NIGHT_RGB = (74, 74, 74)     # 0x02
SKY_DAY_RGB = (45, 50, 184)        # 0x84
SKY_NIGHT_RGB = (0, 0, 148)        # 0x80
IGLOO_RGB = (142, 142, 142)        # 0x06
DOOR_RGB = (0, 0, 0)               # 0x00
DOOR_FLASH_RGB = (213, 130, 74)    # 0x38: the door flashes on night levels
BEAR_DAY_RGB = (111, 111, 111)     # 0x04
BEAR_NIGHT_RGB = (214, 214, 214)   # 0x0C
HUD_RGB = (132, 144, 252)          # 0x8E
BLACK_RGB = (0, 0, 0)
# Bailey's colours: the cartridge reads his colour on each line from one strip of 39 colours (his
# own 19, bottom row first, then the 20 blues of freezing), starting PLAYER_COLOUR_BASE[anim frame]
# entries in and further by ram[107] (sinking) and ram[112] (freezing): so the blues climb into his
# picture from the top as he freezes. Colour of the line r lines below his top (r = 0..18):
# PLAYER_COLOUR_STRIP[base + ram[107] + ram[112] + 18 - r].
_HAT, _COAT = (162, 162, 42), (142, 142, 142)        # 0x16, 0x06
_FACE, _HAIR = (198, 108, 58), (162, 98, 33)         # 0x36, 0x24
_ICE = ((24, 59, 157), (45, 87, 176), (66, 114, 194), (84, 138, 210))  # 0x92, 0x94, 0x96, 0x98
PLAYER_COLOUR_STRIP = ((_HAT,) * 4 + (_COAT,) * 6 + (_FACE,) * 3 + (_HAIR,) * 6
                       + (_ICE[0],) * 2 + (_ICE[1],) * 2 + (_ICE[2],) * 2 + (_ICE[3],) * 14)
PLAYER_COLOUR_BASE = (1, 0, 1, 1, 1, 1)
# [anim frame][row from the top]: his colours when neither sinking nor freezing
PLAYER_ROW_RGB = tuple(tuple(PLAYER_COLOUR_STRIP[base + 18 - r] for r in range(19))
                       for base in PLAYER_COLOUR_BASE)
FROZEN_RGB = _ICE[3]
# Band layout of the screen (y ranges) measured on the reset frame.
SKY_Y = (7, 42)
SHORE_Y = (42, 77)
WATER_Y = (78, 185)
HUD_SCORE_Y = 10
HUD_TEMP_Y = 22
DIGIT_ART = DIGITS_8X8  # Activision's score font (jaxtari.atari.fonts)
DEGREE_ART = ("###.....", "#.#.....", "###.....")  # rows 22..24 of the temperature line
DIGIT_CELL_X = 22   # score cells at 22, 30, ..., 62 (y 10..17); temperature 22, 30, degree 38; lives 62 (y 22..29)
DIGIT_SPACING = 8
# Polar bear: 16 px wide (a double-width 8-px sprite) at x = ram[104] + 3, lines 58..76.
BEAR_Y, BEAR_H, BEAR_W = 58, 16, 16
# Aurora: line 33 + i has colour code (rotl(ram[2], i) & 2) ^ AURORA_CODES[i] (rotl: 8-bit rotate
# left), checked on 299 of 300 ALE frames; the RGB of each code as ALE draws it.
AURORA_CODES = (0x78, 0x68, 0x58, 0x48, 0x38, 0x38, 0x28, 0x28, 0x18)
AURORA_RGB = {0x18: (187, 187, 53), 0x1A: (210, 210, 64), 0x28: (195, 144, 61), 0x2A: (210, 164, 74),
              0x38: (213, 130, 74), 0x3A: (227, 151, 89), 0x48: (214, 92, 92), 0x4A: (228, 111, 111),
              0x58: (198, 89, 179), 0x5A: (212, 108, 195), 0x68: (164, 89, 208), 0x6A: (181, 108, 224),
              0x78: (127, 92, 213), 0x7A: (149, 111, 227)}
# The Activision logo under the play field (runs y, x, width, RGB of ALE's reset frame).
LOGO_RUNS = ((192, 20, 20, (184, 50, 50)), (192, 40, 1, (214, 214, 214)), (192, 42, 8, (214, 214, 214)), (192, 54, 7, (214, 214, 214)), (193, 20, 19, (180, 122, 48)), (193, 39, 2, (214, 214, 214)), (193, 45, 1, (214, 214, 214)), (193, 49, 1, (214, 214, 214)), (193, 53, 2, (214, 214, 214)), (194, 20, 18, (180, 122, 48)), (194, 38, 3, (214, 214, 214)), (194, 42, 2, (214, 214, 214)), (194, 45, 1, (214, 214, 214)), (194, 47, 1, (214, 214, 214)), (194, 49, 1, (214, 214, 214)), (194, 52, 2, (214, 214, 214)), (194, 56, 3, (214, 214, 214)), (194, 60, 1, (214, 214, 214)), (194, 62, 3, (214, 214, 214)), (194, 66, 1, (214, 214, 214)), (194, 69, 1, (214, 214, 214)), (195, 20, 17, (210, 210, 64)), (195, 37, 2, (214, 214, 214)), (195, 40, 1, (214, 214, 214)), (195, 42, 1, (214, 214, 214)), (195, 45, 1, (214, 214, 214)), (195, 47, 1, (214, 214, 214)), (195, 49, 1, (214, 214, 214)), (195, 51, 2, (214, 214, 214)), (195, 54, 1, (214, 214, 214)), (195, 56, 1, (214, 214, 214)), (195, 60, 1, (214, 214, 214)), (195, 62, 1, (214, 214, 214)), (195, 64, 1, (214, 214, 214)), (195, 66, 2, (214, 214, 214)), (195, 69, 1, (214, 214, 214)), (196, 20, 16, (110, 156, 66)), (196, 36, 5, (214, 214, 214)), (196, 42, 1, (214, 214, 214)), (196, 45, 1, (214, 214, 214)), (196, 47, 1, (214, 214, 214)), (196, 49, 3, (214, 214, 214)), (196, 54, 1, (214, 214, 214)), (196, 56, 3, (214, 214, 214)), (196, 60, 1, (214, 214, 214)), (196, 62, 1, (214, 214, 214)), (196, 64, 1, (214, 214, 214)), (196, 66, 4, (214, 214, 214)), (197, 20, 15, (110, 156, 66)), (197, 35, 2, (214, 214, 214)), (197, 40, 1, (214, 214, 214)), (197, 42, 1, (214, 214, 214)), (197, 45, 1, (214, 214, 214)), (197, 47, 1, (214, 214, 214)), (197, 49, 2, (214, 214, 214)), (197, 54, 1, (214, 214, 214)), (197, 58, 1, (214, 214, 214)), (197, 60, 1, (214, 214, 214)), (197, 62, 1, (214, 214, 214)), (197, 64, 1, (214, 214, 214)), (197, 66, 1, (214, 214, 214)), (197, 68, 2, (214, 214, 214)), (198, 20, 14, (45, 50, 184)), (198, 34, 2, (214, 214, 214)), (198, 40, 1, (214, 214, 214)), (198, 42, 2, (214, 214, 214)), (198, 45, 1, (214, 214, 214)), (198, 47, 1, (214, 214, 214)), (198, 49, 1, (214, 214, 214)), (198, 54, 1, (214, 214, 214)), (198, 56, 3, (214, 214, 214)), (198, 60, 1, (214, 214, 214)), (198, 62, 3, (214, 214, 214)), (198, 66, 1, (214, 214, 214)), (198, 69, 1, (214, 214, 214)))

# Polar bear glyphs (16 lines from y = 58, 16 px from x = ram[104] + 3), as drawn walking left;
# mirrored walking right (ram[108] bit 4). ram[111] (0..7) picks BEAR_FRAME_GLYPH[ram[111]].
BEAR_ART = (
    ('....##..........', '....##..........', '..########......', '..##########....', '..############..', '##############..', '##############..', '..############..', '##..##########..', '....##########..', '....##########..', '....####..####..', '....####..####..', '..############..', '......##....##..', '....####..####..'),
    ('................', '....##..........', '....##..........', '..########......', '..##########....', '..############..', '##############..', '##############..', '##############..', '....##########..', '....##########..', '....##########..', '....####..####..', '....####..####..', '....####..####..', '..############..'),
    ('....##..........', '....##..........', '..########......', '..##########....', '..############..', '##############..', '##############..', '..############..', '##..##########..', '....##########..', '....##########..', '....####..####..', '....####..####..', '....####..####..', '....##....##....', '..####..####....'),
)
BEAR_FRAME_GLYPH = (0, 0, 1, 1, 2, 2, 1, 1)
