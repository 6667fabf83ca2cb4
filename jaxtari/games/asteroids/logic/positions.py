"""The cartridge's one-pixel moves of a horizontal position code (see constants.FINE_PIXELS).

A move east or west looks the code up in a 256-entry ROM table (disassembly
EastMovementHorizPosTable / WestMovementHorizPosTable): nearly every entry is the code one fine
step on (16 less going east, 16 more going west, modulo 256); rows no position reaches are 0, and
a handful of entries jump to another coarse position where the fine value runs out. The tables
are built here from that rule and its exceptions; tests/games/test_asteroids_ship.py finds both,
byte for byte, in the ROM ale-py ships.

Around pixels 13 and 14 two codes share a pixel each (0x65 and 0x93 draw at 13, 0x55 and 0x83 at
14), and the tables pass through them: from 0x83 (14) one step east leads to 0x65 (13) and one
step west from 0x65 leads to 0x83 (14). A JAX position therefore keeps the code, as the RAM does,
and moves it through these tables.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from .onehot import by_platform

FINE_STEP = 0x10
UNUSED_ROW = 0x70  # codes 0x70..0x7F: a fine value of 7 no position has
CODES = 256


def _table(step: int, jumps: dict[int, int]) -> np.ndarray:
    table = (np.arange(256) + step) % 256
    table[UNUSED_ROW:UNUSED_ROW + 0x10] = 0
    for code, target in jumps.items():
        table[code] = target
    return table.astype(np.int32)


# Going east from a code whose fine value is exhausted (row 0x80) jumps to the next coarse
# position (0x8A, pixel 159, wraps to 0x63, pixel 0); 0xA3 (pixel 15) goes to the shared 0x65;
# 0x8E, 0x8F are never reached.
_EAST_JUMPS = {0x80 + i: 0x62 + i for i in range(10)}
_EAST_JUMPS.update({0x8A: 0x63, 0x8B: 0x6D, 0x8C: 0x6E, 0x8D: 0x32, 0x8E: 0, 0x8F: 0, 0xA3: 0x65})
# Going west from row 0x60 jumps back into row 0x80; 0x60..0x62 are never reached.
_WEST_JUMPS = {0x32: 0x8D, 0x60: 0, 0x61: 0, 0x62: 0, 0x63: 0x8A}
_WEST_JUMPS.update({0x64 + i: 0x82 + i for i in range(12)})

EAST = _table(-FINE_STEP, _EAST_JUMPS)
WEST = _table(FINE_STEP, _WEST_JUMPS)

# The asteroids move through the same kind of rule in another routine (disassembly
# MoveObjectHorizontally with its East/WestTravelingObjectHorizAdjustment tables). It agrees with
# the ship's tables on every code an asteroid reaches except the shared-pixel codes and one coarse
# edge: going east 0x83 falls through its table's empty entry into the westward sum (0x92) and
# 0x8C does the same (0x9B); going west 0x65 lands on 0xA3 and 0x6C reads an empty entry (0).
_ASTEROID_EAST_DIFFERS = {0x83: 0x92, 0x8C: 0x9B}
_ASTEROID_WEST_DIFFERS = {0x65: 0xA3, 0x6C: 0x00}
ASTEROID_EAST = EAST.copy()
ASTEROID_WEST = WEST.copy()
for _code, _target in _ASTEROID_EAST_DIFFERS.items():
    ASTEROID_EAST[_code] = _target
for _code, _target in _ASTEROID_WEST_DIFFERS.items():
    ASTEROID_WEST[_code] = _target


class Moves(NamedTuple):
    """A pair of move tables (256 codes each) and where they break the one-fine-step rule: the
    keys (the code going east, the code + 256 going west) and the codes they lead to instead."""
    east: np.ndarray
    west: np.ndarray
    keys: np.ndarray
    targets: np.ndarray


def _moves(east: np.ndarray, west: np.ndarray) -> Moves:
    codes = np.arange(CODES)
    rule = np.concatenate([(codes - FINE_STEP) % CODES, (codes + FINE_STEP) % CODES])
    table = np.concatenate([east, west])
    keys = np.flatnonzero(table != rule)
    return Moves(east, west, keys.astype(np.int32), table[keys].astype(np.int32))


SHIP_MOVES = _moves(EAST, WEST)
ASTEROID_MOVES = _moves(ASTEROID_EAST, ASTEROID_WEST)


def one_pixel_by_table(code, west, moves: Moves):
    """:func:`one_pixel` as the cartridge does it, a lookup in the 256-entry table (the CPU's
    form)."""
    code = jnp.asarray(code)
    return jnp.where(west, jnp.asarray(moves.west)[code], jnp.asarray(moves.east)[code])


def one_pixel_by_rule(code, west, moves: Moves):
    """:func:`one_pixel` as the rule, then the few codes that break it, by compares (the
    accelerator's form: a table lookup is a gather per env under ``vmap``, issue 45)."""
    code = jnp.asarray(code)
    west = jnp.asarray(west)
    hits = (code + jnp.where(west, CODES, 0))[..., None] == moves.keys
    rule = (code + jnp.where(west, FINE_STEP, -FINE_STEP)) % CODES
    return jnp.where(hits.any(-1), jnp.sum(jnp.where(hits, moves.targets, 0), -1, dtype=code.dtype),
                     rule)


def one_pixel(code, west, moves: Moves):
    """``code`` (0..255, any shape) moved one pixel, west where ``west``, through the move tables
    ``moves`` (``SHIP_MOVES`` or ``ASTEROID_MOVES``), in the form the platform runs well."""
    return by_platform(functools.partial(one_pixel_by_table, moves=moves),
                       functools.partial(one_pixel_by_rule, moves=moves), code, west)
