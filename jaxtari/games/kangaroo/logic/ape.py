"""The big ape on the top floor and its coconut (bank 0, before the picture; not while the mother
waits). The ape walks right from the left edge, bobbing, until it is over the mother (or at the
right end), then drops the coconut, which falls a row per step and kills the mother if it meets
her head; it is gone at the bottom, and the ape starts again from the left."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic.cpu import BYTE, minus, table, where
from jaxtari.games.kangaroo.logic.events import add_points, die, start_tune


# rule: spawning.ape-first-coconut, lives.coconut-hits-mother, progression.mode-1-harder
def ape(c, s):
    base = table(c.layout_row_base, s.level)
    none = (s.coconut_state & k.SIGN) != 0
    # a new coconut: at once from difficulty 1, else on frame_count 0
    restart = none & ((s.difficulty != 0) | (s.frame_count == 0))
    s = s.replace(coconut_state=jnp.where(restart, 0, s.coconut_state),
                  coconut_x=jnp.where(restart, c.ape_start_x, s.coconut_x),
                  coconut_row=jnp.where(restart, (base + c.ape_start_row) & BYTE, s.coconut_row))
    tunes = (s.music_flags & k.BOTH_VOICES) != 0
    slow = s.difficulty < c.coconut_fast_difficulty
    acts = jnp.where(slow, (s.frame_count & c.coconut_slow_mask) == 0,
                     (s.walk_phase == 0) & ((s.frame_count & 1) == 0))
    state = s.coconut_state
    acts = acts & ~tunes & ((state & k.SIGN) == 0)
    falling = (state & k.COCONUT_FALLING) != 0
    # walking: drop once over the mother (x - 1 >= mother x) or at the right end
    over = ((s.coconut_x - 1) & BYTE) >= s.mother_x
    drop = over | (s.coconut_x == c.ape_last_x)
    walked = s.replace(
        coconut_x=(s.coconut_x + c.ape_step) & BYTE,
        coconut_row=(s.coconut_row + table(c.ape_bob, state & k.COCONUT_BOB_MASK)) & BYTE,
        coconut_state=((state + 1) & k.COCONUT_PHASE_WRAP))
    dropped = s.replace(coconut_state=state | k.COCONUT_FALLING)
    walking = where(drop, dropped, walked)
    # falling: the mother's head meets it, or a row further (gone past the bottom)
    borrow = s.coconut_row < base
    head = (s.coconut_row - base + jnp.where(borrow, 1, 2)) & BYTE
    x = s.coconut_x
    hit = (~minus(head, s.mother_row) & ~(((s.mother_row + 2) & BYTE) < head)
           & minus(s.mother_x, x) & ~minus((s.mother_x + c.coconut_reach) & BYTE, x))
    bottom = s.coconut_row == ((base + c.coconut_last_row) & BYTE)
    gone = hit | bottom
    fell = s.replace(coconut_row=jnp.where(gone, k.COCONUT_NONE, (s.coconut_row + 1) & BYTE),
                     coconut_state=jnp.where(gone, k.COCONUT_NONE, state))
    fell = die(c, fell, hit)
    moved = where(falling, fell, walking)
    s = where(acts, moved, s)
    # the round-won and start tunes take the coconut away
    off = tunes
    return s.replace(coconut_row=jnp.where(off, k.COCONUT_NONE, s.coconut_row),
                     coconut_state=jnp.where(off, k.COCONUT_NONE, s.coconut_state))


# rule: scoring.punch-coconut
def punched_coconut(c, s, hit):
    """The picture drew the glove over the coconut: it is gone, 200 points and the pickup tune."""
    s = s.replace(coconut_row=jnp.where(hit, k.COCONUT_NONE, s.coconut_row),
                  coconut_state=jnp.where(hit, k.COCONUT_NONE, s.coconut_state))
    s = start_tune(s, hit)
    return add_points(s, jnp.int32(c.coconut_punch_points), hit)
