"""Seaquest, being ported: ``game/`` (the JAX side) and ``reference/`` (the RAM side). See README.md."""
