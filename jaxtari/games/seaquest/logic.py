"""Seaquest's frame, in the cartridge's order (read off the public disassembly, measured on ALE).

One ALE frame runs: the frame counter, the joystick, the game logic (using the collision latches
of the picture drawn on the previous frame), the set-up of the next picture, the picture itself
(which latches the collisions the next frame reads) and the overscan (sounds' timers, colours,
the point value, the divers' reset, animations, the random byte). Every value is a byte as on the
cartridge (``& BYTE``); lanes are arrays of four, lane 0 the bottom lane.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from jaxtari.games.seaquest import constants as k

BYTE = 0xFF
SIGN = 0x80
NIBBLE = 0xF
NONE = 0xFF  # a collision latch with no lane
LANES = jnp.arange(k.NUM_LANES)
EVERY_LANE = "every lane"  # a lane index meaning all four at once (no lookup, no select)


def where(cond, a, b):
    """``a`` where ``cond`` else ``b``, field by field of two states."""
    return jax.tree_util.tree_map(lambda x, y: jnp.where(cond, x, y), a, b)


def pick(table, index):
    """``table[index]`` for a short table (``table[0]`` for an index outside it), as one gather:
    a chain of selects per table was copied by XLA into every fused kernel that read it (about
    2,000 of the frame loop's 19,000 HLO lines). The table may be traced (a Constants field passed
    as a traced input, as the audit's mutation runs do); its length is static either way."""
    table = jnp.asarray(table, jnp.int32)
    inside = (index >= 0) & (index < table.shape[0])
    return table[jnp.where(inside, index, 0)]


def lane_of(values, lane):
    """values[lane] for a traced lane index (values[0] for one outside 0..3, e.g. NONE), as
    selects: a gather in a fused kernel kept XLA from vectorising it over the batch."""
    if lane is EVERY_LANE:
        return values
    out = values[..., 0]
    for index in range(1, k.NUM_LANES):
        out = jnp.where(lane == index, values[..., index], out)
    return out


def set_lane(values, lane, value, cond=True):
    """values with values[lane] = value where ``cond``."""
    if lane is EVERY_LANE:
        return jnp.where(cond, value, values)
    return jnp.where((LANES == lane) & cond, value, values)


def colour_mods(color_cycle):
    """(xor, and) the cartridge applies to every colour: in the attract mode (ram[34] bit 7, after
    65,536 frames without a joystick move) the hues cycle and the B/W bit is cleared."""
    cycling = (color_cycle & SIGN) != 0
    return (jnp.where(cycling, (color_cycle << 1) & BYTE, 0),
            jnp.where(cycling, BYTE & ~k.BW_BIT, BYTE))


# ---- scoring ----------------------------------------------------------------------------------------
def bcd(value):
    """A BCD byte's value (0x45 -> 45)."""
    return (value >> 4) * 10 + (value & 0xF)


def add_points(s, points_bcd, cond=True):
    """The cartridge's score increment (BCD tens/ones byte first): the score caps at 999,999 and
    ends the game there; a carry into the ten-thousands (every 10,000 points) gives a reserve sub
    up to the cap. Returns (state, carry): the 6502 carry flag the routine leaves (some callers add
    it into later arithmetic)."""
    points = bcd(points_bcd)
    low = s.score % 100
    carried = (low + points) >= 100
    total = s.score + points
    maxed = total > 999_999
    total = jnp.where(maxed, 999_999, total)
    crossed = carried & ~maxed & (((total // 100) % 100) == 0)
    bonus = crossed & (s.reserve_subs < k.MAX_RESERVE_SUBS)
    carry = cond & (maxed | (crossed & ~bonus))
    s = s.replace(score=jnp.where(cond, total, s.score),
                  reserve_subs=jnp.where(cond & bonus, s.reserve_subs + 1, s.reserve_subs),
                  game_over=jnp.where(cond & maxed, (s.game_over + 1) & BYTE, s.game_over))
    return s, carry


# ---- obstacles --------------------------------------------------------------------------------------
def start_x(s, lane, cond, spawn_byte):
    """A lane's obstacle starts at the edge it enters from (its speed-up bit cleared); a diver
    joins the lane when none was rescued there and ``spawn_byte`` >= 80."""
    attrs = lane_of(s.attributes, lane) & k.ATTR_LOW
    x = jnp.where((attrs & k.ATTR_LEFT) != 0, k.OBSTACLE_LEFT_START, k.OBSTACLE_RIGHT_START)
    diver = lane_of(s.diver_state, lane)
    new_diver = cond & ((diver & SIGN) == 0) & (spawn_byte >= k.DIVER_SPAWN_RANDOM)
    return s.replace(attributes=set_lane(s.attributes, lane, attrs, cond),
                     obstacle_x=set_lane(s.obstacle_x, lane, x, cond),
                     diver_state=set_lane(s.diver_state, lane, k.DIVER_SWIMMING, new_diver))


def spawn(s, lane, value, cond=True):
    """A new obstacle group in ``lane``: direction from ``value`` bit 3, its copies from the
    difficulty's starting pattern (low nibble moving right, high nibble moving left)."""
    left = value & k.ATTR_LEFT
    patterns = pick(k.START_PATTERNS, s.difficulty & 7)
    pattern = jnp.where(left != 0, patterns >> 4, patterns & 0xF)
    s = s.replace(attributes=set_lane(s.attributes, lane, left, cond),
                  pattern=set_lane(s.pattern, lane, pattern, cond))
    return start_x(s, lane, cond, value)


def reset_obstacles(s, cond=True):
    return s.replace(obstacle_x=jnp.where(cond, k.OBSTACLE_PARKED, s.obstacle_x),
                     missile_x=jnp.where(cond, 0, s.missile_x))


def fill_oxygen(s, cond=True):
    """One step of the oxygen refill (every other frame); returns (state, full)."""
    up = cond & ((s.frame_count & 1) == 0)
    s = s.replace(oxygen_warning=jnp.where(up, 0, s.oxygen_warning),
                  oxygen=jnp.where(up, s.oxygen + 1, s.oxygen))
    return s, s.oxygen >= k.OXYGEN_MAX


def fractional(s, speed_value):
    """(whole pixels this frame, new fractions) for the three speeds (diver, obstacle, missile):
    each moves speed/16 pixels a frame, the remainder carried in 1/16ths."""
    frac = (speed_value & 0xF) + s.fractions
    whole = (speed_value >> 4) + (frac >= 16)
    return whole, frac & 0xF
