"""The world around Bailey: the bear on the shore, the floes (breaking up, drifting, whitening),
and the cold."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.frostbite.logic.cartridge import wrap_x
from jaxtari.games.frostbite.constants import (
    BEAR_LEVEL_INDEX, BEAR_MAX_X, BEAR_MIN_X, BEAR_WALKS_RIGHT, BREAK_PERIOD,
    BREAKING_FLOES_LEVEL_INDEX, F_FREEZE, FACE_LEFT, FULL_IGLOO, ROW_FLOES_LEFT, TEMPERATURE_PERIOD,
)


# rule: spawning.grizzly-from-level-4, lives.ways-to-lose
def bear_chases_bailey(s, go):
    """From level 4, the bear that caught Bailey on the shore drives him off its left edge (he
    walks left, the game logic waits): returns the state and what is left of ``go``."""
    chase = go & s.bear_hit & (s.jump == 0) & (s.level_index >= BEAR_LEVEL_INDEX)
    step = s.fc & 3
    s = s.replace(
        facing=jnp.where(chase, FACE_LEFT, s.facing), bear_frame=jnp.where(chase, step, s.bear_frame),
        bear_x=jnp.where(chase & (step != 0) & (s.bear_x >= BEAR_MIN_X), s.bear_x - 1, s.bear_x),
        anim=jnp.where(chase, (s.fc >> 1) & 3, s.anim), x=jnp.where(chase, (s.x - 1) & 0xFF, s.x))
    return s, go & ~chase


# rule: physics.floes-break-up
def floes_break_up(s, go):
    """On levels 6, 8, ... the floes break up and rejoin: their shape steps every 16 frames."""
    li = s.level_index
    breathe = go & (li % 2 == 1) & (li >= BREAKING_FLOES_LEVEL_INDEX) & ((s.fc & (BREAK_PERIOD - 1)) == 0)
    return s.replace(floe_shape=jnp.where(breathe, (s.floe_shape - 1) % 16, s.floe_shape))


# rule: rendering.rows-whiten
def whiten_rows(s, live):
    """All four rows blue (and the igloo unfinished): they turn white again."""
    rewhite = live & (s.white_hold == 0) & (s.blocks != FULL_IGLOO) & ~jnp.any(s.floe_white)
    return s.replace(floe_white=s.floe_white | rewhite)


# rule: physics.floes-drift
def drift_floes(s, live):
    """The floes drift at the floe speed, each row its way, wrapping at the screen's edges."""
    left = (s.row_byte & ROW_FLOES_LEFT) != 0
    x = wrap_x(jnp.where(left, s.floe_x - s.speed[0], s.floe_x + s.speed[0]) & 0xFF)
    return s.replace(floe_x=jnp.where(live, x, s.floe_x))


# rule: timing.temperature-falls, timing.freeze-at-zero
def cool_down(s, live):
    """One degree every 64 frames; at 0 Bailey freezes. Returns the state and whether a degree
    went (the bear turns on the same beat)."""
    tick = live & ((s.fc & (TEMPERATURE_PERIOD - 1)) == 0)
    temperature = jnp.where(tick, s.temperature - 1, s.temperature)
    return s.replace(temperature=temperature,
                     flags=jnp.where(tick & (temperature == 0), F_FREEZE, s.flags)), tick


def bear_walks(consts, s, live, tick):
    """From level 4 the bear walks the shore between BEAR_MIN_X and BEAR_MAX_X, turning towards
    Bailey on the temperature's beat."""
    towards = jnp.where(s.x >= s.bear_x, BEAR_WALKS_RIGHT, 0)
    on = live & (s.level_index >= BEAR_LEVEL_INDEX) & consts.bear  # rule: spawning.grizzly-from-level-4
    facing = jnp.where(on, (s.facing & FACE_LEFT) | jnp.where(tick, towards, s.facing), s.facing)
    right = (facing & BEAR_WALKS_RIGHT) != 0
    sp = s.speed[1]
    walk_r = on & right & (s.bear_x < BEAR_MAX_X)
    walk_l = on & ~right & (s.bear_x >= BEAR_MIN_X)
    x = jnp.where(walk_r, s.bear_x + sp, jnp.where(walk_l, s.bear_x - sp, s.bear_x))
    stepped = (walk_r | walk_l) & (sp != 0)
    return s.replace(facing=facing, bear_x=x,
                     bear_frame=jnp.where(stepped, (s.bear_frame - 1) % 8, s.bear_frame))
