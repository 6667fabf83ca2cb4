"""The Atari 2600 and ALE facts every game shares: one home for each.

- :mod:`.screen` - the picture ALE returns (210 x 160) and the TIA's HMOVE blanking bar;
- :mod:`.paddle` - ALE's emulation of the paddle controller (resistance per action);
- :mod:`.fonts` - the two digit fonts the ported cartridges draw their scores with;
- :mod:`.palette` - ALE's NTSC palette (the RGB of each TIA colour byte).

A game's own numbers live in its package (``jaxtari/games/<game>/``); what is here is the console's
and the emulator's, the same for every cartridge that uses it.
"""

from jaxtari.atari import fonts, paddle, palette, screen  # noqa: F401
from jaxtari.atari.screen import HMOVE_BAR_W, SCREEN_H, SCREEN_W  # noqa: F401

__all__ = ["fonts", "paddle", "palette", "screen", "SCREEN_H", "SCREEN_W", "HMOVE_BAR_W"]
