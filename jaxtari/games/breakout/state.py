"""Breakout's state: each field mirrors a RAM byte of the cartridge (named next to it), and the
state that mirrors a RAM snapshot (``state_from_ram``: a start reached on ALE)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import pytree_dataclass
from jaxtari.games.breakout import constants as k


@pytree_dataclass
class BreakoutState:
    frame: jax.Array        # frames since reset
    key: jax.Array          # carried as every state does (the cartridge has no randomness)
    pot: jax.Array          # the paddle's resistance (ohm), ALE's paddle emulation
    pot_reading: jax.Array  # ram[70], the kernel's reading of the pot on the last frame
    paddle_x: jax.Array     # ram[72]
    ball_x: jax.Array       # ram[99] << 8 | ram[100]
    ball_y: jax.Array       # ram[101] << 8 | ram[102]; ram[101] == 0: no ball in play
    ball_dx: jax.Array      # ram[105] << 8 | ram[106] (x -= dx each frame)
    ball_dy: jax.Array      # ram[103] << 8 | ram[104] (y += dy each frame)
    hits: jax.Array         # ram[107]: bits 0..5 hit count, bit 6 just hit the paddle, bit 7 a brick
    angle: jax.Array        # ram[109]: 0, or 2 for a hit near the paddle's middle
    shrunk: jax.Array       # ram[97] bit 7: the ball reached the top wall with this ball
    bricks: jax.Array       # ram[0..35], the playfield bytes of the wall (uint8 values, int32)
    wall: jax.Array         # ram[94]: the wall (re)build state
    lives: jax.Array        # ram[57], balls left
    score: jax.Array        # ram[76..77] as a number (BCD on the cartridge)
    clock: jax.Array        # ram[91] << 8 | ram[90], the frame counter
    active: jax.Array       # ram[52] bit 7: a game is being played
    sound: jax.Array        # ram[95]: the sound effect's timer (the invisible wall shows while set)
    last_paddle_x: jax.Array  # ram[117]: paddle x when steering last looked (steerable games)
    shown_score: jax.Array  # what this frame's digits show (latched by the last frame's overscan)
    shown_lives: jax.Array
    latched_score: jax.Array  # what the next frame's digits will show (latched by this frame's)
    latched_lives: jax.Array
    shown_select: jax.Array  # the digits show the select display (the game number; see draw)
    wall_lit: jax.Array     # invisible games: whether this frame's kernel shows the bricks
    moved_y: jax.Array      # ram[101] when the ball last moved: see geometry.held_lift


def state_from_ram(game, ram, *, pot: int, frame: int = 0, previous_ram=None,
                   key=None) -> BreakoutState:
    """The state that mirrors a RAM snapshot of the cartridge (128 bytes, ALE's ``getRAM``).

    What RAM does not hold is given: ``pot`` (ALE's paddle resistance, which the caller tracks from
    the actions), ``frame``, and ``previous_ram`` (the snapshot one frame earlier: the digits and the
    invisible wall of this frame's picture were set up from it; the same snapshot when omitted).
    Used to start the JAX game from a state reached on ALE (tests of deep states by RAM writes).
    """
    ram = np.asarray(ram, np.int64)
    prev = ram if previous_ram is None else np.asarray(previous_ram, np.int64)

    def word(hi, lo):
        return int(ram[hi]) << 8 | int(ram[lo])

    def score(r):
        return int(f"{int(r[76]):x}{int(r[77]):02x}")

    i32 = jnp.int32
    prev_sound = int(prev[95])
    return BreakoutState(
        frame=i32(frame), key=jax.random.key(0) if key is None else key, pot=i32(pot),
        pot_reading=i32(ram[70]), paddle_x=i32(ram[72]), ball_x=i32(word(99, 100)),
        ball_y=i32(word(101, 102)), ball_dx=i32(word(105, 106)), ball_dy=i32(word(103, 104)),
        hits=i32(ram[107]), angle=i32(ram[109]), shrunk=jnp.bool_(bool(ram[97] & 0x80)),
        bricks=jnp.asarray(ram[:36], jnp.int32), wall=i32(ram[94]), lives=i32(ram[57]),
        score=i32(score(ram)), clock=i32(word(91, 90)), active=jnp.bool_(bool(ram[52] & 0x80)),
        sound=i32(ram[95]), last_paddle_x=i32(ram[117]), shown_score=i32(score(prev)),
        shown_lives=i32(prev[57]), latched_score=i32(score(prev)), latched_lives=i32(prev[57]),
        shown_select=jnp.bool_(not prev[52] & 0x80 and prev[57] > 0),
        wall_lit=jnp.bool_(prev_sound != 0 and prev_sound & k.SOUND_KIND == 0),
        moved_y=i32(ram[101]),  # RAM cannot tell a held ball (catch games): taken as moved
    )
