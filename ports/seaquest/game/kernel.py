"""What the picture latches for the next frame: the TIA's collisions per lane, the patrol sub's
collision with the player's sub, the oxygen warning."""

from __future__ import annotations

import jax.numpy as jnp

from . import constants as k
from .logic import NONE


def latch(s):
    warn = ((s.sub_y != k.SUB_Y_MIN) & (s.oxygen != 0) & (s.death == 0)
            & (s.oxygen <= k.OXYGEN_WARNING_LEVEL))
    none = jnp.full(k.NUM_LANES, NONE, jnp.int32)
    return s.replace(oxygen_warning=jnp.where(warn, k.WARNING_ON, 0), hit_lanes=none,
                     torpedo_lane=jnp.int32(NONE), sub_lane=jnp.int32(NONE),
                     ball_lane=jnp.int32(NONE), patrol_hit=jnp.bool_(False))
