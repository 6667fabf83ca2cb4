"""The byte and lane helpers every part of Seaquest's logic uses: every value is a byte as on the
cartridge (``& BYTE``); lanes are arrays of four, lane 0 the bottom lane."""

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
DEFAULTS = k.SeaquestConstants()  # what a caller without a game's consts reads (tests, faults)


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
