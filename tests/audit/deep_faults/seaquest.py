"""Deep-only mutants of Seaquest (issue 50 part 3): code that only runs on surfacing with six
divers (the last two: past the first wave)."""

import jax.numpy as jnp

from alignment.audit.faults import Fault
from jaxtari.mods import PostStepMod


def _cheap_drain(game, prev, s, reward):
    # the six divers drained on surfacing pay 10 less each
    drained = (s.divers < prev.divers) & (reward > 0)
    return (s.replace(score=jnp.where(drained, s.score - 10, s.score)),
            jnp.where(drained, reward - 10, reward))


def _same_wave(game, prev, s, reward):
    # surfacing with six divers does not start the next wave
    return s.replace(level=jnp.where(s.level > prev.level, prev.level, s.level)), reward


def _cheap_late_drain(game, prev, s, reward):
    # past wave 1 the six divers drained on surfacing pay 10 less each
    drained = (s.divers < prev.divers) & (reward > 0) & (prev.level >= 1)
    return (s.replace(score=jnp.where(drained, s.score - 10, s.score)),
            jnp.where(drained, reward - 10, reward))


def _stuck_at_wave_2(game, prev, s, reward):
    # the second surfacing with six divers does not start wave 3
    return s.replace(level=jnp.where((s.level > prev.level) & (prev.level >= 1), prev.level,
                                     s.level)), reward


FAULTS = [
    Fault(PostStepMod("cheap_drain", "surfacing with six divers pays 10 less per diver",
                      _cheap_drain), "scoring.rescued-divers-start-50"),
    Fault(PostStepMod("same_wave", "surfacing with six divers keeps the wave", _same_wave),
          "progression.six-divers-next-wave"),
    Fault(PostStepMod("cheap_late_drain", "past wave 1 six divers pay 10 less each",
                      _cheap_late_drain), "scoring.rescued-divers-start-50"),
    Fault(PostStepMod("stuck_at_wave_2", "the second six-diver surfacing keeps wave 2",
                      _stuck_at_wave_2), "progression.six-divers-next-wave"),
]
