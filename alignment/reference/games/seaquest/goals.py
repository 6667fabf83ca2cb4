"""What a strong Seaquest player reaches, as the audit's planner goals (issue 50): surfacing with six
divers (the bonus and the next wave) and with fewer (one diver given up), each enemy kind shot in
each lane, waves past the first; the objective that pulls the audit's planner there; and the poked
deep starts.

Each goal is judged on the emulator's recording of a walk (signals after every frame, see
:class:`alignment.plugin.PlannerGoal`):

- surfaced with n divers: on the surface (``player_y`` at its top line on the frame before),
  ``divers_carried`` falls from n, no sub lost, on a frame with no fall in the frames before it (six divers then drain one by one, 50
  points each: only the first fall says how many he came up with);
- a shark / an enemy sub shot in lane l: a frame paying points on which lane l's group loses a copy
  or is sent off (its x jumps), the lane's kind (``enemy_is_sub``) on the frame before;
- wave n reached: ``level`` n - 1 or more (it counts surfacings with six divers).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from alignment.plugin import DeepStart, PlannerGoal, with_start
from jaxtari.games.seaquest import constants as k

SURFACE_Y = k.SUB_Y_MIN + k.SUB_TOP_OFFSET  # the player_y signal on the surface
LANES = range(k.NUM_LANES)  # the signals' lanes, top first
DRAIN_GAP = 16  # frames between two divers drained after six (measured on the stored game)
WAVES = range(2, 5)
MOVE = 2  # an enemy group moves at most this many px a frame; a kill sends it off or drops a copy


def _falls(start, traces) -> np.ndarray:
    """(T,) frames on which the divers carried fell with the sub on the surface, and from what."""
    d = with_start(start, traces, "divers_carried").astype(np.int64)
    y = with_start(start, traces, "player_y")[:-1]
    lives = with_start(start, traces, "lives")
    # on the surface the frame before (surfaced, he dives again at once); a lost sub also ends on
    # the surface with its divers gone, and is no surfacing
    fell = (np.diff(d) < 0) & (y == SURFACE_Y) & (np.diff(lives) >= 0)
    first = fell.copy()
    for t in np.nonzero(fell)[0]:
        first[t] = not fell[max(0, t - DRAIN_GAP - 1):t].any()
    return first, d[:-1]


def _surfaced(n: int):
    def reached(start, traces) -> bool:
        first, before = _falls(start, traces)
        return bool((first & (before == n)).any())
    return reached


def _shot(sub: bool, lane: int):
    def reached(start, traces) -> bool:
        paid = np.asarray(traces["reward"]) > 0
        copies = with_start(start, traces, "enemy_copies").astype(np.int64)[:, lane]
        x = with_start(start, traces, "enemy_x").astype(np.int64)[:, lane]
        kind = with_start(start, traces, "enemy_is_sub").astype(bool)[:-1, lane]
        hit = (np.diff(copies) < 0) | (np.abs(np.diff(x)) > MOVE)
        return bool((paid & hit & (kind == sub)).any())
    return reached


def _wave(n: int):
    def reached(start, traces) -> bool:
        return bool((np.asarray(traces["level"]) >= n - 1).any())
    return reached


GOALS = (
    *(PlannerGoal(f"surfaced with {n} diver{'s' * (n > 1)}",
                  f"divers_carried falls from {n} on the surface" + (" (the bonus, next wave)"
                                                                      if n == k.MAX_DIVERS else ""),
                  _surfaced(n)) for n in range(k.MAX_DIVERS, 0, -1)),
    *(PlannerGoal(f"{'an enemy sub' if sub else 'a shark'} shot in lane {lane}",
                  f"points paid as lane {lane}'s {'sub' if sub else 'shark'} group (0 the top lane) "
                  "loses a copy or is sent off", _shot(sub, lane))
      for sub in (False, True) for lane in LANES),
    *(PlannerGoal(f"wave {n} reached", f"level (surfacings with six divers) {n - 1} or more",
                  _wave(n)) for n in WAVES),
)


# ---- the planner's pull --------------------------------------------------------------------------
DIVER_VALUE = 200  # a diver carried counts more than a shot
SURFACE_PULL = 30  # per px below the surface, with six divers or the oxygen low: come up
LOW_OXYGEN = 16  # units (of 64): a sub this low on oxygen heads up


def objective(ends: Mapping[str, np.ndarray]) -> np.ndarray:
    """Each candidate plan's value at its end: the score, the divers carried, and with six divers
    or little oxygen left the way up, so the planner collects divers and surfaces with them."""
    divers = np.asarray(ends["divers_carried"], np.float64)
    up = (divers >= k.MAX_DIVERS) | (np.asarray(ends["oxygen"]) < LOW_OXYGEN)
    depth = np.asarray(ends["player_y"], np.float64) - SURFACE_Y
    return np.asarray(ends["score"], np.float64) + DIVER_VALUE * divers - SURFACE_PULL * depth * up


# ---- deep starts ---------------------------------------------------------------------------------
REFILLED = 130  # the oxygen poke's first frame: the opening refill is over
DIVE = 40  # frames of DOWN that take the sub under
DEEP_STARTS = (
    DeepStart("six divers, surfacing", "six divers written under water: UP brings them to the "
              "surface (the bonus and wave 2)",
              (("NOOP", REFILLED), ("DOWN", DIVE), {"divers": k.MAX_DIVERS}, ("UP", DIVE + 20))),
    DeepStart("three divers, surfacing", "three divers written under water: surfacing gives one "
              "up", (("NOOP", REFILLED), ("DOWN", DIVE), {"divers": 3}, ("UP", DIVE + 20))),
    DeepStart("wave 3, reserves full, oxygen low", "wave 3 written before the first frame, six "
              "reserve subs, five divers and eight units of oxygen under water",
              ({"wave": 2}, ("NOOP", REFILLED), ("DOWN", DIVE),
               {"reserve_subs": k.MAX_RESERVE_SUBS, "divers": k.MAX_DIVERS - 1, "oxygen": 8})),
)
