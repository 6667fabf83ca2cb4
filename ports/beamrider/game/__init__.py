"""BeamRider's JAX side, being ported: exact for the intro, the grid's clock, sector 1's saucers (waves 2-6) and the ship's moves, shots and kills up to the first lost ship of random play (or an undecoded event: a saucer reaching the bottom, wave 7's paths, the ship flags' top bit dropping).

The ship's moves between the five beams, its laser lariats and torpedoes, the frame counter,
the random number, the grid's clock (its speed ram[4] and position ram[24]), the three enemy
slots (kind, step, x, depth, parameter: the horizon, dive, ride, cross, climb and return of sector
1's saucers in waves 2 to 6, a turn held by another slot at its depth), the wave timer (ram[6], ram[8], ram[16]), a shot's hit on a saucer
(its explosion, 44 points, the enemies left) match ALE's RAM on every frame
(tests/ports/test_beamrider_ship.py: 7 scripted games, the NOOP one to frame 1,706, and 5 with the
wave poked to 4, 5 or 6; 12 random games
to the first kill, 403-755 frames, and 12 to the first lost ship or unmodelled saucer move,
1,057-2,591 frames with 2-6 kills each). Not modelled: deaths and the enemies' shots, the paths
of wave 7 on, a saucer reaching the bottom, the sector's end, the other enemy kinds and
the picture. Relative imports only: this package moves to ``jaxtari/games/beamrider/``.
"""

from .constants import BeamRiderConstants
from .game import BeamRider
from .state import BeamRiderState

__all__ = ["BeamRider", "BeamRiderConstants", "BeamRiderState"]
