"""Kangaroo's ground truth and plug-in: everything the pipeline knows of the game, as its ``ENTRY``
(a :class:`~alignment.signals.GameEntry`, which :mod:`alignment.catalog` finds here).

ram.py: the RAM map (each address with its public source, re-checked on the emulator by
  tests/games/test_kangaroo_ram.py), the signals and pokes read from it and written into it, the
  ALE halves of the mods, and the RAM decoding of the observation's state fields;
players.py: the playtest's scripted player and the ALE clone/restore player of deep play;
goals.py: what a strong player reaches (each layout's floors climbed, coconuts and monkeys punched
  on each floor), judged by the audit's exploration, the objective pulling its planner there,
  and the layouts written as deep starts;
planner.py: a planner on the JAX game that found the stored game through layout 1;
overscan.py: the overscan's segments on ALE's ROM and the overrun rule, for a cycle model
  (measured with alignment.porting.cycles; NOTES.md).
"""

from jaxtari.games.kangaroo import Kangaroo

from alignment.actions import names_of
from alignment.reference.games.kangaroo import goals, players, ram
from alignment.signals import make_entry

ENTRY = make_entry(
    "kangaroo", "ALE/Kangaroo-v5",
    manual_url="https://atariage.com/manual_html_page.php?SoftwareLabelID=923",
    minimal_actions=names_of(Kangaroo.minimal_actions), signals=ram.signals(), jax_game="kangaroo",
    notes="lives = ALE lives() = ram[45] + 1 (0 once the game is over: ram[45] is 255 from the "
          "game-over frame, which ends the game on both sides); score = BCD ram[39..40] in "
          "hundreds = the summed reward. The mother waits through the start tune for 160 "
          "frames after reset and after each lost life. Floor layouts 0, 1, 2 follow one another "
          "as the mother reaches the baby (ram[36]).",
    script=(("NOOP", 160), ("RIGHT", 120), ("UP", 60), ("FIRE", 8), ("DOWN", 8), ("LEFT", 40)),
    pokes=ram.POKES, ale_mods=ram.ALE_MODS,
    observation_fields=ram.observation_fields,
    scripted_player=players.SCRIPTED,
    deep_player=players.play_kangaroo,
    planner_goals=goals.GOALS, planner_objective=goals.objective, deep_starts=goals.DEEP_STARTS,
)
