"""The graphics page and pointer tables the kernel model reads (jaxtari/games/seaquest/art.py) are the
bytes of the cartridge ALE ships (read here only to check the transcription)."""

from __future__ import annotations

from ale_py import roms

from jaxtari.games.seaquest import art

PAGE_OFFSET = 0xD00  # ROM $FD00 in the 4 KB image


def _rom() -> bytes:
    return open(roms.get_rom_path("seaquest"), "rb").read()


def test_the_page_is_the_cartridges():
    rom = _rom()
    used = len(art.PAGE.rstrip(b"\0"))
    assert art.PAGE[:used] == rom[PAGE_OFFSET:PAGE_OFFSET + used]


def test_the_pointer_tables_are_the_cartridges():
    rom = _rom()
    for table in (art.BALL_MOTION, art.BALL_SHAPE[:8], art.OBSTACLE_ROWS[:7], art.SUB_ROWS,
                  art.EXPLOSION_ROWS):
        assert bytes(table) in rom, table


def test_the_copyright_tables_are_the_cartridges():
    # the six tables are contiguous on the cartridge, Copyright_0 first
    assert bytes(b for table in art.COPYRIGHT for b in table) in _rom()
