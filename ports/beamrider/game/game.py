"""BeamRider, one emulator frame a step: the clock (ram[1], ram[2] and the grid on odd frames, the
intro's end), the saucers on the odd frames (logic/saucers.py), then on the even (logic) frames
the ship's move, its shot and the shot's hit on a saucer (logic/ship.py, logic/hits.py).

``reset()`` is ALE's state after reset (measured: every seed starts alike); ``step(state,
ale_action)`` advances one frame and ``rollout`` a sequence; ``signals(state)`` gives every
mirrored byte under the names of ``reference.ram.ship_bytes``, which the lockstep tests compare
with ALE. Deaths and the sector's end are not modelled yet."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import Game, joystick

from . import constants as c
from .constants import BYTE, BeamRiderConstants
from .logic import hits, saucers, ship
from .logic.dither import dithered
from .state import BeamRiderState, PlayerState, SaucerState, ShipState


def reset(k: BeamRiderConstants = c.DEFAULTS, key=None) -> BeamRiderState:
    key = jax.random.key(0) if key is None else key
    i32 = jnp.int32
    return BeamRiderState(
        ship=ShipState(x=i32(k.beam_x[k.start_beam]), flags=i32(k.on_beam_flags),
                       shot_y=i32(k.no_shot), shot_x=i32(k.start_shot_x),
                       torpedo=jnp.bool_(False), torpedoes=i32(k.start_torpedoes),
                       dud=i32(0)),
        saucers=SaucerState(kind=jnp.full(3, k.kind_empty, jnp.int32), step=jnp.zeros(3, jnp.int32),
                            x=jnp.zeros(3, jnp.int32), depth=jnp.full(3, k.start_saucer_depth, jnp.int32),
                            param=jnp.zeros(3, jnp.int32), timer=i32(0), wave=i32(k.start_wave),
                            count_base=i32(k.start_count_base)),
        player=PlayerState(sector=i32(k.start_sector), enemies_left=i32(k.start_enemies),
                           reserve=i32(k.start_reserve), score=i32(0)),
        count=i32(k.start_count), random=i32(k.start_random), phase=i32(k.intro_phase),
        grid=i32(k.start_grid), grid_speed=i32(k.start_grid_speed), frame=i32(0), key=key)


def parity(v):
    """1 when ``v`` (a byte) has an odd number of bits set."""
    v = v ^ (v >> 4)
    v = v ^ (v >> 2)
    return (v ^ (v >> 1)) & 1


def grid_step(k, grid, speed, count):
    """The grid's move on an odd frame, by its speed with the dither (constants.py, "the grid's
    clock")."""
    return (grid + dithered(k, speed, count)) % k.grid_wrap


def clock(k, state: BeamRiderState) -> BeamRiderState:
    """The odd frames' counter, random number and grid clock, and the intro's end."""
    odd = state.frame % k.logic_period == k.counter_parity
    count = jnp.where(odd, (state.count + 1) & BYTE, state.count)
    shifted = ((state.random << 1) & BYTE) | parity(state.random & k.random_taps)
    starts = state.frame == k.play_phase_frame
    phase = jnp.where(starts, k.play_phase, state.phase)
    grid = jnp.where(odd, grid_step(k, state.grid, state.grid_speed, count), state.grid)
    intro_speed = jnp.where(state.phase == k.intro_phase,
                            (state.grid_speed - k.intro_speed_step) & BYTE, state.grid_speed)
    speed = jnp.where(starts, k.play_grid_speed, jnp.where(odd, intro_speed, state.grid_speed))
    return state.replace(count=count, random=jnp.where(odd, shifted, state.random), phase=phase,
                         grid=grid, grid_speed=speed)


def fly(k, state: BeamRiderState, ale_action) -> BeamRiderState:
    """The ship's logic frame: move, shoot, then the shot's hit on a saucer (logic/hits.py)."""
    stick = joystick(ale_action)
    s = ship.move(k, state.ship, stick, state.frame >= k.first_move_frame)
    s = ship.shoot(k, s, stick, state.frame >= k.first_shot_frame)
    logic = state.frame % k.logic_period == 0
    moved = hits.hit(k, state.replace(ship=s))
    keep = lambda new, old: jax.tree.map(lambda a, b: jnp.where(logic, a, b), new, old)
    return state.replace(ship=keep(moved.ship, state.ship), saucers=keep(moved.saucers, state.saucers),
                         player=keep(moved.player, state.player))


def enemies(k, before: BeamRiderState, state: BeamRiderState) -> BeamRiderState:
    """The saucers' odd frame, after the clock (they read the new count, grid and random)."""
    grid_move = (state.grid - before.grid) % k.grid_wrap
    return state.replace(saucers=saucers.fly(k, state.saucers, state.frame, state.count, grid_move,
                                             state.grid, state.random))


def frame(k: BeamRiderConstants, state: BeamRiderState, ale_action) -> BeamRiderState:
    """One frame's phases: the clock, the saucers (odd frames), the ship (even frames)."""
    ticked = clock(k, state)
    state = fly(k, enemies(k, state, ticked), ale_action)
    return state.replace(frame=state.frame + 1)


@functools.partial(jax.jit, static_argnames="k")
def step(state: BeamRiderState, ale_action, k: BeamRiderConstants = c.DEFAULTS) -> BeamRiderState:
    """One emulator frame under ALE action ``ale_action`` (0..17, ALE's full action set)."""
    return frame(k, state, ale_action)


@functools.partial(jax.jit, static_argnames="k")
def rollout(state: BeamRiderState, ale_actions, k: BeamRiderConstants = c.DEFAULTS):
    """The states after each of ``ale_actions`` (int32 (T,)), stacked on a leading axis."""
    def one(s, a):
        s = frame(k, s, a)
        return s, s

    return jax.lax.scan(one, state, jnp.asarray(ale_actions, jnp.int32))[1]


def signals(state: BeamRiderState) -> dict[str, np.ndarray]:
    """The mirrored bytes by the reference's names (ram.ship_bytes), for one state or a stack."""
    s = jax.device_get(state)
    return {"count": np.asarray(s.count), "random": np.asarray(s.random), "phase": np.asarray(s.phase),
            "grid": np.asarray(s.grid), "grid_speed": np.asarray(s.grid_speed),
            "ship_x": np.asarray(s.ship.x), "ship_flags": np.asarray(s.ship.flags),
            "shot_y": np.asarray(s.ship.shot_y), "shot_x": np.asarray(s.ship.shot_x),
            "torpedoes": np.asarray(s.ship.torpedoes),
            "enemies_left": np.asarray(s.player.enemies_left),
            "sector": np.asarray(s.player.sector), "reserve": np.asarray(s.player.reserve),
            "score": np.asarray(s.player.score),
            "wave_timer": np.asarray(s.saucers.timer), "wave": np.asarray(s.saucers.wave),
            "count_base": np.asarray(s.saucers.count_base),
            **{f"saucer_{name}_{i}": np.asarray(getattr(s.saucers, name))[..., i]
               for name in ("kind", "step", "x", "depth", "param") for i in range(3)}}


class BeamRider(Game):
    name = "beamrider"
    # ALE driver isMinimal / the Farama page's Discrete(9) table, as ALE action ids:
    # NOOP, FIRE, UP, RIGHT, LEFT, UPRIGHT, UPLEFT, RIGHTFIRE, LEFTFIRE
    minimal_actions = (0, 1, 2, 3, 4, 6, 7, 11, 12)
    Constants = BeamRiderConstants
    mechanics = ()

    def _reset(self, key):
        return reset(self.consts, key)

    def _step(self, state, ale_action):
        new = frame(self.consts, state, ale_action)
        return new, new.player.score - state.player.score

    def is_terminal(self, state):
        return state.player.reserve == self.consts.game_over_reserve

    def score(self, state):
        return state.player.score

    def lives(self, state):
        return (state.player.reserve + 1) & BYTE

    def signals(self, state):
        return {name: jnp.asarray(v) for name, v in signals(state).items()}
