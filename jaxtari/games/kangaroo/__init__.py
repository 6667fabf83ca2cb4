"""Kangaroo (Atari, 1983) in pure JAX, frame for frame with ALE's emulation of the cartridge.

Facts from the public disassembly of a controller hack of the cartridge (Omegamatrix,
milnak/atari-vcs-disassembly, "Hacks/Kangaroo (Genesis Controller)"; the joystick reading, which
the hack changes, read from ALE's own ROM), each number re-measured on ALE (ale-py 0.12.1,
repeat_action_probability 0, one frame per step); :mod:`.constants` names the address of every
table.

The state mirrors the cartridge's RAM bytes of the game's logic (57 bytes, ``game.FIELD_RAM``: the
monkeys and their apples, the mother's row, x, pose and action counter, the big ape's coconut, the
layout, score, lives, fruit, bell, timer, the waits and the music index they hang on) and one
``step`` runs the cartridge's frame in its order (:mod:`.logic`, :mod:`.ape`, :mod:`.monkeys`): the
mother's walking, ducking, jumping, climbing and punching; the monkeys coming down the side and
throwing apples; the big ape's coconut; fruit, the bell that refreshes them, the bonus timer, the
three floor layouts and reaching the baby, points, lives and the bonus life, the game's end; ALE's
mode 1 (``KangarooConstants.mode``: the reset at the second difficulty step, measured). The two
collisions the picture latches (the glove over an apple or the coconut) were measured on ALE.

How close it is (tests/games/test_kangaroo_*.py, on ale-py 0.12.1): every mirrored byte, the score,
the reward, lives and the end agree with ALE on every frame over the NOOP game, random play, the
stored deep game (tests/data/deep/kangaroo-s0.json: 7,689 frames to the second floor, monkeys and
apples punched, fruit, deaths), a scripted climb of layout 0 to the baby with the monkeys and
coconut held off on both sides (bell, fruit growing back, round won, time bonus, layout 1), whole
random games (slow: 10 seeds, and 5 with the no_monkey writes on both sides), two whole random
games in mode 1, random play on layouts 1 and 2 from the level poke, and (slow) a 30,002-frame game found by the planner on the JAX
game that climbs layout 0 to the baby and layout 1 to its upper floors
(tests/data/kangaroo/planner-layout1-s0.json, with the no_monkey, no_coconut and frozen_timer mods
on both sides). Layout 2's upper floors are not reached by any recorded game yet.

The 210x160 picture (:mod:`.render`, :mod:`.art`: the cartridge's graphics and pointer tables,
checked byte for byte against ALE's ROM) is the kernel's object model: the layout's playfield rows,
player 1 (baby, mother, bell, fruit) from the list the previous frame built, the monkeys (player 0)
taking turns where they come close, apples, the glove and the coconut as missiles and the ball,
lives, score and timer, the title on the game-over frame; the state keeps what the kernel drew
from (``state.Picture``). Exact on every frame of a random game on layout 1 to the game over and on
every 16th frame of the 30,002-frame planner game.

Where it knowingly differs from ALE:
- on layouts 0 and 2 a few frames of whole random games (7 of 2,439 and 33 of 1,807) are off by
  1-2 pixels of the coconut's (the ball's) first line in a row where a player-1 object is drawn:
  the kernel path that enables the ball mid-line is not modelled (cause not found);
- two monkeys shown on one frame whose rows are exactly two apart (the kernel's list leaves no row
  between them: $F3CE's relative row 0) are drawn otherwise by ALE (one hidden or misplaced): 5 of
  the 6,224 frames of a plain game through layouts 0, 1 and 2 (kspec's cycle route; 0 of the 1,984
  frames to the baby of layout 0), each in the monkeys' columns only; not modelled yet;
- the attract mode after the game-over frame is not run (the game ends on that frame on both
  sides);
- the 84x84 grey picture samples the full picture (nearest pixel), it is not drawn directly.

Mods (:mod:`.mods`): ``no_monkey``, ``no_coconut``, ``frozen_timer``, each holding bytes as its ALE
counterpart (alignment/reference/games/kangaroo/ram.ALE_MODS) writes them.
"""

from jaxtari.games.kangaroo.game import Kangaroo
from jaxtari.games.kangaroo.state import KangarooState

__all__ = ["Kangaroo", "KangarooState"]
