"""The frame's clock and the screen's status: pauses, sinking, freezing, the igloo's tally, a lost
life, a finished level, game over and the attract countdown that follows it.

Each function takes the state and ``go`` (whether the game logic still runs this frame) and returns
the new state and what is left of ``go``.
"""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.frostbite.logic.cartridge import add_points
from jaxtari.games.frostbite.constants import (
    ANIM_SINK, ATTRACT_DELAY, ATTRACT_TICK, F_DEAD, F_FREEZE, F_LEVEL, F_SINK, F_TALLY,
    HOLD_AFTER_SINK, HOLD_BLOCK, HOLD_DEGREE, HOLD_LEVEL_END, HOLD_SINK_STEP, LAST_PAYING_LEVEL,
    LEVEL_POINTS, SINK_LINES,
)
from jaxtari.games.frostbite.state import new_screen


def level_points(level_index):
    """Points for a block or a degree: 10 x the level, from level 9 on 90."""
    return jnp.minimum(level_index + 1, LAST_PAYING_LEVEL) * LEVEL_POINTS  # rule: scoring.ice-block, scoring.degree-bonus, scoring.constant-after-9, scoring.igloo-entry


def next_frame(s):
    """The frame counter advances; after game over the cartridge counts ram[70] down every 8
    frames and then starts its demo (never ending the game for ALE: the demo's Baileys are
    ram[76] = 3)."""
    s = s.replace(fc=(s.fc + 1) & 0xFF)
    tick = s.game_over & ~s.demo & ((s.fc & (ATTRACT_TICK - 1)) == 0) & (s.attract_delay > 0)
    delay = jnp.where(tick, s.attract_delay - 1, s.attract_delay)
    return s.replace(attract_delay=delay, demo=s.demo | (tick & (delay == 0)))


def pause(s):
    """While ram[103] counts down (and after game over) the game logic rests. A Bailey pushed to
    x = 0 starts sinking; the landing's hold on whitening the rows runs out."""
    paused = s.hold != 0
    s = s.replace(hold=jnp.where(paused, s.hold - 1, s.hold))
    go = ~paused & ~s.game_over
    s = s.replace(flags=jnp.where(go & (s.flags == 0) & (s.x == 0), F_SINK, s.flags),
                  white_hold=jnp.where(go & (s.white_hold > 0), s.white_hold - 1, s.white_hold))
    return s, go


def screen_status(consts, s, go):
    """One of the screen's states runs instead of the game (ram[113], first set bit wins): Bailey
    sinks or freezes a line every 5 frames, the igloo is tallied block by block and degree by
    degree, a lost life or a finished level starts a new screen, the last life ends the game."""
    f = s.flags
    sinking = go & ((f & F_SINK) != 0)
    tally = go & ~sinking & ((f & F_TALLY) != 0)
    dead = go & ~sinking & ~tally & ((f & F_DEAD) != 0)
    freezing = go & ~sinking & ~tally & ~dead & ((f & F_FREEZE) != 0)
    done = go & ~sinking & ~tally & ~dead & ~freezing & ((f & F_LEVEL) != 0)

    sink_more = sinking & (s.sink < SINK_LINES)
    sink_end = sinking & ~sink_more
    t_block = tally & (s.blocks >= 0)  # rule: scoring.igloo-entry
    t_end = tally & ~t_block & (s.temperature == 0)
    t_degree = tally & ~t_block & ~t_end  # rule: scoring.degree-bonus
    frz_end = freezing & (s.frozen + 1 == SINK_LINES)
    score, lives = add_points(s.score, s.lives, level_points(s.level_index), consts.max_lives)
    add_tally = t_block | t_degree
    over = dead & (s.lives == 0)
    sink_anim = ANIM_SINK + ((s.fc & 8) == 0).astype(jnp.int32)
    s = s.replace(
        anim=jnp.where(sink_more | freezing, sink_anim, s.anim),
        sink=jnp.where(sink_more, s.sink + 1, s.sink),
        frozen=jnp.where(freezing, s.frozen + 1, s.frozen),
        blocks=jnp.where(t_block, s.blocks - 1, s.blocks),
        temperature=jnp.where(t_degree, s.temperature - 1, s.temperature),
        fish_eaten=jnp.where(t_end, 0, s.fish_eaten),
        score=jnp.where(add_tally, score, s.score), lives=jnp.where(add_tally, lives, s.lives),
        hold=jnp.select([sink_more | (freezing & ~frz_end), sink_end | frz_end, t_block, t_degree, t_end],
                        [HOLD_SINK_STEP, HOLD_AFTER_SINK, HOLD_BLOCK, HOLD_DEGREE, HOLD_LEVEL_END], s.hold),
        flags=jnp.select([sink_end | frz_end, t_end, over], [F_DEAD, F_LEVEL, 0], s.flags),
        game_over=s.game_over | over,
        attract_delay=jnp.where(over, ATTRACT_DELAY, s.attract_delay),
    )
    s = s.replace(lives=jnp.where(dead & ~over, s.lives - 1, s.lives),  # rule: lives.ways-to-lose
                  level_index=jnp.where(done, s.level_index + 1, s.level_index))  # rule: progression.shifts
    s = new_screen(consts, s, (dead & ~over) | done)
    return s, go & ~(sinking | tally | dead | freezing | done)
