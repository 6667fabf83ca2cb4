"""Mods of Kangaroo (see :mod:`jaxtari.mods`), each declaring the spec rules it changes: each holds
bytes of the game at a value after reset and after every frame, exactly as its ALE counterpart
(alignment/reference/games/kangaroo/ram.ALE_MODS) writes them into the console's RAM, so the
modified games are the same on both sides. Each counterpart is marked exact there, measured over
10 whole random games per mod (every catalog signal and the reward on every frame; no_monkey's
screens too, over a whole game), and re-checked by tests/test_counterparts.py.

- ``no_monkey``: the monkeys never come down (their rows held at 127); they still "spawn" and
  think, unseen, as on ALE with HackAtari's writes: no monkey to punch, no apple thrown.
- ``no_coconut``: the big ape never drops a coconut that reaches anyone (its row held at 255).
- ``frozen_timer``: the bonus timer stays at 2,000 (it never runs out; a round won pays 2,000).
"""

from __future__ import annotations

from jaxtari.mods import InternalMod

MODS = [
    InternalMod("no_monkey", "the monkeys never come down", constants={"monkeys_held_off": True},
                rules=("spawning.monkeys-come-down", "spawning.monkeys-throw-apples",
                       "spawning.apple-flight", "lives.duck-under-apple", "scoring.punch-monkey")),
    InternalMod("no_coconut", "the big ape drops no coconut", constants={"coconut_held_off": True},
                rules=("spawning.ape-first-coconut", "lives.coconut-hits-mother",
                       "scoring.punch-coconut", "progression.mode-1-harder")),
    InternalMod("frozen_timer", "the bonus timer never runs down", constants={"timer_frozen": True},
                rules=("timing.bonus-timer", "lives.timer-runs-out")),
]
