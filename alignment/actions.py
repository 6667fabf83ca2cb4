"""ALE's action names, in ALE's order, read from ale_py (the emulator is the reference).

jaxtari keeps its own copy of the names (``jaxtari.env.ACTION_NAMES``: jaxtari does not depend on
the emulator or on ``alignment``); tests/test_core.py checks that they agree. The rule that looks a
written action name up has one home, ``jaxtari.env.action_position`` (``Game.action_index`` and
``alignment`` alike).
"""

from __future__ import annotations

import ale_py

ACTION_NAMES: tuple[str, ...] = tuple(
    name for name, _ in sorted(ale_py.Action.__members__.items(), key=lambda kv: int(kv[1].value)))
ACTION_IDS: dict[str, int] = {name: i for i, name in enumerate(ACTION_NAMES)}
NOOP = ACTION_IDS["NOOP"]


def names_of(ids) -> tuple[str, ...]:
    """The names of ALE action ids, e.g. a game's minimal set."""
    return tuple(ACTION_NAMES[int(i)] for i in ids)
