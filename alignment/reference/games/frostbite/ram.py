"""Frostbite's ground truth: Bailey, the floes, the enemies, the bear, the igloo, temperature, level.

Addresses: OCAtari's Frostbite RAM extractor (k4ntz/OC_Atari, ocatari/ram/frostbite.py), each one also
named in the public Frostbite disassembly (DNSDEBRO/Disassemblies, Atari2600/Frostbite/frostbite.asm;
its RAM label is given beside each address below). The level byte is not in OCAtari's extractor: it is
the disassembly's ``currentLevel``, and measured here on ale-py 0.12.1 (0 at reset; a written value
stays and brings that level's enemies). tests/reference/test_ale.py re-checks every address on the
emulator.
"""

from __future__ import annotations

import numpy as np

from jaxtari.games.frostbite import (
    BEAR_MAX_X, BEAR_X_OFFSET, FULL_IGLOO, PLAYER_H, PLAYER_W, PLAYER_Y_OFFSET, WHITE_FLOE_COLOUR,
)

from alignment.signals import (
    MEASURED, OCATARI, AleCounterpart, KnownEnd, Poke, RamWrite, Signal, bcd, bcd_bytes, jax_signal, ram_byte,
)

DISASM = "the Frostbite disassembly (DNSDEBRO/Disassemblies)"

FLOE_X = slice(31, 35)  # iceBlocksHorizPos, by row number (0 bottom .. 3 top)
FLOE_COLOUR = slice(43, 47)  # iceBlockColors
ROW = 57  # baileyIceBlockCollisionIdx: 255 on the shore, else the row Bailey stands on
SCORE = slice(72, 75)  # playerScore, BCD, most significant first
LEVEL = 75  # currentLevel, 0-based
LIVES = 76  # remainingLives (ALE lives() = this + 1 while alive)
IGLOO = 77  # buildingIglooIdx: 255 none, k -> k+1 blocks
ENEMY_X = slice(84, 88)  # kernelObstacleHorizPos, by row number
PLAYER_Y = 100  # baileyVertPos
TEMPERATURE = 101  # temperatureValue, BCD
FLAGS = 113  # 0 while Bailey plays (no sinking, tally or freeze under way): the JAX state's `flags` mirrors it (measured)
PLAYER_X = 102  # baileyHorizPos
ATTRACT_TIMER = 70  # copyrightScrollRate: 0 while a game is played, 255 from the frame the last Bailey is lost, then counts down to the demo (measured)
BEAR_X = 104  # polarGrizzlyHorizPos
JUMP = 106  # baileyJumpingOffsetIdx: 0 unless Bailey is in the air
BEAR_HIT = 109  # baileyGrizzlyCollisionValue: bit 7 from the bear's touch until Bailey next lands
BEAR_HIT_BIT = 0x80  # the collision latch's bit (CXPPMM's player-player bit, stored as read)

# Numbers shared with the JAX game, from their one home (jaxtari.games.frostbite.constants):
# WHITE_FLOE is the iceBlockColors value of a row not yet jumped on; NO_BEAR the polarGrizzlyHorizPos
# of levels without a bear (its resting x); Bailey's screen top y is baileyVertPos + PLAYER_Y_OFFSET
# and the bear's left x polarGrizzlyHorizPos + BEAR_X_OFFSET (both as OCAtari's extractor has them).
WHITE_FLOE = WHITE_FLOE_COLOUR
NO_BLOCKS = 255
NO_BEAR = BEAR_MAX_X

POSITION_TOLERANCE = 2  # px


def igloo_blocks(ram) -> int:
    return 0 if ram[IGLOO] == NO_BLOCKS else int(ram[IGLOO]) + 1


def bear_x(ram) -> int:
    return -1 if ram[BEAR_X] == NO_BEAR else int(ram[BEAR_X]) + BEAR_X_OFFSET


def signals() -> list[Signal]:
    px = POSITION_TOLERANCE
    return [
        Signal("player_x", ram_byte(PLAYER_X), jax_signal("player_x"), px, "px",
               f"ram[{PLAYER_X}] ({DISASM}: baileyHorizPos), {OCATARI}",
               description=f"Frostbite Bailey, left x ({PLAYER_W}x{PLAYER_H} px)"),
        Signal("player_y", ram_byte(PLAYER_Y, PLAYER_Y_OFFSET), jax_signal("player_y"), px, "px",
               f"ram[{PLAYER_Y}]+{PLAYER_Y_OFFSET} ({DISASM}: baileyVertPos), {OCATARI}",
               description="Frostbite Bailey, top y"),
        Signal("row", ram_byte(ROW), jax_signal("row"), 0, "row",
               f"ram[{ROW}] ({DISASM}: baileyIceBlockCollisionIdx), {OCATARI}",
               description="255 on the shore, 3..0 for the floe rows top to bottom"),
        Signal("level", ram_byte(LEVEL, 1), jax_signal("level"), 0, "level",
               f"ram[{LEVEL}]+1 ({DISASM}: currentLevel), {MEASURED}: 0 at reset, and a written "
               f"value stays and brings the level's enemies (3 -> the bear, which the manual puts at "
               f"level 4); ram[70] (copyrightScrollRate) does not keep a written value",
               description="1-based level"),
        Signal("igloo_blocks", igloo_blocks, jax_signal("igloo_blocks"), 0, "blocks",
               f"ram[{IGLOO}] (255 none, k -> k+1 blocks; {DISASM}: buildingIglooIdx), {OCATARI}",
               description=f"igloo blocks built, 0..{FULL_IGLOO + 1} ({FULL_IGLOO + 1} = complete, "
                           f"door open)"),
        Signal("temperature", lambda ram: bcd(ram[TEMPERATURE]), jax_signal("temperature"), 0,
               "degrees", f"BCD ram[{TEMPERATURE}] ({DISASM}: temperatureValue), {OCATARI}",
               description="45 at the start of a life, counts down"),
        Signal("floe_x", lambda ram: np.asarray(ram[FLOE_X], np.int32), jax_signal("floe_x"), px,
               "px", f"ram[31..34] ({DISASM}: iceBlocksHorizPos), {OCATARI}", shape=(4,),
               description="left x of each floe row, indexed by row number as `row` is (index 0 "
                           "the bottom row at y = 174, index 3 the top row at y = 96: y = 174 - 26 i)"),
        Signal("floe_white", lambda ram: np.asarray(ram[FLOE_COLOUR] == WHITE_FLOE),
               jax_signal("floe_white"), 0, "bool",
               f"ram[43..46] == {WHITE_FLOE} ({DISASM}: iceBlockColors), {OCATARI}", shape=(4,),
               description="whether each floe row is still white (not yet jumped on), indexed by row "
                           "number (0 bottom .. 3 top); all four turn white again once all are blue"),
        Signal("enemy_x", lambda ram: np.asarray(ram[ENEMY_X], np.int32), jax_signal("enemy_x"), px,
               "px", f"ram[84..87] ({DISASM}: kernelObstacleHorizPos), {OCATARI}", shape=(4,),
               description="left x of each row's enemy, indexed by row number (0 bottom .. 3 top)"),
        Signal("game_over", lambda ram: bool(ram[ATTRACT_TIMER] != 0),
               lambda game, state: state.game_over & ~state.demo, 0, "bool",
               f"ram[{ATTRACT_TIMER}] != 0 ({DISASM}: copyrightScrollRate), {MEASURED}: 0 through "
               f"play, 255 from the frame the last Bailey is lost (drowned or frozen), counting down "
               f"to the demo",
               description="the cartridge's game over: the last Bailey lost; ALE ends the episode "
                           "here only when he sank (see the known end)"),
        Signal("bear_x", bear_x, jax_signal("bear_x"), px, "px",
               f"ram[{BEAR_X}]+{BEAR_X_OFFSET}, absent when ram[{BEAR_X}] == {NO_BEAR} ({DISASM}: "
               f"polarGrizzlyHorizPos), {OCATARI}",
               description="polar bear left x; -1 when there is no bear (levels without one)"),
    ]


MAX_POKED_LEVEL = 16  # the deepest level whose written start is checked against ALE (tests)


def _jax_score(state, value):
    import jax.numpy as jnp

    return state.replace(score=jnp.int32(value))


def _jax_level(state, value):
    import jax.numpy as jnp

    return state.replace(level_index=jnp.int32(value - 1))


def pokes() -> list[Poke]:
    return [
        Poke("score", 0, 999_999, lambda v: bcd_bytes(v, range(SCORE.start, SCORE.stop)), _jax_score,
             f"BCD ram[72..74] ({DISASM}: playerScore), {OCATARI}", score=True,
             description="the score (the next bonus Bailey comes when the hundreds byte next turns "
                         "to 00 or 50)"),
        Poke("level", 1, MAX_POKED_LEVEL, lambda v: {LEVEL: v - 1}, _jax_level,
             f"ram[{LEVEL}] = level - 1 ({DISASM}: currentLevel), {MEASURED}", last_frame=0,
             # A write later in a level also played the same on both (437 frames measured), but
             # leaves that level's speeds and enemies in place until the next one starts: a state
             # play never reaches. Before the first frame, the opening screen is set up for it.
             description="the 1-based level, written before the first frame (the opening screen "
                         "is then set up for that level)"),
    ]


# The JAX game ends the episode when the last Bailey freezes; the cartridge runs on into its demo and
# ALE never ends it (jaxtari.games.frostbite's docstring; measured on ale-py 0.12.1: from that
# frame ram[70] = 255 and ALE's lives() stays 1, reward 0, to the 108,000-frame cap).
KNOWN_ENDS = (
    KnownEnd("last Bailey frozen", marker="game_over", differs=("lives", "terminated", "screen"),
             removed_by="ale_endless_game_over",
             why="the JAX game ends the episode when the last Bailey freezes (lives() 0); ALE's "
                 "Frostbite never ends it (lives() 1, then the demo's 4, reward 0 to the episode "
                 "cap); the mod ale_endless_game_over plays ALE's end"),
)


# keep_warm: the temperature written back to its start (45, BCD) after every frame in play.
START_TEMPERATURE_BCD = bcd_bytes(45, [TEMPERATURE])[TEMPERATURE]
ALE_MODS = {
    "keep_warm": AleCounterpart(
        (RamWrite(TEMPERATURE, START_TEMPERATURE_BCD, if_ram=(FLAGS, 0)),), exact=False,
        measured="python -m alignment.counterparts frostbite keep_warm --games 5 (2026-12-04, "
                 "ale-py 0.12.1): 5 whole games of random held actions (7,823 frames, each ended by "
                 "drowning), and --policy noop: 8,000 frames on the shore with the temperature held; "
                 "every catalog signal and the reward equal every frame. Not measured: a level's "
                 "end (igloo tally), which random play does not reach. Screens: `jaxtari-align "
                 "audit frostbite --mods keep_warm` (audits/frostbite+keep_warm.md)",
        differs="the screen only: on the frames the cartridge lowers the temperature it draws the "
                "lowered digits before the RAM write restores 45 after the frame (rows 22-29, "
                "columns 31-36; 22 of 1,499 NOOP frames from reset, the first at frame 122); every "
                "catalog signal and the reward equal"),
    # ALE itself runs on after a frozen last Bailey: this JAX mod imitates the real game, no writes
    "ale_endless_game_over": AleCounterpart(
        (), exact=False,
        measured="python -m alignment.counterparts frostbite ale_endless_game_over --games 5 and "
                 "--games 1 --policy noop --max-frames 16000 (2026-12-04, ale-py 0.12.1): 5 random "
                 "games (7,823 frames) equal every frame; the NOOP game (every Bailey freezes) equal "
                 "up to frame 14,646",
        differs="after the last Bailey froze, ALE's demo moves Bailey (player_x 67 vs 64 at frame "
                "14,647 of a NOOP game); the JAX game only stands in for the demo (reward 0 on both)"),
}
JAX_ONLY_MODS = {
    "no_enemies": "which enemy a row gets is cartridge code run at each row's respawn",
    "slow_floes": "the floe speeds come from a ROM table per level",
    "monochrome": "sprite graphics are cartridge data (ROM), not RAM",
    "no_bear": "not measured yet (the bear comes out from level 4)",
}
