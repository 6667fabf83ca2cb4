"""Pong's players: the playtest's scripted player, and the ALE lookahead player of deep play."""

from __future__ import annotations

import numpy as np

from alignment.plugin import Lookahead, ScriptedPolicy
from alignment.reference.games.pong.ram import BALL_Y, PLAYER_Y

# The paddle is a potentiometer: ALE's RIGHT moves it up the screen and LEFT down (see
# jaxtari/games/pong/), so the window's up/down keys stand for RIGHT/LEFT.
CONTROL_ALIASES = {"up": "right", "down": "left"}


def policy(signals: dict, tick: int) -> set:
    """Follow the ball with the paddle's centre; serve when the ball is out."""
    if not signals:
        return set()
    paddle = signals["player_y"] + 8
    ball = signals["ball_y"]
    held = set()
    if ball > paddle + 4:
        held.add("down")
    elif ball < paddle - 4:
        held.add("up")
    if tick % 120 < 4:
        held.add("fire")
    return held


SCRIPTED = ScriptedPolicy("scripted-pong-v1", lambda: policy)


def play(g: Lookahead, rng: np.random.Generator, win: bool = True, explore: float = 0.05) -> None:
    """A whole game to 21. ``win``: the paddle tracks the ball (aiming a random few pixels off
    centre per rally, for steeper returns), and a 60-frame lookahead overrides a move that would
    lose the point; otherwise random held moves, which lose."""
    noop, up, down = (g.names.index(a) for a in ("NOOP", "RIGHT", "LEFT"))  # RIGHT moves it up
    offset = 0
    while not g.raw.game_over():
        if not win:
            g.play((noop, up, down)[rng.integers(3)], int(rng.integers(4, 40)))
            continue
        ram = g.ram
        gap = int(ram[BALL_Y]) - int(ram[PLAYER_Y]) - offset
        track = noop if abs(gap) < 3 else (down if gap > 0 else up)
        best = track
        if g.sim([(track, 4), (noop, 56)])[0] < 0:
            for a in (noop, up, down):
                if g.sim([(a, 4), (noop, 56)])[0] >= 0:
                    best = a
                    break
        elif rng.random() < explore:
            best = (noop, up, down)[rng.integers(3)]
        r = g.play(best, 4)
        if r:
            offset = int(rng.integers(-8, 9))
