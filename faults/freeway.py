"""Seeded faults of Freeway: each mod breaks one rule of specs/freeway.yaml (loaded by path)."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.env import joystick
from jaxtari.mods import InternalMod


def _chicken(up_ok=True, down_sign=-1):
    def move_chicken(self, state, ale_action):
        c = self.consts
        js = joystick(ale_action)
        free = (state.hit_count == 0) & (state.cross_count == 0)
        dy = (js.up & up_ok).astype(jnp.int32) + down_sign * js.down.astype(jnp.int32)
        climb = jnp.where(free, state.climb + c.climb_step * dy, state.climb)
        climb = jnp.where(state.hit_count >= c.hit_push_until, state.climb - c.push_step, climb)
        return jnp.maximum(climb, c.climb_start)
    return move_chicken


def _no_hits(self, state):
    return jnp.zeros(10, bool)


FAULTS = [
    Fault(InternalMod("up_ignored", "UP does not move the chicken",
                      mechanics={"move_chicken": _chicken(up_ok=False)}), "action.walk-chicken"),
    Fault(InternalMod("down_ignored", "DOWN does not move the chicken back",
                      mechanics={"move_chicken": _chicken(down_sign=0)}), "action.down-moves-back"),
    Fault(InternalMod("down_climbs", "DOWN moves the chicken up the road",
                      mechanics={"move_chicken": _chicken(down_sign=1)}), "action.down-moves-back"),
    Fault(InternalMod("crossing_worth_2", "a crossing scores 2",
                      constants={"points_per_crossing": 2}), "scoring.crossing"),
    Fault(InternalMod("crossing_worth_0", "a crossing scores nothing",
                      constants={"points_per_crossing": 0}), "scoring.crossing"),
    Fault(InternalMod("road_wider", "a crossing needs 240 steps of climb, not 177",
                      constants={"climb_top": 240}), "scoring.crossing"),
    Fault(InternalMod("long_game", "the game lasts 9000 frames", constants={"game_frames": 9000}),
          "termination.time-limit"),
    Fault(InternalMod("no_collisions", "cars never hit the chicken",
                      mechanics={"collide": _no_hits}), "physics.collision-push-back"),
    Fault(InternalMod("no_push", "a hit stuns the chicken without pushing it back",
                      constants={"push_step": 0}), "physics.collision-push-back"),
    # Lanes chosen so that only the speed rule's probe sees the change: a wrong speed or direction
    # nearer the kerb also changes the car-ahead save point's collision (measured: lane 10 at 4
    # frames per px, or lane 3 driving right, flag physics.collision-push-back too).
    Fault(InternalMod("slow_lane", "the car of lane 5 (top down) moves every 3rd frame, not every one",
                      constants={"lane_periods": (5, 4, 3, 2, 3, 1, 2, 3, 4, 5)}),
          "physics.car-speeds"),
    Fault(InternalMod("lane_reversed", "the car of lane 8 (top down) drives left, not right",
                      constants={"lane_dirs": (-1, -1, -1, -1, -1, 1, 1, -1, 1, 1)}),
          "physics.car-speeds"),
]
