"""Seeded faults of Pong: each mod breaks one rule of specs/pong.yaml (loaded by the audit by path)."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.mods import InternalMod, PostStepMod


def _right_ignored(self, state, joy):
    c = self.consts
    return jnp.clip(state.pot + c.pot_delta * joy.left.astype(jnp.int32), c.pot_min, c.pot_max)


def _left_ignored(self, state, joy):
    c = self.consts
    return jnp.clip(state.pot - c.pot_delta * joy.right.astype(jnp.int32), c.pot_min, c.pot_max)


def _never_misses(self, state, enemy_y, ball_x, ball_y, ball_dx):
    # the computer's paddle sits wherever the ball is: no speed limit, so no ball gets past it
    return ball_y + 1


def _credit(field_from, field_to):
    def fn(game, prev, state, reward):
        scored = getattr(state, field_from) > getattr(prev, field_from)
        moved = {field_from: jnp.where(scored, getattr(prev, field_from), getattr(state, field_from)),
                 field_to: getattr(state, field_to) + scored.astype(jnp.int32)}
        return state.replace(**moved), jnp.where(scored, -reward, reward)
    return fn


def _double(field, sign):
    def fn(game, prev, state, reward):
        scored = getattr(state, field) > getattr(prev, field)
        return (state.replace(**{field: getattr(state, field) + scored.astype(jnp.int32)}),
                reward + sign * scored.astype(reward.dtype))
    return fn


def _no_return(game, prev, state, reward):
    # the agent's paddle lets the ball through: a ball it turned back keeps heading to the goal
    turned = (prev.ball_dx < 0) & (state.ball_dx > 0) & (prev.ball_x > 128)
    return state.replace(ball_dx=jnp.where(turned, prev.ball_dx, state.ball_dx),
                         ball_x=jnp.where(turned, prev.ball_x - prev.ball_dx, state.ball_x)), reward


FAULTS = [
    Fault(InternalMod("right_ignored", "RIGHT does not move the paddle",
                      mechanics={"player_paddle": _right_ignored}), "action.right-paddle"),
    Fault(InternalMod("left_ignored", "LEFT does not move the paddle",
                      mechanics={"player_paddle": _left_ignored}), "action.paddle-directions"),
    Fault(InternalMod("first_to_11", "the game ends at 11 points", constants={"win_score": 11}),
          "termination.first-to-21"),
    Fault(InternalMod("no_serve_after_point", "after a point the ball is not served again",
                      constants={"serve_delay": 100_000}), "physics.auto-serve"),
    Fault(PostStepMod("point_against_to_agent", "the computer's points go to the agent",
                      _credit("enemy_score", "player_score")), "scoring.point-against"),
    Fault(PostStepMod("point_against_twice", "the computer's point counts twice",
                      _double("enemy_score", -1)), "scoring.point-against"),
    Fault(InternalMod("cpu_never_misses", "the computer's paddle follows the ball exactly",
                      mechanics={"enemy_tracking": _never_misses}), "scoring.point-for"),
    Fault(PostStepMod("point_for_twice", "the agent's point counts twice",
                      _double("player_score", 1)), "scoring.point-for"),
    Fault(PostStepMod("paddle_lets_ball_through", "the agent's paddle does not send the ball back",
                      _no_return), "physics.deflect"),
]
