"""Kangaroo, being ported: ``reference/`` (the RAM side: RAM map, signals, pokes, the ALE halves of its mods, a clone/restore player); the JAX side is not written yet. See ports/README.md."""
