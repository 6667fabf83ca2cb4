"""What a strong Pong player reaches, as the audit's planner goals (issue 50): points won after a
return off each region of the agent's paddle (the region sets the ball's new slope), and points
lost with the paddle in each third of the court and with the ball passing above and below it; and
the objective that pulls the audit's planner there.

Each goal is judged on the emulator's recording of a walk (signals after every frame, see
:class:`alignment.plugin.PlannerGoal`):

- a return off region r: the ball's x turns from rising to falling at the agent's paddle (x near
  ``player_x``), r from where the ball's top met the paddle's (``ball_y - player_y``);
- a point won after a return off region r: ``player_score`` rises, the last return since the
  previous point off region r;
- a point lost with the paddle in third t: ``enemy_score`` rises with the paddle's middle in that
  third of the court; with the ball above / below: the ball's middle above the paddle's top or
  below its bottom on the frame it passed the paddle's x.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from alignment.plugin import PlannerGoal, with_start
from jaxtari.games.pong.constants import PongConstants

C = PongConstants()
# ball_y - player_y where the ball's 4 lines meet the paddle's 16: -3 .. 15, in three regions
REGIONS = (("top", -C.ball_h + 1, 3), ("middle", 4, 9), ("bottom", 10, C.paddle_h - 1))
COURT = (C.top_wall[1], C.bottom_wall[0])  # rows between the walls
THIRDS = ("top", "middle", "bottom")
NEAR = 8  # px: a turn of the ball's x within this of the paddle's x is a return


def _returns(start, traces):
    """(T + 1,) the paddle region index of a return on that frame, else -1."""
    x = with_start(start, traces, "ball_x").astype(np.int64)
    y = with_start(start, traces, "ball_y").astype(np.int64)
    p = with_start(start, traces, "player_y").astype(np.int64)
    d = np.diff(x)
    out = np.full(len(x), -1)
    turn = np.nonzero((d[:-1] > 0) & (d[1:] < 0) & (x[1:-1] >= C.player_x - NEAR))[0] + 1
    for t in turn:
        off = y[t] - p[t]
        for i, (_, lo, hi) in enumerate(REGIONS):
            if lo <= off <= hi:
                out[t] = i
    return out


def _won_after(region: int):
    def reached(start, traces) -> bool:
        ret = _returns(start, traces)
        won = np.nonzero(np.diff(with_start(start, traces, "player_score")) > 0)[0] + 1
        last = -1
        points = set(won.tolist())
        for t in range(len(ret)):
            if ret[t] >= 0:
                last = ret[t]
            if t in points:
                if last == region:
                    return True
                last = -1
        return False
    return reached


def _lost_in(third: int):
    def reached(start, traces) -> bool:
        lost = np.diff(with_start(start, traces, "enemy_score")) > 0
        mid = np.asarray(traces["player_y"], np.float64) + C.paddle_h / 2
        where = np.clip(((mid - COURT[0]) * 3 // (COURT[1] - COURT[0])).astype(int), 0, 2)
        return bool((lost & (where == third)).any())
    return reached


def _lost_past(above: bool):
    def reached(start, traces) -> bool:
        x = with_start(start, traces, "ball_x").astype(np.int64)
        y = with_start(start, traces, "ball_y").astype(np.int64) + C.ball_h // 2
        p = with_start(start, traces, "player_y").astype(np.int64)
        passed = np.nonzero((x[:-1] < C.player_x) & (x[1:] >= C.player_x))[0] + 1
        lost = np.nonzero(np.diff(with_start(start, traces, "enemy_score")) > 0)[0] + 1
        for t in passed:
            if not (lost > t).any():
                continue
            if (y[t] < p[t]) if above else (y[t] >= p[t] + C.paddle_h):
                return True
        return False
    return reached


GOALS = (
    *(PlannerGoal(f"a point won after a return off the paddle's {name}",
                  f"player_score rises, the last return met the paddle at ball_y - player_y "
                  f"{lo}..{hi}", _won_after(i)) for i, (name, lo, hi) in enumerate(REGIONS)),
    *(PlannerGoal(f"a point lost with the paddle in the court's {name} third",
                  "enemy_score rises with the paddle's middle there", _lost_in(i))
      for i, name in enumerate(THIRDS)),
    PlannerGoal("a point lost with the ball above the paddle",
                "the ball's middle above the paddle's top as it passed the paddle", _lost_past(True)),
    PlannerGoal("a point lost with the ball below the paddle",
                "the ball's middle below the paddle's bottom as it passed the paddle",
                _lost_past(False)),
)


# ---- the planner's pull --------------------------------------------------------------------------
POINT_VALUE = 1_000  # a point won counts more than any paddle placement
TRACK_PULL = 1  # per px between the paddle's middle and the ball's


def objective(ends: Mapping[str, np.ndarray]) -> np.ndarray:
    """Each candidate plan's value at its end: the point difference, then the paddle's middle near
    the ball's (so the planner returns the ball and wins points, off whatever region that takes;
    the goals of lost points are left to the open-loop walks)."""
    diff = np.asarray(ends["player_score"], np.float64) - np.asarray(ends["enemy_score"], np.float64)
    away = np.abs(np.asarray(ends["player_y"], np.float64) + C.paddle_h / 2
                  - np.asarray(ends["ball_y"], np.float64) - C.ball_h / 2)
    return POINT_VALUE * diff - TRACK_PULL * away
