"""Deep-only mutants of Breakout (issue 50 part 3): each changes code that only runs once the ball
has reached the top wall (the paddle shrunk)."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.mods import PostStepMod


def _unshrink_on_hit(game, prev, s, reward):
    # a porting slip: the paddle-hit branch clears the top-wall flag it should keep for the ball
    hit = (s.hits & 0x40) != 0
    return s.replace(shrunk=jnp.where(prev.shrunk & hit & ((prev.hits & 0x40) == 0), False, s.shrunk)), reward


def _free_ball_after_top(game, prev, s, reward):
    # a ball lost with the paddle shrunk costs nothing
    lost = (s.lives < prev.lives) & prev.shrunk
    return s.replace(lives=jnp.where(lost, prev.lives, s.lives)), reward


def _slow_after_top(game, prev, s, reward):
    # after the top wall the ball's vertical speed is not kept up (the shrunk branch drops a step)
    fast = s.shrunk & (jnp.abs(s.ball_dy) > 0x200)
    dy = jnp.where(fast, s.ball_dy - jnp.sign(s.ball_dy) * 0x40, s.ball_dy)
    return s.replace(ball_dy=dy), reward


FAULTS = [
    Fault(PostStepMod("unshrink_on_hit", "a paddle hit after the top wall unshrinks the paddle",
                      _unshrink_on_hit), "lives.player-team-receives-balls"),
    Fault(PostStepMod("free_ball_after_top", "a ball lost after the top wall costs no ball",
                      _free_ball_after_top), "lives.player-team-receives-balls"),
    Fault(PostStepMod("slow_after_top", "the ball slows once the paddle is shrunk",
                      _slow_after_top), "physics.ball-speed-after-twelfth"),
]
