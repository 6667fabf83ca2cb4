"""ALE's NTSC palette (the RGB of each of the 128 TIA colours, indexed by colour byte >> 1), as
measured on ale-py 0.12.1 for Seaquest: one table, read from there until it moves to jaxtari/atari/
in a core change, before Kangaroo registers (a registered game must not import another's package).
Kangaroo's colours are checked against its own screens by the picture tests."""
from jaxtari.games.seaquest.palette import PALETTE  # noqa: F401
