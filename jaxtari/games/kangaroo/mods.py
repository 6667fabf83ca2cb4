"""Mods of Kangaroo (see :mod:`jaxtari.mods`): each holds bytes of the game at a value after reset
and after every frame, exactly as its ALE counterpart (alignment/reference/games/kangaroo/ram.ALE_MODS)
writes them into the console's RAM, so the modified games are the same on both sides (measured
over whole random games: tests/games/test_kangaroo_mods.py).

- ``no_monkey``: the monkeys never come down (their rows held at 127); they still "spawn" and
  think, unseen, as on ALE with HackAtari's writes.
- ``no_coconut``: the big ape never drops a coconut that reaches anyone (its row held at 255).
- ``frozen_timer``: the bonus timer stays at 2,000 (it never runs out; a round won pays 2,000).
"""

from __future__ import annotations

from jaxtari.mods import InternalMod

MODS = [
    InternalMod("no_monkey", "the monkeys never come down", constants={"monkeys_held_off": True}),
    InternalMod("no_coconut", "the big ape drops no coconut", constants={"coconut_held_off": True}),
    InternalMod("frozen_timer", "the bonus timer never runs down", constants={"timer_frozen": True}),
]
