"""The cartridge's graphics page (ROM $FD00-$FDF9): the divers' per-line motions and sizes, the
sub's and its explosion's rows, the enemy missile's rows, the sharks' rows. Transcribed from the
data tables of the public disassembly (DNSDEBRO/Disassemblies, Atari2600/Seaquest/seaquest.asm),
laid out at the addresses the cartridge's pointer tables give (tests/games/test_seaquest_kernel.py
checks the bytes against the ROM ALE ships). The kernel reads a row as ``PAGE[pointer + row]``,
which on the cartridge may run into the next table: the page keeps that."""

from __future__ import annotations

PAGE = bytes.fromhex(
    "001010e03010002000e000f0f0000010101010002000e0f0f00000001010e030"
    "10002000e000f0f00000f0f0f0f0d020f0002000101000d00000e0f0f0d020f0"
    "002010100000d000f0f0f0f0d020f0002000101000d000020202221222120202"
    "0200020200000212121222120202000202000200020202221222120202020200"
    "0202000000001028100000000000004410002800104400000000821000005400"
    "001082000000feff7dffbf0c0c0c0c04000000807efffd7fbf0c0c0c0c040000"
    "0080fe7ffdff3f0c0c0c0c040000002200002200000000000000000010d87f7f"
    "df0c08000000000000000091db7e7fdf8c080000000000000000"
) + bytes(6)  # $FDFA on is other data; no pointer + row reaches it

# pointers into PAGE (the cartridge's LSB tables), indexed as the kernel indexes them
BALL_MOTION = (0x00, 0x0D, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B,  # by attributes & 15
               0x29, 0x38, 0x47, 0x47, 0x00, 0x00, 0x00, 0x00)
BALL_SHAPE = (0x56, 0x64, 0x73, 0x73, 0xCC, 0xCC, 0xCC, 0xCC) * 2  # ENABL | size, by attributes & 15
OBSTACLE_ROWS = (0xD4, 0xE3, 0xE3, 0x00, 0xA4, 0xB2, 0xC0, 0xB8)  # by attributes & 7
SUB_ROWS = (0xA4, 0xB2, 0xC0)  # by the sub's animation frame
EXPLOSION_ROWS = (0x99, 0x8D, 0x8D, 0x82, 0x82)  # by death counter 10..14 (below 10: the first)
SHARK_KINDS = 4  # attributes & 7 below this: a shark (its rows float)
ENABLE_BIT = 0x02
SIZE_SHIFT = 4

# the score's digits 0-9 (8 rows each, top row first) and a reserve sub (9 rows, top first)
DIGITS = tuple(tuple(reversed(rows)) for rows in (
    (0x3C, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x3C), (0x3C, 0x18, 0x18, 0x18, 0x18, 0x18, 0x38, 0x18),
    (0x7E, 0x60, 0x60, 0x3C, 0x06, 0x06, 0x46, 0x3C), (0x3C, 0x46, 0x06, 0x0C, 0x0C, 0x06, 0x46, 0x3C),
    (0x0C, 0x0C, 0x0C, 0x7E, 0x4C, 0x2C, 0x1C, 0x0C), (0x7C, 0x46, 0x06, 0x06, 0x7C, 0x60, 0x60, 0x7E),
    (0x3C, 0x66, 0x66, 0x66, 0x7C, 0x60, 0x62, 0x3C), (0x18, 0x18, 0x18, 0x18, 0x0C, 0x06, 0x42, 0x7E),
    (0x3C, 0x66, 0x66, 0x3C, 0x3C, 0x66, 0x66, 0x3C), (0x3C, 0x46, 0x06, 0x3E, 0x66, 0x66, 0x66, 0x3C)))
RESERVE_SUB = tuple(reversed((0x00, 0x80, 0xFC, 0xFE, 0xFE, 0xBE, 0x0C, 0x0C, 0x04)))
RESCUED_DIVER = tuple(reversed((0x80, 0x40, 0x20, 0xF0, 0x18, 0x0F, 0x0C, 0x02, 0x02)))  # top first

# Measured on ALE's screen (lit columns per line; '#': lit): the reef's three lines, the "OXYGEN"
# label (columns 0..48, black on the sea floor) and the Activision logo (lines 191..197). The logo
# scrolls after the game is over: not modelled.
REEF = (
    "............########........................########........................########"
    "........................########........................########............",
    "........################................################................################"
    "................################................################........",
    "........####################........########################........################"
    "########........########################........########################....",
)
OXYGEN_LABEL = (
    "########.......###.#.#.#.#.###.##.#..#...........",
    "########.......#.#.###.###.#...#..##.#...........",
    "########.......#.#..#...#..#.#.##.####...........",
    "########.......#.#.###..#..#.#.#..#.##...........",
    "########.......###.#.#..#..###.##.#..#...........",
)
LOGO_LEFT = 66
LOGO = (
    "....########....#######",
    ".#.....#...#...##......",
    "###.##.#.#.#..##..###.#.###.#..#",
    "#.#.#..#.#.#.##.#.#...#.#.#.##.#",
    "###.#..#.#.###..#.###.#.#.#.####",
    "#.#.#..#.#.##...#...#.#.#.#.#.##",
    "#.#.##.#.#.#....#.###.#.###.#..#",
)
