"""The learner both training stages share: stress (stage 4) trains with it on ALE and on the JAX
game, robustness evaluates what it trained on modified games.

- :mod:`.config`: the PPO hyperparameters (CleanRL's EnvPool PPO defaults) and the named budgets.
- :mod:`.networks`: the actor-critics (Nature CNN for pixels, an MLP for object features).
- :mod:`.ppo`: PPO in pure JAX: the shared jitted update, and ``make_train`` for a JAX env.
- :mod:`.checkpoints`: per-seed, atomic, checksummed training checkpoints, and where a run keeps
  them.
- :mod:`.policy`: a trained agent as a file (float16 parameters and what they were trained on).
- :mod:`.statistics`: IQM, bootstrap CIs (rliable), probability of improvement, AUC, the TOST
  verdict.
"""
