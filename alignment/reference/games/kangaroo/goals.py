"""What a strong Kangaroo player reaches, as the audit's planner goals (issue 50): on each of the
three floor layouts, every floor climbed, and a falling coconut and a monkey punched on each floor
the mother stands on (0 bottom .. 2); and the objective that pulls the audit's planner there.

Each goal is judged on the emulator's recording of a walk (signals after every frame, see
:class:`alignment.plugin.PlannerGoal`):

- climbed to floor f of layout l: a frame with ``level`` l and ``mother_floor`` f or above;
- a coconut punched on floor f of layout l: a frame paying 200 (the coconut's points) on which the
  coconut, falling on the frame before, is gone, no fruit taken, the mother on floor f of layout l
  (a coconut that hits her or the bottom pays nothing);
- a monkey punched on floor f of layout l: a frame paying 200 with the mother punching (her pose's
  bit 7, the punch), the coconut and the fruit as they were.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from alignment.plugin import DeepStart, PlannerGoal
from jaxtari.games.kangaroo import constants as c
from jaxtari.games.kangaroo.art import LADDER_X
from jaxtari.games.kangaroo.constants import KangarooConstants

CART = KangarooConstants()  # the cartridge's own numbers

LAYOUTS = range(CART.layouts)
STANDING_FLOORS = range(c.FLOORS - 1)  # the baby's floor ends the round: nobody stands there
PUNCH_POINTS = CART.coconut_punch_points * 100  # a coconut's and a monkey's (MONKEY_POINTS) alike
PUNCHING = c.PUNCH_REQUEST  # the pose's bit 7: the glove is out


def _with_start(start, traces: Mapping[str, np.ndarray], name: str) -> np.ndarray:
    """The signal before the first frame and after each frame: (T + 1, ...)."""
    return np.concatenate([np.asarray(start[name])[None], np.asarray(traces[name])])


def _where(start, traces, layout: int, floor: int, *, at_least: bool = False) -> np.ndarray:
    """(T,) frames ending with the mother on ``floor`` (or above) of ``layout``."""
    level = np.asarray(traces["level"]) == layout
    floors = np.asarray(traces["mother_floor"])
    return level & ((floors >= floor) if at_least else (floors == floor))


def _punch_paid(start, traces) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(T,) frames paying a punch's 200 with no fruit taken; the coconut falling before and gone
    after; the mother's pose punching on that frame or the one before."""
    paid = np.asarray(traces["reward"]) == PUNCH_POINTS
    fruit = _with_start(start, traces, "fruit_present")
    kept = (fruit[1:] == fruit[:-1]).reshape(len(paid), -1).all(1)
    coconut = _with_start(start, traces, "coconut_active").astype(bool)
    knocked = coconut[:-1] & ~coconut[1:]
    pose = _with_start(start, traces, "mother_pose").astype(np.int64)
    punching = ((pose[1:] | pose[:-1]) & PUNCHING) != 0
    return paid & kept, knocked, punching


def _climbed(layout: int, floor: int):
    def reached(start, traces) -> bool:
        return bool(_where(start, traces, layout, floor, at_least=True).any())
    return reached


def _coconut(layout: int, floor: int):
    def reached(start, traces) -> bool:
        paid, knocked, _ = _punch_paid(start, traces)
        return bool((paid & knocked & _where(start, traces, layout, floor)).any())
    return reached


def _monkey(layout: int, floor: int):
    def reached(start, traces) -> bool:
        paid, knocked, punching = _punch_paid(start, traces)
        return bool((paid & ~knocked & punching & _where(start, traces, layout, floor)).any())
    return reached


GOALS = (
    *(PlannerGoal(f"layout {l}: floor {f} climbed", f"the mother on floor {f} of layout {l}",
                  _climbed(l, f)) for l in LAYOUTS for f in range(1, c.FLOORS)),
    *(PlannerGoal(f"layout {l}: a coconut punched on floor {f}",
                  f"a falling coconut knocked away (200) with the mother on floor {f} of layout {l}",
                  _coconut(l, f)) for l in LAYOUTS for f in STANDING_FLOORS),
    *(PlannerGoal(f"layout {l}: a monkey punched on floor {f}",
                  f"a monkey punched (200) with the mother on floor {f} of layout {l}",
                  _monkey(l, f)) for l in LAYOUTS for f in STANDING_FLOORS),
)


# ---- the planner's pull --------------------------------------------------------------------------
ROW_VALUE = 300  # a row climbed outweighs a punch (200): a floor (6 rows) 1,800
LADDER_PULL = 2  # per pixel from the reach of the next ladder up on the mother's floor
FLOOR_ROWS = c.ROWS_PER_FLOOR
NO_LADDER = (0, 129)  # the ladder table's "none here" values ($FE11: 129; past layout 2's rows: 0)
LADDER_X_SIGNAL = c.MOTHER_X_OFFSET - CART.ladder_reach // 2  # signal x = ladder x + this: mid-reach


def _ladder_targets() -> np.ndarray:
    """(layouts, rows) the signal x the mother climbs the next ladder up from, standing on that row
    (the ladder nearest above within her floor's rows; -1 where none: the layout's steps are jumped)."""
    out = np.full((CART.layouts, CART.start_row + 1), -1, np.int64)
    for layout in LAYOUTS:
        base = CART.layout_row_base[layout]
        for row in range(CART.start_row + 1):
            for up in range(FLOOR_ROWS):
                q = row - up
                x = LADDER_X[base + q] if q >= 0 else NO_LADDER[0]
                if x not in NO_LADDER:
                    out[layout, row] = x + LADDER_X_SIGNAL
                    break
    return out


LADDER_TARGET = _ladder_targets()


CLIMB_BITS = c.CLIMBING | c.JUMPING | c.PUNCH_REQUEST  # the pose's action bits (duck aside)


def objective(ends: Mapping[str, np.ndarray]) -> np.ndarray:
    """Each candidate plan's value at its end: the score, the rows climbed (``ROW_VALUE`` each:
    on a ladder her row, else her floor's, so a plan ending mid-jump gains nothing) and the
    distance to the next ladder up on her floor (``LADDER_PULL`` a pixel), so the planner climbs
    each layout and punches what comes on the way."""
    row = (np.asarray(ends["mother_y"]) - c.MOTHER_Y_OFFSET) // c.ROW_LINES
    row = np.clip(row, 0, CART.start_row)
    climbing = (np.asarray(ends["mother_pose"]) & CLIMB_BITS) == c.CLIMBING
    floor_row = CART.start_row - FLOOR_ROWS * np.asarray(ends["mother_floor"])
    rows_up = CART.start_row - np.where(climbing, row, floor_row)
    level = np.clip(np.asarray(ends["level"]), 0, CART.layouts - 1)
    target = LADDER_TARGET[level, np.where(climbing, row, floor_row)]
    away = np.where(target >= 0, np.abs(np.asarray(ends["mother_x"]) - target), 0)
    return (np.asarray(ends["score"], np.float64) + ROW_VALUE * rows_up - LADDER_PULL * away)


# ---- deep starts ---------------------------------------------------------------------------------
DEEP_STARTS = tuple(
    DeepStart(f"layout {l}", f"layout {l} written right after reset: the quick audit's planner "
              "and walks climb it from its bottom floor", ({"level": l},))
    for l in LAYOUTS if l)
