"""A tiny game for the mutation tests: each Constants field has a known fate under its mutants.

- ``step_points`` and ``bonus_at``: read in the first frames, so a short probe kills their mutants;
- ``late_bonus_at``: read only at frame 150, later than the probe goes: its mutants change play
  (the equivalence runs see it) and survive;
- ``unused_speed``: read by nothing, so its mutants are equivalent;
- ``marker_colour``: drawn on every frame, so its mutants are killed by the sampled screens.
"""

import dataclasses

import jax
import jax.numpy as jnp

from alignment.signals import Signal
from jaxtari import render
from jaxtari.env import Game, ObjectGroup, pytree_dataclass


@dataclasses.dataclass(frozen=True)
class CounterConstants:
    step_points: int = 2  # rule: scoring.step-points
    bonus_at: int = 30  # rule: scoring.bonus
    late_bonus_at: int = 150  # rule: scoring.late-bonus
    unused_speed: int = 7  # measured: nothing (read by no code)
    marker_colour: tuple = (200, 72, 72)


@pytree_dataclass
class CounterState:
    frame: jax.Array
    key: jax.Array
    score: jax.Array


class CounterGame(Game):
    name = "counter"
    minimal_actions = (0, 1)
    Constants = CounterConstants

    def _reset(self, key):
        return CounterState(frame=jnp.int32(0), key=key, score=jnp.int32(0))

    def _step(self, state, ale_action):
        c = self.consts
        frame = state.frame + 1
        reward = jnp.where(ale_action == 1, c.step_points, 0)
        reward = reward + jnp.where(frame == c.bonus_at, 10, 0)
        reward = reward + jnp.where(frame == c.late_bonus_at, 5, 0)
        return state.replace(frame=frame, score=state.score + reward), reward

    def is_terminal(self, state):
        return state.frame >= 400

    def score(self, state):
        return state.score

    def lives(self, state):
        return jnp.int32(0)

    def objects(self, state):
        return {"marker": ObjectGroup.make(state.score % 150, 100, 4, 4)}

    def render(self, state):
        o = self.objects(state)["marker"]
        canvas = render.FULL.blank((0, 0, 0))
        return render.draw_rects(canvas, render.FULL, o.x, o.y, o.w, o.h,
                                 jnp.asarray(self.consts.marker_colour), o.active)

    def render_gray84(self, state):
        return self.render(state)

    def signals(self, state):
        return {}


def _signal(name, fn):
    return Signal(name, None, fn, 0, "", "tests/audit/mutant_toy.py")


SIGNALS = {
    "score": _signal("score", lambda g, s: g.score(s)),
    "frame": _signal("frame", lambda g, s: s.frame),
}
