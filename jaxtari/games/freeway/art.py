"""Sprite art, colours and screen layout of Freeway, read off ALE 0.12.1 frames (getScreenRGB).

Every mask here was read from real emulator frames by capture scripts (the chicken in each of its
poses while walking and after a hit, cars in every lane, the score digits with ram[103] forced,
the static road picture as the per-pixel median of 150 frames). Colours are the exact RGB values
of those frames. The score digits are Activision's font, :data:`jaxtari.atari.fonts.DIGITS_8X8`.
"""

from jaxtari.atari import screen

# ---- colours -----------------------------------------------------------------------------------
BLACK = (0, 0, 0)
ROAD_RGB = (142, 142, 142)
KERB_RGB = (170, 170, 170)        # the two pavements (top y 15..22, bottom y 186..194)
LANE_LINE_RGB = (214, 214, 214)   # white dashed lane lines
MEDIAN_RGB = (252, 252, 84)       # the yellow double median line (same colour as the chickens)
CHICKEN_RGB = (252, 252, 84)
SCORE_RGB = (228, 111, 111)       # score digits and the Activision logo
# Car body colour per lane, top lane first (OCAtari's list, checked here on the screen).
CAR_RGB = (
    (167, 26, 26), (180, 231, 117), (105, 105, 15), (228, 111, 111), (24, 26, 167),
    (162, 98, 33), (84, 92, 214), (184, 50, 50), (135, 183, 84), (210, 210, 64),
)
TYRE_RGB = (0, 0, 0)
# The rectangles mod's one colour for every moving object: NTSC white (0x0E), the brightest grey
# level, on no road, kerb or line (it appears only among the score digits' last-512-frame flashes).
BOX_RGB = (236, 236, 236)

# In the last 512 frames of the game the score digits cycle through the NTSC palette: on frame t
# they take colour SCORE_FLASH_RGB[(t % 256) // 2] (the palette read off those frames; black on the
# game-over frame).
SCORE_FLASH_FRAMES = 512
SCORE_FLASH_RGB = (
    (0, 0, 0), (74, 74, 74), (111, 111, 111), (142, 142, 142),
    (170, 170, 170), (192, 192, 192), (214, 214, 214), (236, 236, 236),
    (72, 72, 0), (105, 105, 15), (134, 134, 29), (162, 162, 42),
    (187, 187, 53), (210, 210, 64), (232, 232, 74), (252, 252, 84),
    (124, 44, 0), (144, 72, 17), (162, 98, 33), (180, 122, 48),
    (195, 144, 61), (210, 164, 74), (223, 183, 85), (236, 200, 96),
    (144, 28, 0), (163, 57, 21), (181, 83, 40), (198, 108, 58),
    (213, 130, 74), (227, 151, 89), (240, 170, 103), (252, 188, 116),
    (148, 0, 0), (167, 26, 26), (184, 50, 50), (200, 72, 72),
    (214, 92, 92), (228, 111, 111), (240, 128, 128), (252, 144, 144),
    (132, 0, 100), (151, 25, 122), (168, 48, 143), (184, 70, 162),
    (198, 89, 179), (212, 108, 195), (224, 124, 210), (236, 140, 224),
    (80, 0, 132), (104, 25, 154), (125, 48, 173), (146, 70, 192),
    (164, 89, 208), (181, 108, 224), (197, 124, 238), (212, 140, 252),
    (20, 0, 144), (51, 26, 163), (78, 50, 181), (104, 72, 198),
    (127, 92, 213), (149, 111, 227), (169, 128, 240), (188, 144, 252),
    (0, 0, 148), (24, 26, 167), (45, 50, 184), (66, 72, 200),
    (84, 92, 214), (101, 111, 228), (117, 128, 240), (132, 144, 252),
    (0, 28, 136), (24, 59, 157), (45, 87, 176), (66, 114, 194),
    (84, 138, 210), (101, 160, 225), (117, 181, 239), (132, 200, 252),
    (0, 48, 100), (24, 80, 128), (45, 109, 152), (66, 136, 176),
    (84, 160, 197), (101, 183, 217), (117, 204, 235), (132, 224, 252),
    (0, 64, 48), (24, 98, 78), (45, 129, 105), (66, 158, 130),
    (84, 184, 153), (101, 209, 174), (117, 231, 194), (132, 252, 212),
    (0, 68, 0), (26, 102, 26), (50, 132, 50), (72, 160, 72),
    (92, 186, 92), (111, 210, 111), (128, 232, 128), (144, 252, 144),
    (20, 60, 0), (53, 95, 24), (82, 126, 45), (110, 156, 66),
    (135, 183, 84), (158, 208, 101), (180, 231, 117), (200, 252, 132),
    (48, 56, 0), (80, 89, 22), (109, 118, 43), (136, 146, 62),
    (160, 171, 79), (183, 194, 95), (204, 216, 110), (224, 236, 124),
    (72, 44, 0), (105, 77, 20), (134, 106, 38), (162, 134, 56),
    (187, 159, 71), (210, 182, 86), (232, 204, 99), (252, 224, 112),
)

# ---- layout (screen pixels) --------------------------------------------------------------------
HMOVE_BAR_W = screen.HMOVE_BAR_W  # x 0..7 is black on every line (Freeway HMOVEs every line)
BLACK_ROWS = ((0, 4), (14, 1), (23, 1), (185, 1), (195, 15))  # (top y, height), full width
SCORE_BAND = (4, 10)             # grey band behind the scores
TOP_KERB = (15, 8)
ROAD = (24, 161)                 # y 24..184
BOTTOM_KERB = (186, 9)
LANE_LINE_YS = (39, 55, 71, 87, 119, 135, 151, 167)  # 1-px white dashed lines
MEDIAN_YS = (102, 104)                               # 1-px yellow dashed lines
DASH_X0, DASH_LEN, DASH_PERIOD = 12, 4, 8            # dashes at x 12..15, 20..23, ... 156..159

CAR_TOP_Y0 = 27                  # car in lane i (top to bottom): top y = 27 + 16 i, 10 rows
LANE_SPACING = 16
CHICKEN_X = 44                   # the agent's chicken (left)
OTHER_CHICKEN_X = 108            # the second player's chicken, standing on the bottom kerb
CHICKEN_SCREEN_Y0 = 193          # chicken top y = 193 - climb (climb = ram[14], 6 at the kerb)
SCORE_Y = 5
PLAYER_SCORE_X = 40              # two 8-px digit cells: tens at x 40, units at x 48
OTHER_SCORE_X = 104              # the second player's score (always 0 here)
DIGIT_SPACING = 8
LOGO_XY = (21, 196)

# ---- sprites ------------------------------------------------------------------------------------
# Car facing left (the top five lanes drive left); the right-driving cars are its mirror image.
# 'k' = tyre (black), '#' = body (the lane's colour).
CAR_ART = (
    ".kk..kk.",
    ".#######",
    "####..##",
    "##..##.#",
    "##..##.#",
    "##..##.#",
    "##..##.#",
    "####..##",
    ".#######",
    ".kk..kk.",
)
# The chicken's three poses, 7 x 8: WALK_A (also standing), WALK_B, HURT (after a hit).
CHICKEN_ART = (
    (
        "....#..",
        "....##.",
        "...##..",
        "#.###..",
        "#####..",
        ".####..",
        "..##...",
        "...##..",
    ),
    (
        ".....#.",
        ".....##",
        "....##.",
        "#.###..",
        "#####..",
        ".####..",
        ".##....",
        "..##...",
    ),
    (
        ".#.....",
        "..#.#..",
        "..####.",
        "#.###..",
        "#####..",
        ".####..",
        "..##...",
        ".##....",
    ),
)
POSE_WALK_A, POSE_WALK_B, POSE_HURT = 0, 1, 2

# The Activision logo under the road (x 21.., y 196..202).
LOGO_ART = (
    "....########....#######.........",
    ".#.....#...#...##...............",
    "###.##.#.#.#..##..###.#.###.#..#",
    "#.#.#..#.#.#.##.#.#...#.#.#.##.#",
    "###.#..#.#.###..#.###.#.#.#.####",
    "#.#.#..#.#.##...#...#.#.#.#.#.##",
    "#.#.##.#.#.#....#.###.#.###.#..#",
)
