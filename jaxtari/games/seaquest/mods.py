"""Mods of Seaquest (see :mod:`jaxtari.mods`), each declaring the spec rules it changes.

- ``no_enemy_missiles`` (constants): enemy subs never fire; everything else, the subs included,
  plays as the original.
- ``endless_oxygen`` (constants): the oxygen never drains under water (so it never runs out); the
  opening refill, the refill after a lost sub and the bonus for oxygen left still run. The
  surfacing rules act only on a sub surfacing with oxygen not full (the cartridge's test, kept), so
  under this mod surfacing does nothing: no diver given up, no loss without divers, no six-diver
  bonus and so no later wave.
- ``grey_enemies`` (constants, visual only): sharks are drawn in the enemy subs' grey, as the
  paper's solid-colour swaps; kinds, positions and the pixel hitboxes (the collision latches read
  the sprites, not their colours) are the original's.
- ``swapped_enemies`` (constants, visual only): the paper's sprite swap: sharks are drawn as enemy
  subs (their rows, in the subs' grey) and enemy subs as sharks (the shark's rows, floating, in the
  wave's shark colour), each with its own position, copies, facing and animation frame. The
  collision latches are computed from the original sprites (logic/latches.py never sees the swap), so the
  hitboxes, every signal and the reward are the original's.
- ``rectangles`` (constants, visual only): the JAXtari paper's sprite-to-rectangle mod: every
  moving object (the sub, its torpedo, the sharks and enemy subs, the divers, the enemy missiles,
  the patrol sub) drawn as a solid rectangle of its own box (the one ``Seaquest.objects``
  reports), all in one colour, white (colour byte 0x0E); nothing is drawn for an object the
  objects do not report (the sub while it explodes). The sea, the surface, the score, the
  reserve subs, the oxygen bar and the rescued divers are drawn as before; every state byte,
  signal and the reward are the original's: only pixel agents see it.

ALE counterparts (alignment/reference/games/seaquest/ram.py): ``grey_enemies`` writes the lanes'
colour bytes (ram[44..47], which the cartridge's picture reads); the other four are not one set
of RAM writes (that module says why). ``grey_enemies`` is also the nearest ALE can come to
``rectangles``: the colours of the enemies only, their shapes staying the ROM's.
"""

from __future__ import annotations

from jaxtari.games.seaquest import constants as k
from jaxtari.mods import InternalMod

MODS = [
    InternalMod("no_enemy_missiles", "enemy subs never fire their missiles",
                constants={"enemy_missiles": False}, rules=("spawning.enemy-sub-missiles",)),
    InternalMod("endless_oxygen", "the oxygen never drains under water",
                constants={"oxygen_drains": False},
                rules=("timing.oxygen-decreases", "lives.oxygen-runs-out",
                       "lives.surface-without-divers", "progression.surface-gives-up-diver",
                       "progression.six-divers-next-wave", "scoring.more-oxygen-left-bonus",
                       # the rule stands, but its probe loses every sub by surfacing without
                       # divers, which this mod stops (its modified-game audit found it)
                       "termination.last-sub-lost")),
    InternalMod("grey_enemies", "sharks drawn in the enemy subs' grey (nothing but colours "
                "changes)", constants={"shark_colours": (k.ENEMY_SUB_COLOUR,) * len(k.SHARK_COLOURS)},
                rules=()),
    InternalMod("swapped_enemies", "sharks drawn as enemy subs and enemy subs as sharks (nothing "
                "but the picture changes)", constants={"swap_enemy_sprites": True}, rules=()),
    InternalMod("rectangles", "every moving object drawn as a solid white rectangle of its box "
                "(nothing but the picture changes)", constants={"sprites_as_boxes": True},
                rules=()),
]
