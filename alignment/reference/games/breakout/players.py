"""Breakout's player: the playtest's scripted player."""

from __future__ import annotations

from alignment.plugin import ScriptedPolicy

NO_BALL_Y = 9  # the ball_y signal while no ball is in play
PADDLE_MIDDLE = 8  # px from the paddle's left x to its middle (full width)
DEAD_ZONE = 3  # px either side of the middle where the paddle is left alone


def policy(signals: dict, tick: int) -> set:
    """Serve when no ball is in play, else keep the paddle's middle under the ball (the paddle eases
    after the knob, so it lags: a human-like miss now and then)."""
    if not signals:
        return set()
    if signals["ball_y"] <= NO_BALL_Y:
        return {"fire"} if tick % 60 < 4 else set()
    offset = (signals["ball_x"] + 1) - (signals["paddle_x"] + PADDLE_MIDDLE)
    return {"right"} if offset > DEAD_ZONE else {"left"} if offset < -DEAD_ZONE else set()


SCRIPTED = ScriptedPolicy("scripted-breakout-v1", lambda: policy)
