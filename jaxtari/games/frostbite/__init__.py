"""Frostbite (Activision, 1983) in pure JAX, frame for frame with ALE's emulation of the cartridge.

The state mirrors the game's own variables (their RAM byte is named next to each field), and one
``_step`` (game.py) runs the cartridge's frame in its order, one named rule per call: the game
logic of the vertical blank (which reads the joystick), then the collisions the picture produces (Bailey's sprite against the floe and
enemy bands, pixel by pixel, and against the bear), then the overscan (score trickle of a fish,
speed accumulators, fire-button edge, the random generator). Every rule below was measured on
ALE 0.12.1 (frames and RAM, repeat_action_probability=0), with setRAM/cloneState scripted starts
for the later levels; the order of the logic and its constants were read from the public
Frostbite disassembly by Dennis Debro (DNSDEBRO/Disassemblies) and each one checked against the emulator's RAM (the
tests in tests/games/test_frostbite.py replay the same inputs on ALE and here). The manual
(AtariAge) gives the scoring table (10 x level per block, the degree bonus, 200 per fish), 45
degrees at the start, 4 Baileys, a bonus one every 5,000 points up to 9, the bear from level 4.

Where it knowingly differs from ALE (everything else is byte-exact in the tests):
- the episode ends when the last Bailey is lost to the cold; ALE only ends it when the last Bailey
  sinks (ram[76] == 0 and ram[113] bit 7: drowned, or chased off the shore by the bear). Frozen,
  the last Bailey leaves the cartridge in its attract mode: ram[70] counts 255 ticks of 8 frames
  (about 2,030 frames), then the demo plays for ever with ram[76] = 3, and ALE never signals the
  end: a v5 episode runs on to the 108,000-frame cap (measured: reward 0 throughout, score kept,
  lives() 1 and, once the demo starts, 4). Consequence: on ALE such an episode spends up to
  27,000 agent steps of a training budget on nothing. Here it ends at the freeze, unless the
  constant ``ale_endless_game_over`` is set (mod ``ale_endless_game_over``), which reproduces
  ALE's signals (no end, reward 0, score, lives) for like-for-like comparisons; the demo's
  picture itself is not drawn (the screen stays on the game over);
- two-player games are not modelled (ALE's modes 0 and 2 are one-player);
- the enemy band's last line counts for collisions only left of x = LAST_ENEMY_LINE_X (from the
  cycle the cartridge reads the latch; matches ALE on every frame tested);
- the picture matches ALE's frames pixel for pixel on the frames tested, including the lines where
  the kernel writes Bailey's graphic or colour mid-line (kernel.py: every such write, its cycle read
  from the kernel's code paths; no write's timing depends on the data, since his two tables share
  one ROM page and no read crosses it; measured on 11,357 poked positions over levels 1 to 11 and
  27,000 frames of random play on levels 1 to 9, no difference).

Where things are: constants.py (every number, the status bits, the tunables), state.py (the state,
the start, a new screen), status.py (pauses, sinking, freezing, the tally, lives, levels, game
over), enemies.py, bailey.py (his rules, one per mechanic), world.py (bear, floes, cold),
collisions.py (what the picture shows the logic), overscan.py, cartridge.py (its random generator,
speed table and scoring arithmetic); art.py (pixel art and layout captured from ALE), kernel.py
(where the display kernel writes Bailey's registers mid-line), sprites.py
(the bit tables, built once), geometry.py (where objects are, pixel by pixel), draw.py; mods.py.

Units: x, y are ALE screen pixels; ``y`` is ram[100] (Bailey's top row on screen is y + 29);
rows are numbered 0 (bottom) .. 3 (top) as in ram[57]; ``level_index`` is ram[75] (0 = level 1).
"""

from jaxtari.games.frostbite.cartridge import add_points, lfsr_step, speed_bases  # noqa: F401
from jaxtari.games.frostbite.constants import *  # noqa: F401,F403  (the game's numbers, one home)
from jaxtari.games.frostbite.constants import FrostbiteConstants  # noqa: F401
from jaxtari.games.frostbite.game import Frostbite, mirrored_ram  # noqa: F401
from jaxtari.games.frostbite.state import FrostbiteState  # noqa: F401
