"""When the cartridge's display kernel writes Bailey's registers (GRP0, his graphic; COLUP0, his
colour) on each screen line, so the picture can show what the TIA shows where a write lands while
the line is being drawn.

Read from the cycle counts of the public Frostbite disassembly by Dennis Debro (the path through
the kernel on each line, counted instruction by instruction) and checked pixel for pixel against
ALE 0.12.1 frames (tests/games/test_frostbite_kernel.py). Bailey's two tables share one ROM page,
so no table read crosses a page and no write's cycle depends on the data: what varies is only
whether a line is one of his (the kernel's row counter in 0..18), which picks the branch taken.

Four effects follow, each a set of screen lines:
- a late write: the line's own value is written after the line has started, so left of it the
  register still holds the line above's value (graphic on the igloo's lines and the last shore line,
  colour on the third shore line);
- an early write: the kernel loads the next line's colour before the current one ends (where a band
  of the water needs the next line's time for its own set-up), so from that x on the line shows the
  next line's colour; only when the next line is one of his, since otherwise nothing is written;
- a stale line: the third shore line and two lines of each water band's set-up skip Bailey's writes
  altogether when the line is not his, so just below his last row they repeat it (in its colour);
- a black line: on the second shore line the kernel clears his colour when the line is not his, so a
  late colour write on the next line shows black to its left.
"""

from jaxtari.games.frostbite.art import ENEMY_LINES, ENEMY_TOP_Y, FLOE_LINES, FLOE_TOP_Y

# A register written by an instruction ending on CPU cycle c of a line shows from screen x = 3c -
# COLOUR_LAG (the colour registers) or 3c - GRAPHIC_LAG (the graphics, latched a pixel later): 68
# colour clocks of horizontal blank, 3 per CPU cycle (measured: the writes below land where ALE shows).
CLOCKS_PER_CYCLE = 3
COLOUR_LAG = 68
GRAPHIC_LAG = 67


def colour_x(cycle: int) -> int:
    return CLOCKS_PER_CYCLE * cycle - COLOUR_LAG


def graphic_x(cycle: int) -> int:
    return CLOCKS_PER_CYCLE * cycle - GRAPHIC_LAG


# The igloo's lines where Bailey can be drawn (the kernel skips him on its first four): his graphic
# is written at cycle 30 when the line is his, and cleared at cycle 29 when it is not.
IGLOO_BAILEY_LINES = range(47, 55)
IGLOO_GRAPHIC_CYCLE = 30
IGLOO_CLEAR_CYCLE = 29
# The shore: the second line clears his colour when it is not his; the third writes his colour at
# cycle 28 (after positioning the bear), and nothing when it is not his; the last (black) line writes his graphic at cycle 26 and
# already the first water line's colour at cycle 53.
SHORE_BLACK_LINE = 56
SHORE_COLOUR_LINE, SHORE_COLOUR_CYCLE = 57, 28
WATER_EDGE_LINE, WATER_EDGE_GRAPHIC_CYCLE, WATER_EDGE_EARLY_CYCLE = 77, 26, 53
# Each enemy band and each floe band is a kernel section whose first line writes the next line's
# colour early (cycle 62 for an enemy section, which also loads the enemy's position; 59 for a floe
# section), whose third and fourth lines skip Bailey when he is not on them, and whose last line
# writes the next section's first colour early (cycle 62 after an enemy band, 66 after a floe band,
# which also reads the missile collision; the bottom floe band ends the kernel instead).
SECTION_SETUP_LINES = 4            # lines from a section's first line to its band
STALE_SETUP_LINES = (2, 3)         # the section's lines (from 0) that skip Bailey when not his
ENEMY_SECTION_EARLY_CYCLE, FLOE_SECTION_EARLY_CYCLE = 62, 59
AFTER_ENEMY_EARLY_CYCLE, AFTER_FLOE_EARLY_CYCLE = 62, 66
# A floe section's band starts two lines after its set-up (two more lines of positioning).
FLOE_SECTION_EXTRA_LINES = 2
# A floe is two pieces: player 1 (its graphic, vertically delayed, shows from the GRP0 write at cycle
# 21, before the line's first pixel) and missile 1, which the band's first line enables only at cycle
# 24 (ENAM1). So on that line the missile lights nothing left of x 4: under the HMOVE bar, unseen,
# but the TIA still tests collisions there - a missile piece that starts at x 153..159 (its floe at
# 145..151) wraps its right end to x 0..7, and of that end only x >= 4 meets Bailey on the band's
# first line. Measured on ALE 0.12.1: Bailey at x 0 on the top row stands on no floe when its
# x is 146..148 (the wrapped end 0..1 / 0..3 on the first line, none below where his feet are), on
# one when it is 149; over every floe x, Bailey at x 140..159 and 0..20 on each row, no floe-row
# latch differs (tests/games/test_frostbite.py: test_floe_wrapped_under_the_hmove_bar_holds_bailey_
# as_on_ale, test_goose_pushes_bailey_to_the_right_edge_as_on_ale).
FLOE_MISSILE_ENABLE_CYCLE = 24
FLOE_MISSILE_FIRST_LINE_X = colour_x(FLOE_MISSILE_ENABLE_CYCLE)


def _tables():
    enemy_sections = [top - SECTION_SETUP_LINES for top in ENEMY_TOP_Y]
    floe_sections = [top - SECTION_SETUP_LINES - FLOE_SECTION_EXTRA_LINES for top in FLOE_TOP_Y]
    assert all(e + SECTION_SETUP_LINES + ENEMY_LINES == f for e, f in zip(enemy_sections, floe_sections))
    late_graphic = {line: graphic_x(IGLOO_GRAPHIC_CYCLE) for line in IGLOO_BAILEY_LINES}
    late_graphic[WATER_EDGE_LINE] = graphic_x(WATER_EDGE_GRAPHIC_CYCLE)
    clear_graphic = {line: graphic_x(IGLOO_CLEAR_CYCLE) for line in IGLOO_BAILEY_LINES}
    early = {WATER_EDGE_LINE: colour_x(WATER_EDGE_EARLY_CYCLE)}
    for e in enemy_sections:
        early[e] = colour_x(ENEMY_SECTION_EARLY_CYCLE)
        early[e + SECTION_SETUP_LINES + ENEMY_LINES - 1] = colour_x(AFTER_ENEMY_EARLY_CYCLE)
    bottom = max(FLOE_TOP_Y)   # the lowest band on screen
    for f, top in zip(floe_sections, FLOE_TOP_Y):
        early[f] = colour_x(FLOE_SECTION_EARLY_CYCLE)
        if top != bottom:
            early[top + FLOE_LINES] = colour_x(AFTER_FLOE_EARLY_CYCLE)
    stale = {s + k for s in enemy_sections + floe_sections for k in STALE_SETUP_LINES} | {SHORE_COLOUR_LINE}
    return late_graphic, clear_graphic, early, stale


# {line: x}: left of x the line shows the line above's graphic (LATE_GRAPHIC_X: when the line is
# his; CLEAR_GRAPHIC_X: when it is not, the kernel clears the graphic there); LATE_COLOUR_X: left of
# x the line above's colour; EARLY_COLOUR_X: from x on, the next line's colour (if that line is his).
LATE_GRAPHIC_X, CLEAR_GRAPHIC_X, EARLY_COLOUR_X, STALE_LINES = _tables()
LATE_COLOUR_X = {SHORE_COLOUR_LINE: colour_x(SHORE_COLOUR_CYCLE)}
BLACK_WHEN_NOT_HIS = (SHORE_BLACK_LINE,)
