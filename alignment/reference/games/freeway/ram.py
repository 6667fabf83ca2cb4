"""Freeway's ground truth: the agent's chicken, the ten cars, the score and the game clock in RAM.

Addresses of the chicken (ram[14]), the cars (ram[108..117]) and the score (ram[103]): OCAtari's
Freeway RAM extractor (k4ntz/OC_Atari, ocatari/ram/freeway.py). Measured here on ale-py 0.12.1 by
diffing RAM and screen: the lane order of the car bytes, the screen offsets, and the clock
(ram[105] counts 256-frame periods, ram[1] the frames within one; game over when ram[105] reaches
32). The offsets and the game length are the JAX game's constants (one home:
:mod:`jaxtari.games.freeway`); tests/reference/test_ale.py re-checks every address on the emulator.
"""

from __future__ import annotations

import numpy as np

from jaxtari.games.freeway import (
    CAR_SCREEN_X_OFFSET, CHICKEN_SCREEN_Y0, NUM_LANES, FreewayConstants,
)
from jaxtari.games.freeway.art import CAR_TOP_Y0, CHICKEN_X, LANE_SPACING

from alignment.signals import MEASURED, OCATARI, AleCounterpart, RamWrite, Signal, bcd, jax_signal

CLIMB = 14  # the agent's chicken: 6 at the kerb, grows while UP is held, back to 6 after a crossing
SCORE = 103  # BCD crossings
CARS_BOTTOM_LANE_FIRST = slice(108, 108 + NUM_LANES)  # ram[108] is the bottom lane's car
PERIODS = 105  # 256-frame periods since reset
PERIOD_FRAME = 1  # frames within the current period
FRAMES_PER_PERIOD = 256
# 0x80 | count after a crossing, 0x40 | count after a hit; the count falls by one on even frames
# and the byte clears at 0 (measured here, see jaxtari.games.freeway's docstring)
WAIT = 106
WAIT_CROSSING, WAIT_HIT, WAIT_COUNT = 0x80, 0x40, 0x3F

GAME_FRAMES = FreewayConstants().game_frames  # 8192 = 32 periods (2 min 16.5 s)


def chicken_y(ram) -> int:
    return CHICKEN_SCREEN_Y0 - int(ram[CLIMB])


def car_x(ram) -> np.ndarray:
    # the signal lists lanes top to bottom; the picture lags the RAM by up to 1 px (the signal is RAM)
    return np.asarray(ram[CARS_BOTTOM_LANE_FIRST][::-1], dtype=np.int32) - CAR_SCREEN_X_OFFSET


def timer(ram) -> int:
    return GAME_FRAMES - (int(ram[PERIODS]) * FRAMES_PER_PERIOD + int(ram[PERIOD_FRAME]))


def signals() -> list[Signal]:
    return [
        Signal("chicken_y", chicken_y, jax_signal("chicken_y"), 0, "px",
               f"{CHICKEN_SCREEN_Y0} - ram[{CLIMB}]; ram[{CLIMB}] from {OCATARI}, the offset "
               f"{MEASURED}",
               description=f"the agent's (left, x={CHICKEN_X}) chicken, top y: "
                           f"{CHICKEN_SCREEN_Y0 - 6} at the start, smaller further up the road"),
        Signal("car_x", car_x, jax_signal("car_x"), 0, "px",
               f"ram[117..108] - {CAR_SCREEN_X_OFFSET}; addresses from {OCATARI}, lane order and "
               f"offset {MEASURED}", shape=(NUM_LANES,),
               description=f"left x of the car in each lane, lanes top to bottom (car tops at "
                           f"y = {CAR_TOP_Y0} + {LANE_SPACING} i); the top five drive left, the "
                           f"bottom five right"),
        Signal("player_score", lambda ram: bcd(ram[SCORE]), jax_signal("player_score"), 0, "points",
               f"BCD ram[{SCORE}], {OCATARI}", description="crossings made by the agent's chicken"),
        Signal("timer", timer, jax_signal("timer"), 0, "frames",
               f"{GAME_FRAMES} - (256*ram[{PERIODS}] + ram[{PERIOD_FRAME}]), {MEASURED}",
               description=f"frames left until the game ends ({GAME_FRAMES} at reset, 0 at game over)"),
    ]


def observation_fields(rams: np.ndarray) -> dict[str, np.ndarray]:
    """The JAX state fields ``Freeway.observation`` reads, for a batch of RAM snapshots (N, 128)
    (see alignment.reference.features). RAM cannot tell the hurt pose on the frame a hit's count
    reaches 0 (the byte is already clear): that one frame per hit shows the walking pose."""
    r = np.asarray(rams).astype(np.int32)
    frame = FRAMES_PER_PERIOD * r[:, PERIODS] + r[:, PERIOD_FRAME]
    wait = r[:, WAIT]
    count = wait & WAIT_COUNT
    # The digits latch the score on odd frames, so they lag a crossing by one or two frames: on the
    # crossing frame (count still cross_wait, or one less after an even frame's tick) and on the
    # next frame when that one is even.
    full = FreewayConstants().cross_wait
    lagging = ((wait & WAIT_CROSSING) != 0) & ((count == full) | ((count == full - 1) & (frame % 2 == 0)))
    score = (r[:, SCORE] >> 4) * 10 + (r[:, SCORE] & 0x0F)
    return {
        "frame": frame,
        "climb": r[:, CLIMB],
        "car_x": r[:, CARS_BOTTOM_LANE_FIRST][:, ::-1],  # lanes top to bottom, as the state
        "hurt_pose": ((wait & WAIT_HIT) != 0) & (count > 0),
        "shown_score": np.where(lagging, score - 1, score),
    }


# A car byte of 0 is the JAX mod's parked car (screen x -3, under the HMOVE bar at the left edge);
# holding every car byte there plays like stop_cars on every catalog signal (tests/test_backends.py),
# but not on the screen: the write lands after the frame, so the cartridge has already drawn each
# car where its move of that frame took it (the audit of the modified game compares screens).
ALE_MODS = {
    "stop_cars": AleCounterpart(
        tuple(RamWrite(a, 0) for a in range(CARS_BOTTOM_LANE_FIRST.start, CARS_BOTTOM_LANE_FIRST.stop)),
        exact=False,
        measured="python -m alignment.counterparts freeway stop_cars --games 2 (2026-12-04, ale-py "
                 "0.12.1): 2 whole games of random held actions, 16,384 frames, every catalog "
                 "signal and the reward equal every frame; the screens compared by `jaxtari-align "
                 "audit freeway --mods stop_cars` (audits/freeway+stop_cars.md)",
        differs="the screen only: the parked cars' pixels at the right edge (columns 156-159, "
                "every lane) are 1 px off the JAX mod's from frame 4 after reset (ALE draws each "
                "car after the cartridge's move of that frame; the RAM write puts it back after "
                "the frame); every catalog signal and the reward equal over 16,384 frames"),
}
JAX_ONLY_MODS = {
    "all_black_cars": "car colours are cartridge data (ROM), not RAM",
    "rectangles": "the chicken's and the cars' shapes and colours are cartridge data (ROM), not "
                  "RAM: no RAM write draws a rectangle, and no colour-only counterpart exists "
                  "either (all_black_cars: the car colours are ROM too)",
    "invincible": "a hit comes from the console's collision latches, not a RAM byte",
    "hit_penalty": "a reward-only change: ALE's reward is the score difference it reads from RAM",
}
