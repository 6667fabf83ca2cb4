"""Deep-only mutants of Frostbite (issue 50 part 3): code that only runs from level 4 on or with
reserves built up."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.mods import InternalMod, PostStepMod


def _cheap_late_blocks(game, prev, s, reward):
    # from level 5 on a block pays 10 less (the level multiplier capped one level too early)
    built = (s.blocks > prev.blocks) & (s.level_index >= 4)
    return (s.replace(score=jnp.where(built, s.score - 10, s.score)),
            jnp.where(built, reward - 10, reward))


def _cold_late(game, prev, s, reward):
    # from level 6 on the temperature falls two degrees at a time
    colder = (s.temperature == prev.temperature - 1) & (s.temperature > 0) & (s.level_index >= 5)
    return s.replace(temperature=jnp.where(colder, s.temperature - 1, s.temperature)), reward


FAULTS = [
    Fault(InternalMod("no_bonus_bailey", "no bonus Bailey past the start's reserves",
                      constants={"max_lives": 3}), "lives.bonus-every-5000"),
    Fault(InternalMod("no_bear", "the polar grizzly never comes out", constants={"bear": False}),
          "spawning.grizzly-from-level-4"),
    Fault(PostStepMod("cheap_late_blocks", "blocks pay 10 less from level 5", _cheap_late_blocks),
          "spawning.grizzly-from-level-4"),
    Fault(PostStepMod("cold_late", "the temperature falls twice as fast from level 6", _cold_late),
          "spawning.grizzly-from-level-4"),
]
