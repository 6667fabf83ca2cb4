"""BeamRider's JAX side, being ported: exact for sector 1's intro, saucers (waves 2-7, the bottom), their shots, the rejuvenator and its debris, the ship's moves, shots and kills, lost ships and the next ship's intro, the sector's end (the sentinel's crossing, the crossers, a torpedo meeting the sentinel and its bonus) and the next sector's intro, sector 2's kind-24 objects and every sector's points, up to an undecoded event (other enemy kinds, waves 9 on, an emptied entry keeping its depth).

The ship's moves between the five beams, its laser lariats and torpedoes, the frame counter,
the random number, the grid's clock (its speed ram[4] and position ram[24]), the three enemy
slots (kind, step, x, depth, parameter: the horizon, dive, ride, cross, climb and return of sector
1's saucers in waves 2 to 7, a turn held by another slot at its depth, the bottom of the screen,
no return to the horizon under 3 enemies left), the wave timer (ram[6], ram[8], ram[16]), a
shot's hit on a saucer (its explosion, 44 points, the enemies left), the enemies' shots (object
table entries 3..6: fired at the end of a ride or crossing, falling at 22/16), the rejuvenator
(entering a shot entry late in the sector, falling at 30/16, caught for a ship more, shot down
into debris falling at 67/16), the loss of the ship (a shot, debris or saucer at depth 206+
within -5..3 of the ship; a saucer so paid as a kill), its run-down (the grid slowing, the
reserve blinking, the life taken or the game over) and the next ship's intro match ALE's RAM on
every frame (tests/ports/test_beamrider_ship.py: 7 scripted games, 5 with the wave poked; 12
random games to the first kill, 12 of 3,000 frames through their lost ships, 6 through the
bottom, a saucer taking the ship or a rejuvenator shot down, 3 through a rejuvenator, and 10
whole games to the game over, ALE's lives() included), the spawn with fewer than three enemies
left, the sector's end (logic/sector_end.py: the switch, the sentinel's crossing and wait, the
crossers coming into the shot entries, crossing and turning down a beam past the ship, the ship
held, a torpedo meeting the sentinel and its bonus) and the next sector's start (4 poked games into
sector 2's play). Not modelled: the other
enemy kinds (sector 4's kinds 92..94), the paths of wave 9 on, the depth an emptied entry keeps
(after its explosion, or on a loss frame at 204..209), the picture.
Relative imports only: this package moves to ``jaxtari/games/beamrider/``.
"""

from .constants import BeamRiderConstants
from .game import BeamRider
from .state import BeamRiderState

__all__ = ["BeamRider", "BeamRiderConstants", "BeamRiderState"]
