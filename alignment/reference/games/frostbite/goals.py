"""What a strong Frostbite player reaches, as the audit's planner goals (issue 50): an igloo built
and entered, later levels (the bear's from level 4, the resting enemies and breaking floes from
level 6), reserves built up (a bonus Bailey), Bailey on every floe row and against every edge he
can reach; the objective that pulls the audit's planner there; and the poked deep starts.

Each goal is judged on the emulator's recording of a walk (signals after every frame, see
:class:`alignment.plugin.PlannerGoal`):

- an igloo entered: ``level`` rises from one frame to the next (only Bailey's jump into a finished
  igloo ends a level; a poked level is written before the first frame, and the comparison is
  between frames);
- level n reached: a frame at ``level`` n or beyond;
- a bear level played: ``bear_x`` not -1 (levels 4 on);
- a bonus Bailey: ``lives`` rises from one frame to the next;
- on floe row r: ``row`` r on a frame;
- an edge reached: ``player_x`` at a joystick limit (on the shore, on a floe) or at a floe's carry
  limit, with ``row`` saying where he stands.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from alignment.plugin import DeepStart, PlannerGoal, with_start
from alignment.reference.games.frostbite import ram
from jaxtari.games.frostbite import constants as c

LEVELS = range(2, 10)  # the levels a goal names (level 9 is the last whose points still grow)
ROWS = range(len(c.ROW_Y))  # floe rows, 0 the bottom
ON_SHORE = 255  # the row signal on the shore (ram[57])


def _entered(start, traces) -> bool:
    return bool((np.diff(np.asarray(traces["level"])) > 0).any())


def _level(n: int):
    def reached(start, traces) -> bool:
        return bool((np.asarray(traces["level"]) >= n).any())
    return reached


def _bear(start, traces) -> bool:
    return bool((np.asarray(traces["bear_x"]) >= 0).any())


def _bonus(start, traces) -> bool:
    return bool((np.diff(np.asarray(traces["lives"])) > 0).any())


def _on_row(r: int):
    def reached(start, traces) -> bool:
        return bool((np.asarray(traces["row"]) == r).any())
    return reached


def _edge(shore: bool, left: bool):
    limit = ((c.PLAYER_MIN_X_SHORE if shore else c.CARRY_MIN_X) if left
             else (c.PLAYER_MAX_X if shore else c.CARRY_MAX_X))

    def reached(start, traces) -> bool:
        x = np.asarray(traces["player_x"])
        on = (np.asarray(traces["row"]) == ON_SHORE) == shore
        near = x <= limit + EDGE_SLACK if left else x >= limit - EDGE_SLACK
        return bool((on & near).any())
    return reached


# a floe carries Bailey a pixel or two short of its limit on some frames (its speed steps): an edge
# counts from within this of the limit
EDGE_SLACK = 1

GOALS = (
    PlannerGoal("an igloo entered", "level rises between two frames (the jump into a finished "
                "igloo)", _entered),
    *(PlannerGoal(f"level {n} reached", f"a frame at level {n} or beyond", _level(n))
      for n in LEVELS),
    PlannerGoal("a bear level played", "bear_x is not -1 (level 4 on)", _bear),
    PlannerGoal("a bonus Bailey", "lives rise between two frames (reserves built up)", _bonus),
    *(PlannerGoal(f"on floe row {r}", f"row {r} (0 the bottom)", _on_row(r)) for r in ROWS),
    PlannerGoal("the shore's left edge", f"on the shore at x <= {c.PLAYER_MIN_X_SHORE + EDGE_SLACK}",
                _edge(True, True)),
    PlannerGoal("the shore's right edge", f"on the shore at x >= {c.PLAYER_MAX_X - EDGE_SLACK}",
                _edge(True, False)),
    PlannerGoal("carried to the left edge", f"on a floe at x <= {c.CARRY_MIN_X + EDGE_SLACK}",
                _edge(False, True)),
    PlannerGoal("carried to the right edge", f"on a floe at x >= {c.CARRY_MAX_X - EDGE_SLACK}",
                _edge(False, False)),
)


# ---- the planner's pull --------------------------------------------------------------------------
BLOCK_VALUE = 100  # an igloo block (worth 10 x the level in points) counts more than its points
UP_PULL = 20  # per px up the floes (player_y), once the igloo is finished: back to the shore
DOOR_PULL = 20  # per px from the door on the shore, once the igloo is finished: go in
HOME_VALUE = 4_000  # on the shore with the igloo finished (more than any floe's blocks and points)
FINISHED = c.FULL_IGLOO + 1  # the igloo_blocks signal of a finished igloo
DOOR = sum(c.DOOR_X) / 2


def objective(ends: Mapping[str, np.ndarray]) -> np.ndarray:
    """Each candidate plan's value at its end: the score, the igloo's blocks, and once it is
    finished the way home (up the floes, on the shore, to the door), so the planner builds, goes in
    and plays the next level."""
    blocks = np.asarray(ends["igloo_blocks"], np.float64)
    done = blocks >= FINISHED
    shore = np.asarray(ends["row"]) == ON_SHORE
    away = np.abs(np.asarray(ends["player_x"], np.float64) - DOOR)
    home = np.where(shore, HOME_VALUE - DOOR_PULL * away,
                    -UP_PULL * np.asarray(ends["player_y"], np.float64))
    return np.asarray(ends["score"], np.float64) + BLOCK_VALUE * blocks + np.where(done, home, 0.0)


# ---- deep starts ---------------------------------------------------------------------------------
BONUS_EVERY = 5_000  # ram.py's score poke: a bonus Bailey when the hundreds byte turns to 00 or 50
DEEP_STARTS = (
    DeepStart("level 4, a bonus Bailey next", "level 4 (the bear's first) written before the first "
              f"frame, the score {BONUS_EVERY - 10:,}: the first points bring a bonus Bailey",
              ({"level": 4}, ("NOOP", 1), {"score": BONUS_EVERY - 10})),
    DeepStart("level 6", "level 6 written before the first frame: enemies rest every other 64 "
              "frames, the floes break up and rejoin", ({"level": 6},)),
    DeepStart("level 9, reserves at the cap's edge", "level 9 (the last whose points still grow), "
              f"the score {2 * BONUS_EVERY - 10:,}", ({"level": 9}, ("NOOP", 1),
                                                      {"score": 2 * BONUS_EVERY - 10})),
)
assert max(n for d in DEEP_STARTS for s in d.steps if isinstance(s, dict) for k, n in s.items()
           if k == "level") <= ram.MAX_POKED_LEVEL
