"""Seaquest (Activision, 1983) in pure JAX, frame for frame with ALE's emulation of the cartridge.

Facts from the public commented disassembly of the cartridge (Dennis Debro, DNSDEBRO/Disassemblies,
``Atari2600/Seaquest/seaquest.asm``), each number re-measured on ALE (ale-py 0.12.1,
repeat_action_probability 0, one frame per step).

The state mirrors the cartridge's RAM (65 bytes in 41 fields; the ground truth's
``alignment/reference/games/seaquest/ram.STATE_BYTES`` names each one's bytes; 3 more fields keep
what the picture read), and one ``step`` runs the cartridge's frame in its order (:mod:`.logic`,
:mod:`.game`): the frame counter and colour cycling, the sub (all directions, limits 21..134 x,
13..108 y, facing), its torpedo (launched under y 18 only, 5 px a frame, 3 on difficulty A, one at
a time), the oxygen (the opening refill, one unit every 32 frames below y 20, the warning at 16,
empty: death), the surfacing rules (no diver: death; 1-5: one diver given up while the oxygen
refills and the difficulty rises; six: the oxygen bonus at the level's points per unit, then
500 x (level + 1, capped at 20) per diver, then the next wave), the lanes' groups (spawn patterns
by difficulty, directions from the random byte, fractional speeds, respawn at the edges), the
divers (spawned with a group when the random byte >= 80, swimming at half the obstacle speed, or
the obstacle speed once their shark met them), the enemy subs' missiles, the patrol sub (level 2
on, its speed by level), points per enemy (20 + 10 per level, capped at 90), the bonus sub each
10,000 points (6 at most), the death animation and the level restart, the game end (ALE:
ram[35] != 0, lives() 0), the random byte (three LFSR steps every 8 frames), and the sound timers
that feed the logic. The collision latches the next frame reads are computed per lane section
from the objects' lines as bit masks (:mod:`.kernel`), as the TIA latches them while the picture is
drawn (equal, on random states, to the picture's column-by-column model).

How close it is (tests/games/test_seaquest_*.py, on ale-py 0.12.1): every mirrored RAM byte, the
score, the reward, lives() and the game's end agree with zero tolerance on every frame of 1,500
NOOP frames and whole games of random and long-held play (14 games), a game driven through waves
0-4 by RAM-written divers (the patrol sub on the surface for 2,889 frames, a bonus sub at 10,000),
the stored deep game (tests/data/deep/seaquest-s0.json: six divers surfaced three times, wave 3,
11,856 frames) and a whole game at difficulty 1. Seaquest has one ALE mode. The 210x160 picture
(:mod:`.draw`) is pixel-exact against ALE's screen on every frame of 4 whole random games (7,504
frames) and every 2nd frame of the deep game. The 84x84 grey picture is drawn directly at that
size (only the lines and columns it samples, by the same function of line and column): equal to
ALE's grey screen at those pixels and to the full picture's samples on every frame of the same
games.

After the game's end: the cartridge counts ram[35] down every frame and its copyright kernel
scrolls the copyright line in over the logo (:func:`.draw.logo_pointer`), drawn here for every
value of that byte: pixel-exact against ALE's screen for all 256, each put in RAM on a state from
the game, where ALE runs one frame (ALE emulates no frame after a game's end: its screen stays on
the last one, where the logo has not moved yet; the JAX game steps on).

Mods (:mod:`.mods`, each declaring the spec rules it changes): ``no_enemy_missiles``,
``endless_oxygen`` (JAX only: RAM writes cannot express either, the module says why),
``grey_enemies`` (visual only: sharks drawn in the enemy subs' grey; its ALE counterpart writes the
lanes' colour bytes) and ``swapped_enemies`` (visual only, JAX only: sharks drawn as enemy subs
and enemy subs as sharks, the latches from the original sprites; measured, RAM cannot express it).
"""

from jaxtari.games.seaquest.game import Seaquest
from jaxtari.games.seaquest.state import SeaquestState

__all__ = ["Seaquest", "SeaquestState"]
