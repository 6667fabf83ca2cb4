"""Mods of Freeway: ``jaxtari.make("freeway", mods=[...])``.

- ``stop_cars`` (InternalMod, constants): every car stays parked where it starts (x = -3, hidden
  under the HMOVE bar at the left edge); nothing else changes.
- ``all_black_cars`` (InternalMod, constants): every car body is drawn black; positions, hits and
  everything else are unchanged. Only the pixels of car bodies differ from the original.
- ``invincible`` (InternalMod, swaps the ``collide`` mechanic): cars never hit the chicken.
- ``rectangles`` (InternalMod, constants, visual only): the JAXtari paper's sprite-to-rectangle
  mod: the chicken and every car drawn as a solid rectangle of its own box (the one
  ``Freeway.objects`` reports) in one colour, NTSC white (236, 236, 236); the second player's
  chicken (it never moves), the road and the scores are drawn as before. Positions, hits, every
  signal and the reward are the original's: only pixel agents see it.
- ``hit_penalty`` (PostStepMod): a reward of -1 on each frame a car hits the chicken (on top of the
  +1 per crossing); the state is left exactly as the original game makes it.

None has an ALE counterpart but ``stop_cars`` (alignment/reference/games/freeway/ram.py): the
rectangles' shapes, like the car colours, are cartridge data (ROM), which RAM writes cannot reach.
"""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.mods import InternalMod, PostStepMod

_LANES = 10


def _never_collide(game, state):
    return jnp.zeros((_LANES,), bool)


def _hit_penalty(game, prev_state, state, reward):
    # a hit (re)starts the hit countdown at its top value, higher than any previous count
    new_hit = state.hit_count > prev_state.hit_count
    return state, reward - jnp.where(new_hit, 1.0, 0.0).astype(reward.dtype)


MODS = [
    InternalMod("stop_cars", "Every car stays parked at its start position; the chicken can walk "
                "across freely.", constants={"lane_dirs": (0,) * _LANES},
                rules=("physics.car-speeds", "physics.collision-push-back")),
    InternalMod("all_black_cars", "Every car body is drawn black (tyres are black already); "
                "nothing but car colours changes.", constants={"car_colours": ((0, 0, 0),) * _LANES},
                rules=()),
    InternalMod("invincible", "Cars never hit the chicken: no push back, no lost control.",
                mechanics={"collide": _never_collide}, rules=("physics.collision-push-back",)),
    InternalMod("rectangles", "The chicken and every car drawn as solid white rectangles of "
                "their boxes; nothing but the picture changes.",
                constants={"sprites_as_boxes": True}, rules=()),
    PostStepMod("hit_penalty", "Reward -1 on each frame a car hits the chicken (the game itself "
                "is unchanged).", _hit_penalty, rules=("scoring.crossing",)),
]
