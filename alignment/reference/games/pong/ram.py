"""Pong's ground truth: the paddles, the ball and the two scores in the console RAM.

Addresses: OCAtari's Pong RAM extractor (k4ntz/OC_Atari, ocatari/ram/pong.py). The screen offsets
are the JAX game's constants (one home: :class:`jaxtari.games.pong.PongConstants`), measured there on
ale-py 0.12.1 frames; tests/reference/test_ale.py re-checks every address against the screen.
"""

from __future__ import annotations

import numpy as np

from jaxtari.games.pong import PongConstants

from alignment.signals import OCATARI, AleCounterpart, RamWrite, Signal, jax_signal, ram_byte

BALL_X = 49  # screen x + PongConstants.ball_x_offset
ENEMY_Y = 50  # left (orange) paddle; screen top y + enemy_y_offset
PLAYER_Y = 51  # right (green) paddle; screen top y + player_y_offset
BALL_Y = 54  # screen top y + ball_y_offset
ENEMY_SCORE = 13
PLAYER_SCORE = 14

POSITION_TOLERANCE = 2  # px: a sub-frame of paddle/ball motion still counts as agreement

_C = PongConstants()


def signals() -> list[Signal]:
    px = POSITION_TOLERANCE
    return [
        Signal("player_y", ram_byte(PLAYER_Y, -_C.player_y_offset), jax_signal("player_y"), px, "px",
               f"ram[{PLAYER_Y}]-{_C.player_y_offset}, {OCATARI}",
               description=f"right (green) paddle, top y; x={_C.player_x}"),
        Signal("enemy_y", ram_byte(ENEMY_Y, -_C.enemy_y_offset), jax_signal("enemy_y"), px, "px",
               f"ram[{ENEMY_Y}]-{_C.enemy_y_offset}, {OCATARI}",
               description=f"left (orange) paddle, top y; x={_C.enemy_x}"),
        Signal("ball_x", ram_byte(BALL_X, -_C.ball_x_offset), jax_signal("ball_x"), px, "px",
               f"ram[{BALL_X}]-{_C.ball_x_offset}, {OCATARI}", description="ball left x"),
        Signal("ball_y", ram_byte(BALL_Y, -_C.ball_y_offset), jax_signal("ball_y"), px, "px",
               f"ram[{BALL_Y}]-{_C.ball_y_offset}, {OCATARI}", description="ball top y"),
        Signal("player_score", ram_byte(PLAYER_SCORE), jax_signal("player_score"), 0, "points",
               f"ram[{PLAYER_SCORE}], {OCATARI}", description="points won by the agent"),
        Signal("enemy_score", ram_byte(ENEMY_SCORE), jax_signal("enemy_score"), 0, "points",
               f"ram[{ENEMY_SCORE}], {OCATARI}", description="points won by the computer"),
    ]


def observation_fields(rams: np.ndarray) -> dict[str, np.ndarray]:
    """The JAX state fields ``Pong.observation`` reads, for a batch of RAM snapshots (N, 128): the
    state keeps the kernel's RAM units, so each is its byte (see alignment.reference.features)."""
    r = np.asarray(rams).astype(np.int32)
    return {"player_y": r[:, PLAYER_Y], "enemy_y": r[:, ENEMY_Y], "ball_x": r[:, BALL_X],
            "ball_y": r[:, BALL_Y]}


def features(ram) -> np.ndarray:
    """The object-centric vector ``Pong.observation(state)`` gives, from one RAM snapshot."""
    from alignment.reference.features import features as decode

    return decode("pong", ram)


# The computer's score byte held at 0. ALE computes a frame's reward from the score bytes before
# the backend's writes, so it pays the computer's point (-1) on the frame it is won and +1 on the
# next, where the JAX mod pays 0 on both: the same episode return, a different per-frame reward.
ALE_MODS = {
    "no_enemy_points": AleCounterpart(
        (RamWrite(ENEMY_SCORE, 0),), exact=False,
        measured="python -m alignment.counterparts pong no_enemy_points (2026-12-04, ale-py "
                 "0.12.1) and 12,000 frames of random held actions, seed 0: every catalog signal "
                 "but score equal every frame; summed reward 2.0 on both",
        differs="the reward of a point the computer wins: ALE -1 on that frame and +1 on the next "
                "(its score signal is -1 for that one frame), JAX 0 on both; episode returns are "
                "equal"),
}
JAX_ONLY_MODS = {
    "lazy_enemy": "the paddle holds its own last position while the ball goes away: a value that "
                  "changes, which constant RAM writes cannot give",
    "slow_enemy": "the paddle's speed is cartridge code, not a RAM byte",
}
