"""Sprite art, colours and screen layout of Freeway, read off ALE 0.12.1 frames (getScreenRGB).

Every mask here was read from real emulator frames by capture scripts (the chicken in each of its
poses while walking and after a hit, cars in every lane, the score digits with ram[103] forced,
the static road picture as the per-pixel median of 150 frames). Colours are the exact RGB values
of those frames.
"""

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

# ---- layout (screen pixels) --------------------------------------------------------------------
HMOVE_BAR_W = 8                  # x 0..7 is black on every line (the TIA's HMOVE blank)
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

# Score digits 0..9, one 8x8 cell each.
DIGIT_ART = (
    ("..####..", ".##..##.", ".##..##.", ".##..##.", ".##..##.", ".##..##.", ".##..##.", "..####.."),
    ("...##...", "..###...", "...##...", "...##...", "...##...", "...##...", "...##...", "..####.."),
    ("..####..", ".#...##.", ".....##.", ".....##.", "..####..", ".##.....", ".##.....", ".######."),
    ("..####..", ".#...##.", ".....##.", "....##..", "....##..", ".....##.", ".#...##.", "..####.."),
    ("....##..", "...###..", "..#.##..", ".#..##..", ".######.", "....##..", "....##..", "....##.."),
    (".######.", ".##.....", ".##.....", ".#####..", ".....##.", ".....##.", ".#...##.", ".#####.."),
    ("..####..", ".##...#.", ".##.....", ".#####..", ".##..##.", ".##..##.", ".##..##.", "..####.."),
    (".######.", ".#....#.", ".....##.", "....##..", "...##...", "...##...", "...##...", "...##..."),
    ("..####..", ".##..##.", ".##..##.", "..####..", "..####..", ".##..##.", ".##..##.", "..####.."),
    ("..####..", ".##..##.", ".##..##.", ".##..##.", "..#####.", ".....##.", ".#...##.", "..####.."),
)

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
