"""Freeway's ground truth and plug-in: everything the pipeline knows of the game, as its ``ENTRY``
(a :class:`~alignment.signals.GameEntry`, which :mod:`alignment.catalog` finds here).

ram.py: the RAM map (each address with its public source), the signals and pokes read from it, and
  the RAM decoding of the observation's state fields;
players.py: the playtest's scripted player and the ALE lookahead player of deep play;
savepoints.py: the targets of the save-point search;
goals.py: what a strong player reaches (every lane crossed, hit on every lane), judged by the
  audit's exploration, and the objective pulling its planner there.
"""

from jaxtari.games.freeway import Freeway

from alignment.actions import names_of
from alignment.reference.games.freeway import goals, players, ram, savepoints
from alignment.signals import make_entry

ENTRY = make_entry(
    "freeway", "ALE/Freeway-v5",
    manual_url="https://atariage.com/manual_html_page.php?SoftwareLabelID=192",
    minimal_actions=names_of(Freeway.minimal_actions), signals=ram.signals(), jax_game="freeway",
    notes=f"no lives (ALE lives() is 0); the game ends after {ram.GAME_FRAMES} frames (2 min 16.5 s).",
    script=(("UP", 12), ("NOOP", 3)),  # walk up, pausing now and then
    ale_mods=ram.ALE_MODS, jax_only_mods=ram.JAX_ONLY_MODS,
    observation_fields=ram.observation_fields,
    save_point_targets=savepoints.TARGETS,
    scripted_player=players.SCRIPTED,
    deep_player=players.play,
    planner_goals=goals.GOALS, planner_objective=goals.objective,
)
