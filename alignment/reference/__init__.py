"""The ALE side of the pipeline: the real emulator (ale-py) behind the JAX games' step semantics
(:mod:`alignment.reference.ale`), each game's ground truth (``games/<game>/``: RAM map, signal
extractors, catalog entry) and the open-loop policies of compare (:mod:`alignment.reference.policy`).

>>> from alignment.reference import AleGame
>>> ale = AleGame("pong", seed=0, sticky=0.0)   # doctest: +SKIP
>>> reward = ale.step(ale.action_index("RIGHT"))  # one emulator frame  # doctest: +SKIP
>>> ale.signals()["player_y"]                      # doctest: +SKIP
"""

from alignment.reference.ale import ACTION_NAMES, AleError, AleGame, AleSnapshot

__all__ = ["ACTION_NAMES", "AleError", "AleGame", "AleSnapshot"]
