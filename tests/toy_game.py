"""A tiny Game used to test the wrappers' semantics exactly (real games are tested on their own).

Every frame the toy pays a reward equal to the ALE action id it received, records that id, and
counts frames; it loses a life at frame ``LIFE_LOSS_FRAME`` and is over at ``GAME_OVER_FRAME``.
"""

import dataclasses

import jax
import jax.numpy as jnp

from jaxtari import render
from jaxtari.env import Game, ObjectGroup, pytree_dataclass


@dataclasses.dataclass(frozen=True)
class ToyConstants:
    life_loss_frame: int = 40  # rule: lives.loss-at-40
    # rule: termination.at-100
    game_over_frame: int = 100
    start_lives: int = 3  # rule: lives.three-frogs (no such rule: the audit tests report this tag)


@pytree_dataclass
class ToyState:
    frame: jax.Array
    key: jax.Array
    last_ale_action: jax.Array
    total: jax.Array
    lives: jax.Array
    noise: jax.Array


class ToyGame(Game):
    name = "toy"
    minimal_actions = (0, 1, 2, 3, 4, 5)
    Constants = ToyConstants
    mechanics = ("payout",)

    def _reset(self, key):
        k1, k2 = jax.random.split(key)
        return ToyState(
            frame=jnp.int32(0), key=k1, last_ale_action=jnp.int32(-1), total=jnp.float32(0),
            lives=jnp.int32(self.consts.start_lives), noise=jax.random.uniform(k2),
        )

    def payout(self, ale_action):  # rule: scoring.action-payout
        return ale_action.astype(jnp.float32)

    def _step(self, state, ale_action):
        frame = state.frame + 1
        r = self.payout(ale_action)
        lives = jnp.where(frame == self.consts.life_loss_frame, state.lives - 1, state.lives)
        key, k = jax.random.split(state.key)
        return state.replace(frame=frame, key=key, last_ale_action=ale_action, total=state.total + r,
                             lives=lives, noise=jax.random.uniform(k)), r

    def is_terminal(self, state):
        return state.frame >= self.consts.game_over_frame

    def score(self, state):
        return state.total.astype(jnp.int32)

    def lives(self, state):
        return state.lives

    def objects(self, state):
        return {"marker": ObjectGroup.make(state.frame % 150, 100, 4, 4)}

    def _draw(self, raster, state):
        c = raster.blank((0, 0, 0))
        o = self.objects(state)["marker"]
        return render.draw_rects(c, raster, o.x, o.y, o.w, o.h, (200, 72, 72), o.active)

    def render(self, state):
        return self._draw(render.FULL, state)

    def render_gray84(self, state):
        return self._draw(render.SMALL_GRAY, state)

    def signals(self, state):
        return {"marker_x": state.frame % 150}
