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
on both sides), and the plain game's route through layouts 0, 1, 2 and back to 0
(alignment/reference/games/kangaroo/cycle_route.json: 6,224 frames, every layout's top floor).

The 210x160 picture (:mod:`.render`, :mod:`.art`: the cartridge's graphics and pointer tables,
checked byte for byte against ALE's ROM) is the kernel's object model: the layout's playfield rows,
player 1 (baby, mother, bell, fruit) from the list the previous frame built, the monkeys (player 0)
taking turns where they come close, drawn from the kernel's list of them (sorted by row, each
waiting a count of rows after the one before: a count of 0 hides that monkey and those after it,
and its late branch writes the playfield's right half late on that row's line 1), apples, the
glove and the coconut as missiles and the ball (its first line enabled mid-line by the kernels
drawing player 1: column 22, or 19 beside a monkey), lives, score and timer, the title on the
game-over frame; the state keeps what the kernel drew from (``state.Picture``). Exact on every
frame of whole random games on layouts 0, 1 and 2 to the game over, of the plain route through
the three layouts and back (alignment/reference/games/kangaroo/cycle_route.json, 6,224 frames), and
on every 16th frame of the 30,002-frame planner game. The 84x84 grey picture is drawn directly at
that size (only the lines and columns ALE's shrink samples: ``render.Grid``), bit for bit the full
picture's samples on every frame of those games.

Where it knowingly differs from ALE:
- the attract mode after the game-over frame is not run (the game ends on that frame on both
  sides).

Mods (:mod:`.mods`): ``no_monkey``, ``no_coconut``, ``frozen_timer``, each holding bytes as its ALE
counterpart (alignment/reference/games/kangaroo/ram.ALE_MODS) writes them.
"""

from jaxtari.games.kangaroo.game import Kangaroo
from jaxtari.games.kangaroo.state import KangarooState

__all__ = ["Kangaroo", "KangarooState"]
