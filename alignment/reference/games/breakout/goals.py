"""What a strong Breakout player reaches, as the audit's planner goals (issue 50): a brick broken in
every row, the top wall reached (the paddle shrinks) and play on after it - a paddle hit with the
shrunk paddle and a ball lost with it - and the objective that pulls the audit's planner there; and
the poked deep starts the exploration walks and plans from.

Each goal is judged on the emulator's recording of a walk (signals after every frame, see
:class:`alignment.plugin.PlannerGoal`):

- a brick of row r broken: ``bricks_per_row[r]`` falls from one frame to the next;
- the top wall reached: ``paddle_shrunk`` set on a frame;
- a paddle hit after the top wall: the ball turns from falling to rising at the paddle's lines
  (``ball_y`` 180..195; a missed ball falls on past 200) with the paddle shrunk (``hit_count``
  cannot tell: it stops at 12, or 16 after a brick of the top three rows);
- a ball lost after the top wall: ``lives`` falls on a frame whose previous frame had the paddle
  shrunk (losing the ball clears the flag);
- play on after a ball lost at the top wall: a paddle hit after a ball lost with the paddle shrunk,
  the game not over.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from alignment.plugin import DeepStart, PlannerGoal, with_start
from jaxtari.games.breakout import constants as k

ROWS = range(k.NUM_ROWS)  # 0: the top row (7 points) .. 5: the bottom row
ROW_NAMES = ("red", "orange", "yellow", "green", "aqua", "blue")  # the manual's colours, top first


def _broken(row: int):
    def reached(start, traces) -> bool:
        b = with_start(start, traces, "bricks_per_row")[:, row]
        return bool((np.diff(b) < 0).any())
    return reached


def _shrunk(start, traces) -> bool:
    return bool(np.asarray(traces["paddle_shrunk"]).any())


# measured on the stored planner game: off the paddle (lines 189..192) the ball's top line turns
# up at 186..192; a missed ball falls on to 217 and more
PADDLE_TURN = (180, 195)


def _paddle_hits(start, traces) -> np.ndarray:
    """(T + 1,) True on the frames the ball turned up off the paddle (the frame it rose)."""
    y = with_start(start, traces, "ball_y").astype(np.int64)
    d = np.diff(y)
    out = np.zeros(len(y), bool)
    turned = (d[:-1] > 0) & (d[1:] < 0) & (y[1:-1] >= PADDLE_TURN[0]) & (y[1:-1] <= PADDLE_TURN[1])
    out[2:] = turned
    return out


def _hit_shrunk(start, traces) -> bool:
    shrunk = with_start(start, traces, "paddle_shrunk").astype(bool)
    return bool((_paddle_hits(start, traces) & shrunk).any())


def _lost_shrunk(start, traces) -> bool:
    lives = with_start(start, traces, "lives")
    shrunk = with_start(start, traces, "paddle_shrunk").astype(bool)
    return bool(((np.diff(lives) < 0) & shrunk[:-1]).any())


def _played_on(start, traces) -> bool:
    lives = with_start(start, traces, "lives")
    shrunk = with_start(start, traces, "paddle_shrunk").astype(bool)
    lost = np.nonzero((np.diff(lives) < 0) & shrunk[:-1])[0]
    if not len(lost):
        return False
    return bool(_paddle_hits(start, traces)[lost[0] + 1:].any() and lives[-1] > 0)


GOALS = (
    *(PlannerGoal(f"a brick of row {r} ({ROW_NAMES[r]}) broken",
                  f"bricks_per_row[{r}] falls (row 0 the top)", _broken(r)) for r in ROWS),
    PlannerGoal("the top wall reached", "the paddle shrinks (ram[97] bit 7)", _shrunk),
    PlannerGoal("a paddle hit after the top wall", "the ball turned up off the shrunk paddle",
                _hit_shrunk),
    PlannerGoal("a ball lost after the top wall", "lives fall with the paddle shrunk before",
                _lost_shrunk),
    PlannerGoal("play on after a ball lost at the top wall",
                "a paddle hit (the next ball served, the paddle full width again) after a ball "
                "lost with the paddle shrunk, the game not over", _played_on),
)


# ---- the planner's pull --------------------------------------------------------------------------
SHRUNK_VALUE = 50  # the top wall reached outweighs seven red bricks
ROW_DEPTH_VALUE = 2  # per brick cleared, the higher its row (0 bottom .. 5 top) the more


def objective(ends: Mapping[str, np.ndarray]) -> np.ndarray:
    """Each candidate plan's value at its end: the score, the top wall reached (the paddle shrunk)
    and the wall's upper rows opened (a brick cleared higher up is worth more: the way to the top
    wall), so the planner breaks through and plays on there."""
    bricks = np.asarray(ends["bricks_per_row"], np.float64).reshape(-1, k.NUM_ROWS)
    cleared = k.NUM_COLUMNS - bricks
    height = np.arange(k.NUM_ROWS)[::-1]  # row 0 (top) is 5 rows above the bottom
    return (np.asarray(ends["score"], np.float64)
            + SHRUNK_VALUE * np.asarray(ends["paddle_shrunk"], np.float64)
            + ROW_DEPTH_VALUE * (cleared * height).sum(axis=1))


# ---- deep starts ---------------------------------------------------------------------------------
REBUILT = 37  # frames of the start-up wall animation (the bricks poke's first frame)
THIN_WALL = 24  # the bottom row and a third of the next: the first ball flies to the top wall
DEEP_STARTS = (
    DeepStart("thin wall", f"{THIN_WALL} bricks left (the bottom row's and six of the next): the "
              "served ball reaches the top wall within a few hits",
              (("NOOP", REBUILT + 3), {"bricks": THIN_WALL}, ("FIRE", 1))),
    DeepStart("first wall cleared", "no brick left and 432 points (the first wall's worth): the "
              "next paddle hit brings the second wall",
              (("NOOP", REBUILT + 3), {"bricks": 0, "score": k.SECOND_WALL_SCORE}, ("FIRE", 1))),
)
