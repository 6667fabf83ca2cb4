"""Asteroids, one emulator frame a step (no objects or ``Game`` subclass yet; the picture is
draw.py's). The cartridge alternates frames: the ship's logic runs on frames after which the
counter is even, the asteroids move on the odd ones; every frame ends with the overscan's checks
(a new wave, a hit asteroid split, the ship's respawn, or one object's collision check).

``reset()`` is ALE's state after reset (measured); ``step(state, ale_action)`` advances one frame
and ``rollout`` a sequence; ``signals(state)`` gives every RAM-mirrored byte by the names of
``reference.ram.all_bytes``, which the lockstep tests compare with ALE. ``reset_ship``/
``step_ship`` fly the ship alone (no asteroids, no deaths), as the ship's own tests use it."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import NUM_FULL_ACTIONS, Game, joystick

from . import constants as c
from . import draw
from . import objects as objects_of
from .logic import collisions, field, player, ship, spawn
from .constants import AsteroidsConstants
from .state import FieldState, AsteroidsState, PlayerState, ScreenState, ShipState
from .logic.onehot import take

COUNTER_MASK = 0xFFFF
COUNT_LOW_BYTE = 0xFF  # ram[57]: the reference compares the counter's low byte
FIELD_RAM = 3          # ram[3]: the field's first byte
DECIMAL = 10
LIVES_SHIFT = 4        # ram[60]: the lives in the high nibble (ram[63] holds them so at reset)


def reset_ship(k: AsteroidsConstants = c.DEFAULTS) -> ShipState:
    zero2 = jnp.zeros((c.MAX_SHOTS,), jnp.int32)
    return ShipState(
        count=jnp.int32(0), rotation=jnp.int32(0), x_code=jnp.int32(k.start_x_code),
        y=jnp.int32(k.start_y), subpixel=zero2, velocity=zero2, fire_held=jnp.bool_(False),
        shot_x=zero2, shot_y=zero2, shot_direction=zero2)


def _logic_frame(k, state: ShipState, ale_action) -> ShipState:
    state = player.fly(k, state, joystick(ale_action))
    return ship.move_shots(k, state.replace(y=ship.wrap(state.y)))


@functools.partial(jax.jit, static_argnames="k")
def step_ship(state: ShipState, ale_action, k: AsteroidsConstants = c.DEFAULTS) -> ShipState:
    """One emulator frame under ALE action ``ale_action`` (0..17, ALE's full action set)."""
    state = state.replace(count=(state.count + 1) & COUNTER_MASK)
    moved = _logic_frame(k, state, ale_action)
    logic = state.count % c.LOGIC_PERIOD == 0
    return jax.tree.map(lambda a, b: jnp.where(logic, a, b), moved, state)


def _states_after(step_fn, state, ale_actions):
    """The states after each of ``ale_actions`` (int32 (T,)) stepped by ``step_fn``, stacked on a
    leading axis."""
    def frame(s, a):
        s = step_fn(s, a)
        return s, s

    return jax.lax.scan(frame, state, jnp.asarray(ale_actions, jnp.int32))[1]


@jax.jit
def rollout_ship(state: ShipState, ale_actions) -> ShipState:
    """The ship-alone states after each of ``ale_actions``, stacked on a leading axis."""
    return _states_after(step_ship, state, ale_actions)


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


# ---- the whole frame: ship, field, player ----------------------------------------------------------

def reset(k: AsteroidsConstants = c.DEFAULTS, key=None) -> AsteroidsState:
    """ALE's state after reset (measured: every seed starts alike), the mods' bytes held."""
    key = jax.random.key(0) if key is None else key
    memory = field.start_memory(k)
    state = AsteroidsState(ship=reset_ship(k), field=FieldState(
        memory=memory, speed=jnp.int32(k.start_speed),
        random=jnp.asarray(np.asarray(k.start_random, np.int32)),
        list_end=jnp.asarray(np.asarray(k.start_list_end, np.int32)),
        asteroid_collision=jnp.int32(k.start_asteroid_collision),
        object_collision=jnp.int32(k.start_object_collision)),
        player=PlayerState(lives=jnp.int32(k.start_lives), score=jnp.zeros((2,), jnp.int32),
                           reserved=jnp.int32(k.start_lives << LIVES_SHIFT), flags=jnp.int32(0),
                           feature_timer=jnp.int32(0), respawn_y=jnp.int32(0)),
        screen=ScreenState(score=jnp.zeros((2,), jnp.int32), lives=jnp.int32(k.start_lives),
                           ship_y=jnp.int32(k.start_y), field=memory,
                           top_code=jnp.int32(k.start_field_x[c.UP_FIRST])),
        frame=jnp.int32(0), key=key, ale_lives=jnp.int32(k.start_lives))
    return hold(k, state)


def hold(k: AsteroidsConstants, state: AsteroidsState) -> AsteroidsState:
    """The mods' bytes, held after reset and after every frame exactly as their ALE counterparts
    write them into the console's RAM (reference/ram.py ALE_MODS); the picture of the frame
    (``screen``) was drawn before, as on ALE."""
    p, f = state.player, state.field
    if k.lives_held:
        p = p.replace(lives=jnp.int32(k.start_lives))
    if not k.hyperspace:
        p = p.replace(flags=p.flags & ~c.HYPERSPACE & field.BYTE)
    if k.one_colour_asteroids:
        colour = (jnp.arange(field.MEMORY) >= field.A0) & (jnp.arange(field.MEMORY) < field.A0 + c.FIELD_SLOTS)
        f = f.replace(memory=jnp.where(colour, f.memory & ~c.ATTR_COLOUR_MASK & field.BYTE, f.memory))
    return state.replace(player=p, field=f)


def _select(pred, a, b):
    return jax.tree.map(lambda x, y: jnp.where(pred, x, y), a, b)


def _collide(k, s, f, p, list_end):
    """One object of the round robin checked against the field (collisions.py)."""
    timer_ready = (p.feature_timer & field.SIGN_BIT) == 0
    check, robin = collisions.robin(f.object_collision, s.shot_direction != 0, timer_ready)
    shot = jnp.where(check == collisions.CHECK_SHOT2, 1, 0)
    is_ship = check == collisions.CHECK_SHIP
    y = jnp.where(is_ship, s.y, take(s.shot_y, shot))
    code = jnp.where(is_ship, s.x_code, take(s.shot_x, shot))
    kind = jnp.where(is_ship, c.ID_SHIP, jnp.where(shot == 1, c.ID_SHOT2, c.ID_SHOT1))
    mem, hit, marked, score, lives = collisions.check_object(k, f.memory, list_end, y, code, kind,
                                                             p.score, p.lives)
    checked = check != collisions.CHECK_NONE
    hit = hit & checked
    ended = hit & ~is_ship & (jnp.arange(c.MAX_SHOTS) == shot)
    s = s.replace(shot_direction=jnp.where(ended, 0, s.shot_direction))
    killed = hit & is_ship
    p = p.replace(score=jnp.where(hit, score, p.score), lives=jnp.where(hit, lives, p.lives),
                  flags=jnp.where(killed, p.flags | c.KILLED, p.flags),
                  feature_timer=jnp.where(killed, c.EXPLODING, p.feature_timer))
    f = f.replace(memory=jnp.where(checked, mem, f.memory), object_collision=robin,
                  asteroid_collision=jnp.where(hit, marked, f.asteroid_collision))
    return s, f, p


def _overscan(k, s, f, p):
    """The end of every frame: the list ends found again; a new wave when both lists are empty;
    else a pending hit split; else (game on) the ship's respawn when it is due, or one object's
    collision check."""
    mem = f.memory
    list_end = field.list_ends(mem)
    empty = field.both_lists_empty(mem)
    pending = f.asteroid_collision != 0

    wave_mem, wave_end, wave_random = spawn.new_wave(k, mem, f.random, p.score[0])
    waved = f.replace(memory=wave_mem, list_end=wave_end, random=wave_random)

    split_mem, split_end, r = spawn.split_lists(k, mem, list_end, f.random)
    split = f.replace(memory=split_mem, list_end=split_end,
                      random=r, asteroid_collision=jnp.int32(0))

    f = f.replace(list_end=list_end)
    over = (p.flags & c.GAME_OVER_FLAG) != 0
    off = s.y == c.OFF_SCREEN_Y
    due = off & (p.feature_timer == 0)
    back_s, back_p = player.respawn(k, s, p, mem)
    hit_s, hit_f, hit_p = _collide(k, s, f, p, list_end)
    calm = ~empty & ~pending
    checking = calm & ~over & ~due & (~off | (s.shot_direction != 0).any())
    respawning = calm & ~over & due

    s = _select(checking, hit_s, _select(respawning, back_s, s))
    p = _select(checking, hit_p, _select(respawning, back_p, p))
    f = _select(empty, waved, _select(pending, split, _select(checking, hit_f, f)))
    return s, f, p


def frame(k: AsteroidsConstants, state: AsteroidsState, ale_action) -> AsteroidsState:
    """One emulator frame: the counter, the random number, the ship's logic (even frames) or the
    asteroids' moves (odd frames; with ``asteroid_move_period`` n, one asteroid frame in n), the
    picture's inputs, then the overscan's checks and the mods' held bytes."""
    s = state.ship.replace(count=(state.ship.count + 1) & COUNTER_MASK)
    f = state.field.replace(random=field.next_random(state.field.random))
    p = state.player
    asteroid_frame = s.count % c.LOGIC_PERIOD == c.ASTEROID_FRAME_PARITY
    flown, played = player.ship_frame(k, s, p, f.random, ale_action)
    s = _select(asteroid_frame, s, flown)
    p = _select(asteroid_frame, p, played)
    moving = asteroid_frame & ((s.count >> 1) % k.asteroid_move_period == 0)
    memory, speed, list_end, top_code = field.asteroid_frame(k, f.memory, f.speed, f.list_end)
    f = _select(moving, f.replace(memory=memory, speed=speed, list_end=list_end), f)
    screen = ScreenState(score=p.score, lives=p.lives, ship_y=s.y, field=f.memory,
                         top_code=jnp.where(moving, top_code, f.memory[field.X0]))
    s, f, p = _overscan(k, s, f, p)
    return hold(k, AsteroidsState(ship=s, field=f, player=p, screen=screen, frame=state.frame + 1,
                                  key=state.key, ale_lives=p.lives))


@functools.partial(jax.jit, static_argnames="k")
def step(state: AsteroidsState, ale_action, k: AsteroidsConstants = c.DEFAULTS) -> AsteroidsState:
    """One emulator frame under ALE action ``ale_action`` (0..17), the game's numbers ``k``."""
    return frame(k, state, ale_action)


@functools.partial(jax.jit, static_argnames="k")
def rollout(state: AsteroidsState, ale_actions, k: AsteroidsConstants = c.DEFAULTS) -> AsteroidsState:
    """The states after each of ``ale_actions``, stacked on a leading axis."""
    return _states_after(lambda s, a: frame(k, s, a), state, ale_actions)


def field_signals(state: AsteroidsState) -> dict[str, np.ndarray]:
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


def player_signals(state: AsteroidsState) -> dict[str, np.ndarray]:
    """The player's RAM-mirrored bytes by the reference's names (ram.player_bytes)."""
    p = jax.device_get(state.player)
    score = np.asarray(p.score)
    return {"lives": np.asarray(p.lives), "score_thousands": score[..., 0],
            "score_tens": score[..., 1], "reserved": np.asarray(p.reserved),
            "player_flags": np.asarray(p.flags), "feature_timer": np.asarray(p.feature_timer),
            "respawn_y": np.asarray(p.respawn_y)}


def signals(state: AsteroidsState) -> dict[str, np.ndarray]:
    """Every RAM-mirrored byte of the port (ship, field, player)."""
    return {**ship_signals(state.ship), **field_signals(state), **player_signals(state)}


# ---- what ALE reports ----------------------------------------------------------------------------

def _bcd(byte):
    return (byte >> field.NIBBLE) * DECIMAL + (byte & field.NIBBLE_MASK)


def score(state: AsteroidsState):
    """The points (the BCD bytes ram[61..62] read as ALE reads them: the last digit is always 0)."""
    thousands, tens = state.player.score[..., 0], state.player.score[..., 1]
    return (_bcd(thousands) * 100 + _bcd(tens)) * c.SCORE_UNIT


def lives(state: AsteroidsState):
    """ALE's ``lives()``: the lives nibble as the frame left it. ALE reads it inside ``act()``, so
    a mod's RAM write after the frame (``endless_lives``) shows from the next frame on: a death
    reads 3 and a bonus life 5 for one frame (measured, reference/ram.py ALE_MODS)."""
    return state.ale_lives


def is_terminal(state: AsteroidsState):
    """ALE's game over: on the frame the lives nibble reaches 0 (read as ``lives`` is)."""
    return state.ale_lives == 0


# ---- the Game ------------------------------------------------------------------------------------

class Asteroids(Game):
    name = "asteroids"
    # measured: ale-py 0.12.1 getMinimalActionSet() (the Farama page's Discrete(14) table):
    # every action but DOWN with a side (DOWNRIGHT, DOWNLEFT and their FIRE forms)
    minimal_actions = (0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15)
    Constants = AsteroidsConstants
    mechanics = ()

    def _reset(self, key):
        return reset(self.consts, key)

    def _step(self, state, ale_action):
        new = frame(self.consts, state, ale_action)
        return new, score(new) - score(state)

    def is_terminal(self, state):
        return is_terminal(state)

    def score(self, state):
        return score(state)

    def lives(self, state):
        return lives(state)

    def render(self, state):
        return draw.render(state)

    def render_gray84(self, state):
        return draw.render_gray84(state)

    def objects(self, state):
        return objects_of.objects(self, state)

    def signals(self, state):
        return objects_of.signals(self, state)
