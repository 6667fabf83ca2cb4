"""Frostbite's ground truth and plug-in: everything the pipeline knows of the game, as its ``ENTRY``
(a :class:`~alignment.signals.GameEntry`, which :mod:`alignment.catalog` finds here).

ram.py: the RAM map (each address with its public source), the signals and pokes read from it;
players.py: the playtest's scripted player and the ALE lookahead player of deep play;
savepoints.py: the targets of the save-point search;
goals.py: what a strong player reaches (igloos entered, later levels, reserves, every row and
  edge), judged by the audit's exploration, the objective pulling its planner there, and the poked
  deep starts it walks from.
"""

from jaxtari.games.frostbite import Frostbite

from alignment.actions import names_of
from alignment.reference.games.frostbite import goals, players, ram, savepoints
from alignment.signals import make_entry

ENTRY = make_entry(
    "frostbite", "ALE/Frostbite-v5",
    manual_url="https://atariage.com/manual_html_page.php?SoftwareLabelID=199",
    minimal_actions=names_of(Frostbite.minimal_actions), signals=ram.signals(), jax_game="frostbite",
    notes="lives: ALE lives() = ram[76]+1 while alive; score = BCD ram[72..74] = summed reward.",
    script=(("DOWN", 10), ("UP", 10), ("RIGHT", 3), ("LEFT", 3)),  # hop over the floes and back
    pokes=ram.pokes(), ale_mods=ram.ALE_MODS, jax_only_mods=ram.JAX_ONLY_MODS,
    save_point_targets=savepoints.TARGETS,
    scripted_player=players.SCRIPTED,
    deep_player=players.play,
    known_ends=ram.KNOWN_ENDS,
    planner_goals=goals.GOALS, planner_objective=goals.objective, deep_starts=goals.DEEP_STARTS,
)
