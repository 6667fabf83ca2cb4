"""Pong's ground truth: the paddles, the ball and the two scores in the console RAM.

Addresses: OCAtari's Pong RAM extractor (k4ntz/OC_Atari, ocatari/ram/pong.py). The screen offsets
are the JAX game's constants (one home: :class:`jaxtari.games.pong.PongConstants`), measured there on
ale-py 0.12.1 frames; tests/reference/test_ale.py re-checks every address against the screen.
"""

from __future__ import annotations

import functools

import numpy as np

from jaxtari.atari import paddle
from jaxtari.games.pong import PongConstants

from alignment.signals import OCATARI, AleCounterpart, RamWrite, Signal, jax_signal, ram_byte

BALL_X = 49  # screen x + PongConstants.ball_x_offset
ENEMY_Y = 50  # left (orange) paddle; screen top y + enemy_y_offset
PLAYER_Y = 51  # right (green) paddle; screen top y + player_y_offset
BALL_Y = 54  # screen top y + ball_y_offset
ENEMY_SCORE = 13
PLAYER_SCORE = 14
# measured (ale-py 0.12.1, the JAX game's state matched frame by frame; no public map names them)
CLOCK = 8  # the ROM's frame counter (state.clock): its parity says whether the frame read the pot
POT_AVERAGE = 60  # the averaged pot reading (state.pot_average); RAM 51 holds the one before it

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
    state keeps the kernel's RAM units, so most are their byte (see alignment.reference.features).

    The drawn ball box also depends on the frame counter and, on frames that read the paddle pot,
    on the line where the pot charged (the reading): the kernel averages that reading into RAM 60
    while RAM 51 takes the previous average, so the reading is ``2 * RAM 60 - RAM 51``, rounded up
    to even (readings are even, the average floors). RAM keeps no resistance, so ``pot`` is the
    smallest one giving that reading, which is all the observation reads of it.
    """
    r = np.asarray(rams).astype(np.int32)
    reading = (2 * r[:, POT_AVERAGE] - r[:, PLAYER_Y] + 1) & ~1
    return {"player_y": r[:, PLAYER_Y], "enemy_y": r[:, ENEMY_Y], "ball_x": r[:, BALL_X],
            "ball_y": r[:, BALL_Y], "clock": r[:, CLOCK], "pot": pot_for_reading(reading)}


@functools.lru_cache(maxsize=1)
def _readings_by_pot() -> tuple[np.ndarray, np.ndarray]:
    """Every resistance ALE's paddle can take (ohm) and the JAX game's reading of it (ascending)."""
    import jax.numpy as jnp

    import jaxtari

    pots = np.arange(paddle.POT_MIN, paddle.POT_MAX + 1, dtype=np.int32)
    return pots, np.asarray(jaxtari.make("pong").pot_reading(jnp.asarray(pots)))


def pot_for_reading(reading: np.ndarray) -> np.ndarray:
    """The smallest resistance whose charge-time count is ``reading`` (clipped to what a pot can
    read: a byte no pot gives, on frames that did not read it, stands for the nearest one)."""
    pots, readings = _readings_by_pot()
    i = np.searchsorted(readings, np.asarray(reading, np.int64), side="left")
    return pots[np.minimum(i, len(pots) - 1)]


# The computer's score byte held at 0. ALE computes a frame's reward from the score bytes before
# the backend's writes, so it pays the computer's point (-1) on the frame it is won and +1 on the
# next, where the JAX mod pays 0 on both: the same episode return, a different per-frame reward.
ALE_MODS = {
    "no_enemy_points": AleCounterpart(
        (RamWrite(ENEMY_SCORE, 0),), exact=False,
        measured="python -m alignment.counterparts pong no_enemy_points (2026-12-04, ale-py "
                 "0.12.1) and 12,000 frames of random held actions, seed 0: every catalog signal "
                 "but score equal every frame; summed reward 2.0 on both. Lockstep to frame "
                 "66,000, past the timer's stop on frame 65,210 (tests/games/test_pong_stop.py, "
                 "2026-12-05): every signal but the computer's score equal every frame, the same "
                 "return, the screens equal on every frame around the stop and of a point",
        differs="the reward of a point the computer wins: ALE -1 on that frame and +1 on the next "
                "(its score signal is -1 for that one frame), JAX 0 on both"),
}
JAX_ONLY_MODS = {
    "lazy_enemy": "the paddle holds its own last position while the ball goes away: a value that "
                  "changes, which constant RAM writes cannot give",
    "slow_enemy": "the paddle's speed is cartridge code, not a RAM byte",
}
