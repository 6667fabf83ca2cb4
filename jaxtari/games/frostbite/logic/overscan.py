"""The overscan, after the picture: a fish's points trickle in with its sound, the speeds of the
next frame accumulate, the fire button's new press is noted, the random byte advances."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.frostbite.logic.cartridge import add_points, lfsr_step, speed_bases
from jaxtari.games.frostbite.constants import (
    FISH_POINTS_STEP, RANDOM_PERIOD, SINK_LINES, SOUND_COUNT, SOUND_DECAY, SOUND_TRICKLE,
)

FRACTION_BITS = 4            # speeds are in 1/16 px per frame
FRACTION = 1 << FRACTION_BITS


# rule: scoring.fish
def fish_points_and_sound(consts, s):
    """The sound timer doubles as the fish's score trickle: while it counts, 10 points on 3 of
    every 4 frames; a chirp fades; both stop when Bailey has sunk or frozen."""
    sound = jnp.where((s.frozen | s.sink) == SINK_LINES, 0, s.sound)
    trickle = (sound & SOUND_TRICKLE) != 0
    sound = jnp.where(trickle, sound - 1, sound)
    count = sound & SOUND_COUNT
    sound = jnp.where(trickle & (count == 0), 0, sound)
    pay = trickle & ((count & 3) != 0)
    score, lives = add_points(s.score, s.lives, FISH_POINTS_STEP, consts.max_lives)
    decay = (sound & SOUND_DECAY) != 0
    faded = jnp.where(decay, sound - 1, sound)
    faded = jnp.where(decay & ((faded & SOUND_COUNT) == 0), 0, faded)
    return s.replace(sound=faded, score=jnp.where(pay, score, s.score),
                     lives=jnp.where(pay, lives, s.lives))


def next_speeds(game, s):
    """Speeds of the next frame (floes, enemies, Bailey in the air): integer part and 1/16
    fractions accumulated, from the level's numerators (game.floe_speed may scale them)."""
    num = game.floe_speed(speed_bases(s.level_index))
    total = s.speed_frac + (num & (FRACTION - 1))
    speed = (num >> FRACTION_BITS) + (total >= FRACTION)
    return s.replace(speed=speed.astype(jnp.int32), speed_frac=total & (FRACTION - 1))


def read_fire_and_random(s, joy):
    """A new press of FIRE (not while jumping) reverses the floe next frame; the random byte
    advances every 8 frames; the igloo and floe pictures of the next frame are fixed."""
    edge = joy.fire & ~s.fire_prev
    lfsr = jnp.where((s.fc & (RANDOM_PERIOD - 1)) == 0, lfsr_step(s.lfsr), s.lfsr)
    return s.replace(fire_prev=joy.fire, reverse=edge & (s.jump == 0), lfsr=lfsr,
                     igloo_built=s.blocks, floe_shape_drawn=s.floe_shape)
