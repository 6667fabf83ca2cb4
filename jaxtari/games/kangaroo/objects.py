"""What Kangaroo's Game reports besides the picture: the objects as the boxes the picture draws
them in (:func:`objects`) and the signals the comparisons read (:func:`signals`), each from the
state and the game's Constants."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.env import ObjectGroup
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic.cpu import table  # no gathers: issue 45


def objects(game, state):
    """Every object as the box the picture draws it in (:mod:`.draw`; the reference's RAM
    decoding, alignment/reference/games/kangaroo/ram.py, reads the same boxes and both are checked on
    ALE: tests/games/test_kangaroo_render.py): the mother's sprite (8 wide, her pose's rows
    tall), the monkeys' (8 x 15 from their second line), the apples in flight (missile 0: 2 x 3
    on lines 5-7 of the row above their own, x + 14; a slot's apple not yet let go is not drawn), the coconut (the ball: 2 x 3 on lines 5-7 of its
    row), the fruit and the bell (8 x 16 from their row's first line, x + 15). The boxes are
    of the state (the end of the frame); the picture of the next frame draws them there."""
    c = game.consts
    playing = (state.attract & k.SIGN) == 0
    height = table(c.pose_height, state.pose & k.POSE_FRAME)
    monkeys = state.monkey_row < k.MONKEY_HELD_OFF
    level = jnp.asarray(state.level)
    fruit_at = level[..., None] + k.FRUIT_STRIDE * jnp.arange(3)
    apple_on = ((state.apple_row != k.MONKEY_EMPTY)
                & ((state.apple_flags[..., :k.APPLE_SLOTS] & k.SIGN) == 0) & playing)
    coconut_on = (state.coconut_row != k.COCONUT_NONE) & playing
    fruit_on = ((state.fruit & k.FRUIT_GONE) == 0) & playing
    bell_on = (state.bell != k.BELL_GONE) & playing
    coconut_row = state.coconut_row - table(c.layout_row_base, level)
    return {
        "player": ObjectGroup.make(state.mother_x + k.MOTHER_X_OFFSET,
                                   state.mother_row * k.ROW_LINES + k.MOTHER_Y_OFFSET,
                                   k.SPRITE_WIDTH, height * k.ROW_LINES, playing,
                                   pose=state.pose),
        "monkeys": ObjectGroup.make(state.monkey_x + k.MONKEY_X_OFFSET,
                                    state.monkey_row * k.ROW_LINES + k.MONKEY_Y_OFFSET,
                                    k.SPRITE_WIDTH, k.MONKEY_LINES, monkeys & playing),
        "apples": ObjectGroup.make(
            jnp.where(apple_on, state.apple_x + k.APPLE_X_OFFSET, 0),
            jnp.where(apple_on, (state.apple_row - 1) * k.ROW_LINES + k.MOTHER_Y_OFFSET
                      + k.MISSILE_TOP, 0), k.APPLE_WIDTH, k.MISSILE_LINES, apple_on),
        "coconut": ObjectGroup.make(
            jnp.where(coconut_on, state.coconut_x + k.APPLE_X_OFFSET, 0),
            jnp.where(coconut_on, coconut_row * k.ROW_LINES + k.MOTHER_Y_OFFSET
                      + k.MISSILE_TOP, 0), k.APPLE_WIDTH, k.MISSILE_LINES, coconut_on),
        "fruit": ObjectGroup.make(
            jnp.where(fruit_on, table(c.fruit_x, fruit_at) + k.MOTHER_X_OFFSET, 0),
            jnp.where(fruit_on, table(c.fruit_row, fruit_at) * k.ROW_LINES
                      + k.MOTHER_Y_OFFSET, 0), k.SPRITE_WIDTH, k.ITEM_LINES, fruit_on,
            kind=state.fruit & k.FRUIT_KIND),
        "bell": ObjectGroup.make(
            jnp.where(bell_on, table(c.bell_x, level) + k.MOTHER_X_OFFSET, 0),
            jnp.where(bell_on, c.bell_row * k.ROW_LINES + k.MOTHER_Y_OFFSET, 0),
            k.SPRITE_WIDTH, k.ITEM_LINES, bell_on),
    }

def signals(game, state):
    """The signals of alignment/reference/games/kangaroo/ram.py, decoded from the state as the reference
    decodes them from RAM (the same offsets: sprites' left x and top line)."""
    c = game.consts
    row = state.mother_row
    monkeys = state.monkey_row < k.MONKEY_HELD_OFF
    timer = state.timer

    def digit(d):
        return jnp.where(d == k.BLANK_DIGIT, 0, d)

    return {
        "mother_x": state.mother_x + k.MOTHER_X_OFFSET,
        "mother_y": row * k.ROW_LINES + k.MOTHER_Y_OFFSET,
        "mother_floor": jnp.clip((c.start_row - row) // k.ROWS_PER_FLOOR, 0, k.FLOORS - 1),
        "mother_pose": state.pose,
        "monkeys_active": monkeys[..., ::-1],
        "monkey_x": jnp.where(monkeys, state.monkey_x + k.MONKEY_X_OFFSET, 0)[..., ::-1],
        "monkey_y": jnp.where(monkeys, state.monkey_row * k.ROW_LINES + k.MONKEY_Y_OFFSET, 0)[..., ::-1],
        "thrown_active": state.apple_row != k.MONKEY_EMPTY,
        "coconut_active": state.coconut_row != k.COCONUT_NONE,
        "coconut_x": state.coconut_x,
        "fruit_present": (state.fruit & k.FRUIT_GONE) == 0,
        "bell_present": state.bell != k.BELL_GONE,
        "timer": digit(timer >> 4) * 10 + digit(timer & 0xF),
        "level": state.level,
    }
