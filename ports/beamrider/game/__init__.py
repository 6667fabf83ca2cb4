"""BeamRider's JAX side, being ported: exact for the sector's intro, the grid's clock, the three saucers' paths and the ship's moves and shots up to the first kill or death of random play (NOOP: to frame 1,650); no kills yet.

The ship's moves between the five beams, its laser lariats and torpedoes, the frame counter,
the random number, the grid's clock (its speed ram[4] and position ram[24]) and the three enemy
slots (kind, step, x, depth, parameter: the horizon, dive, ride, cross, climb and return of sector
1's saucers) match ALE's RAM on every frame until the first enemy is hit or the ship is lost
(tests/ports/test_beamrider_ship.py: 7 scripted games, the NOOP one to frame 1,650, and 12 random
games, 403-755 frames each). Kills, scoring, deaths, the enemies' shots, a blocked crossing, the
later sector-1 dives (after ~frame 1,694), the sector's end and the picture are not modelled. Relative imports only: this package moves to ``jaxtari/games/beamrider/``.
"""

from .constants import BeamRiderConstants
from .game import BeamRider
from .state import BeamRiderState

__all__ = ["BeamRider", "BeamRiderConstants", "BeamRiderState"]
