"""Seaquest's ground truth and plug-in: everything the pipeline knows of the game, as its ``ENTRY``
(a :class:`~alignment.signals.GameEntry`, which :mod:`alignment.catalog` finds here).

ram.py: the RAM map (each address with its public source), the signals and pokes read from it,
  the RAM bytes the JAX state mirrors, and the RAM decoding of the observation's state fields;
players.py: the playtest's scripted player and the ALE lookahead player of deep play;
goals.py: what a strong player reaches (surfacing with six divers and fewer, each enemy kind shot,
  later waves), judged by the audit's exploration, the objective pulling its planner there, and
  the poked deep starts it walks from.
"""

from jaxtari.games.seaquest import Seaquest

from alignment.actions import names_of
from alignment.reference.games.seaquest import goals, players, ram
from alignment.signals import make_entry

ENTRY = make_entry(
    "seaquest", "ALE/Seaquest-v5",
    manual_url="https://atariage.com/manual_html_page.php?SoftwareLabelID=424",
    minimal_actions=names_of(Seaquest.minimal_actions), signals=ram.signals(), jax_game="seaquest",
    notes="lives = ALE lives() = ram[59] + 1 (0 once the game is over); score = BCD ram[56..58] = "
          "the summed reward; the game ends when the last sub is lost (ram[35] != 0). The screen "
          "is compared up to and including the game's last frame (the backends stop there); the "
          "logo's scroll the cartridge shows after it is not drawn by the JAX game.",
    script=(("DOWNFIRE", 24), ("RIGHTFIRE", 12), ("LEFTFIRE", 12), ("UPFIRE", 8)),
    pokes=ram.pokes(), ale_mods=ram.ALE_MODS, jax_only_mods=ram.JAX_ONLY_MODS,
    observation_fields=ram.observation_fields,
    scripted_player=players.SCRIPTED,
    deep_player=players.deep_player,
    planner_goals=goals.GOALS, planner_objective=goals.objective, deep_starts=goals.DEEP_STARTS,
)
