"""Breakout's ground truth and plug-in: everything the pipeline knows of the game, as its ``ENTRY``
(a :class:`~alignment.signals.GameEntry`, which :mod:`alignment.catalog` finds here).

ram.py: the RAM map (each address with its public source), the signals and pokes read from it, and
  the RAM decoding of the observation's state fields;
players.py: the playtest's scripted player;
goals.py: what a strong player reaches (every row's bricks, the top wall and play on after it),
  judged by the audit's exploration, the objective pulling its planner there, and the poked deep
  starts it walks from.
"""

from jaxtari.games.breakout import Breakout

from alignment.actions import names_of
from alignment.reference.games.breakout import goals, players, ram
from alignment.signals import make_entry

ENTRY = make_entry(
    "breakout", "ALE/Breakout-v5",
    manual_url="https://atariage.com/manual_html_page.php?SoftwareID=889",
    minimal_actions=names_of(Breakout.minimal_actions), signals=ram.signals(), jax_game="breakout",
    notes="lives = ALE lives() = ram[57] (5 balls); score = BCD ram[76..77] = the summed reward; "
          "FIRE serves; the game ends when the last ball is lost.",
    script=(("FIRE", 1), ("RIGHT", 8), ("NOOP", 4), ("LEFT", 8), ("NOOP", 4)),
    pokes=ram.pokes(), ale_mods=ram.ALE_MODS, jax_only_mods=ram.JAX_ONLY_MODS,
    observation_fields=ram.observation_fields,
    scripted_player=players.SCRIPTED,
    planner_goals=goals.GOALS, planner_objective=goals.objective, deep_starts=goals.DEEP_STARTS,
)
