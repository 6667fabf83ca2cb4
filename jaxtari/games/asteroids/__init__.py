"""Asteroids (Atari, 1981) in pure JAX, frame for frame with ALE's emulation of the cartridge
(ALE's default mode 0, difficulty 0; its ground truth: alignment/reference/games/asteroids/).

Facts from the public commented disassembly (DNSDEBRO/Disassemblies, Atari2600/Asteroids/
asteroids.asm), each re-measured on ALE (ale-py 0.12.1). The state mirrors the cartridge's RAM;
one step runs its frame (ship or asteroids, then the overscan); every mirrored byte, the score,
reward, lives, the end and the 210x160 picture (flicker included) agree with ALE on every frame of
the lockstep tests (tests/games/test_asteroids_*.py). Every tunable number is a field of
``AsteroidsConstants`` (constants.py). README.md has the long description. Relative imports only.
"""

from .constants import AsteroidsConstants
from .game import Asteroids
from .state import AsteroidsState

__all__ = ["Asteroids", "AsteroidsConstants", "AsteroidsState"]
