"""Porting tools: what a porter runs on the real emulator before and while writing a JAX game.

- :mod:`.ramtrace` - RAM traces of ALE rollouts (which bytes change, which follows a quantity,
  what an event changed); ``jaxtari-align ramtrace ROM``.

docs/porting.md says how to use them for a new game.
"""
