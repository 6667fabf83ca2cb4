"""Breakout (Atari, 1978) in pure JAX, frame for frame with ALE's emulation of the cartridge.

The state mirrors the cartridge's RAM and one ``step`` runs the cartridge's frame in its order;
every mirrored RAM byte, the reward, lives and the screen agree with ALE 0.12.1 on every frame of
the games tested, in all 12 modes (README.md: the frame's rules, the modes, how close it is and
where it knowingly differs).

Files: constants.py (every number, the modes), state.py (which RAM byte each field mirrors; a
state from a RAM snapshot), game.py (the frame), objects.py (objects and signals), draw.py (the
picture), mods.py; logic/geometry.py (where things are drawn, line by line).
"""

from jaxtari.games.breakout.game import Breakout
from jaxtari.games.breakout.state import BreakoutState

__all__ = ["Breakout", "BreakoutState"]
