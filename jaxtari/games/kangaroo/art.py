"""Kangaroo's graphics, read from the cartridge ALE plays (bank 0, addresses as the kernel reads
them; tests/games/test_kangaroo_render.py checks every byte against ALE's ROM file), and the
pointer tables of bank 1 that pick them (each named with its address; read through Omegamatrix's
public disassembly of the controller hack, whose graphics and kernel are the cartridge's).

A sprite is drawn one byte per line from its pointer on, and ends at the first zero byte (the
kernel's test); a pointer may run into the next drawing, which the page keeps.
"""

from __future__ import annotations

GRAPHICS_BASE = 0xDB00
# $DB00-$DEFF: the score digits ($DB00, 8 bytes each, a blank at $DB50), the bell and fruit, the
# lives' playfield ($DB96), the mother's poses ($DC/$DD), the timer's digits ($DD00, both nibbles),
# the baby and the monkeys ($DE)
GRAPHICS = bytes.fromhex(
    "386cc6c6c66c38007e18181818381800fec0e03c06c67c00fc06067c0606fc000c0c0cfecccccc00fc0606fcc0c0fc00"
    "7cc6c6fcc0c07c00303018180c06fe007cc6c67cc6c67c007c06067ec6c67c0000000000000000287cf6beeefef65c7c"
    "2838000000000000183c7e7e7e5e6e3c18000000000000000004040a0a111152a5e7e742000000000000051a3d6e7aee"
    "bcecb8f0600000000000000105155518183c3c3c3c3c007e7e080000000000003078383c3e3d3b362c18340000000000"
    "000c1e1c3c7cbcdc6c34182c000000000000ff0101ffa979c5b890016085b860a9038592a90185b6a907859360bdefd9"
    "8507a92b8506bde7d98504bdebd98505604040404040a01050b038341e1e0a0818183f3b38787c7c7870d0a03c000205"
    "080a0d1c2c787850101818fcdc1c1e3e3e1e0e0b053c00609060b8341e1e0a081818183f3b787c7c78d090b0180c0000"
    "0609061d2c78785010181818fcdc1e3e3e1e0b090d183000001c72acf2a030387cbe9e1e0c0701000000384e354f050c"
    "1c3e7d797830e08000000001221212d65c7c783838bbfdb9fb9db1283838103838381000804448486b3a3e1e1c1c1c1c"
    "3c7a5aab959d9d899d1c1c0800040a3452f0e0a13139ffbf1e1e04041c00040a10140a3858f0f0a0203038f83c3c3e3e"
    "131d081810300020500828501c1a0f0f05040c1c1f3c3c7c7cc8b81018080c0077555555770000007722226622000000"
    "774422117700000077113311770000001111775544000000771177447700000077557744770000002222111177000000"
    "775577557700000077117755770000000000000000ff6060606060ff0000000000ff6060606060ff000000ff30fc0000"
    "00ff3f00000000ff0c3f000000ff000000ff0000001f0cff60ff000001f807000000ffff20502c4a0f07858c9cfffd78"
    "7820203800081c1c9d899d9d95ab5a7a3c1c1c1c1c1e3e3a6b48484480001038383810383828b19dfbb9fdbb3838787c"
    "5cd6121222010080a0a8aaaaaaaaaa24ba301618f865a885a8a5a790074a9002e6ad2a38690085a7d860000000000000"
    "04083470701018f8dc9c1d1d0f0a3800003c74701018f8dc9c1c0d0f0a081820000020102c0e0e08181f3b39b8b8f050"
    "1c00003c2e0e08181f3b3938b0f0501018040000081c1c3c3d39193d3f7e5ed785858500008080c0446efeff7f7fde0e"
    "0a14180000000001010322767ffffefe3b30180c001038383cbc9c98bcfc7e7aeba5a5a500081c1c3c38fe9f1b5bfc9a"
    "0b0c040000001038387b7e7d3dfe9d0e080808000b1f1f3d3d3b1e7cf8383e7bcc0404001a3e7e7e5a7e1818183c3c24"
    "64040600587c7e7e5a7e1818183c3c242620600040a0204894f6150d050200000000000000a0a020800e1f1919199fce"
    "404040c0800000000000000000b0154d"
)

# playfield bytes per row of the three layouts (22 rows each, from LAYOUT_ROW_BASE): the left half
# (PF1 $DF00, PF2 $DF42) and the right half (PF2 $DF84, PF1 $DD52); PF0 is $FF on every line
PF1_LEFT = (0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 96, 96, 96, 96, 96, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 31, 255, 0, 0, 0, 255, 48, 254, 0, 0, 0, 0, 31, 255, 0, 0, 0, 255, 96, 96, 96, 96, 0, 0, 0, 254, 0, 255, 6, 6, 6, 255, 96, 0, 0, 255)
PF2_LEFT = (0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 240, 3, 127, 0, 0, 124, 0, 0, 254, 0, 0, 128, 255, 1, 255, 0, 0, 0, 255, 0, 56, 128, 0, 0, 0, 62, 128, 15, 255, 0, 0, 0, 0, 240, 0, 0, 255)
PF2_RIGHT = (0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 31, 128, 0, 127, 0, 124, 0, 0, 0, 255, 0, 3, 254, 0, 0, 255, 0, 0, 0, 255, 243, 3, 227, 15, 0, 7, 0, 255, 0, 240, 7, 0, 3, 60, 0, 124, 1, 255)
PF1_RIGHT = (0, 0, 0, 255, 96, 96, 96, 96, 96, 255, 0, 0, 0, 0, 0, 255, 96, 96, 96, 96, 96, 255, 0, 0, 0, 255, 48, 252, 0, 0, 0, 255, 63, 0, 0, 0, 0, 255, 12, 63, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 31, 12, 255, 96, 255, 0, 0, 1, 248, 7, 0, 0, 0, 255, 255)

# $FDF1 / $FE01: the mother's drawing (low / high address byte) by pose & 15
MOTHER_LOW = (30, 80, 105, 139, 189, 189, 206, 190, 5, 55, 122, 164, 148, 148, 231, 165)
MOTHER_HIGH = (220, 220, 220, 220, 220, 220, 220, 221, 220, 220, 220, 220, 221, 221, 220, 221)
# $FD8F / $FD97: the baby's x and drawing (low byte, page $DE) by its animation step
BABY_X = (114, 110, 106, 102, 98, 102, 106, 110)
BABY_LOW = (0, 17, 0, 17, 34, 51, 34, 51)
BABY_PAGE = 0xDE
BABY_ROW = 1
BABY_ROWS = 3  # the rows the baby takes: the next object is counted from here
BABY_WON_STEP = 6  # the baby's step while the round-won tune plays
# $FF97: the bell's drawing by its clock & 3; $FF9B / $FF9F: a fruit's drawing and colour by kind & 3
BELL_LOW = (159, 176, 159, 193)
FRUIT_LOW = (87, 104, 121, 138)
FRUIT_COLOUR = (72, 72, 72, 40)
ITEM_PAGE = 0xDB
ITEM_ROWS = 2  # rows a bell or fruit takes
# $FFA3: the bell's row per layout
BELL_ROW = (4, 4, 4)
# $FD9F..$FDC2, read as one table (the cartridge's indices run from one table into the next):
# $FD9F a monkey's flicker phase (the second monkey), $FDAB (the third), $FDB3 how many of the
# group bits are set (the fourth's phase, and every monkey's group size)
FLICKER = (0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0,  # $FD9F
           0, 1, 1, 2, 0, 0, 0, 0,  # $FDAB
           0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4)  # $FDB3
FLICKER_PHASE = (None, 0, 12, 20)  # where each monkey's phase is read (the first's is 0)
GROUP_SIZE = 20
MONKEY_PAGE = 0xDE
# $DDD6 / $DB96: the lives' playfield bytes (PF1, PF2) by lives in reserve
LIVES_PF1 = (0, 128, 160, 168, 170, 170, 170, 170)
LIVES_PF2 = (0, 0, 0, 0, 0, 1, 5, 21)
SCORE_DIGITS = 0xDB00  # digit d at + 8 d, 7 lines drawn from the byte at + 6 up
BLANK_DIGIT = 0x50
TIMER_DIGITS = 0xDD00  # digit d at + 8 d (high nibble: the left digit), 5 lines from + 4 up
TIMER_ZEROS = 0xDD00  # the timer's last two digits, always "00"
SCORE_ZEROS = 0xDB00  # the score's last two digits, always "00"


# The game-over frame: ALE shows the attract mode's first picture, the same in every game
# (measured on ALE's screen, seeds 1, 11, 12, layouts 0-2): black, the title and copyright in red
# (colour 0x48, lines 51..70) and a kangaroo (colour 0x2A, lines 104..118), both from column 60.
# The attract mode's later frames are not drawn (the game ends on this one).
TITLE_LEFT = 60
TITLE_TOP, TITLE_COLOUR = 51, 0x48
TITLE = (
    "...#..##........###...###...###",
    ".###.###.......#####.#####.#####",
    "####.##...###..##..#.##..#.##..#..###",
    "#######..#####.##..#.##..#.##..#.###",
    "######...##..#.##..#.##..#.#####.##...###",
    "######...##..#.##..#.#####.##..#.##..#####",
    "#####....#####.##..#..####.##..#.##..##..#",
    "######...##..#..#.......#......#.##..##..#",
    "#######..##..#.........#.........##..##..#",
    "########.##..........####............#####..###",
    "########.##.........##..#.............###..#####",
    "####.###.......###..#....#..#..............##..#",
    "####..#....###...#.##.##.#.#.#.###.........##..#",
    "####.......#.#..##.##.#..#.###..#..#.......##..#",
    "####...###.###...#.##.##.#.#.#..#.#.#......#####",
    "###....#.#.#.#.###.##....#.#.#..#.###.##....###",
    "##...#.###.###......##..##......#.#.#.#.#",
    "#....#...#..........######........#.#.##..#",
    "#....#.###...........####.............#.#.#",
    ".....#................................#.#.#",
)
# In game 2 (ALE's mode 1: the game number, ram[58]'s low bits, is 1) the picture adds this figure
# in the title's red (measured on ALE's screen: the game-over frames of the NOOP game and of a
# random game in mode 1 differ from mode 0's in exactly these 61 pixels)
TITLE_GAME_2_LEFT, TITLE_GAME_2_TOP = 76, 106
TITLE_GAME_2 = (
    "....#.##",
    "...#####",
    "...#####",
    "..####.#",
    "..####.#",
    "..###.##",
    "...####.",
    ".#####..",
    "#####...",
    "..###...",
    "..#####.",
    ".####.##",
    "##..##..",
    ".....#..",
)
TITLE_KANGAROO_TOP, TITLE_KANGAROO_COLOUR = 104, 0x2A
TITLE_KANGAROO = (
    "..........#",
    "...........#",
    "..........#.##",
    "............###",
    "............###",
    "............#",
    "...........##",
    "...........#####",
    "..........###.##",
    "..........###..#",
    "........#.###",
    "........#.###",
    "........####",
    ".........#.#",
    "...........###",
)


# ---- the layouts' floor tables: level data the mother's moves read, row by row of each layout
# (kept with the graphics, not in KangarooConstants: 450 entries of cartridge data, each entry a
# mutant of its own to the audit, like a sprite's bytes)
# $FE11 (and on): per row of a layout, the x a ladder there starts at (129: none)
LADDER_X = (
    129, 121, 121, 121, 121, 121, 121, 9, 9, 9, 9, 9, 9, 121, 121, 121, 121, 121, 121, 129, 129,
    129, 129, 117, 117, 129, 129, 129, 129, 105, 129, 129, 129, 13, 13, 109, 109, 129, 129, 129,
    129, 129, 129, 129, 129, 93, 93, 93, 93, 109, 109, 121, 121, 129, 129, 25, 25, 25, 25, 129,
    129, 129, 129, 129, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0,
)
# $FE54, $FE8F: per row, an x range [low, high) with no floor under the mother (stepping or
# landing there is a fall) except where the row's floor segment [$FECD, $FF1D) lies
FLOORLESS_LOW = (
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 58, 0, 0,
    0, 0, 0, 26, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 29, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 127, 127, 127, 127, 127, 65, 127,
    127,
)
FLOORLESS_HIGH = (
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 127, 127, 127, 127, 127,
    65, 127, 127, 127, 127, 127, 33, 127, 127, 127, 127, 127, 0, 0, 0, 0, 127, 127, 127, 127, 127,
    127, 81, 127, 57, 127, 127, 127, 127, 127, 127, 127, 127, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 72, 44, 8,
)
# $FECD, $FF1D: per row, the floor segment [low, high) inside that range
SEGMENT_LOW = (
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 72, 44, 8, 0, 92,
    64, 36, 0, 0, 0, 0, 84, 56, 28, 8, 0, 0, 0, 0, 0, 60, 40, 56, 76, 0, 0, 32, 0, 28, 0, 80, 104,
    84, 68, 44, 64, 88, 0, 0, 24, 24, 22, 19, 18, 16, 14, 13, 12, 11, 12, 11, 12, 11, 12, 11, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
)
SEGMENT_HIGH = (
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 129, 94, 66, 38, 0,
    118, 86, 58, 30, 0, 0, 0, 118, 90, 62, 34, 0, 0, 0, 0, 129, 78, 55, 74, 114, 0, 0, 54, 26, 46,
    78, 98, 129, 106, 86, 62, 86, 129, 0, 22, 44, 66, 24, 21, 20, 19, 18, 17, 16, 0, 0, 29, 28, 26,
    25, 24, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
)
