"""Seaquest (Activision, 1983) in pure JAX, frame for frame with ALE's emulation of the cartridge.

Facts come from the public commented disassembly of the cartridge (Dennis Debro,
DNSDEBRO/Disassemblies, ``Atari2600/Seaquest/seaquest.asm``), each number re-measured on ALE
(ale-py 0.12.1). The state mirrors the cartridge's RAM; one ``step`` runs the cartridge's frame in
its order; every tunable number is a field of :class:`SeaquestConstants`. README.md in this folder
tells how the game works, how close this is to ALE (RAM, score, reward, lives and the picture,
zero tolerance) and what the mods change.
"""

from jaxtari.games.seaquest.constants import SeaquestConstants
from jaxtari.games.seaquest.game import Seaquest
from jaxtari.games.seaquest.state import SeaquestState

__all__ = ["Seaquest", "SeaquestConstants", "SeaquestState"]
