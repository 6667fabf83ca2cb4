"""Seeded faults of Breakout: each mod breaks one rule of specs/breakout.yaml (loaded by the audit by
path)."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.games.breakout.constants import SECOND_WALL_STATE
from jaxtari.mods import InternalMod, PostStepMod


def _never_served(game, prev, state, reward):
    # FIRE does nothing: a ball not in play stays out of play
    out = (prev.ball_y >> 8) == 0
    return state.replace(ball_y=jnp.where(out, prev.ball_y, state.ball_y),
                         ball_x=jnp.where(out, prev.ball_x, state.ball_x),
                         ball_dx=jnp.where(out, prev.ball_dx, state.ball_dx),
                         ball_dy=jnp.where(out, prev.ball_dy, state.ball_dy)), reward


def _no_lost_balls(game, prev, state, reward):
    return state.replace(lives=prev.lives, active=prev.active), reward


def _no_second_wall(game, prev, state, reward):
    # the paddle hit at 432 points does not start the second wall (the start-up animation, which
    # counts down through the same value, is left alone)
    started = (state.wall == SECOND_WALL_STATE) & ((prev.wall & 0x80) == 0)
    return state.replace(wall=jnp.where(started, prev.wall, state.wall)), reward


def _bricks_stay(self, s, row, byte, mask):
    hit = type(self).brick_hit(self, s, row, byte, mask)
    return hit.replace(bricks=s.bricks)


def _never_faster(self, hits, angle):
    return type(self).speed(self, hits & ~0x3C, angle)


def _one_angle(self, hits, angle):
    return type(self).speed(self, hits, angle * 0)


FAULTS = [
    Fault(InternalMod("stuck_paddle", "RIGHT and LEFT do not move the paddle",
                      constants={"pot_delta": 0}), "physics.turn-clockwise-move-paddle"),
    Fault(InternalMod("three_balls", "a game starts with three balls", constants={"start_lives": 3}),
          "lives.lives"),
    Fault(InternalMod("blue_worth_2", "blue bricks score 2",
                      constants={"row_points": (7, 7, 4, 4, 1, 2)}),
          "scoring.red-points-orange-yellow"),
    Fault(InternalMod("bricks_stay", "a hit brick scores but stays in the wall",
                      mechanics={"brick_hit": _bricks_stay}), "scoring.time-ball-hits-brick"),
    Fault(PostStepMod("never_served", "FIRE does not serve the ball", _never_served),
          "spawning.serve-ball-press-red"),
    Fault(PostStepMod("no_lost_balls", "a missed ball costs nothing", _no_lost_balls),
          "lives.player-team-receives-balls"),
    Fault(InternalMod("never_faster", "the ball keeps the speed of the first hits",
                      mechanics={"speed": _never_faster}), "physics.ball-speed-after-twelfth"),
    Fault(InternalMod("one_angle", "the paddle's middle sends the ball off like its ends",
                      mechanics={"speed": _one_angle}), "physics.after-twelfth-hit-angle"),
    Fault(PostStepMod("no_second_wall", "clearing the first wall brings no second one",
                      _no_second_wall), "termination.player-team-destroy-walls"),
]
