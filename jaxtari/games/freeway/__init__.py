"""Freeway (Activision, 1981) in pure JAX, frame for frame like ALE's game 0, difficulty 0.

One ``step`` is one emulator frame; RAM, reward and screen agree with ALE 0.12.1 on every frame of
the whole games tested (README.md: the cars, the chicken, hits, the timer, and what was measured).

Files: constants.py (the lanes, the tunables), state.py (which RAM byte each field mirrors),
game.py (the mechanics and the frame), objects.py (objects, their features, signals), art.py
(sprites, colours and layout read off ALE frames), draw.py (the picture), mods.py;
logic/sprites.py (the sprite sheets and the chicken/car overlap table, built once).
"""

from jaxtari.games.freeway.constants import (  # noqa: F401
    CAR_SCREEN_X_OFFSET, CHICKEN_SCREEN_Y0, NUM_LANES, FreewayConstants,
)
from jaxtari.games.freeway.game import Freeway  # noqa: F401
from jaxtari.games.freeway.state import FreewayState  # noqa: F401

__all__ = ["Freeway", "FreewayConstants", "FreewayState", "NUM_LANES", "CAR_SCREEN_X_OFFSET",
           "CHICKEN_SCREEN_Y0"]
