"""ALE's NTSC palette (jaxtari/atari/palette.py) against ALE's own screens: every colour several
cartridges show is a row of the table, and ALE's grey picture is the table's grey of that row."""

from __future__ import annotations

import numpy as np
import pytest

from alignment.porting import ramtrace as rt
from jaxtari.atari.palette import PALETTE
from jaxtari.render import gray

FRAMES = 150  # random frames per cartridge: past the opening into play


def test_the_palette_holds_what_the_sea_and_the_sub_show():
    # Seaquest's sea (colour byte 0x90) and player sub (0x18), read off ALE's screen
    assert tuple(PALETTE[0x90 >> 1]) == (0, 28, 136) and tuple(PALETTE[0x18 >> 1]) == (187, 187, 53)


def test_the_palette_has_one_row_per_tia_colour():
    assert PALETTE.shape == (128, 3) and PALETTE.dtype == np.uint8
    assert len({tuple(c) for c in PALETTE}) == 128  # no two colour bytes share an RGB


@pytest.mark.parametrize("rom", ["pong", "breakout", "freeway", "seaquest", "kangaroo"])
def test_every_colour_on_ales_screen_is_a_palette_row_with_its_grey(rom):
    ale = rt.open_rom(rom)
    rng = np.random.default_rng(0)
    actions = ale.getMinimalActionSet()
    rows = {tuple(c): i for i, c in enumerate(PALETTE)}
    seen = set()
    for _ in range(FRAMES):
        ale.act(actions[rng.integers(len(actions))])
        rgb, grey = ale.getScreenRGB(), ale.getScreenGrayscale()
        colours, first = np.unique(rgb.reshape(-1, 3), axis=0, return_index=True)
        for colour, at in zip(map(tuple, colours), first):
            assert colour in rows, (rom, colour)
            assert grey.reshape(-1)[at] == gray(PALETTE[rows[colour]]), (rom, colour)
            seen.add(colour)
    assert len(seen) >= 3, seen  # the check saw a picture, not a blank screen
