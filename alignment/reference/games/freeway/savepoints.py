"""Freeway's save-point search targets (found by :mod:`alignment.audit.savepoints` on ALE; the spec
holds only what the search wrote, see specs/freeway.yaml ``save_points:``)."""

from __future__ import annotations

from alignment.plugin import SavePointTarget

TARGETS: dict[str, SavePointTarget] = {
    "car-ahead": SavePointTarget(
        note="The chicken walks up from the kerb; a car in the next lane is about to hit it.",
        goal=lambda s, after: after[-1]["chicken_y"] > s["chicken_y"]
        and after[-1]["player_score"] == s["player_score"],
        objective=lambda s: -float(s["chicken_y"]), reaches=("chicken_y", "player_score"),
        macros=((("UP", 4),),), lookahead=(("UP", 16),), beam=1,
        situation=lambda s: (s["chicken_y"],),
    ),
}
