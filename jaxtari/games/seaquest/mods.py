"""Mods of Seaquest (see :mod:`jaxtari.mods`), each changing one rule and nothing else.

- ``no_enemy_missiles`` (constants): enemy subs never fire; everything else, the subs included,
  plays as the original.
- ``endless_oxygen`` (constants): the oxygen never drains under water (so it never runs out, and
  surfacing with it full does nothing, as on the original); the opening refill, the refill after a
  lost sub and the bonus for oxygen left still run.

RAM counterparts (for the ALE side, when registered): neither is one set of RAM writes. The missile
byte of a lane (ram[71..74]) is a diver's x in shark lanes, so holding it at 0 needs a condition on
the lane's kind (ram[89..92] bit 2, whose animation bits change); holding ram[102] at 64 would also
refill at once after a lost sub (the refill counts up from what the death animation zeroed) unless
written only while ram[104] == 0 and ram[105] == 0, two conditions where a RamWrite has one.
The sprite swap of the paper waits for the picture (not drawn yet).
"""

from __future__ import annotations

from jaxtari.mods import InternalMod

MODS = [
    InternalMod("no_enemy_missiles", "enemy subs never fire their missiles",
                constants={"enemy_missiles": False}),
    InternalMod("endless_oxygen", "the oxygen never drains under water",
                constants={"oxygen_drains": False}),
]
