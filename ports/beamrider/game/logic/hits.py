"""A shot meeting a saucer, on the ship's (even) frames after the shot moved.

Measured on ALE over 40 random games (283 kills, ports/beamrider/NOTES.md "Kills"): a shot still in
flight after its move hits the first slot (lowest index) holding a saucer (kinds 1, 4, 5) whose x
is within 6 of the beam the shot left from and whose depth is within 8 of the shot's new y. The
shot is gone, the slot turns into the explosion's first step with its count at 8, the score takes
the saucer's points (``points``: 4 x (the sector + 10), up to 396), the enemies left drop by one,
no shot launches on the next 3 logic frames (measured: a FIRE held on them launched nothing, as
after the no-torpedo dud) and the wave timer
loses 22 (logic/saucers.py ``pace``). On the next logic frame after an explosion's slot empties,
its depth reads 255."""

from __future__ import annotations

import jax.numpy as jnp

from ..state import BeamRiderState
from ..constants import BYTE


def sector_number(sector):
    """ram[0] read as the cartridge counts it, two BCD digits (a poked 0x1E reads 24)."""
    return (sector >> 4) * 10 + (sector & 0xF)


def next_sector(k, sector):
    """ram[0] one sector on, in BCD (0x09 -> 0x10, measured; past 0x99 wraps, not measured)."""
    n = (sector_number(sector) + 1) % k.sectors_bcd
    return ((n // 10) << 4) | (n % 10)


def points(k, sector, unit):
    """An enemy's worth in ``sector`` (measured on sectors poked 1..0xFF): ``unit`` x (the sector
    + 10), the multiplier stopping at 99."""
    return unit * jnp.minimum(sector_number(sector) + k.points_sector_offset, k.points_multiplier_cap)


def standing(k, s):
    """Each slot's depth as the objects-above counts see it: an empty slot's at the start depth,
    below everything, so it stands above nothing."""
    return jnp.where(s.kind != k.kind_empty, s.depth, k.start_saucer_depth)


def objects_above(k, s, entry_depths, shot_depth):
    """How many objects stand above each slot: the other slots in use, the entries (their depths as
    they stood) and the ship's shot (``shot_depth``, ``no_shot`` when none flies). The cartridge's
    per-frame budget rules count these (measured: ``keeps_depth``, ``lose_ship``)."""
    index = jnp.arange(s.depth.shape[0])
    others = (index[None, :] != index[:, None]) & (standing(k, s)[None, :] < s.depth[:, None])
    return (jnp.sum(others, axis=1) + jnp.sum(entry_depths[None, :] < s.depth[:, None], axis=1)
            + (shot_depth < s.depth))


def keeps_depth(k, s, entry_depths, shot_y):
    """The empty slots whose depth stays on this even frame: 4 or more objects standing above it
    (the other slots in use, the entries' depths as they stood, the ship's shot; measured, constants.py
    ``EMPTIED_DEPTH_OBJECTS``)."""
    return objects_above(k, s, entry_depths, shot_y) >= k.emptied_depth_objects


def hit(k, state: BeamRiderState, may_hit=True, keep=False) -> BeamRiderState:
    s, shot, player = state.saucers, state.ship, state.player
    flying = (shot.shot_y != k.no_shot) & may_hit
    saucer = (s.kind == k.kind_climber) | (s.kind == k.kind_dive_left) | (s.kind == k.kind_dive_right)
    near = (jnp.abs(s.x - shot.shot_x) <= k.hit_half_width) & (jnp.abs(shot.shot_y - s.depth) <= k.hit_half_depth)
    struck = flying & saucer & near
    first = struck & (jnp.cumsum(struck) == 1)
    any_hit = jnp.any(struck)
    # measured: on the logic frame after an explosion's slot empties its depth reads 255 (as
    # before the first spawn) unless ``keep``, the next odd frame brings it back on the horizon
    depth = jnp.where((s.kind == k.kind_empty) & ~keep, k.start_saucer_depth, s.depth)
    return state.replace(
        saucers=s.replace(depth=depth, kind=jnp.where(first, k.kind_explosion_first, s.kind),
                          timer=jnp.where(any_hit, (s.timer - k.kill_timer_cost) & BYTE, s.timer),
                          param=jnp.where(first, k.explosion_count, s.param)),
        ship=shot.replace(shot_y=jnp.where(any_hit, k.no_shot, shot.shot_y),
                          dud=jnp.where(any_hit, k.hit_busy, shot.dud)),
        player=player.replace(score=player.score + jnp.where(any_hit, points(k, player.sector,
                                                                             k.saucer_points_unit), 0),
                              enemies_left=player.enemies_left - any_hit.astype(jnp.int32)))
