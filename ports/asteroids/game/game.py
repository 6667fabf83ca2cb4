"""Asteroids' ship, one emulator frame a step (the first mechanics of the port; no asteroids,
collisions, render or ``Game`` subclass yet). The cartridge alternates frames: the ship's logic
runs only on frames after which the counter is even (the odd ones move the asteroids).

``reset_ship()`` is ALE's state after reset (ram[57..90] as measured there); ``step_ship(state,
ale_action)`` advances one frame; ``ship_signals(state)`` gives the RAM-mirrored bytes the
lockstep test compares with ALE."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import NUM_FULL_ACTIONS, joystick

from . import constants as c
from . import field, ship
from .state import FieldState, GameState, ShipState

COUNTER_MASK = 0xFFFF
COUNT_LOW_BYTE = 0xFF  # ram[57]: the reference compares the counter's low byte
FIELD_RAM = 3          # ram[3]: the field's first byte


def reset_ship() -> ShipState:
    zero2 = jnp.zeros((c.MAX_SHOTS,), jnp.int32)
    return ShipState(
        count=jnp.int32(0), rotation=jnp.int32(0), x_code=jnp.int32(c.START_X_CODE),
        y=jnp.int32(c.START_Y), subpixel=zero2, velocity=zero2, fire_held=jnp.bool_(False),
        shot_x=zero2, shot_y=zero2, shot_direction=zero2)


def _logic_frame(state: ShipState, ale_action) -> ShipState:
    joy = joystick(ale_action)
    rotation = ship.turn(state.rotation, state.count, joy.left, joy.right)
    state = ship.fire(state.replace(rotation=rotation), joy.fire, rotation)
    velocity = ship.thrust_or_drag(state.velocity, rotation, joy.up)
    state = ship.move(state, velocity)
    state = state.replace(y=ship.wrap(state.y))
    return ship.move_shots(state)


@jax.jit
def step_ship(state: ShipState, ale_action) -> ShipState:
    """One emulator frame under ALE action ``ale_action`` (0..17, ALE's full action set)."""
    state = state.replace(count=(state.count + 1) & COUNTER_MASK)
    moved = _logic_frame(state, ale_action)
    logic = state.count % c.LOGIC_PERIOD == 0
    return jax.tree.map(lambda a, b: jnp.where(logic, a, b), moved, state)


@jax.jit
def rollout_ship(state: ShipState, ale_actions) -> ShipState:
    """The states after each of ``ale_actions`` (int32 (T,)), stacked on a leading axis."""
    def frame(s, a):
        s = step_ship(s, a)
        return s, s

    return jax.lax.scan(frame, state, jnp.asarray(ale_actions, jnp.int32))[1]


def checked_action(ale_action) -> int:
    """An ALE action id as an int, or a clear error (the jitted step cannot check a traced one)."""
    if isinstance(ale_action, bool) or not isinstance(ale_action, int):
        raise TypeError(f"an ALE action is an int 0..{NUM_FULL_ACTIONS - 1}, got {ale_action!r}")
    if not 0 <= ale_action < NUM_FULL_ACTIONS:
        raise ValueError(f"an ALE action is 0..{NUM_FULL_ACTIONS - 1}, got {ale_action}")
    return ale_action


def ship_signals(state: ShipState) -> dict[str, np.ndarray]:
    """The ship's RAM-mirrored bytes by the reference's names (ram.ship_bytes), for one state or
    a stack of them (each value then has the stack's leading axis)."""
    s = jax.device_get(state)
    out = {
        "count": np.asarray(s.count) & COUNT_LOW_BYTE,
        "rotation": np.asarray(s.rotation),
        "ship_x_code": np.asarray(s.x_code),
        "ship_y": np.asarray(s.y),
        "subpixel_x": np.asarray(s.subpixel)[..., 0], "subpixel_y": np.asarray(s.subpixel)[..., 1],
        "velocity_x": np.asarray(s.velocity)[..., 0], "velocity_y": np.asarray(s.velocity)[..., 1],
        "fire_held": np.asarray(s.fire_held).astype(np.int64),
    }
    for i in range(c.MAX_SHOTS):
        for name in ("x", "y", "direction"):
            out[f"shot{i}_{name}"] = np.asarray(getattr(s, f"shot_{name}"))[..., i]
    return out


# ---- the whole frame: ship and field ---------------------------------------------------------------

def reset() -> GameState:
    """ALE's state after reset (measured: every seed starts alike)."""
    return GameState(ship=reset_ship(), field=FieldState(
        memory=field.start_memory(), speed=jnp.int32(c.START_SPEED),
        random=jnp.asarray(np.asarray(c.START_RANDOM, np.int32)),
        list_end=jnp.asarray(np.asarray(c.START_LIST_END, np.int32)),
        asteroid_collision=jnp.int32(c.START_ASTEROID_COLLISION),
        object_collision=jnp.int32(c.START_OBJECT_COLLISION)))


def _overscan(f: FieldState) -> FieldState:
    """The end of every frame: the list ends found again, then the collision step (a pending
    hit is split, else one object is checked)."""
    return f.replace(list_end=field.list_ends(f.memory), asteroid_collision=jnp.int32(0))


@jax.jit
def step(state: GameState, ale_action) -> GameState:
    """One emulator frame: the counter, the random number, the ship's logic (even frames) or the
    asteroids' moves (odd frames), then the overscan's checks."""
    s = state.ship.replace(count=(state.ship.count + 1) & COUNTER_MASK)
    f = state.field.replace(random=field.next_random(state.field.random))
    asteroid_frame = s.count % c.LOGIC_PERIOD == c.ASTEROID_FRAME_PARITY
    moved = _logic_frame(s, ale_action)
    s = jax.tree.map(lambda a, b: jnp.where(asteroid_frame, b, a), moved, s)
    memory, speed, list_end = field.asteroid_frame(f.memory, f.speed, f.list_end)
    f = jax.tree.map(lambda a, b: jnp.where(asteroid_frame, a, b),
                     f.replace(memory=memory, speed=speed, list_end=list_end), f)
    return GameState(ship=s, field=_overscan(f))


@jax.jit
def rollout(state: GameState, ale_actions) -> GameState:
    """The states after each of ``ale_actions`` (int32 (T,)), stacked on a leading axis."""
    def frame(s, a):
        s = step(s, a)
        return s, s

    return jax.lax.scan(frame, state, jnp.asarray(ale_actions, jnp.int32))[1]


def field_signals(state: GameState) -> dict[str, np.ndarray]:
    """The field's RAM-mirrored bytes by the reference's names (ram.field_bytes), for one state
    or a stack of them."""
    f = jax.device_get(state.field)
    mem = np.asarray(f.memory)
    out = {f"ram{field.Y0 + i + FIELD_RAM}": mem[..., i] for i in range(3 * c.FIELD_SLOTS)}
    out["speed"] = np.asarray(f.speed)
    out["random_low"], out["random_high"] = np.asarray(f.random)[..., 0], np.asarray(f.random)[..., 1]
    out["up_end"], out["down_end"] = np.asarray(f.list_end)[..., 0], np.asarray(f.list_end)[..., 1]
    out["asteroid_collision"] = np.asarray(f.asteroid_collision)
    out["object_collision"] = np.asarray(f.object_collision)
    return out
