"""Freeway's numbers: the lanes, and the tunables of :class:`FreewayConstants` (which an
:class:`~jaxtari.mods.InternalMod` can change); measured on ALE 0.12.1 unless noted. The ground truth
(alignment/reference/games/freeway/) reads the offsets from here."""

from __future__ import annotations

import dataclasses

from jaxtari.games.freeway import art

NUM_LANES = 10
# A car's screen left x is its RAM x (ram[117 - lane]) minus this (measured on ALE frames); the
# car_x signal and the ground-truth module use the same offset.
CAR_SCREEN_X_OFFSET = 3
# The chicken's screen top y is this minus its climb ram[14].
CHICKEN_SCREEN_Y0 = art.CHICKEN_SCREEN_Y0


@dataclasses.dataclass(frozen=True)
class FreewayConstants:
    game_frames: int = 8192  # rule: termination.time-limit
    # Per lane, top to bottom: a car moves 1 px every `lane_periods[i]` frames in direction
    # `lane_dirs[i]` (-1 left, +1 right, 0 parked). Game 1's row of the disassembly's CarPatterns
    # table, and ram[108..117] on all 8192 frames of a game.
    lane_periods: tuple = (5, 4, 3, 2, 1, 1, 2, 3, 4, 5)  # rule: physics.car-speeds
    lane_dirs: tuple = (-1, -1, -1, -1, -1, 1, 1, 1, 1, 1)  # rule: physics.car-speeds
    # measured: getScreenRGB frames
    # Which way each lane's car sprite faces (drawn and collided with), independent of lane_dirs
    # so that a mod that parks or reverses cars does not redraw them.
    lane_faces_right: tuple = (False,) * 5 + (True,) * 5
    car_colours: tuple = art.CAR_RGB  # measured: getScreenRGB
    # the chicken and the cars drawn as their boxes (Freeway.objects's) in art.BOX_RGB (the picture only)
    sprites_as_boxes: bool = False  # measured: a drawing option of the mod rectangles, off as on ALE
    climb_start: int = 6         # ram[14] on the kerb  measured: ram[14]
    climb_top: int = 177         # the last climb before the crossing  rule: scoring.crossing
    climb_step: int = 1          # px per frame under UP / DOWN  rule: action.walk-chicken, action.down-moves-back
    cross_wait: int = 15         # ram[106] low bits after a crossing (x 2 frames)  measured: ram[106]
    hit_wait: int = 28           # ram[106] low bits after a hit (x 2 frames)  measured: ram[106], 12 random games
    hit_push_until: int = 16     # pushed down while the hit count (before this frame) is >= this  measured: ram[106], 12 random games
    hit_immune_from: int = 23    # a new hit is ignored while the hit count is >= this  measured: ram[106], 12 random games
    push_step: int = 1           # px per frame of push after a hit  measured: ram[106], 12 random games
    points_per_crossing: int = 1  # rule: scoring.crossing
    # Lanes whose collision is also read one frame later (measured: only the bottom lane, 12 random games).
    late_collision_lanes: tuple = (False,) * 9 + (True,)

