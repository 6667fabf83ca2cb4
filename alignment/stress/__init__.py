"""Stage 4, stress: PPO with identical hyperparameters on ALE and on the JAX game, and the learning
curves compared with real statistics (IQM, bootstrap intervals, probability of improvement, area
under the curve, an equivalence test on final return).

The learner itself (PPO, networks, hyperparameters and budgets, checkpoints, policy files,
statistics) is :mod:`alignment.learning`, shared with the robustness stage.

- :mod:`.config`: the stage's own inputs (backends, the seed bound, its input error).
- :mod:`.ale_rollout`: the learner fed by the real emulator.
- :mod:`.sides`: the two backends behind one interface the core drives interval by interval.
- :mod:`.pixels`: ale-py's vector env for pixels, and the measured pixel gap to the JAX raster.
  (Object features on the ALE side: :mod:`alignment.reference.features`.)
- :mod:`.core`: ``run_stress`` (returns data, never prints); :mod:`.report`: JSON, markdown, plots;
  :mod:`.command`: the ``stress`` command.
"""
