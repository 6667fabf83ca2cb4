"""The stress stage's own inputs: which backends it trains on, how many seeds, and its input error.
The learner's configuration (hyperparameters, budgets) is :mod:`alignment.learning.config`."""

from __future__ import annotations

from alignment.learning.config import LearnerInputError

BACKENDS = ("ale", "jax")
# Checked before anything is allocated: each seed holds its own runner and emulators (tens of MB).
MAX_SEEDS = 256


class StressInputError(LearnerInputError):
    """Bad input to the stress stage (an unknown game or backend, too many seeds, an unusable
    mod, ...)."""
