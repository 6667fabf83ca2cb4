"""Breakout's ground truth: the paddle, the ball, the bricks, the hit count, the shrink flag.

Addresses: OCAtari's Breakout RAM extractor (k4ntz/OC_Atari, ocatari/ram/breakout.py) for the paddle
(ram[72]), the ball (ram[99] x, ram[101] y) and the wall (ram[0..35], the playfield bytes of the six
brick rows); the hit count (ram[107]) and the top-wall flag (ram[97]) and the byte layout of the wall
were read off a disassembly of the cartridge and measured here on ale-py 0.12.1. ALE itself reads
the balls left (lives) from ram[57] and the score from ram[76..77] (BCD). The screen offsets and the
wall layout are the JAX game's constants (one home: :mod:`jaxtari.games.breakout.constants` and
``.geometry``), measured there on ALE frames; tests/reference/test_breakout_ground_truth.py re-checks
every address on the emulator.
"""

from __future__ import annotations

import numpy as np

from jaxtari.games.breakout import constants as k
from jaxtari.games.breakout.logic import geometry as g

from alignment.signals import (
    MEASURED, OCATARI, AleCounterpart, Poke, RamWrite, Signal, bcd_bytes, jax_signal, ram_byte,
)

WALL = slice(0, 36)  # playfield bytes: ram[base + 5 - row], bases in constants.COLUMN_BASE
LIVES = 57
PADDLE_X = 72
SCORE = (76, 77)  # BCD, hundreds then tens/ones
TOP_WALL_FLAG = 97  # bit 7 once the ball reached the top wall with this ball (the paddle shrinks)
BALL_X = 99
BALL_Y = 101
HITS = 107  # bits 0..5: the hit count (paddle hits up to 12; 16 after a brick of the top three rows)

BALL_Y_OFFSET = g.BALL_SECTIONS[-1][1]  # screen top line = ram[101] + 9 (below the wall)


def bricks_per_row(ram) -> np.ndarray:
    """(6,) standing bricks in each row, top row first, from the wall bytes."""
    ram = np.asarray(ram)
    rows = np.arange(k.NUM_ROWS)[:, None]
    byte = np.asarray(k.COLUMN_BASE)[None, :] + 5 - rows
    cleared = np.asarray(k.COLUMN_MASKS)[None, :]
    return ((ram[byte] & (0xFF ^ cleared)) != 0).sum(axis=1).astype(np.int64)


def observation_fields(rams: np.ndarray) -> dict[str, np.ndarray]:
    """The JAX state fields ``Breakout.observation`` reads, for a batch of RAM snapshots (N, 128):
    the state mirrors the cartridge's RAM, so each is its bytes (see alignment.reference.features)."""
    r = np.asarray(rams).astype(np.int32)
    return {"paddle_x": r[:, PADDLE_X], "ball_x": r[:, BALL_X] << 8 | r[:, BALL_X + 1],
            "ball_y": r[:, BALL_Y] << 8 | r[:, BALL_Y + 1], "shrunk": (r[:, TOP_WALL_FLAG] & 0x80) != 0,
            "bricks": r[:, WALL],
            # the line the ball last moved to: its y (RAM cannot tell a ball held in a catch game)
            "moved_y": r[:, BALL_Y]}


def signals() -> list[Signal]:
    return [
        Signal("paddle_x", ram_byte(PADDLE_X, -g.PADDLE_X_OFFSET), jax_signal("paddle_x"), 0, "px",
               f"ram[{PADDLE_X}]-{g.PADDLE_X_OFFSET}; address {OCATARI}, offset {MEASURED}",
               description="paddle left x (16 px wide, 12 once shrunk; 12/8 at difficulty 1), "
                           "lines 189..192"),
        Signal("ball_x", ram_byte(BALL_X, -g.BALL_X_OFFSET), jax_signal("ball_x"), 0, "px",
               f"ram[{BALL_X}]-{g.BALL_X_OFFSET}; address {OCATARI}, offset {MEASURED}",
               description="ball left x (2 px wide)"),
        Signal("ball_y", ram_byte(BALL_Y, BALL_Y_OFFSET), jax_signal("ball_y"), 0, "px",
               f"ram[{BALL_Y}]+{BALL_Y_OFFSET}; address {OCATARI}, offset {MEASURED}",
               description="ball top line below the wall (one and two lines higher in the wall's "
                           "and the top wall's lines); 9 while no ball is in play"),
        Signal("bricks_per_row", bricks_per_row, jax_signal("bricks_per_row"), 0, "bricks",
               f"ram[0..35] (wall bytes {OCATARI}; the bit of each brick {MEASURED})",
               shape=(k.NUM_ROWS,),
               description="standing bricks per row, top row (7 points) first; 18 per full row"),
        Signal("hit_count", lambda ram: int(ram[HITS]) & 0x3F, jax_signal("hit_count"), 0, "hits",
               f"ram[{HITS}] & 63, {MEASURED}",
               description="paddle hits of this ball up to 12, 16 after a brick of the top three "
                           "rows; sets the ball's speed"),
        Signal("paddle_shrunk", lambda ram: bool(ram[TOP_WALL_FLAG] & 0x80),
               jax_signal("paddle_shrunk"), 0, "bool", f"ram[{TOP_WALL_FLAG}] bit 7, {MEASURED}",
               description="the ball reached the top wall with this ball: the paddle is shrunk"),
    ]


BRICKS = k.NUM_ROWS * k.NUM_COLUMNS


def wall_bytes(standing: int) -> np.ndarray:
    """ram[0..35] of a wall whose first ``standing`` bricks stand, counted from the bottom row's
    left end along each row and up (0: no brick, 108: the full wall)."""
    wall = np.asarray(k.FULL_WALL, np.int64)
    for i in range(int(standing), BRICKS):
        row, col = k.NUM_ROWS - 1 - i // k.NUM_COLUMNS, i % k.NUM_COLUMNS
        wall[k.COLUMN_BASE[col] + 5 - row] &= k.COLUMN_MASKS[col]
    return wall


def _jax_score(state, value):
    import jax.numpy as jnp

    return state.replace(score=jnp.int32(value))


def _jax_bricks(state, value):
    import jax.numpy as jnp

    return state.replace(bricks=jnp.asarray(wall_bytes(value), jnp.int32))


def pokes() -> list[Poke]:
    # ram[94] (the wall's build state) counts the start-up animation down from 0xE4 over the first
    # 37 frames after reset, which redraws the wall row by row on ALE; the JAX game keeps the
    # bricks and refills them at its end (the same picture from a full wall). A written wall
    # differs during it (measured: a poke at frame 30 shows on ALE's rows, not on JAX's).
    rebuilt = 37
    return [
        # ALE reads three digits: the low nibble of ram[76] and both of ram[77]
        Poke("score", 0, 999, lambda v: bcd_bytes(v, SCORE), _jax_score,
             f"BCD ram[76..77] (ALE's Breakout score), {MEASURED}", score=True,
             description="the score (a paddle hit at 432 brings the second wall)"),
        Poke("bricks", 0, BRICKS, lambda v: dict(enumerate(int(b) for b in wall_bytes(v))),
             _jax_bricks, f"ram[0..35] (wall bytes {OCATARI}; the bit of each brick {MEASURED})",
             first_frame=rebuilt,
             description="how many bricks stand: the first N counted from the bottom row's left "
                         "end, along each row and up (0: none, 108: the full wall); written once "
                         "the start-up wall animation is over (frame 37)"),
    ]


SHRUNK_BIT = 0x80  # ram[TOP_WALL_FLAG]'s bit the paddle's width reads

# no_shrink: the shrink flag's bit cleared after every frame (a masked write: the byte's other bits
# are the cartridge's), so the paddle bounces, and from the next frame is drawn, at its unshrunk
# width; the JAX mod never sets that bit.
ALE_MODS = {
    "no_shrink": AleCounterpart(
        (RamWrite(TOP_WALL_FLAG, 0, mask=SHRUNK_BIT),), exact=False,
        measured="python -m alignment.counterparts breakout no_shrink (2026-12-05, ale-py 0.12.1): "
                 "10 whole games of random held actions (7,846 frames, seeds 0-9), and --policy "
                 "scripted, seeds 0-1, 65,535 frames each (no game ended; the cartridge set the "
                 "shrink bit on 1,353 frames, the top wall reached every ~14 frames at times): "
                 "every catalog signal and the reward equal every frame (at frame 65,536 the "
                 "cartridge's frame counter wraps and it stops the game, on both sides)",
        differs="the screen only: on each frame the ball reaches the top wall, ALE draws the paddle "
                "12 px wide (the cartridge sets the bit during the frame; the write clears it "
                "after), its right 4 px on lines 189-192; the JAX mod draws it 16 px"),
}
# Breakout's other mods are not one set of RAM writes:
JAX_ONLY_MODS = {
    "constant_speed": f"the speed is read from the hit count (ram[{HITS}]), which the JAX mod keeps "
                      f"counting; holding it would change what else reads it",
    "grey_bricks": "brick colours are cartridge data (ROM), not RAM",
}
