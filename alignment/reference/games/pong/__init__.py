"""Pong's ground truth and plug-in: everything the pipeline knows of the game, as its ``ENTRY``
(a :class:`~alignment.signals.GameEntry`, which :mod:`alignment.catalog` finds here).

ram.py: the RAM map (each address with its public source), the signals and pokes read from it, and
  the RAM decoding of the observation's state fields;
players.py: the playtest's scripted player and the ALE lookahead player of deep play;
savepoints.py: the targets of the save-point search;
goals.py: what a strong player reaches (points won off every paddle region, lost in every
  third of the court and past either end of the paddle), judged by the audit's exploration, and
  the objective pulling its planner there.
"""

from jaxtari.games.pong import Pong

from alignment.actions import names_of
from alignment.reference.games.pong import goals, players, ram, savepoints
from alignment.signals import make_entry

ENTRY = make_entry(
    "pong", "ALE/Pong-v5",
    manual_url="https://atariage.com/manual_html_page.php?SoftwareLabelID=587",
    minimal_actions=names_of(Pong.minimal_actions), signals=ram.signals(), jax_game="pong",
    notes="score = player_score - enemy_score = the summed ALE reward; no lives (ALE lives() is 0).",
    script=(("RIGHTFIRE", 6), ("NOOP", 2), ("LEFTFIRE", 6), ("NOOP", 2)),  # sweep the paddle
    ale_mods=ram.ALE_MODS, jax_only_mods=ram.JAX_ONLY_MODS,
    observation_fields=ram.observation_fields,
    save_point_targets=savepoints.TARGETS,
    scripted_player=players.SCRIPTED,
    deep_player=players.play,
    control_aliases=players.CONTROL_ALIASES,
    planner_goals=goals.GOALS, planner_objective=goals.objective,
)
