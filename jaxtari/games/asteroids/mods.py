"""Mods of Asteroids (see :mod:`jaxtari.mods`), each declaring the rules of specs/asteroids.yaml it
changes; each mod says below what it changes, and its tests check that and nothing else
(tests/games/test_asteroids_mods.py).

- ``slow_asteroids`` (the JAXtari paper's modification, issue 52): the asteroid field moves on
  one asteroid frame in two, so every asteroid drifts at half its speed, up or down and sideways
  (the sideways counters tick with the moves). The ship, its shots, collisions, splitting, waves
  and the picture's flicker run as in the original. No ALE counterpart: the cartridge moves every
  listed asteroid on every asteroid frame in code, and no byte gates it (reference/ram.py says
  what was measured).
- ``endless_lives``: the lives nibble held at the start's 4 after every frame: a death still
  explodes the ship and waits for the respawn, but no life is lost for good and the game never
  ends; bonus lives are taken back the same way. ALE counterpart: the same nibble of ram[60]
  written after every frame (exact). ALE's ``lives()`` reads the nibble inside the frame, before
  the write, so it shows 3 on a death's frame and 5 on a bonus life's; the JAX game's ``lives``
  reports it the same way (``AsteroidsState.ale_lives``).
- ``no_hyperspace``: DOWN never takes the ship into hyperspace (the armed flag, ram[72] bit 2,
  cleared after every frame, so the second logic frame of DOWN never finds it set); everything
  else plays as the original. ALE counterpart: that bit written after every frame (exact).
- ``one_colour_asteroids`` (the picture and the objects' ``colour`` only): every asteroid's colour
  bits (ram[39..56] bits 0-2) cleared after every frame, so the asteroids and their debris are
  all drawn in the first colour of the cartridge's table; sizes, positions, hits and points are
  the original's. ALE counterpart: those bits written after every frame (exact).
"""

from __future__ import annotations

from jaxtari.mods import InternalMod

MODS = [
    InternalMod("slow_asteroids", "the asteroids drift at half speed (the field moves on one "
                "asteroid frame in two)", constants={"asteroid_move_period": 2},
                rules=("physics.asteroids-drift", "physics.debris-drift")),
    InternalMod("endless_lives", "the lives stay at 4: a death costs no life and the game never "
                "ends", constants={"lives_held": True},
                rules=("lives.asteroid-kills-ship", "spawning.ship-respawns-at-centre",
                       "termination.last-life", "lives.bonus-every-5000")),
    InternalMod("no_hyperspace", "DOWN never warps the ship into hyperspace",
                constants={"hyperspace": False},
                rules=("action.hyperspace", "timing.hyperspace-return")),
    InternalMod("one_colour_asteroids", "every asteroid drawn in one colour (nothing but colours "
                "changes)", constants={"one_colour_asteroids": True}, rules=()),
]
