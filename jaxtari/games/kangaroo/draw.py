"""Kangaroo's picture, as TIA colour bytes line by line, then ALE's palette: all 210x160 pixels for
:func:`render`, only the 84x84 that :data:`jaxtari.render.SMALL_GRAY` samples for
:func:`render_gray84` (a :class:`Grid`: every pixel is the same function of its line and column).

Read off the public disassembly's kernel (see art.py) and measured on ALE's screens:

- lines 4..179: the layout's 22 rows of 8 lines; a row's playfield (the layout's tables, reflected)
  on its lines 0-3, only the walls (PF0) on lines 4-7; the HMOVE bar (columns 0-7 black) on lines
  5 and 7 of every row, where the kernel moves objects;
- player 1 (the baby, the mother, the bell, the fruit) from the list the previous frame's overscan
  built (:class:`.state.Picture`): each at its row's first line, one graphics byte a line up to
  the first zero byte; a bell or fruit within the mother's rows (two rows above her to her feet)
  shares the line with her: such objects are drawn on odd frames, she on even ones (the baby when
  she is within its rows as well);
- player 0, the monkeys, from the kernel's own time, each where the kernel's list of them starts it
  (:func:`monkey_tops`, which also names the row whose playfield line 1 is written late);
- lines 5-7 of a row: missile 0 (an apple in flight on that row), missile 1 (the punch's glove on
  the row below the mother's top) and the ball (the coconut, or the ape walking with it; its first
  line enabled mid-line where the kernel draws player 1);
- lines 183..189: the lives in reserve (playfield blocks) and the score (six digits, the last two
  always 0, leading zeros blank); lines 191..195: the bonus timer (four digits, the last two 0).
"""

from __future__ import annotations

import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.games.kangaroo import art
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.logic import cpu
from jaxtari.games.kangaroo.logic.cpu import table
from jaxtari.atari.palette import PALETTE

SCREEN_H, SCREEN_W = 210, 160
PLAY_TOP = 4  # the first row's first line
ROWS = 22
ROW_LINES = 8
PLAY_END = PLAY_TOP + ROWS * ROW_LINES  # 180
PLAYFIELD_LINES = 4  # a row's lines showing its playfield bytes; the walls only after
HMOVE_LINES = (5, 7)  # a row's lines starting with the HMOVE bar
HMOVE_BAR = 8
OBJECT_LINES = (5, 6, 7)  # a row's lines where missiles and the ball are enabled
WALL_LINE = 3  # the line above the first row: the walls only

# the round won on the last layout: the playfield (and the ball) flash in the wait's counter's
# colour while its bit 7 is clear ($F44F: bit 6 of ram[54], ram[36] == 2, ram[19] & $F4; measured)
FLASH_LAYOUT = 2
FLASH_MASK = 0xF4

PLAYER_LEFT = 15  # a player-1 object's left column: its x + 15 (measured)
MONKEY_LEFT = 15  # a monkey's: its x + 15 (measured)
BYTE_HALF = 0x80  # a byte difference read as signed
ALL_SLOTS = 0x0F
# the merge passes of the monkeys' groups ($F269..$F2FD): whose neighbours are passed on, in order;
# the fourth pass means monkey 2 but reads monkey 1's (LF2D9 loads $F4, then tya: A = $F3)
MERGE_ORDER = (3, 0, 1, 2)
MERGE_MISREAD = 2
APPLE_LEFT = 14
APPLE_ROW = -1  # an apple shows on the row above its own (measured; the kernel counts rows ahead)
BALL_LEFT = 14
GLOVE_RIGHT, GLOVE_LEFT = 23, 13
MISSILE_WIDTH = 2
# the ball's first line shows from this column on in a row where the kernel draws player 1 (its
# ENABL write on cycle 30: 3 * 30 - 68), and player 0 too (cycle 29); measured
BALL_ENABLED_FROM = 22
BALL_BESIDE_P0_FROM = 19
NOT_DRAWN = ROWS  # monkey_tops: a monkey the kernel does not draw
# a TIA write's column: 3 colour clocks a CPU cycle, 68 of them before the picture
CLOCKS_PER_CYCLE, HBLANK_CLOCKS = 3, 68
PF_BIT = 4  # columns a playfield bit spans
PF1_REGION, PF0_REGION = 112, 144  # the reflected right half: PF2 from column 80, PF1, PF0
# line 1 of the row where the kernel loads a monkey's count of 0 (monkey_tops): PF2's write lands
# on cycle 61, PF1's on cycle 55 in the kernel drawing player 1 ($D3EB) and 64 in the one drawing
# no player ($D67E), where their balanced branches write on 48 and 42/51
LATE_LINE = 1
LATE_PF2_COLUMN = CLOCKS_PER_CYCLE * 61 - HBLANK_CLOCKS
LATE_PF1_COLUMN = (CLOCKS_PER_CYCLE * 55 - HBLANK_CLOCKS, CLOCKS_PER_CYCLE * 64 - HBLANK_CLOCKS)
SPRITE_LINES = 32  # no drawing is longer

LIVES_TOP, SCORE_LINES = 183, 7
SCORE_X = (97, 105, 113, 121, 129, 137)
TIMER_TOP, TIMER_LINES = 191, 5
TIMER_X = (79, 87)

_GRAPHICS = np.frombuffer(art.GRAPHICS, np.uint8).astype(np.int32)
LINES = np.arange(SCREEN_H)
COLUMNS = np.arange(SCREEN_W)


@dataclasses.dataclass(frozen=True)
class Grid:
    """The screen lines and columns a picture is drawn at (static, ascending): every pixel is the
    same function of its line and column whichever are drawn, so a smaller grid is the full
    picture's samples, bit for bit."""

    ys: np.ndarray
    xs: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.ys), len(self.xs)


FULL = Grid(LINES, COLUMNS)


def pick(values, index):
    return table(values, index)


def _lookup(values: np.ndarray, index):
    """``values[index]`` (along the first axis) for a constant table of any length and a traced
    index, as ``jnp`` indexing reads it (a negative index counts from the end, one still outside
    is clamped). Under ``vmap`` an index that differs per env makes the read a gather, which an
    accelerator runs as single reads (issue 45): there it is a one-hot mask over the entries and
    its sum; a CPU reads the entry (a mask over a long table costs it more)."""
    values = np.asarray(values, np.int32)
    n = len(values)
    index = jnp.asarray(index, jnp.int32)
    index = jnp.clip(jnp.where(index < 0, index + n, index), 0, n - 1)
    return jax.lax.platform_dependent(index, cpu=functools.partial(_read, values),
                                      default=functools.partial(_masked, values))


def _read(values: np.ndarray, index):
    """``values[index]`` for an index in range, read (a gather under ``vmap``)."""
    return jnp.asarray(values)[index]


def _masked(values: np.ndarray, index):
    """``values[index]`` for an index in range, by a one-hot mask over the entries and its sum."""
    n = len(values)
    hits = (index[..., None] == jnp.arange(n, dtype=jnp.int32)).reshape(
        index.shape + (n,) + (1,) * (values.ndim - 1))
    return jnp.sum(jnp.where(hits, values, 0), axis=index.ndim, dtype=jnp.int32)


def _graphics_at(addresses) -> np.ndarray:
    """GRAPHICS at static addresses ($DB00..$DEFF; anything else reads 0)."""
    i = np.asarray(addresses) - art.GRAPHICS_BASE
    inside = (i >= 0) & (i < len(_GRAPHICS))
    return np.where(inside, _GRAPHICS[np.clip(i, 0, len(_GRAPHICS) - 1)], 0)


def _drawing_starts(address, first_row_drawn=False) -> np.ndarray:
    """(4,) bool: the rows the kernel draws of the drawing at a static address (8 lines a row):
    up to the first row whose first byte is zero (zeros inside a row are drawn); player 0's kernel
    tests for the end only from the second row on (``first_row_drawn``)."""
    starts = _graphics_at(address + ROW_LINES * np.arange(SPRITE_LINES // ROW_LINES)) != 0
    if first_row_drawn:
        starts[0] = True
    return np.cumprod(starts).astype(bool)


def _drawn_bytes(addresses, first_row_drawn=False) -> np.ndarray:
    """(len(addresses), 32): each drawing's bytes, a line each, as the kernel draws them (zero
    from the row it ends at), so the step picks one row of a table instead of reading the
    graphics at a traced address."""
    return np.stack([_graphics_at(a + np.arange(SPRITE_LINES))
                     * np.repeat(_drawing_starts(a, first_row_drawn), ROW_LINES) for a in addresses])


def _pf_bits(pf0, pf1, pf2):
    """The 20 playfield pixels of a half line, left to right (PF0 bits 4-7, PF1 7-0, PF2 0-7)."""
    return ([(pf0 >> b) & 1 for b in range(4, 8)] + [(pf1 >> b) & 1 for b in range(7, -1, -1)]
            + [(pf2 >> b) & 1 for b in range(8)])


def _late_right(left_half, right_half, pf1_column):
    """A right half whose playfield writes came late: each bit of PF2's region (columns 80..111)
    and of PF1's (112..143) keeps the left half's value where the bit starts at or before the
    column its write lands on (measured)."""
    start = (COLUMNS - SCREEN_W // 2) // PF_BIT * PF_BIT + SCREEN_W // 2
    old = np.where((COLUMNS < PF1_REGION) & (start <= LATE_PF2_COLUMN), True,
                   (COLUMNS < PF0_REGION) & (start <= pf1_column))
    return np.where(old & (COLUMNS >= SCREEN_W // 2), left_half, right_half)


def _layout_rows() -> np.ndarray:
    """(3 * 66 + 1, 160) bool: each layout row's playfield line (reflected right half); the same
    with the right half's writes late beside player 1, then late with no player drawn; the walls."""
    rows, late = [], ([], [])
    for i in range(len(art.PF1_LEFT)):
        left = _pf_bits(0xFF, art.PF1_LEFT[i], art.PF2_LEFT[i])
        right = _pf_bits(0xFF, art.PF1_RIGHT[i], art.PF2_RIGHT[i])[::-1]
        normal = np.repeat(np.asarray(left + right, bool), PF_BIT)
        unchanged = np.repeat(np.asarray(left + left[::-1], bool), PF_BIT)
        rows.append(normal)
        for out, column in zip(late, LATE_PF1_COLUMN):
            out.append(_late_right(unchanged, normal, column))
    walls = _pf_bits(0xFF, 0, 0)
    walls = np.repeat(np.asarray(walls + walls[::-1], bool), PF_BIT)
    return np.stack(rows + late[0] + late[1] + [walls])


_ROWS_PF = _layout_rows()
_TABLE_ROWS = len(art.PF1_LEFT)
_WALLS = len(_ROWS_PF) - 1
_LATE_WAYS = 3  # a row's line 1: as usual, late beside player 1, late with no player drawn


def _layout_pictures(bases, g: Grid) -> np.ndarray:
    """(lines, columns) int32: the playfield lit at ``g``, one bit for each layout (its first row
    in the layout tables) and way of writing a row's line 1: bit ``3 * layout + way``, the way 0
    as usual, 1 written late beside player 1, 2 late with no player drawn (:func:`background`
    shifts out the bit of the frame's layout and of each line's way: no table read per pixel)."""
    row = (g.ys - PLAY_TOP) // ROW_LINES
    line = (g.ys - PLAY_TOP) % ROW_LINES
    play = (g.ys >= PLAY_TOP) & (g.ys < PLAY_END) & (line < PLAYFIELD_LINES)
    out = np.zeros(g.shape, np.int32)
    for layout, base in enumerate(bases):
        for way in range(_LATE_WAYS):
            index = np.where(play, base + np.clip(row, 0, ROWS - 1) + way * _TABLE_ROWS, _WALLS)
            # clamped as jnp indexing reads a table
            lit = _ROWS_PF[np.clip(index, 0, len(_ROWS_PF) - 1)][:, g.xs]
            out |= lit.astype(np.int32) << (_LATE_WAYS * layout + way)
    return out


def background(c, level, pf_colour, late_row=NOT_DRAWN, late_beside_p1=False, g: Grid = FULL,
               levels=None):
    """(210, 160) colour bytes (:func:`_shade`) of the layout's playfield, walls and HMOVE bars;
    line 1 of ``late_row`` with its right half written late (:func:`monkey_tops`), by the kernel
    drawing player 1 (``late_beside_p1``) or the one drawing no player."""
    row = (g.ys - PLAY_TOP) // ROW_LINES
    line = (g.ys - PLAY_TOP) % ROW_LINES
    play = (g.ys >= PLAY_TOP) & (g.ys < PLAY_END)
    bases = np.asarray(c.layout_row_base, np.int32)
    n = len(bases)
    if _LATE_WAYS * n > 31:
        raise ValueError(f"{n} layouts do not fit the playfield's bits (at most {31 // _LATE_WAYS})")
    level = jnp.asarray(level, jnp.int32)
    layout = jnp.clip(jnp.where(level < 0, level + n, level), 0, n - 1)
    late = (jnp.asarray(row) == late_row) & jnp.asarray(line == LATE_LINE)
    way = jnp.where(late, jnp.where(late_beside_p1, 1, 2), 0)
    lit = ((jnp.asarray(_layout_pictures(bases, g)) >> (_LATE_WAYS * layout + way)[:, None]) & 1) == 1
    shown = (play | (g.ys == WALL_LINE))[:, None]
    out = jnp.where(shown, jnp.where(lit, _shade(levels, pf_colour), _shade(levels, c.background_colour)),
                    _shade(levels, 0))
    bar = (play & np.isin(line, HMOVE_LINES))[:, None] & (g.xs < HMOVE_BAR)[None, :]
    return jnp.where(jnp.asarray(bar), _shade(levels, 0), out)


def _sprite(top, left, rows, visible, g: Grid = FULL):
    """(210, 160) bool: a sprite whose first line is ``top``, ``rows`` (32,) its bytes a line as
    the kernel draws them (:func:`_drawn_bytes`), its left column ``left`` (wrapping at 160)."""
    i = jnp.asarray(g.ys)[:, None] - top
    byte = jnp.sum(jnp.where(i == jnp.arange(SPRITE_LINES), rows, 0), axis=1, dtype=jnp.int32)
    byte = jnp.where(jnp.asarray((g.ys >= PLAY_TOP) & (g.ys < PLAY_END)), byte, 0)
    rel = (jnp.asarray(g.xs)[None, :] - left) % SCREEN_W
    bit = (byte[:, None] >> jnp.clip(7 - rel, 0, 7)) & 1
    return visible & (rel < 8) & (bit == 1)


def _lines_on(top, lines, visible, ys):
    """Whether the kernel spends each of the lines ``ys`` drawing a sprite whose first line is
    ``top`` and whose drawing takes ``lines`` lines."""
    ys = jnp.asarray(ys)
    return visible & (ys >= top) & (ys < top + lines)


def _band(row, left, width, visible, first_line_from=0, g: Grid = FULL):
    """(210, 160) bool: a missile or the ball on lines 5-7 of ``row``, ``width`` wide; on line 5
    only from column ``first_line_from`` on (the kernel enables it during that line)."""
    line = jnp.asarray(g.ys) - PLAY_TOP - row * ROW_LINES
    on = (line >= OBJECT_LINES[0]) & (line <= OBJECT_LINES[-1]) & (row >= 0) & (row < ROWS)
    rel = (jnp.asarray(g.xs) - left) % SCREEN_W
    late = (line == OBJECT_LINES[0])[:, None] & (jnp.asarray(g.xs) < first_line_from)[None, :]
    return visible & on[:, None] & (rel < width)[None, :] & ~late


def _lines_drawn(addresses) -> np.ndarray:
    """For each static graphics address, how many lines the kernel spends drawing the sprite from
    there (its rows up to the first whose first byte is zero)."""
    return np.asarray([ROW_LINES * int(_drawing_starts(a).sum()) for a in addresses], np.int32)


# the lines each player-1 drawing takes, by the index its address is picked with
_BELL_LINES = _lines_drawn([art.ITEM_PAGE * 256 + low for low in art.BELL_LOW])
_FRUIT_LINES = _lines_drawn([art.ITEM_PAGE * 256 + low for low in art.FRUIT_LOW])
_BABY_LINES = _lines_drawn([art.BABY_PAGE * 256 + low for low in art.BABY_LOW])
_MOTHER_LINES = _lines_drawn([high * 256 + low for high, low in zip(art.MOTHER_HIGH, art.MOTHER_LOW)])
# their bytes a line, by the same index
_BELL_BYTES = _drawn_bytes([art.ITEM_PAGE * 256 + low for low in art.BELL_LOW])
_FRUIT_BYTES = _drawn_bytes([art.ITEM_PAGE * 256 + low for low in art.FRUIT_LOW])
_BABY_BYTES = _drawn_bytes([art.BABY_PAGE * 256 + low for low in art.BABY_LOW])
_MOTHER_BYTES = _drawn_bytes([high * 256 + low for high, low in zip(art.MOTHER_HIGH, art.MOTHER_LOW)])
# a monkey's drawing by its sprite byte (ram[0..3], any of 256): its bytes a line, and the rows
# the kernel draws of it (player 0's kernel draws the first row whatever it holds)
_MONKEY_BYTES = _drawn_bytes([art.MONKEY_PAGE * 256 + sprite for sprite in range(256)], first_row_drawn=True)
_MONKEY_ROWS = np.asarray([_drawing_starts(art.MONKEY_PAGE * 256 + sprite, first_row_drawn=True).sum()
                           for sprite in range(256)], np.int32)


def _player1_objects(c, p):
    """The player-1 list's objects as the kernel draws them: [(first line, left column, its bytes
    a line (:func:`_drawn_bytes`), drawn this frame, colour, the number of lines its drawing
    takes)]: the baby, the mother, the bell, the three fruit."""
    level = p.list_level
    row, height = p.list_row, pick(c.pose_height, p.list_pose & k.POSE_FRAME)
    bottom, top = row + height, row - 2
    odd = (p.list_frame & 1) != 0
    baby_shares = (row - 3) <= 0
    items = []
    mother_shares = baby_shares
    for y in range(4):
        if y == 0:
            value = p.list_bell
            item_row = pick(art.BELL_ROW, level)
            x = pick(c.bell_x, level)
            rows = _lookup(_BELL_BYTES, value & 3)
            colour = jnp.int32(c.bell_colour)
            lines = pick(_BELL_LINES, value & 3)
        else:
            value = p.list_fruit[y - 1]
            at = level + k.FRUIT_STRIDE * (y - 1)
            item_row, x = pick(c.fruit_row, at), pick(c.fruit_x, at)
            rows = _lookup(_FRUIT_BYTES, value & 3)
            colour = pick(art.FRUIT_COLOUR, value & 3)
            lines = pick(_FRUIT_LINES, value & 3)
        present = (value & k.SIGN) == 0
        shares = present & (bottom >= item_row) & (top <= item_row)
        mother_shares = mother_shares | shares
        on = present & (~shares | odd)
        items.append((item_row * ROW_LINES + PLAY_TOP, x + PLAYER_LEFT, rows, on, colour, lines))
    won = (p.list_state & k.ROUND_WON_BIT) != 0
    step = jnp.where(won, art.BABY_WON_STEP, (p.list_frame >> 4) & 7)
    baby = (art.BABY_ROW * ROW_LINES + PLAY_TOP, pick(art.BABY_X, step) + PLAYER_LEFT,
            _lookup(_BABY_BYTES, step), ~baby_shares | odd, jnp.int32(c.mother_colour),
            pick(_BABY_LINES, step))
    pose = p.list_pose & 0x0F
    mother = (row * ROW_LINES + PLAY_TOP, p.list_x + PLAYER_LEFT,
              _lookup(_MOTHER_BYTES, pose),
              ~mother_shares | ~odd, jnp.int32(c.mother_colour), pick(_MOTHER_LINES, pose))
    return [baby, mother] + items


def _player1_on(objects, ys):
    """Whether the kernel draws any of the player-1 objects (:func:`_player1_objects`) on the
    lines ``ys``."""
    return functools.reduce(jnp.logical_or, [_lines_on(top, lines, on, ys)
                                             for top, _, _, on, _, lines in objects])


def player1(objects, g: Grid = FULL):
    """The player-1 list's objects (:func:`_player1_objects`): [(mask at ``g``, colour, the lines
    ``g`` shows that the kernel draws it on)], and (22,) bool: the rows where it draws any."""
    rows = _player1_on(objects, np.arange(PLAY_TOP, PLAY_END)).reshape(ROWS, ROW_LINES).any(axis=1)
    return ([(_sprite(top, left, drawn, on, g=g), colour, _lines_on(top, lines, on, g.ys))
             for top, left, drawn, on, colour, lines in objects], rows)


# rule: timing.punch-lands-when-drawn
def glove_enabled(c, p):
    """Whether the kernel enables the glove (missile 1) on its row, the mother's + 1 as the kernel
    read it (``p.ram``): only the kernels that draw player 1 write ENAM1 (the others leave it off:
    $D5C8, $D71B in the listing), so the glove is there, and meets the ball or an apple, only on a
    row where a player-1 object is drawn this frame (the mother, or on the frames she gives a
    shared row to the bell or a fruit, that object). Measured on ALE: a falling coconut that
    reaches the glove on a frame the mother is not drawn is punched a frame later, when she is."""
    row = p.ram["mother_row"] + c.glove_row
    line = jnp.clip(PLAY_TOP + row * ROW_LINES + OBJECT_LINES[0], 0, SCREEN_H - 1)
    return _player1_on(_player1_objects(c, p), line)


def monkey_shown(r):
    """(4,) bool: which monkeys this frame shows. Monkeys whose rows come within the kernel's
    reach of each other (the other's row in row - 3 < row' <= row + 2, compared as bytes) take
    turns: two by the frame counter's bit 0, three by the walk phase, four by the frame counter's
    low bits. A monkey near a monkey of another pair joins its group ($F269..$F2FD: each monkey's
    neighbours passed on to the monkeys it is near, in the cartridge's order; its third pass
    re-reads monkey 1's neighbours where monkey 2's were meant, so monkey 2's are never passed on)."""
    rows, states = r["monkey_row"], r["monkey_state"]
    active = (states & k.SIGN) == 0
    bits = [jnp.int32(0)] * k.MONKEY_SLOTS
    for i in range(k.MONKEY_SLOTS):
        for j in range(i + 1, k.MONKEY_SLOTS):
            # the kernel compares rows as bytes: a monkey just come on (row 255) is one row
            # above row 0 (measured: it takes turns with a monkey at row 0)
            d = ((rows[j] - rows[i] + BYTE_HALF) & k.BYTE) - BYTE_HALF
            near = active[i] & active[j] & (d > -3) & (d <= 2)
            bits[i] = bits[i] | jnp.where(near, 1 << j, 0)
            bits[j] = bits[j] | jnp.where(near, 1 << i, 0)

    def count(b):
        return _lookup(art.FLICKER, art.GROUP_SIZE + b)

    # a monkey near all three others: every monkey takes its own turn of four
    crowd = (count(bits[0]) == 3) | (count(bits[1]) == 3) | (count(bits[2]) == 3) | (count(bits[3]) == 3)
    for source in MERGE_ORDER:
        for target in range(k.MONKEY_SLOTS):
            if target != source:
                src = bits[1] if source == MERGE_MISREAD else bits[source]
                bits[target] = jnp.where((src & (1 << target)) != 0,
                                         bits[target] | (src & ~(1 << target) & ALL_SLOTS),
                                         bits[target])
    size = [count(b) for b in bits]
    phase = [jnp.int32(0)] + [_lookup(art.FLICKER, art.FLICKER_PHASE[i] + bits[i]) for i in range(1, 4)]
    crowd = crowd | ((size[0] + size[1] + size[2] + size[3]) >= 7)
    size = [jnp.where(crowd, 3, n) for n in size]
    phase = [jnp.where(crowd, i, ph) for i, ph in enumerate(phase)]
    shown = []
    for n, ph in zip(size, phase):
        turn = jnp.where(n == 2, r["walk_phase"] & 3, n & r["frame_count"])
        shown.append((n == 0) | (turn == ph))
    return jnp.stack(shown)


def _monkey_rows_drawn(sprite):
    """How many rows the kernel draws a monkey's drawing for: its first row, then up to the first
    row whose first byte is zero."""
    return _lookup(_MONKEY_ROWS, sprite)


def monkey_tops(r):
    """(4,) the row the kernel starts drawing each monkey on (NOT_DRAWN where it draws none), and
    the row whose line 1 writes the playfield's right half late (NOT_DRAWN: none).

    The list the overscan builds ($F346..$F3FE): the four slots sorted by row as bytes (three
    bubble passes, swapping on equal rows), of which the first ram[20] (the monkeys on the screen)
    are read; each shown one gets a count of rows to wait, its row minus ``after`` (the previous
    listed monkey's row + 2, + 1 where that one's row was below its own ``after``), as a byte. The
    kernel waits the first count from the top; a later one it loads on line 1 of the row after the
    previous monkey's drawing and counts down at that row's end, so a count of 0 wraps to 255 and
    neither that monkey nor any after it is drawn (two shown monkeys exactly two rows apart: the
    lower one is not drawn). Loading a count of 0 also takes the branch that is not balanced
    ($D3E5, $D678: 13 cycles more), and that line's playfield writes for the right half come
    late (:data:`LATE_PF1_COLUMN`). Both measured on ALE (the cycle route's frames 2,924, 5,090,
    5,728, 5,731 and 5,734)."""
    shown = monkey_shown(r)
    rows = [r["monkey_row"][i] for i in range(k.MONKEY_SLOTS)]
    slots = [jnp.int32(i) for i in range(k.MONKEY_SLOTS)]
    for _ in range(k.MONKEY_SLOTS - 1):
        for j in range(k.MONKEY_SLOTS - 1):
            swap = rows[j] >= rows[j + 1]
            rows[j], rows[j + 1] = jnp.where(swap, rows[j + 1], rows[j]), jnp.where(swap, rows[j], rows[j + 1])
            slots[j], slots[j + 1] = (jnp.where(swap, slots[j + 1], slots[j]),
                                      jnp.where(swap, slots[j], slots[j + 1]))
    tops = jnp.full(k.MONKEY_SLOTS, NOT_DRAWN, jnp.int32)
    late = jnp.int32(NOT_DRAWN)
    after = jnp.int32(0)
    first = jnp.bool_(True)
    next_row = jnp.int32(0)  # the row the kernel loads the next count on (the top: row 0)
    reached = jnp.bool_(True)  # the kernel still counts towards a listed monkey
    for y in range(k.MONKEY_SLOTS):
        slot, row = slots[y], rows[y]
        listed = (y < r["monkeys"]) & cpu.at(shown, slot)
        wait = (row - after) & k.BYTE
        start = next_row + wait
        drawn = listed & reached & (first | (wait != 0)) & (start < ROWS)
        tops = cpu.put(tops, slot, start, drawn)
        late = jnp.where(listed & reached & ~first & (wait == 0) & (next_row < ROWS), next_row, late)
        height = _monkey_rows_drawn(cpu.at(r["monkey_sprite"], slot))
        reached = jnp.where(listed, drawn, reached)
        next_row = jnp.where(listed, start + height, next_row)
        after = jnp.where(listed, (row + 1 + (row >= after)) & k.BYTE, after)
        first = first & ~listed
    return tops, late


def monkeys(r, tops, g: Grid = FULL):
    """Player 0: the monkeys the kernel draws, each from its row in ``tops``
    (:func:`monkey_tops`); and (22,) bool: the rows the kernel spends drawing one."""
    out = jnp.zeros(g.shape, bool)
    rows = jnp.zeros(ROWS, bool)
    for i in range(k.MONKEY_SLOTS):
        top = tops[i]
        on = top < ROWS
        out = out | _sprite(top * ROW_LINES + PLAY_TOP, r["monkey_x"][i] + MONKEY_LEFT,
                            _lookup(_MONKEY_BYTES, r["monkey_sprite"][i]), on, g=g)
        height = _monkey_rows_drawn(r["monkey_sprite"][i])
        rows = rows | (on & (jnp.arange(ROWS) >= top) & (jnp.arange(ROWS) < top + height))
    return out, rows


def missiles(c, r, row_p1, p0_rows, g: Grid = FULL):
    """Missile 0 (the apples), missile 1 (the glove) and the ball (the coconut). The ball shows on
    its first line from the column where the row's kernel enables it: the kernels drawing player 1
    write ENABL on that line's cycle 30 (column 22) alone, on cycle 29 (column 19) beside player 0;
    the others before the picture starts ($D31A, $D47E, $D5C8, $D71B in the listing). ``row_p1``,
    ``p0_rows``: (22,) the rows where the kernel draws player 1, player 0."""
    apples = jnp.zeros(g.shape, bool)
    for j in range(k.APPLE_SLOTS):
        flying = ((r["apple_flags"][j] & k.SIGN) == 0) & (r["apple_row"][j] != k.BYTE)
        apples = apples | _band(r["apple_row"][j] + APPLE_ROW, r["apple_x"][j] + APPLE_LEFT, MISSILE_WIDTH,
                                flying, g=g)
    base = pick(c.layout_row_base, r["level"])
    ball_row = r["coconut_row"] - base
    at = jnp.clip(ball_row, 0, ROWS - 1)
    late = jnp.where(cpu.at(row_p1, at), jnp.where(cpu.at(p0_rows, at), BALL_BESIDE_P0_FROM, BALL_ENABLED_FROM), 0)
    ball = _band(ball_row, r["coconut_x"] + BALL_LEFT, MISSILE_WIDTH,
                 r["coconut_row"] != k.COCONUT_NONE, late, g=g)
    right = (r["pose"] & k.FACING_RIGHT) != 0
    glove = _band(r["mother_row"] + 1, r["mother_x"] + jnp.where(right, GLOVE_RIGHT, GLOVE_LEFT),
                  MISSILE_WIDTH, (r["pose"] & k.SIGN) != 0, g=g)
    return apples, glove, ball


def _glyphs(base, lines) -> np.ndarray:
    """(17, lines): the digit bytes a line from ``base`` (digit d's drawing at + 8 d, its last
    line first) for every nibble, then the blank digit's."""
    pointers = [8 * d for d in range(16)] + [art.BLANK_DIGIT]
    return np.stack([_graphics_at(base + ptr + np.arange(lines)) for ptr in pointers])


_SCORE_GLYPHS = _glyphs(art.SCORE_DIGITS, SCORE_LINES)
_TIMER_GLYPHS = _glyphs(art.TIMER_DIGITS, TIMER_LINES)
_TIMER_ZERO_BYTES = _graphics_at(art.TIMER_ZEROS + np.arange(TIMER_LINES))
_BLANK = 16  # the blank digit's entry in the glyph tables


def _byte_lit(byte, x, xs):
    """Whether a player's byte drawn from column ``x`` lights each of the columns ``xs``."""
    rel = xs - x
    return jnp.asarray((rel >= 0) & (rel < 8)) & (((byte >> np.clip(7 - rel, 0, 7)) & 1) == 1)


def bottom(c, r, canvas, g: Grid = FULL, levels=None):
    """Lines 180..209: the lives, the score, the timer (``canvas``: the picture at ``g``; its
    lines of the score and the timer are replaced)."""
    drawn = {}  # screen line -> which of the columns g.xs the digit colour lights
    xs = g.xs
    lives = jnp.clip(r["lives"], 0, len(art.LIVES_PF1) - 1)
    pf1, pf2 = pick(art.LIVES_PF1, lives), pick(art.LIVES_PF2, lives)
    # columns 16..79: PF1's bits 7..0, then PF2's bits 0..7, 4 columns each
    bit = (xs - 16) // PF_BIT
    shift = np.where(bit < 8, 7 - bit, bit - 8).clip(0, 7)
    lives_line = (jnp.asarray((xs >= 16) & (xs < 80))
                  & (((jnp.where(jnp.asarray(bit < 8), pf1, pf2) >> shift) & 1) == 1))
    high, low = r["score_high"], r["score_low"]
    nibbles = [high >> 4, high & 0xF, low >> 4, low & 0xF]
    blank = jnp.bool_(True)
    digits = []
    for d in nibbles:
        blank = blank & (d == 0)
        digits.append(_lookup(_SCORE_GLYPHS, jnp.where(blank, _BLANK, d)))
    digits += [_SCORE_GLYPHS[0]] * 2
    for line in range(SCORE_LINES):
        index = SCORE_LINES - 1 - line
        lit = lives_line
        for x, glyph in zip(SCORE_X, digits):
            lit = lit | _byte_lit(glyph[index], x, xs)
        drawn[LIVES_TOP + line] = lit
    t = r["timer"]
    hi, lo = t >> 4, t & 0xF
    hi_digit = _lookup(_TIMER_GLYPHS, jnp.where(hi == k.BLANK_DIGIT, _BLANK, hi))
    lo_digit = _lookup(_TIMER_GLYPHS, jnp.where(lo == k.BLANK_DIGIT, _BLANK, lo))
    for line in range(TIMER_LINES):
        index = TIMER_LINES - 1 - line
        left = (hi_digit[index] & 0xF0) | (lo_digit[index] & 0x0F)
        right = int(_TIMER_ZERO_BYTES[index])
        drawn[TIMER_TOP + line] = _byte_lit(left, TIMER_X[0], xs) | _byte_lit(right, TIMER_X[1], xs)
    replaced = np.isin(g.ys, list(drawn))
    if not replaced.any():
        return canvas
    lit = jnp.stack([drawn[y] if y in drawn else jnp.zeros(len(xs), bool) for y in g.ys.tolist()])
    lines = jnp.where(lit, _shade(levels, c.digit_colour), _shade(levels, 0))
    return jnp.where(jnp.asarray(replaced)[:, None], lines, canvas)


def _art(lines, left=art.TITLE_LEFT):
    out = np.zeros((len(lines), SCREEN_W), bool)
    for i, text in enumerate(lines):
        for j, c in enumerate(text):
            out[i, left + j] = c == "#"
    return out


def title(game: int = 0):
    """(210, 160) colour bytes of the game-over frame (the attract mode's first picture) of game
    number ``game`` (0, or 1: ALE's mode 1, which adds a figure)."""
    out = np.zeros((SCREEN_H, SCREEN_W), np.int32)
    parts = [(art.TITLE_TOP, art.TITLE, art.TITLE_COLOUR, art.TITLE_LEFT),
             (art.TITLE_KANGAROO_TOP, art.TITLE_KANGAROO, art.TITLE_KANGAROO_COLOUR, art.TITLE_LEFT)]
    if game:
        parts.append((art.TITLE_GAME_2_TOP, art.TITLE_GAME_2, art.TITLE_COLOUR, art.TITLE_GAME_2_LEFT))
    for top, lines, colour, left in parts:
        mask = _art(lines, left)
        out[top:top + len(lines)][mask] = colour
    return out


_TITLES = np.stack([title(0), title(1)])


def _shade(levels, colour):
    """A colour byte as the picture is drawn in: itself (``levels`` None), or ``levels`` of its
    palette entry (``colour >> 1``: ALE's grey levels for :func:`render_gray84`). The picture is
    made of a few colours, so shading each before it is drawn is the same, pixel for pixel, as
    shading the picture after, and reads no table at each pixel (a gather under ``vmap``)."""
    if levels is None:
        return jnp.asarray(colour, jnp.int32)
    if isinstance(colour, (int, np.integer, np.ndarray)):
        return jnp.asarray(np.asarray(levels, np.int32)[np.asarray(colour) >> 1])
    return _lookup(levels, jnp.asarray(colour) >> 1)


def colour_indices(c, s, g: Grid = FULL, levels=None):
    """TIA colour bytes of the frame's picture at the grid ``g``'s lines and columns ((210, 160)
    by default; the title on the game-over frame); with ``levels``, each colour's level there
    (:func:`_shade`)."""
    over = (s.attract & k.SIGN) != 0
    game = jnp.minimum(s.attract & k.GAME_NUMBER, 1)
    titles = _shade(levels, _TITLES[:, g.ys][:, :, g.xs])
    return jnp.where(over, jnp.where(game == 1, titles[1], titles[0]), _game_picture(c, s, g, levels))


def playfield_colour(c, r):
    """The playfield's colour byte of the frame, from the bytes the kernel read (``r``)."""
    flash = (((r["mother_state"] & k.ROUND_WON_BIT) != 0) & (r["level"] == FLASH_LAYOUT)
             & ((r["counter"] & k.SIGN) == 0))
    return jnp.where(flash, r["counter"] & FLASH_MASK, c.playfield_colour)


def _game_picture(c, s, g: Grid, levels=None):
    p = s.picture
    r = p.ram
    pf_colour = playfield_colour(c, r)
    drawing = _player1_objects(c, p)
    objects, row_p1 = player1(drawing, g)
    tops, late_row = monkey_tops(r)
    monkey_mask, p0_rows = monkeys(r, tops, g)
    late_line = jnp.clip(late_row, 0, ROWS - 1) * ROW_LINES + PLAY_TOP + LATE_LINE
    late_beside_p1 = _player1_on(drawing, late_line)
    canvas = background(c, r["level"], pf_colour, late_row, late_beside_p1, g, levels)
    apples, glove, ball = missiles(c, r, row_p1, p0_rows, g)
    canvas = jnp.where(ball, _shade(levels, pf_colour), canvas)
    # the glove (missile 1) takes player 1's colour: it shows on the lines where a player-1
    # object is drawn, in that object's colour (the mother's, or a fruit's on the frames she gives
    # it), and not where none is (measured)
    glove_colour = _shade(levels, 0)
    glove_on = jnp.zeros(len(g.ys), bool)
    objects = [(mask, _shade(levels, colour), lines) for mask, colour, lines in objects]
    for _, colour, lines in objects:
        glove_colour = jnp.where(lines, colour, glove_colour)
        glove_on = glove_on | lines
    for mask, colour, _ in objects:
        canvas = jnp.where(mask, colour, canvas)
    canvas = jnp.where(glove & glove_on[:, None], glove_colour[:, None], canvas)
    canvas = jnp.where(monkey_mask | apples, _shade(levels, c.monkey_colour), canvas)
    return bottom(c, r, canvas, g, levels)


def render(c, s):
    """The 210x160x3 picture (uint8 RGB)."""
    return jnp.asarray(PALETTE)[colour_indices(c, s) >> 1]


@functools.cache
def _small() -> Grid:
    from jaxtari.render import SMALL_GRAY

    return Grid(SMALL_GRAY.ys[:, 0], SMALL_GRAY.xs[0])


def render_gray84(c, s):
    """The 84x84 grey picture, drawn directly at that size: only the lines and columns
    :data:`jaxtari.render.SMALL_GRAY` samples (bit for bit the full picture's samples), each
    colour shaded to ALE's grey level before it is drawn."""
    from jaxtari.render import gray

    return colour_indices(c, s, _small(), gray(PALETTE)).astype(jnp.uint8)
