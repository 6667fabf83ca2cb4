"""Freeway's sprites, built once at import: the chicken/car overlap table (the TIA's collision latch,
pixel by pixel), each lane's car sheet, the chickens, the digits and the logo."""

from __future__ import annotations

import numpy as np

from jaxtari import render
from jaxtari.atari.fonts import DIGITS_8X8
from jaxtari.games.freeway import art
from jaxtari.games.freeway.constants import NUM_LANES


def collision_table() -> np.ndarray:
    """overlap[pose, car_faces_right, dy + 9, dx + 7]: do chicken and car share a lit pixel?

    dy = car top - chicken top, dx = car left - chicken left (screen pixels).
    """
    chick = list(render.art_mask(art.CHICKEN_ART))
    car_l = render.art_mask(art.CAR_ART, lit="#k")
    cars = [car_l, car_l[:, ::-1]]
    ch_h, ch_w = chick[0].shape
    car_h, car_w = car_l.shape
    table = np.zeros((len(chick), 2, car_h + ch_h - 1, car_w + ch_w - 1), bool)
    for p, cm in enumerate(chick):
        for f, km in enumerate(cars):
            for dy in range(-(car_h - 1), ch_h):
                for dx in range(-(car_w - 1), ch_w):
                    canvas = np.zeros((ch_h + 2 * car_h, ch_w + 2 * car_w), bool)
                    canvas[car_h:car_h + ch_h, car_w:car_w + ch_w] = cm
                    sub = canvas[car_h + dy:car_h + dy + car_h, car_w + dx:car_w + dx + car_w]
                    table[p, f, dy + car_h - 1, dx + car_w - 1] = (sub & km).any()
    return table


OVERLAP = collision_table()
# The same table as one word per (pose, car_faces_right, dy + 9), bit dx + 7 set where they overlap:
# collide() reads a word by a one-hot over these 102 rows and the bit by a shift, where an index
# into the table would be a gather under vmap (issue 45).
OVERLAP_ROWS = (OVERLAP.astype(np.int32) << np.arange(OVERLAP.shape[-1], dtype=np.int32)).sum(
    -1, dtype=np.int32).reshape(-1)
CAR_H, CAR_W = len(art.CAR_ART), len(art.CAR_ART[0])
CH_H, CH_W = len(art.CHICKEN_ART[0]), len(art.CHICKEN_ART[0][0])
LANE_TOP = np.asarray(art.CAR_TOP_Y0 + art.LANE_SPACING * np.arange(NUM_LANES), np.int32)
# collide() looks at two lanes only: the rows a car shares with the chicken (-CAR_H < dy < CH_H)
# are 17 consecutive lines, which hold at most two lane tops 16 apart; lane `first` is the
# topmost lane that can meet it.
assert CAR_H + CH_H - 1 <= 2 * art.LANE_SPACING
# _draw wraps every car at 160: what that adds at x 0..3 (a car at x > 152) lies under the bar.
assert CAR_W <= art.HMOVE_BAR_W


def car_sheet(colours, faces_right) -> render.SpriteSheet:
    """One 8x10 car per lane in its colour (black tyres), mirrored where it faces right."""
    body = render.art_mask(art.CAR_ART, lit="#")
    tyre = render.art_mask(art.CAR_ART, lit="k")
    n = len(colours)
    rgb = np.zeros((n, CAR_H, CAR_W, 3), np.uint8)
    mask = np.zeros((n, CAR_H, CAR_W), bool)
    for i, (col, right) in enumerate(zip(colours, faces_right)):
        b, t = (body[:, ::-1], tyre[:, ::-1]) if right else (body, tyre)
        rgb[i][b] = col
        rgb[i][t] = art.TYRE_RGB
        mask[i] = b | t
    return render.SpriteSheet(rgb, render.gray(rgb), mask)


CHICKENS = render.SpriteSheet.from_art([list(p) for p in art.CHICKEN_ART], art.CHICKEN_RGB)
DIGIT_MASKS = render.SpriteSheet.from_art([list(d) for d in DIGITS_8X8], (255, 255, 255))
LOGO = render.SpriteSheet.from_art([list(art.LOGO_ART)], art.SCORE_RGB)
