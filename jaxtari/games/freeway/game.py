"""Freeway's mechanics and frame: :class:`Freeway` (README.md says what was measured)."""

from __future__ import annotations

import dataclasses
import functools
import operator

import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.env import Game, joystick
from jaxtari.games.freeway import art, draw, objects
from jaxtari.games.freeway.logic import sprites
from jaxtari.games.freeway.logic.sprites import (
    CAR_H, CAR_W, CH_H, CH_W, LANE_TOP, OVERLAP, OVERLAP_ROWS,
)
from jaxtari.games.freeway.constants import (
    CAR_SCREEN_X_OFFSET, CHICKEN_SCREEN_Y0, NUM_LANES, FreewayConstants,
)
from jaxtari.games.freeway.state import FreewayState


class Freeway(Game):
    name = "freeway"
    minimal_actions = (0, 2, 5)  # NOOP, UP, DOWN (ALEInterface.getMinimalActionSet())  rule: action.minimal-set
    Constants = FreewayConstants
    mechanics = ("move_cars", "move_chicken", "collide")

    def __init__(self, constants=None, **kw):
        super().__init__(constants, **kw)
        c = self.consts
        for name in ("lane_periods", "lane_dirs", "lane_faces_right", "car_colours",
                     "late_collision_lanes"):
            if len(getattr(c, name)) != NUM_LANES:
                raise ValueError(f"freeway: {name} needs one entry per lane ({NUM_LANES}), "
                                 f"got {len(getattr(c, name))}")
        if any(int(p) < 1 for p in c.lane_periods):
            raise ValueError("freeway: lane_periods must be >= 1 (use lane_dirs = 0 to park a lane)")
        if any(int(d) not in (-1, 0, 1) for d in c.lane_dirs):
            raise ValueError("freeway: lane_dirs must be -1 (left), 1 (right) or 0 (parked): a car "
                             "moves 1 px at a time (set its speed with lane_periods)")
        self._periods = np.asarray(c.lane_periods, np.int32)
        self._dirs = np.asarray(c.lane_dirs, np.int32)
        # Which lanes are drawn where they were before this frame's move (left-driving ones).
        self._draw_lag = self._dirs < 0
        self._lag_bits = _lane_bits(self._draw_lag)
        self._faces_bits = _lane_bits(c.lane_faces_right)
        self._faces_right = np.asarray(c.lane_faces_right, bool)
        self._car_sheet = sprites.car_sheet(c.car_colours, self._faces_right)
        self._backgrounds = {}
        self._other_chicken_y = art.CHICKEN_SCREEN_Y0 - c.climb_start  # never moves (no 2nd player)

    # ---- reset / step -------------------------------------------------------------------------
    def _reset(self, key):
        return FreewayState(
            frame=jnp.int32(0), key=key, climb=jnp.int32(self.consts.climb_start),
            car_x=jnp.zeros((NUM_LANES,), jnp.int32), hit_count=jnp.int32(0),
            cross_count=jnp.int32(0), hurt_pose=jnp.bool_(False), late_overlap=jnp.bool_(False),
            score=jnp.int32(0),
            shown_score=jnp.int32(0),
        )

    def _moving_bits(self, frame):
        """int32, bit i set where lane i's car moves on frame ``frame`` (the measured schedule)."""
        last = frame >= self.consts.game_frames
        # Lane by lane with its own constant period: a remainder by a constant compiles to a
        # multiply, one by a vector of periods to a division per lane. One word per env rather
        # than a (10,) vector: each lane's test stays an operation on the batch axis alone.
        bits = jnp.int32(0)
        for lane, (period, d) in enumerate(zip(self._periods.tolist(), self._dirs.tolist())):
            if d == 0:
                continue
            due = (frame >= _FIRST_MOVE[d]) & ((frame - _FIRST_MOVE[d]) % period == 0)
            if d < 0:
                due = due & ~last
            bits = bits | (due.astype(jnp.int32) << lane)
        return bits

    def _lanes_moving(self, frame):
        """(10,) bool: which cars move on frame ``frame``."""
        return ((self._moving_bits(frame) >> jnp.arange(NUM_LANES)) & 1) == 1

    # rule: physics.car-speeds  measured: ram[108..117], each lane's first move exact over 8192 frames
    def move_cars(self, car_x, frame):
        """Cars after frame ``frame``'s move (x wraps at 160)."""
        bits = self._moving_bits(frame)
        # Car by car, each a batch-axis expression (as _moving_bits), stacked once at the end.
        return jnp.stack([(car_x[lane] + d * ((bits >> lane) & 1)) % render.SCREEN_W
                          for lane, d in enumerate(self._dirs.tolist())])

    # rule: action.walk-chicken, action.down-moves-back
    def move_chicken(self, state, ale_action):
        """Climb after the joystick / the push of a hit (before the crossing check)."""
        c = self.consts
        js = joystick(ale_action)
        free = (state.hit_count == 0) & (state.cross_count == 0)
        dy = js.up.astype(jnp.int32) - js.down.astype(jnp.int32)
        pushed = state.hit_count >= c.hit_push_until  # rule: physics.collision-push-back
        climb = jnp.where(free, state.climb + c.climb_step * dy, state.climb)
        climb = jnp.where(pushed, state.climb - c.push_step, climb)
        return jnp.maximum(climb, c.climb_start)

    # measured: every hit and non-hit of 12 random games (TIA collision latch, read a frame late)
    def collide(self, state):
        """(10,) bool: which lane's car overlaps the chicken on the screen drawn for ``state``."""
        pose = self._pose(state)
        chick_top = art.CHICKEN_SCREEN_Y0 - state.climb
        # A car can share rows with the chicken when -CAR_H < dy < CH_H: 17 rows, and lanes are 16
        # apart, so only two lanes can (asserted at import). Only those two are looked at: their
        # tops, facings and draw lags from constants by arithmetic; their x and their overlap word
        # by one-hot masks (a compare per lane or table row, a select and a sum): under vmap an
        # index that differs per env is a gather, which an accelerator runs element by element.
        first = jnp.clip((chick_top - CAR_H - LANE_TOP[0]) // art.LANE_SPACING + 1, 0, NUM_LANES - 2)
        lanes = first + jnp.arange(2)
        every = jnp.arange(NUM_LANES)
        at = lanes[:, None] == every
        dy = LANE_TOP[0] + art.LANE_SPACING * lanes - chick_top
        # the screen the chicken met shows a left-driving car where it was before this frame's move
        lag = ((self._moving_bits(state.frame) & self._lag_bits) >> lanes) & 1
        car_x = jnp.sum(jnp.where(at, state.car_x, 0), axis=1)
        x = (car_x + lag) % render.SCREEN_W - CAR_SCREEN_X_OFFSET
        dx = x - art.CHICKEN_X
        inside = (dy > -CAR_H) & (dy < CH_H) & (dx > -CAR_W) & (dx < CH_W)
        _, n_facings, n_dy, n_dx = OVERLAP.shape
        iy = jnp.clip(dy + CAR_H - 1, 0, n_dy - 1)
        ix = jnp.clip(dx + CAR_W - 1, 0, n_dx - 1)
        faces_right = (self._faces_bits >> lanes) & 1
        row = (pose * n_facings + faces_right) * n_dy + iy
        word = jnp.sum(jnp.where(row[:, None] == jnp.arange(len(OVERLAP_ROWS)), OVERLAP_ROWS, 0),
                       axis=1)
        hit = (((word >> ix) & 1) == 1) & inside
        return (at[0] & hit[0]) | (at[1] & hit[1])

    def _step(self, state, ale_action):
        c = self.consts
        frame = state.frame + 1
        live = state.frame < c.game_frames
        overlap = self.collide(state)
        # ORs of the lanes rather than jnp.any: a reduction over the lane axis of every env is a
        # loop of its own on XLA CPU, these are elementwise on the batch axis.
        hit = _any_lane(overlap, range(NUM_LANES)) | state.late_overlap
        late = _any_lane(overlap, np.flatnonzero(self.consts.late_collision_lanes))
        climb = self.move_chicken(state, ale_action)
        crossed = climb > c.climb_top
        climb = jnp.where(crossed, c.climb_start, climb)
        cross_count = jnp.where(crossed, c.cross_wait, state.cross_count)
        hit_count = jnp.where(crossed, 0, state.hit_count)
        can_hit = (cross_count == 0) & (hit_count < c.hit_immune_from)
        hit_count = jnp.where(hit & can_hit, c.hit_wait, hit_count)
        hurt_pose = hit_count > 0
        tick = (frame % 2 == 0).astype(jnp.int32)
        hit_count = jnp.maximum(hit_count - tick, 0)
        cross_count = jnp.maximum(cross_count - tick, 0)
        reward = jnp.where(crossed, c.points_per_crossing, 0).astype(jnp.int32)
        score = state.score + reward
        shown = jnp.where(frame % 2 == 1, state.score, state.shown_score)
        new = FreewayState(
            frame=frame, key=state.key, climb=climb, car_x=self.move_cars(state.car_x, frame),
            hit_count=hit_count, cross_count=cross_count, hurt_pose=hurt_pose, late_overlap=late,
            score=score, shown_score=shown,
        )
        # After the game is over nothing moves any more, the frame count included (as ALE's
        # console freezes at game over; the wrappers reset on `done`).
        keep = {f.name: jnp.where(live, getattr(new, f.name), getattr(state, f.name))
                for f in dataclasses.fields(FreewayState) if f.name != "key"}
        new = new.replace(**keep)
        return new, jnp.where(live, reward, 0)

    # ---- what the outside sees ---------------------------------------------------------------
    def is_terminal(self, state):  # rule: termination.time-limit
        return state.frame >= self.consts.game_frames

    def score(self, state):
        return state.score

    def lives(self, state):
        return jnp.int32(0)  # ALE reports 0 lives for Freeway throughout  rule: lives.none

    def _pose(self, state):
        second = jnp.where(state.hurt_pose, art.POSE_HURT, art.POSE_WALK_B)
        return jnp.where((state.climb & 4) == 0, second, art.POSE_WALK_A).astype(jnp.int32)

    def _car_screen_x(self, state):
        """Left x where each car is drawn on this frame (-CAR_SCREEN_X_OFFSET..156)."""
        lag = jnp.where(jnp.asarray(self._draw_lag) & self._lanes_moving(state.frame),
                        -jnp.asarray(self._dirs), 0)
        return (state.car_x + lag) % render.SCREEN_W - CAR_SCREEN_X_OFFSET

    def chicken_y(self, state):
        return CHICKEN_SCREEN_Y0 - state.climb

    def objects(self, state):
        return objects.objects(self, state)

    def observation(self, state):
        return objects.observation(self, state)

    def signals(self, state):
        return objects.signals(self, state)

    def render(self, state):
        return draw.draw(self, render.FULL, state)

    def render_gray84(self, state):
        return draw.draw(self, render.SMALL_GRAY, state)


# The first frame on which a car driving left (-1) or right (1) moves.
_FIRST_MOVE = {-1: 1, 1: 2}


def _lane_bits(flags) -> int:
    """Per-lane booleans (constants) as one int, bit i for lane i."""
    return int(sum(1 << lane for lane, f in enumerate(flags) if f))


def _any_lane(overlap, lanes):
    """Whether any of ``lanes`` (constant indices) is set in ``overlap``."""
    return functools.reduce(operator.or_, [overlap[i] for i in lanes], jnp.bool_(False))
