"""Seeded faults of Frostbite: each mod breaks one rule of specs/frostbite.yaml (loaded by path)."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.mods import InternalMod, PostStepMod


def _block_worth_20(game, prev, s, reward):
    built = s.blocks > prev.blocks
    extra = jnp.where(built, s.score - prev.score, 0)  # the block's points, paid twice
    return s.replace(score=s.score + extra), reward + extra.astype(reward.dtype)


def _fire_free(game, prev, s, reward):
    # reversing a floe with FIRE takes back a block; here it costs nothing
    taken = (s.blocks < prev.blocks) & (prev.blocks >= 0)
    return s.replace(blocks=jnp.where(taken, prev.blocks, s.blocks)), reward


def _no_block(game, prev, s, reward):
    return s.replace(blocks=jnp.where(s.blocks > prev.blocks, prev.blocks, s.blocks)), reward


def _double_cold(game, prev, s, reward):
    colder = (s.temperature == prev.temperature - 1) & (s.temperature > 0)
    return s.replace(temperature=jnp.where(colder, s.temperature - 1, s.temperature)), reward


def _never_freeze(game, prev, s, reward):
    froze = (s.temperature == 0) & (prev.temperature > 0)
    return s.replace(temperature=jnp.where(froze, 1, s.temperature),
                     flags=jnp.where(froze, prev.flags, s.flags)), reward


def _right_ignored_on_shore(game, prev, s, reward):
    on_shore = s.floe_row < 0
    return s.replace(x=jnp.where(on_shore & (s.x > prev.x), prev.x, s.x)), reward


def _fire_takes_complete_block(game, prev, s, reward):
    # FIRE on a complete igloo reverses the floe and takes a block as it does otherwise
    flipped = jnp.any(((s.row_byte ^ prev.row_byte) & 0x40) != 0) & prev.reverse
    taken = flipped & (prev.blocks == 15) & (s.blocks == 15)
    return s.replace(blocks=jnp.where(taken, 14, s.blocks)), reward


def _no_degree_bonus(game, prev, s, reward):
    tally = (prev.flags & 0x40) != 0
    degree = tally & (s.temperature < prev.temperature)
    return (s.replace(score=jnp.where(degree, prev.score, s.score)),
            jnp.where(degree, jnp.zeros_like(reward), reward))


def _cannot_drown(game, prev, s, reward):
    # Bailey standing over open water does not sink
    sinks = ((s.flags & 0x80) != 0) & ((prev.flags & 0x80) == 0) & (s.x != 0)
    return s.replace(flags=jnp.where(sinks, prev.flags, s.flags)), reward


def _points_rise_past_9(game, prev, s, reward):
    # past level 9 a block pays 10 x the level (level 10: 100, not level 9's 90)
    built = (s.blocks > prev.blocks) & (s.level_index >= 9)
    extra = jnp.where(built, 10 * (s.level_index - 8), 0)
    return s.replace(score=s.score + extra), reward + extra.astype(reward.dtype)


def _frozen_floes(self, numerators):
    return numerators.at[0].set(0)


FAULTS = [
    Fault(PostStepMod("block_worth_20", "an ice block is worth 20 points on level 1", _block_worth_20),
          "scoring.ice-block"),
    Fault(PostStepMod("fire_free", "reversing a floe with FIRE costs no block", _fire_free),
          "action.fire-reverses-floe"),
    Fault(PostStepMod("no_block", "landing on a white floe builds no block", _no_block),
          "progression.block-per-white-row"),
    Fault(InternalMod("two_reserves", "Bailey starts with 2 reserve lives, not 3",
                      constants={"start_lives": 2}), "lives.reserves-at-start"),
    Fault(InternalMod("warm_start", "the temperature starts at 50", constants={"start_temperature": 50}),
          "timing.temperature-start"),
    Fault(PostStepMod("double_cold", "the temperature falls two degrees at a time", _double_cold),
          "timing.temperature-falls"),
    Fault(PostStepMod("never_freeze", "at 0 degrees Bailey does not freeze", _never_freeze),
          "timing.freeze-at-zero"),
    Fault(PostStepMod("right_ignored", "RIGHT does not move Bailey on the shore", _right_ignored_on_shore),
          "action.walk-left-right"),
    Fault(InternalMod("no_bonus_life", "no bonus Bailey at 5,000 points", constants={"max_lives": 3}),
          "lives.bonus-every-5000"),
    Fault(InternalMod("no_grizzly", "no bear from level 4 on", constants={"bear": False}),
          "spawning.grizzly-from-level-4"),
    Fault(PostStepMod("fire_takes_complete_block", "FIRE takes a block off a complete igloo",
                      _fire_takes_complete_block), "action.fire-keeps-complete-igloo"),
    Fault(PostStepMod("no_degree_bonus", "degrees left on entering the igloo score nothing",
                      _no_degree_bonus), "scoring.degree-bonus"),
    Fault(PostStepMod("cannot_drown", "Bailey does not sink in open water", _cannot_drown),
          "lives.ways-to-lose"),
    Fault(InternalMod("still_floes", "the floes do not drift", mechanics={"floe_speed": _frozen_floes}),
          "physics.floes-drift"),
    Fault(PostStepMod("points_rise_past_9", "past level 9 a block pays 10 x the level",
                      _points_rise_past_9), "scoring.constant-after-9"),
]
