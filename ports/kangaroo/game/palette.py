"""ALE's NTSC palette (the RGB of each of the 128 TIA colours, indexed by colour byte >> 1): shared
2600 hardware, kept in jaxtari.atari.palette. Kangaroo's colours are checked against its own screens by
the picture tests."""
from jaxtari.atari.palette import PALETTE  # noqa: F401
