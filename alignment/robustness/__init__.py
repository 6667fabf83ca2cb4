"""Stage: robustness of agents trained on the original game to its mods (the JAXtari paper's
performance change), on the JAX game and on ALE where a mod has an ALE counterpart."""
