"""BeamRider's JAX side, being ported: exact for the sector's intro, the grid's clock and the ship's moves and shots up to the first kill or death of random play; no enemies yet.

The ship's moves between the five beams, its laser lariats and torpedoes, the frame counter,
the random number and the grid's clock (its speed ram[4] and position ram[24]) match ALE's RAM on every frame until the first enemy is hit or the ship is
lost (tests/ports/test_beamrider_ship.py: 6 scripted and 6 random games, 399-647 frames each). Enemies, kills, scoring, deaths, the sector's end and the picture are
not modelled. Relative imports only: this package moves to ``jaxtari/games/beamrider/``.
"""

from .constants import BeamRiderConstants
from .game import BeamRider
from .state import BeamRiderState

__all__ = ["BeamRider", "BeamRiderConstants", "BeamRiderState"]
