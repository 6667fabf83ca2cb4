"""Seaquest's lanes: a new obstacle group, its start at the screen's edge (with a diver), the lanes
parked between waves, the fractional speeds; and the oxygen refill's step."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest.logic.common import DEFAULTS, SIGN, lane_of, pick, set_lane


def start_x(s, lane, cond, spawn_byte, c=DEFAULTS):
    """A lane's obstacle starts at the edge it enters from (its speed-up bit cleared); a diver
    joins the lane when none was rescued there and ``spawn_byte`` >= 80."""
    attrs = lane_of(s.attributes, lane) & k.ATTR_LOW
    x = jnp.where((attrs & k.ATTR_LEFT) != 0, c.obstacle_left_start, c.obstacle_right_start)
    diver = lane_of(s.diver_state, lane)
    new_diver = cond & ((diver & SIGN) == 0) & (spawn_byte >= c.diver_spawn_random)
    return s.replace(attributes=set_lane(s.attributes, lane, attrs, cond),
                     obstacle_x=set_lane(s.obstacle_x, lane, x, cond),
                     diver_state=set_lane(s.diver_state, lane, k.DIVER_SWIMMING, new_diver))


def spawn(s, lane, value, cond=True, c=DEFAULTS):
    """A new obstacle group in ``lane``: direction from ``value`` bit 3, its copies from the
    difficulty's starting pattern (low nibble moving right, high nibble moving left)."""
    left = value & k.ATTR_LEFT
    patterns = pick(c.start_patterns, s.difficulty & 7)
    pattern = jnp.where(left != 0, patterns >> 4, patterns & 0xF)
    s = s.replace(attributes=set_lane(s.attributes, lane, left, cond),
                  pattern=set_lane(s.pattern, lane, pattern, cond))
    return start_x(s, lane, cond, value, c)


def reset_obstacles(s, cond=True, c=DEFAULTS):
    return s.replace(obstacle_x=jnp.where(cond, c.obstacle_parked, s.obstacle_x),
                     missile_x=jnp.where(cond, 0, s.missile_x))


def fill_oxygen(s, cond=True, c=DEFAULTS):
    """One step of the oxygen refill (every other frame); returns (state, full)."""
    up = cond & ((s.frame_count & 1) == 0)
    s = s.replace(oxygen_warning=jnp.where(up, 0, s.oxygen_warning),
                  oxygen=jnp.where(up, s.oxygen + 1, s.oxygen))
    return s, s.oxygen >= c.oxygen_max


def fractional(s, speed_value):
    """(whole pixels this frame, new fractions) for the three speeds (diver, obstacle, missile):
    each moves speed/16 pixels a frame, the remainder carried in 1/16ths."""
    frac = (speed_value & 0xF) + s.fractions
    whole = (speed_value >> 4) + (frac >= 16)
    return whole, frac & 0xF
