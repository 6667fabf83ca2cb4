"""Stage 4, stress: PPO with identical hyperparameters on ALE and on the JAX game, and the learning
curves compared with real statistics (IQM, bootstrap intervals, probability of improvement, area
under the curve, an equivalence test on final return).

- :mod:`.config`: the PPO hyperparameters (CleanRL's EnvPool PPO defaults) and the named budgets.
- :mod:`.networks`: the actor-critics (Nature CNN for pixels, an MLP for object features).
- :mod:`.ppo`: the learner in pure JAX: the shared jitted update, and ``make_train`` for the JAX env.
- :mod:`.ale_rollout`: the same learner fed by the real emulator.
- :mod:`.sides`: the two backends behind one interface the core drives interval by interval.
- :mod:`.pixels`: ale-py's vector env for pixels, and the measured pixel gap to the JAX raster.
  (Object features on the ALE side: :mod:`alignment.reference.features`.)
- :mod:`.statistics`: IQM, bootstrap CIs (rliable), probability of improvement, AUC, TOST verdict.
- :mod:`.checkpoints`: per-seed, atomic, checksummed training checkpoints.
- :mod:`.core`: ``run_stress`` (returns data, never prints); :mod:`.report`: JSON, markdown, plots;
  :mod:`.command`: the ``stress`` command.
"""
