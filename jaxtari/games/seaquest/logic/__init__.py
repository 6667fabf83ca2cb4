"""Seaquest's logic by topic, beside the frame's phases in :mod:`..game`: the byte and lane helpers
(:mod:`.common`), the score routine (:mod:`.score`), the lanes' obstacles and the oxygen refill
(:mod:`.obstacles`), and the collision latches the picture leaves for the next frame
(:mod:`.latches`)."""

from jaxtari.games.seaquest.logic.common import (
    BYTE, DEFAULTS, EVERY_LANE, LANES, NIBBLE, NONE, SIGN, colour_mods, lane_of, pick, set_lane, where,
)
from jaxtari.games.seaquest.logic.obstacles import fill_oxygen, fractional, reset_obstacles, spawn, start_x
from jaxtari.games.seaquest.logic.score import add_points, bcd

__all__ = ["BYTE", "DEFAULTS", "EVERY_LANE", "LANES", "NIBBLE", "NONE", "SIGN", "add_points", "bcd",
           "colour_mods", "fill_oxygen", "fractional", "lane_of", "pick", "reset_obstacles",
           "set_lane", "spawn", "start_x", "where"]
