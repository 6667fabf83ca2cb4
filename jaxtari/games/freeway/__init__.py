"""Freeway (Activision, 1981) in pure JAX, frame for frame like ALE's game 0, difficulty 0.

Every number below was measured on ALE 0.12.1 (ale-py, repeat_action_probability=0, one frame per
``act``) by stepping the emulator frame by frame and diffing RAM and screens, unless it says
otherwise. RAM addresses for the chicken (ram[14]), score (ram[103]) and cars (ram[108..117]) come
from OCAtari's Freeway extractor and were re-checked here; the rest were found here:

- cars: ram[117 - i] is the x of lane i (top to bottom), 0..159 wrapping. The top five lanes drive
  left, the bottom five right. Lane speeds are 1 px every k frames, k = 5, 4, 3, 2, 1, 1, 2, 3, 4, 5
  top to bottom, never changing in game 0 (as the first row of the CarPatterns table in Bill
  Heineman's public Freeway disassembly says). Counting frames t from reset (t = 0 right after
  ``reset_game``), a left-driving car moves on frames t >= 1 with (t - 1) % k == 0, a right-driving
  one on frames t >= 2 with (t - 2) % k == 0 (exact for all 8192 frames of a game). The screen shows
  a car at x = ram - 3, except that a left-driving car is drawn where it was before this frame's
  move (so it lags by 1 px on the frames it moves). On the last frame of the game the left-driving
  cars do not move.
- chicken: ram[14] ("climb": 6 on the kerb, 177 at the top) grows by 1 on each frame UP is held and
  shrinks by 1 under DOWN (not below 6). From 177, UP scores a point: climb back to 6, ram[103] + 1
  (BCD) and a reward of 1 on that frame.
- stun (ram[106]): after a crossing 0x80 | 15, after a hit 0x40 | 28; the low bits count down by one
  on every even frame t, and the byte is cleared when they reach 0. The chicken only obeys the
  joystick on a frame whose previous ram[106] is 0. While the previous hit count is >= 16 the chicken
  is pushed down 1 px a frame (so a hit costs 24 or 25 px over as many frames, and 54 or 55
  frames without control).
- a hit is registered on frame t when, on the screen drawn on frame t - 1, a lit pixel of the
  chicken overlaps a lit pixel of a car (tyres included) -- the TIA's collision latch, read one frame
  late. The bottom lane's car also counts from the screen of frame t - 2 (seen 4 times in 12 random
  games, when a hit's immunity ended just after the car left the chicken; never for lanes 0..8, 29
  cases). A hit is ignored after a crossing (0x80) and while the hit count is still >= 23, so a car
  can hit the chicken again late in its push. Checked on 12 whole games of random play: every hit
  and every non-hit agrees.
- the chicken's pose: WALK_A when bit 2 of climb is set; when it is clear, HURT while a hit is
  counting down (including the frame its count reaches 0) and WALK_B otherwise.
- the player's score digits latch the score on every odd frame (so they show it one or two frames
  late); in the last 512 frames both scores cycle through the palette (see art.py).
- the game ends after 8192 frames (32 x 256; ram[105] counts the 256-frame periods, ram[1] the
  frames within one); ALE's ``game_over()`` is true from frame 8192 on. Not 8160 (2:16): the game
  runs 2:16.5. ALE's ``lives()`` is 0 throughout.

Where things are: constants.py (the lanes, the tunables), state.py (the state: which RAM byte each
field mirrors), game.py (the mechanics and the frame), art.py (sprites, colours and layout read off
ALE frames), sprites.py (the sprite sheets and the chicken/car overlap table, built once), draw.py
(the picture), mods.py.
"""

from jaxtari.games.freeway.constants import (  # noqa: F401
    CAR_SCREEN_X_OFFSET, CHICKEN_SCREEN_Y0, NUM_LANES, FreewayConstants,
)
from jaxtari.games.freeway.game import Freeway  # noqa: F401
from jaxtari.games.freeway.state import FreewayState  # noqa: F401

__all__ = ["Freeway", "FreewayConstants", "FreewayState", "NUM_LANES", "CAR_SCREEN_X_OFFSET",
           "CHICKEN_SCREEN_Y0"]
