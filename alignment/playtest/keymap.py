"""From held controls (up, down, left, right, fire) to an index in a game's minimal action set.

The controls compose an ALE action name the usual way (``UP`` + ``RIGHT`` + fire = ``UPRIGHTFIRE``).
When a game's minimal set lacks that name, the least important part is dropped until one fits: fire
first, then the vertical, then the horizontal direction, down to ``NOOP``.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

CONTROLS = ("up", "down", "left", "right", "fire")



def compose(held: Iterable[str]) -> str:
    """The ALE action name of a set of held controls (opposite directions cancel)."""
    held = set(held)
    unknown = held - set(CONTROLS)
    if unknown:
        raise ValueError(f"unknown controls {sorted(unknown)}; controls: {', '.join(CONTROLS)}")
    vertical = horizontal = ""
    if ("up" in held) != ("down" in held):
        vertical = "UP" if "up" in held else "DOWN"
    if ("left" in held) != ("right" in held):
        horizontal = "LEFT" if "left" in held else "RIGHT"
    name = vertical + horizontal + ("FIRE" if "fire" in held else "")
    return name or "NOOP"


def action_for(held: Iterable[str], action_names: Sequence[str],
               aliases: Mapping[str, str] | None = None) -> int:
    """The index in ``action_names`` of what the held controls mean for a game whose controls stand
    for others (its entry's ``control_aliases``, e.g. a paddle's up for RIGHT)."""
    held = set(held)
    if aliases:
        held = {aliases.get(c, c) for c in held}
    names = list(action_names)
    tries = [held, held - {"fire"}, held - {"fire", "up", "down"}, set()]
    for t in tries:
        name = compose(t)
        if name in names:
            return names.index(name)
    return names.index("NOOP") if "NOOP" in names else 0
