"""Pong's state: each field keeps the ROM's own byte convention, so it compares 1:1 with RAM."""

from __future__ import annotations

import jax

from jaxtari.env import pytree_dataclass


@pytree_dataclass
class PongState:
    frame: jax.Array  # frames since reset
    key: jax.Array  # unused by the game (it has no randomness) but carried, as every state does
    pot: jax.Array  # the agent's paddle resistance (ohm), ALE's paddle emulation
    pot_average: jax.Array  # RAM 60: the ROM's averaged pot reading
    player_y: jax.Array  # RAM 51
    enemy_y: jax.Array  # RAM 50 (= RAM 21, the computer's target)
    ball_x: jax.Array  # RAM 49
    ball_y: jax.Array  # RAM 54 (0 while the ball is hidden)
    ball_dx: jax.Array  # RAM 58, signed: x -= dx every frame
    ball_dy: jax.Array  # RAM 56, signed: y += dy every frame
    player_score: jax.Array  # RAM 14
    enemy_score: jax.Array  # RAM 13
    shown_player: jax.Array  # the scores drawn this frame: the digits the last frame built
    shown_enemy: jax.Array
    built_player: jax.Array  # the digits this frame's logic built from the score bytes as it
    built_enemy: jax.Array  # left them (before any RAM write after the frame), drawn next frame
    countdown: jax.Array  # RAM 11: frames until the serve (0 while the ball is in play)
    clock: jax.Array  # RAM 8: the ROM's frame counter, mod 256
    fire_held: jax.Array  # the agent's button as the ROM latched it on the last frame
    serve_dx: jax.Array  # dx of the next serve: +1 towards the computer (RAM 18's last scorer)
    timer: jax.Array  # RAM 9: the frame counter's high byte; its wrap to 0 stops the game
    attract: jax.Array  # RAM 10: counts the counter's wraps once stopped (0 in play but on a wrap)
    stopped: jax.Array  # RAM 16 == 0: the game stopped by the timer (the select display)
    shown_attract: jax.Array  # RAM 10 as the last frame's logic read it when it wrote the
    # colours this frame's picture shows (0 while in play): the attract cycle drawn

