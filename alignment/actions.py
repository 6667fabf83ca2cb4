"""ALE's action names, in ALE's order, read from ale_py (the emulator is the reference), and the
one rule ``alignment`` uses to look a written action name up.

jaxtari keeps its own copy of the names and of the lookup (``jaxtari.env.ACTION_NAMES``,
``Game.action_index``: jaxtari does not depend on the emulator or on ``alignment``);
tests/test_core.py checks that the names agree.
"""

from __future__ import annotations

from typing import Sequence

import ale_py

ACTION_NAMES: tuple[str, ...] = tuple(
    name for name, _ in sorted(ale_py.Action.__members__.items(), key=lambda kv: int(kv[1].value)))
ACTION_IDS: dict[str, int] = {name: i for i, name in enumerate(ACTION_NAMES)}
NOOP = ACTION_IDS["NOOP"]


def position(names: Sequence[str], name) -> int | None:
    """Where an action name sits in ``names`` (an action set, ALE's order), or ``None``.

    Names are matched as people write them in specs, policy files and the API: any case, spaces
    around ignored (``" upfire"`` is ``UPFIRE``). Anything but a string is no name."""
    if not isinstance(name, str):
        return None
    key = name.strip().upper()
    return names.index(key) if key in names else None


def names_of(ids) -> tuple[str, ...]:
    """The names of ALE action ids, e.g. a game's minimal set."""
    return tuple(ACTION_NAMES[int(i)] for i in ids)
