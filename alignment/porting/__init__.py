"""Porting tools: what a porter runs on the real emulator before and while writing a JAX game.

- :mod:`.ramtrace` - RAM traces of ALE rollouts (which bytes change, which follows a quantity,
  what an event changed); ``jaxtari-align ramtrace ROM``.
- :mod:`.cycles` - a cycle-exact 6507 tracer of one ALE frame from ALE's serialized state (the
  cost of a cartridge's branches on ALE's ROM).
- :mod:`.pokes` - clone/restore probes: one byte poked over many values at the same moment of a
  game, what each led to (a collision window, a threshold).

docs/porting.md says how to use them for a new game.
"""
