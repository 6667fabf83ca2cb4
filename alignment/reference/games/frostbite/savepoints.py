"""Frostbite's save-point search targets (found by :mod:`alignment.audit.savepoints` on ALE; the spec
holds only what the search wrote, see specs/frostbite.yaml ``save_points:``)."""

from __future__ import annotations

import numpy as np

from alignment.plugin import Macro, SavePointTarget, Signals

MOVES: tuple[Macro, ...] = (
    (("NOOP", 8),), (("LEFT", 8),), (("RIGHT", 8),), (("UP", 4), ("NOOP", 4)),
    (("DOWN", 4), ("NOOP", 4)),
)
SHORE = 255
DOOR_X = 123  # x of the igloo door (x 120..127 on the shore starts the igloo jump)
SHORE_Y, ROW_GAP = 56, 26  # player_y on the shore; rows are 26 px apart below it


def _position(s: Signals) -> float:
    """Bailey's height counted in rows from the shore (0) down to the bottom row (4), fractional
    in the air, so that a jump towards a row already counts as progress."""
    return (int(s["player_y"]) - SHORE_Y) / ROW_GAP


def _blocks(s: Signals) -> float:
    # more blocks first; then closeness (in rows) to the nearest white row below or above
    white = [4 - i for i in range(4) if s["floe_white"][i]]
    near = min((abs(_position(s) - w) for w in white), default=0)
    return 100.0 * s["igloo_blocks"] - near + 0.001 * s["temperature"]


def _door(s: Signals) -> float:
    return -40.0 * _position(s) - abs(int(s["player_x"]) - DOOR_X)


def _situation(s: Signals) -> tuple:
    return (s["igloo_blocks"], s["row"], int(s["player_x"]) // 4, int(s["player_y"]) // 4,
            tuple(bool(w) for w in s["floe_white"]), s["level"])


def _standing(s: Signals) -> bool:
    # standing still on a floe row: the y of that row (ram y + 29; see the catalog)
    rows = {3: 82, 2: 108, 1: 134, 0: 160}
    return s["row"] in rows and s["player_y"] == rows[s["row"]]


TARGETS: dict[str, SavePointTarget] = {
    "four-rows": SavePointTarget(
        note="Level 1: Bailey has landed on each of the four floe rows once (4 blocks, 40 points) "
             "and all rows have turned white again.",
        goal=lambda s, _: s["igloo_blocks"] == 4 and bool(np.all(s["floe_white"])),
        objective=_blocks, reaches=("score", "igloo_blocks", "lives", "level"),
        macros=MOVES, prefix=(("NOOP", 120),), situation=_situation,
    ),
    "igloo-complete": SavePointTarget(
        note="Level 1: the igloo is complete (16 blocks, door open) and Bailey stands on a floe.",
        goal=lambda s, _: s["igloo_blocks"] == 16 and _standing(s),
        objective=_blocks, reaches=("igloo_blocks", "lives", "level", "row"),
        macros=MOVES, prefix=(("NOOP", 120),), situation=_situation, beam=30,
    ),
    "at-door": SavePointTarget(
        note="Level 1, igloo complete: Bailey stands on the shore in front of the igloo door.",
        goal=lambda s, _: s["row"] == SHORE and 120 <= s["player_x"] <= 127
        and s["player_y"] == SHORE_Y,
        objective=_door, reaches=("igloo_blocks", "lives", "level", "row"),
        macros=MOVES, start="igloo-complete", situation=_situation,
    ),
    "fish-ahead": SavePointTarget(
        note="Level 2: Bailey stands on a floe row where a fish swims towards him; left alone he "
             "catches it.",
        goal=lambda s, after: _standing(s) and after[-1]["score"] - s["score"] == 200
        and after[-1]["igloo_blocks"] == s["igloo_blocks"] and after[-1]["lives"] == s["lives"],
        objective=_blocks, reaches=("score", "igloo_blocks", "lives", "level", "row"),
        macros=MOVES, start="level-2", lookahead=(("NOOP", 60),), situation=_situation,
        beam=20,
    ),
    "shore-far-left": SavePointTarget(
        note="Level 5 (mode 2): Bailey has jumped up from a floe onto the shore left of where "
             "walking can take him, out of the bear's reach.",
        goal=lambda s, after: s["row"] == SHORE and s["player_y"] == SHORE_Y
        and s["player_x"] < 16 and after[-1]["lives"] == s["lives"],
        objective=lambda s: -float(s["player_x"]) - 0.5 * abs(_position(s) - 1),
        reaches=("lives", "level", "row"), macros=MOVES, mode=2, prefix=(("NOOP", 60),),
        lookahead=(("NOOP", 300),), situation=_situation,
    ),
}
