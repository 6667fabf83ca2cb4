"""Pong's save-point search targets (found by :mod:`alignment.audit.savepoints` on ALE; the spec
holds only what the search wrote, see specs/pong.yaml ``save_points:``)."""

from __future__ import annotations

from alignment.plugin import Macro, SavePointTarget, Signals

MOVES: tuple[Macro, ...] = ((("NOOP", 2),), (("RIGHT", 2),), (("LEFT", 2),))
AIM = 8  # the paddle's centre this far above the ball: the CPU misses such a return (measured)


def _aim(s: Signals) -> float:
    # track the ball with the paddle's centre (top + 8) AIM px above it; points dominate
    off = abs(int(s["player_y"]) + 8 - AIM - int(s["ball_y"]))
    return 1000.0 * (s["player_score"] - s["enemy_score"]) - off


TARGETS: dict[str, SavePointTarget] = {
    "winning-return": SavePointTarget(
        note="The first serve comes towards the agent's paddle, which stands where the ball will "
             "meet its upper half: left alone, it returns the ball past the computer's paddle.",
        goal=lambda s, after: 110 <= s["ball_x"] <= 134 and after[1]["ball_x"] > s["ball_x"]
        and after[-1]["player_score"] == 1 and after[-1]["enemy_score"] == 0,
        objective=_aim, reaches=("player_score", "enemy_score", "ball_x"),
        macros=MOVES, lookahead=(("NOOP", 150),), beam=4,
        keep=lambda start, now: now["enemy_score"] == start["enemy_score"],
        situation=lambda s: (s["player_y"], s["ball_x"], s["ball_y"]),
    ),
}
