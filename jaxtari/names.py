"""The one rule for reading a game's name, whatever spelling it comes in.

``jaxtari.canonical_name`` (the games), ``alignment.catalog.canonical`` (the games with ground
truth) and ``alignment.gamenames`` (every ALE game with a Farama page, for specs and docs) each
match against their own list of games, but reduce the written name by this one rule.
"""

from __future__ import annotations

import re

# ALE's gymnasium ids around a game's name: "ALE/Pong-v5", "PongNoFrameskip-v4",
# "PongDeterministic-v4", "Pong-ram-v5".
_NAMESPACE = re.compile(r"^ALE/", re.IGNORECASE)
_VERSION = re.compile(r"-v\d+$", re.IGNORECASE)
_VARIANT = re.compile(r"(NoFrameskip|Deterministic)$", re.IGNORECASE)
_RAM = re.compile(r"-ram$", re.IGNORECASE)
_SEPARATORS = re.compile(r"[^a-z0-9]")


def key(name: str) -> str:
    """A name reduced for matching: no ``ALE/``, version, id variant, separators or case
    (``"ALE/Ms_Pacman-v5"``, ``"MsPacmanNoFrameskip-v4"`` and ``" mspacman "`` -> ``"mspacman"``)."""
    s = _NAMESPACE.sub("", name.strip())
    s = _VERSION.sub("", s)
    s = _VARIANT.sub("", s)
    s = _RAM.sub("", s)
    return _SEPARATORS.sub("", s.lower())
