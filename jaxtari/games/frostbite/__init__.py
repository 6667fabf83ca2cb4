"""Frostbite (Activision, 1983) in pure JAX, frame for frame with ALE's emulation of the cartridge.

The state mirrors the game's own variables, and ``_step`` (game.py) runs the cartridge's frame as a
pipeline of named rules: the vertical blank's logic, the picture's collisions, the overscan.
README.md says how the real game works, what was measured and where it knowingly differs from ALE.

Files: constants.py (every number, the status bits, the tunables), state.py (the state, the start,
a new screen), game.py, objects.py (objects and signals), art.py (pixel art and layout), draw.py,
mods.py; logic/: status.py, enemies.py, bailey.py, world.py, collisions.py, overscan.py,
cartridge.py (random generator, speeds, scoring), kernel.py (the kernel's mid-line writes),
sprites.py (bit tables), geometry.py (where objects are, pixel by pixel).
"""

from jaxtari.games.frostbite.logic.cartridge import add_points, lfsr_step, speed_bases  # noqa: F401
from jaxtari.games.frostbite.constants import *  # noqa: F401,F403  (the game's numbers, one home)
from jaxtari.games.frostbite.constants import FrostbiteConstants  # noqa: F401
from jaxtari.games.frostbite.game import Frostbite, mirrored_ram  # noqa: F401
from jaxtari.games.frostbite.state import FrostbiteState  # noqa: F401
