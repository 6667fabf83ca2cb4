"""Where things are drawn on ALE's 210x160 screen (ALE: measured on getScreenRGB frames) and the
pixel collisions of the picture the cartridge reads one frame later (the TIA's collision latches).

Screen lines of the kernel's parts (ALE):

- score digits 5..14 (3x5 playfield glyphs, a cell 4 px wide and 2 lines tall);
- the top wall 17..31, full width (playfield);
- the side walls x 0..7 (left) and 152..159 (right) from line 17 to 195 (left) / 194 (right)
  (missiles 1 and 0, 8 px wide);
- the six brick rows at lines 57 + 6 r .. 62 + 6 r (playfield, 4 px a playfield pixel);
- the paddle on lines 189..192 at x = ram[72] - 47 (player 0 at quad width);
- the ball, 2 px wide, at x = ram[99] - 49, 4 lines tall from line ram[101] + 7 on the top wall's
  lines (hidden: same colour; seen through its collisions: ram[101] 9..24 hit the wall), from
  ram[101] + 8 on lines 32..92, from ram[101] + 9 on lines 93 and below (each kernel section is a
  line later), so it is 5 lines tall while it crosses a section border; not drawn above line 19
  nor below 195, and on line 195 only left of x = 56 (even ram[101]) or 46 (odd): the kernel's last
  write turns it off mid-line.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from jaxtari.atari.screen import SCREEN_H, SCREEN_W  # noqa: F401  (the game's modules read them here)
from jaxtari.games.breakout import constants as k

DIGIT_TOP, DIGIT_CELL_W, DIGIT_CELL_H = 5, 4, 2
DIGIT_X = (36, 52, 68, 100, 132)  # hundreds, tens, ones of the score; balls left; player number
TOP_WALL = (17, 32)               # [first, end) lines
WALL_W = 8
LEFT_WALL_END, RIGHT_WALL_END = 196, 195  # end (exclusive) lines of the side walls
LOW_COLOUR_TOP = 189              # from this line on the side walls take the paddle lines' colours
BRICK_TOP = 57
# an HMOVE on line 0 blanks its first 8 px (black, not the background: seen once colours cycle)
HMOVE_LINE, HMOVE_BLANK_W = 0, 8
COLOUR_SET_LINE = 203  # the colour bytes are rewritten during this line (constants.COLOUR_SET_X)
PADDLE_TOP, PADDLE_H = 189, 4
PADDLE_X_OFFSET = 47              # screen x = ram[72] - 47
BALL_X_OFFSET = 49                # screen x = ram[99] - 49
# screen top line = ram[101] + offset, by kernel section: (first line of the section, offset)
BALL_SECTIONS = ((0, 7), (32, 8), (93, 9))
BALL_W, BALL_H = 2, 4
BALL_FIRST_LINE, BALL_LAST_LINE = 19, 195
# On the last line the kernel turns the ball off mid-line: only pixels left of this x are drawn
# (even ram[101], drawn a line late through the vertical delay; odd ram[101]).
LAST_LINE_CUT_EVEN, LAST_LINE_CUT_ODD = 56, 46


def held_lift(ball_y_byte, moved_y_byte):
    """Lines the ball is drawn higher than ``BALL_SECTIONS`` says: the kernel's vertical delay of
    the ball (a TIA register) is set for the parity of the line the ball last moved to, and a ball
    held on the paddle in a catch game (ram[101] = CATCH_Y, even) keeps it. Measured on ALE: held
    after a last move to 177 or 179 it is drawn from line 186, after one to 178 from 187 (its
    RAM and every signal are the same in the three cases)."""
    return (ball_y_byte ^ moved_y_byte) & 1


def ball_mask(lines, cols, ball_y_byte, ball_x_byte, lift=0):
    """(len(lines), len(cols)) bool: the ball's pixels on the screen lines/columns given
    (``lift``: :func:`held_lift`)."""
    offset = BALL_SECTIONS[0][1]
    for first, off in BALL_SECTIONS[1:]:
        offset = jnp.where(lines >= first, off, offset)
    top = ball_y_byte + offset - lift
    on = (lines >= top) & (lines < top + BALL_H) & (lines >= BALL_FIRST_LINE) & (
        lines <= BALL_LAST_LINE)
    x0 = ball_x_byte - BALL_X_OFFSET
    in_cols = (cols >= x0) & (cols < x0 + BALL_W)
    cut = jnp.where((ball_y_byte & 1) == 0, LAST_LINE_CUT_EVEN, LAST_LINE_CUT_ODD)
    last_ok = (lines != BALL_LAST_LINE)[:, None] | (cols < cut)[None, :]
    return on[:, None] & in_cols[None, :] & last_ok


PF_PIXEL = 4  # screen px per playfield pixel


def brick_bits():
    """(6, 40) int each: for each row (top first) and playfield pixel, the RAM byte (0..35) whose
    bit lights it in the brick kernel, and that bit (PF0 bits 4..7, PF1 bits 7..0, PF2 bits 0..7
    across each half of the screen)."""
    index = np.zeros((k.NUM_ROWS, 40), np.int32)
    bit = np.zeros((k.NUM_ROWS, 40), np.int32)
    layout = ([(0, b) for b in range(4, 8)] + [(1, b) for b in range(7, -1, -1)]
              + [(2, b) for b in range(8)])
    bases = ((30, 24, 18), (12, 6, 0))  # left half, right half: PF0, PF1, PF2 byte bases
    for row in range(k.NUM_ROWS):
        for half in range(2):
            for i, (reg, b) in enumerate(layout):
                index[row, 20 * half + i] = bases[half][reg] + 5 - row
                bit[row, 20 * half + i] = b
    return index, bit


BRICK_BYTE, BRICK_BIT = brick_bits()


def brick_byte_bit(row, pf):
    """:func:`brick_bits`' (byte, bit) of brick row ``row`` and playfield pixel ``pf`` by arithmetic
    (numpy or jax values, in range): no table lookup, which under ``vmap`` is a gather."""
    right = pf >= 20
    q = pf - 20 * right
    reg = (q >= 4).astype(np.int32) + (q >= 12)  # PF0, PF1, PF2
    byte = 30 - 6 * reg - 18 * right + 5 - row
    where = np.where if isinstance(q, np.ndarray) else jnp.where
    bit = where(reg == 0, q + 4, where(reg == 1, 11 - q, q - 12))
    return byte, bit


_rows, _pfs = np.meshgrid(np.arange(k.NUM_ROWS), np.arange(40), indexing="ij")
assert all(np.array_equal(a, b) for a, b in zip(brick_byte_bit(_rows, _pfs), (BRICK_BYTE, BRICK_BIT)))
