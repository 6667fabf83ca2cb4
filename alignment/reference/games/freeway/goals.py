"""What a strong Freeway player reaches, as the audit's planner goals (issue 50): the chicken across
every lane and over the road, and hit by a car on each lane (the knock-back differs by where he
stands); and the objective that pulls the audit's planner there.

Each goal is judged on the emulator's recording of a walk (signals after every frame, see
:class:`alignment.plugin.PlannerGoal`):

- lane l crossed: the chicken's top above lane l's car top (``chicken_y``) on a frame, with the
  lanes counted from the bottom kerb;
- the road crossed: ``player_score`` rises;
- hit on lane l: the chicken starts moving down (``chicken_y`` grows after not growing) on a frame
  where lane l's car (``car_x``, its box 8 x 10 at the lane's top) overlaps his box, on that frame
  or the one before (a DOWN press with no car there is no hit).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from alignment.plugin import PlannerGoal, with_start
from jaxtari.games.freeway.art import CHICKEN_X, LANE_SPACING
from jaxtari.games.freeway.constants import NUM_LANES
from jaxtari.games.freeway.logic.sprites import CAR_H, CAR_W, CH_H, CH_W, LANE_TOP

LANES = range(NUM_LANES)  # the signals' lanes, top first (0 the top lane)


def _crossed(lane: int):
    def reached(start, traces) -> bool:
        return bool((np.asarray(traces["chicken_y"]) < LANE_TOP[lane]).any())
    return reached


def _scored(start, traces) -> bool:
    return bool((np.diff(with_start(start, traces, "player_score")) > 0).any())


def _overlaps(y: np.ndarray, cars: np.ndarray, lane: int) -> np.ndarray:
    """(n,) the chicken's box (top ``y``) and lane ``lane``'s car share a pixel."""
    x = cars[:, lane]
    across = (x < CHICKEN_X + CH_W) & (x + CAR_W > CHICKEN_X)
    down = (LANE_TOP[lane] < y + CH_H) & (LANE_TOP[lane] + CAR_H > y)
    return across & down


def _hit(lane: int):
    def reached(start, traces) -> bool:
        y = with_start(start, traces, "chicken_y").astype(np.int64)
        cars = with_start(start, traces, "car_x").astype(np.int64)
        d = np.diff(y)
        begins = np.nonzero((d[1:] > 0) & (d[:-1] <= 0) & (d[1:] < LANE_SPACING))[0] + 1
        # a crossing sends him back to the kerb in one frame (a jump of a whole road): no hit
        for t in begins:  # y[t] -> y[t + 1] is the first step down
            if _overlaps(y[t:t + 2], cars[t:t + 2], lane).any():
                return True
        return False
    return reached


GOALS = (
    *(PlannerGoal(f"lane {l} crossed", f"chicken_y above lane {l}'s car top ({LANE_TOP[l]}; lane 0 "
                  "the top)", _crossed(l)) for l in reversed(LANES)),
    PlannerGoal("the road crossed", "player_score rises", _scored),
    *(PlannerGoal(f"hit on lane {l}", f"knocked back down with lane {l}'s car over the chicken",
                  _hit(l)) for l in reversed(LANES)),
)


# ---- the planner's pull --------------------------------------------------------------------------
CROSSING_VALUE = 1_000  # a crossing counts more than any height


def objective(ends: Mapping[str, np.ndarray]) -> np.ndarray:
    """Each candidate plan's value at its end: the crossings, then the height up the road (a smaller
    ``chicken_y``), so the planner crosses lane after lane and meets the cars on the way."""
    return (CROSSING_VALUE * np.asarray(ends["player_score"], np.float64)
            - np.asarray(ends["chicken_y"], np.float64))
