"""What Asteroids shows a player: its objects (boxes in screen pixels) and its signals (the RAM view
the ground truth reads), computed from the state, in the shape of the registered games' objects.py
(``objects(game, state)``, ``signals(game, state)``, which ``Asteroids.objects`` and
``Asteroids.signals`` call; nothing here reads ``game``: the boxes depend on no Constants field).

Objects exist whether or not this frame draws them: the cartridge shows the asteroids on one frame
and the ship and its shots on the next (draw.py), and an asteroid whose list is busy drawing
another one is left out of that frame's picture; the features say what is in play all the same.
An asteroid crossing the top or bottom edge is listed twice (its copy 89 steps away, field.py):
the pair is one object, at the copy above the top (negative y), its box running off the top of
the play area and wrapping, as the picture does, onto the bottom (``PLAY_LINES`` further down),
as the x of every box wraps at 160."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from jaxtari.env import ObjectGroup

from . import art, draw
from . import constants as c
from .logic import field
from .logic.onehot import take

PLAY_LINES = art.PLAY_LINES      # the vertical wrap of a box (2 lines per kernel row)
SHIP_W, SHIP_H = 8, 2 * c.SHIP_HEIGHT
SHOT_W = 1
SIZES = {c.SIZE_LARGE: 0, c.SIZE_MEDIUM: 1, c.SIZE_SMALL: 2}   # the asteroids' ``size`` attribute
_SIZE_OF_KIND = np.asarray([SIZES[s] for s in c.SIZE_OF_KIND], np.int32)
# the kernel's first line of sprite row 0 of an asteroid at y (2 lines a row; the row is drawn two
# kernel rows after the one equal to y): up list 2y + 22, down list 2y + 23
ROW0_LINE = (draw.UP_ROW_LINE + 4, draw.DOWN_ROW_LINE + 4)


def _kind_boxes() -> np.ndarray:
    """(kinds, 4): per kind (attribute bits 4-6) the lit pixels' box relative to the kernel's
    position of row 0 and the asteroid's row-0 line: left, width, top, height."""
    out = np.zeros((art.ASTEROID_KINDS, 4), np.int32)
    for kind in range(art.ASTEROID_KINDS):
        scale = 2 if kind < art.ASTEROID_DOUBLE_KINDS else 1
        x, cols, rows = 0, [], []
        for r in range(draw._ROWS[kind]):
            x -= int(draw._ROW_MOVES[kind, r])
            byte = int(draw._SPRITE_BYTES[kind, r])
            for b in range(draw.SPRITE_BITS):
                if byte >> (draw.SPRITE_BITS - 1 - b) & 1:
                    cols += [x + scale * b, x + scale * b + scale - 1]
                    rows.append(r)
        out[kind] = (min(cols), max(cols) - min(cols) + 1, 2 * min(rows),
                     2 * (max(rows) - min(rows) + 1))
    return out


_BOXES = _kind_boxes()


def _signed(byte):
    return jnp.where(byte >= draw.SIGNED_FROM, byte - draw.BYTE, byte)


def asteroid_slots(memory):
    """Per field slot (18, up list then down list): whether it holds an asteroid object (listed,
    and not the bottom half of an edge pair), the y it stands at (signed) and its code and
    attributes. Works on one field or a stack of them (leading axes)."""
    memory = jnp.asarray(memory, jnp.int32)
    ys = memory[..., field.Y0:field.Y0 + c.FIELD_SLOTS]
    codes = memory[..., field.X0:field.X0 + c.FIELD_SLOTS]
    attributes = memory[..., field.A0:field.A0 + c.FIELD_SLOTS]
    listed, merged = [], []
    for first in (c.UP_FIRST, c.DOWN_FIRST):
        part = slice(first, first + c.LIST_SLOTS)
        on = jnp.cumprod((ys[..., part] != c.OFF_SCREEN_Y).astype(jnp.int32), axis=-1) == 1
        last = jnp.maximum(on.sum(-1) - 1, 0)                         # the list's last slot
        top_y = ys[..., first]
        above = on[..., 0] & (top_y >= draw.SIGNED_FROM) & (last > 0)

        is_last = jnp.arange(c.LIST_SLOTS) == last[..., None]

        def at(a):
            return jnp.sum(jnp.where(is_last, a[..., part], 0), axis=-1)

        # the bottom half of a pair: the list's last asteroid, 89 steps below the one above the top
        pair = above & (((at(ys) - c.PLAY_HEIGHT) & field.BYTE) == top_y) \
            & (at(codes) == codes[..., first]) & (at(attributes) == attributes[..., first])
        listed.append(on)
        merged.append(pair[..., None] & is_last)
    active = jnp.concatenate(listed, -1) & ~jnp.concatenate(merged, -1)
    return active, _signed(ys), codes, attributes


def _points(score):
    """The BCD score bytes (thousands; hundreds and tens) in points (as game.score reads them)."""
    digits = [(score[..., i] >> draw.NIBBLE, score[..., i] & draw.NIBBLE_MASK) for i in range(2)]
    tens = ((digits[0][0] * 10 + digits[0][1]) * 100 + digits[1][0] * 10 + digits[1][1])
    return tens * c.SCORE_UNIT


def objects(game, state):
    """The ship, its two shots and every asteroid (18 slots, the field's: up list then down list;
    an edge pair's bottom slot inactive), as boxes of the pixels the picture lights for them."""
    s = state.ship
    shown = s.y != c.OFF_SCREEN_Y
    edge = jnp.where((s.x_code & draw.NIBBLE_MASK) == art.EDGE_COARSE, art.EDGE_SHOT_DX, 0)
    ship_x = (draw.pixel(s.x_code) + art.SHIP_DX + edge) % c.SCREEN_WIDTH
    ship_y = art.SHIP_TOP + 2 * _signed(s.y) + (s.subpixel[..., 1] >= art.SUBPIXEL_HALF)
    shots = [draw.shot_place(s, i) for i in range(c.MAX_SHOTS)]
    shot_x = jnp.stack([x for x, _ in shots], -1)
    shot_top = jnp.stack([top for _, top in shots], -1)

    active, ys, codes, attributes = asteroid_slots(state.field.memory)
    kind = (attributes >> c.ATTR_TYPE_SHIFT) & c.ATTR_TYPE_MASK
    box = take(_BOXES, kind)
    double = kind < art.ASTEROID_DOUBLE_KINDS
    left = draw.strobe_pixel(codes) - draw._hm_signed(codes >> draw.NIBBLE) \
        + jnp.where(double, draw.DOUBLE_OFFSET, draw.RESP_OFFSET)
    down = jnp.arange(c.FIELD_SLOTS) >= c.DOWN_FIRST
    row0 = 2 * ys + jnp.where(down, ROW0_LINE[1], ROW0_LINE[0])
    return {
        "ship": ObjectGroup.make(ship_x, ship_y, SHIP_W, SHIP_H, shown, rotation=s.rotation,
                                 exploding=state.player.feature_timer > c.EXPLODING),
        "shots": ObjectGroup.make(shot_x, shot_top, SHOT_W, art.SHOT_LINES,
                                  s.shot_y != c.OFF_SCREEN_Y),
        "asteroids": ObjectGroup.make((left + box[:, 0]) % c.SCREEN_WIDTH, row0 + box[:, 2],
                                      box[:, 1], box[:, 3], active,
                                      size=take(_SIZE_OF_KIND, kind & c.ATTR_SIZE_MASK),
                                      hit=(attributes & c.ATTR_HIT) != 0,
                                      colour=attributes & c.ATTR_COLOUR_MASK, drifts_down=down),
    }


def signals(game, state):
    """The ground truth's view (alignment/reference/games/asteroids/ram.py): the ship (its collision pixel
    column, its y byte, heading, on screen), both shots, every asteroid object (field slots, edge
    pairs merged as in ``objects``; x the collision pixel column, y signed kernel rows), lives and
    the score in points."""
    s = state.ship
    active, ys, codes, attributes = asteroid_slots(state.field.memory)
    return {
        "ship_x": draw.pixel(s.x_code), "ship_y": s.y, "ship_rotation": s.rotation,
        "ship_visible": (s.y != c.OFF_SCREEN_Y).astype(jnp.int32),
        "shot_x": draw.pixel(s.shot_x), "shot_y": s.shot_y,
        "shot_active": (s.shot_y != c.OFF_SCREEN_Y).astype(jnp.int32),
        "asteroid_active": active.astype(jnp.int32),
        "asteroid_x": jnp.where(active, draw.pixel(codes), 0),
        "asteroid_y": jnp.where(active, ys, 0),
        "asteroid_size": jnp.where(active, take(
            _SIZE_OF_KIND, (attributes >> c.ATTR_TYPE_SHIFT) & c.ATTR_SIZE_MASK), 0),
        "asteroid_hit": jnp.where(active, (attributes & c.ATTR_HIT) != 0, False).astype(jnp.int32),
        "lives": state.player.lives, "score": _points(state.player.score),
    }
