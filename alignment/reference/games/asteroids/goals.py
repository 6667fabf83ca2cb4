"""What a strong Asteroids player reaches, as the audit's planner goals (issue 50): each size of
asteroid shot, a wave cleared, the 1,000- and 5,000-point marks (bigger waves, the bonus life), a
bonus life, a ship lost, a hyperspace jump, the ship across an edge and both shots in flight; the
objective that pulls the audit's planner there; and the poked deep starts.

Each goal is judged on the emulator's recording of a walk (signals after every frame, see
:class:`alignment.plugin.PlannerGoal`):

- an asteroid of a size shot: a frame paying that size's points (one collision is checked a frame,
  so one frame's reward is one asteroid's: 20 large, 50 medium, 100 small);
- a wave cleared: a frame after which no asteroid is listed (the next overscan lays out a wave);
- a ship lost / a bonus life: ``lives`` falls / rises;
- a hyperspace jump: the ship leaves the screen (``ship_visible`` 1 -> 0) with no life lost;
- across an edge: the visible ship's x jumps by more than half the screen between two frames.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from alignment.plugin import DeepStart, PlannerGoal, with_start
from jaxtari.games.asteroids import constants as k

MARKS = (1_000, k.BONUS_LIFE_EVERY)  # 3 large a list from 1,000 points; the first bonus life
EDGE_JUMP = k.SCREEN_WIDTH // 2  # px: a wrap, never a frame's move


def _paid(points: int):
    def reached(start, traces) -> bool:
        return bool((np.asarray(traces["reward"]) == points).any())
    return reached


def _cleared(start, traces) -> bool:
    active = np.asarray(traces["asteroid_active"]).astype(bool)
    return bool((~active.any(axis=1)).any())


def _lives(sign: int):
    def reached(start, traces) -> bool:
        return bool((sign * np.diff(with_start(start, traces, "lives").astype(np.int64)) > 0).any())
    return reached


def _hyperspace(start, traces) -> bool:
    seen = with_start(start, traces, "ship_visible").astype(np.int64)
    lives = with_start(start, traces, "lives").astype(np.int64)
    return bool(((np.diff(seen) < 0) & (np.diff(lives) == 0)).any())


def _across_edge(start, traces) -> bool:
    x = with_start(start, traces, "ship_x").astype(np.int64)
    seen = with_start(start, traces, "ship_visible").astype(bool)
    both = seen[1:] & seen[:-1]
    return bool((both & (np.abs(np.diff(x)) > EDGE_JUMP)).any())


def _both_shots(start, traces) -> bool:
    return bool(np.asarray(traces["shot_active"]).astype(bool).all(axis=1).any())


def _mark(points: int):
    def reached(start, traces) -> bool:
        return bool((np.asarray(traces["score"]) >= points).any())
    return reached


GOALS = (
    *(PlannerGoal(f"a {size} asteroid shot", f"a frame paying {k.POINTS[size]} points",
                  _paid(k.POINTS[size])) for size in k.POINTS),
    PlannerGoal("a wave cleared", "no asteroid listed after a frame (the next overscan lays out "
                "a new wave)", _cleared),
    PlannerGoal("a bonus life", "lives rise (a hit carrying the score into thousands ending in 0 "
                "or 5)", _lives(+1)),
    PlannerGoal("a ship lost", "lives fall", _lives(-1)),
    PlannerGoal("a hyperspace jump", "the ship leaves the screen with no life lost", _hyperspace),
    PlannerGoal("the ship across an edge", f"the visible ship's x jumps by more than {EDGE_JUMP} "
                "px between frames (the wrap)", _across_edge),
    PlannerGoal("both shots in flight", "both shot slots busy after a frame", _both_shots),
    *(PlannerGoal(f"{m:,} points reached", f"score {m:,} or more", _mark(m)) for m in MARKS),
)


# ---- the planner's pull --------------------------------------------------------------------------
LIFE_VALUE = 500  # points a life is worth to the planner: do not trade the ship for a shot


def objective(ends: Mapping[str, np.ndarray]) -> np.ndarray:
    """Each candidate plan's value at its end: the score, and the lives kept."""
    return (np.asarray(ends["score"], np.float64)
            + LIFE_VALUE * np.asarray(ends["lives"], np.float64))


# ---- deep starts ---------------------------------------------------------------------------------
SETTLE = 60  # frames of NOOP after a write: the new wave laid out and drifting
DEEP_STARTS = (
    DeepStart("a wave of three a list", "1,000 points and the field cleared: the next wave lays "
              "out 3 large asteroids a list", ({"score": 1_000}, {"wave": 1}, ("NOOP", SETTLE))),
    DeepStart("a wave of four a list", "15,000 points and the field cleared: the next wave lays "
              "out 4 large asteroids a list", ({"score": 15_000}, {"wave": 1}, ("NOOP", SETTLE))),
    DeepStart("a bonus life one hit away", "4,980 points: any hit carries into 5,000 and pays a "
              "bonus life", ({"score": k.BONUS_LIFE_EVERY - k.POINTS[k.SIZE_LARGE]},
                             ("NOOP", SETTLE))),
    DeepStart("the last life", "one life written at reset: the next death ends the game",
              ({"lives": 1}, ("NOOP", SETTLE))),
)
