"""Asteroids' ground truth and plug-in: everything the pipeline knows of the game, as its
``ENTRY`` (a :class:`~alignment.signals.GameEntry`, which :mod:`alignment.catalog` finds here).

ram.py: the RAM map (each address with its public source, re-checked on the emulator by
  tests/games/test_asteroids_ram.py), the signals and pokes read from it and written into it, the
  RAM bytes the JAX state mirrors, and the ALE halves of the mods;
players.py: the playtest's scripted player and the gunner's ALE clone/restore deep player;
gunner.py: the gunner's search and its stored 45,000-frame game (gunner_route.json);
goals.py: what a strong player reaches (each size shot, a wave cleared, bonus lives, hyperspace,
  the 1,000 and 5,000 marks), the objective pulling the audit's planner there, and the poked deep
  starts (bigger waves, a bonus life one hit away, the last life);
NOTES.md: the port's measurement notes (what was measured on ALE, how, and what is open).
"""

from alignment.actions import names_of
from alignment.signals import make_entry

from jaxtari.games.asteroids import Asteroids
from . import goals, players, ram

ENTRY = make_entry(
    "asteroids", "ALE/Asteroids-v5",
    manual_url="https://atariage.com/manual_html_page.php?SoftwareID=828",
    minimal_actions=names_of(Asteroids.minimal_actions), signals=ram.signals(), jax_game="asteroids",
    notes="lives = ALE lives() = ram[60] >> 4; score = BCD ram[61..62] x 10 = the summed reward; "
          "the game ends on the frame the lives nibble reaches 0. ALE's default mode 0 and "
          "difficulty 0: no UFO, no shields or flip. The screen alternates: after an odd frame "
          "(ram[57]) the asteroids only, after an even one the ship and its shots only.",
    script=(("LEFTFIRE", 2), ("LEFT", 2)),
    pokes=ram.pokes(), ale_mods=ram.ALE_MODS, jax_only_mods=ram.JAX_ONLY_MODS,
    observation_fields=ram.observation_fields,
    scripted_player=players.SCRIPTED,
    deep_player=players.deep_player,
    planner_goals=goals.GOALS, planner_objective=goals.objective, deep_starts=goals.DEEP_STARTS,
)
