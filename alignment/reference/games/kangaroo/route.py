"""The playtest's route: the actions the JAX planner found for the plain game from reset to floor
layout 1 (``planner.plan(seed=0, max_frames=9000, until_level=1, mods=(), moves=PLAIN_MOVES,
route=True)``, 2026-12-05: 205 s on the shared 2-core machine under load), as (ALE action name,
frames held) runs. The JAX game is exact against ALE, so the route climbs layout 0 on ALE as well:
no life lost, layout 1 reached after 2,340 frames (tests/games/test_kangaroo_playtest.py replays it on both).
Data, not code: the scripted player (:mod:`.players`) plays it frame by frame.

:func:`cycle`: a second route, stored as data (cycle_route.json), that plays the plain game through
all three layouts and back to the first.
"""

import json
from pathlib import Path

FRAMES = 2354
RUNS = (
    ("NOOP", 170), ("RIGHT", 24), ("DOWN", 24), ("RIGHT", 24), ("FIRE", 20), ("UPRIGHT", 4),
    ("RIGHT", 24), ("UPRIGHT", 24), ("RIGHTFIRE", 24), ("RIGHT", 8), ("UPRIGHT", 40),
    ("RIGHT", 24), ("DOWN", 22), ("RIGHT", 2), ("RIGHTFIRE", 24), ("FIRE", 24), ("RIGHT", 120),
    ("UPRIGHT", 24), ("DOWN", 9), ("NOOP", 7), ("RIGHT", 26), ("UPLEFT", 6), ("FIRE", 13),
    ("UPRIGHT", 11), ("UP", 12), ("DOWN", 8), ("UPRIGHT", 27), ("UPLEFT", 1), ("UP", 33),
    ("LEFT", 28), ("DOWN", 5), ("NOOP", 6), ("LEFT", 48), ("FIRE", 48), ("DOWN", 15), ("LEFT", 57),
    ("FIRE", 6), ("UPLEFT", 18), ("LEFT", 24), ("UPLEFT", 48), ("NOOP", 7), ("UPLEFT", 17),
    ("LEFT", 72), ("UPLEFT", 10), ("UP", 8), ("NOOP", 6), ("RIGHTFIRE", 24), ("DOWN", 29),
    ("LEFT", 35), ("UP", 8), ("UPLEFT", 24), ("UPRIGHT", 24), ("UP", 48), ("UPRIGHT", 24),
    ("FIRE", 14), ("RIGHT", 34), ("LEFTFIRE", 24), ("UPRIGHT", 24), ("RIGHT", 144), ("FIRE", 21),
    ("UPRIGHT", 27), ("FIRE", 17), ("RIGHT", 7), ("UP", 13), ("DOWN", 11), ("FIRE", 24),
    ("RIGHTFIRE", 24), ("FIRE", 24), ("UPRIGHT", 24), ("DOWN", 24), ("UPRIGHT", 24), ("FIRE", 7),
    ("RIGHTFIRE", 41), ("RIGHT", 24), ("UP", 14), ("UPLEFT", 54), ("UPRIGHT", 4), ("LEFT", 19),
    ("UPLEFT", 5), ("UP", 19), ("FIRE", 5), ("UP", 6), ("NOOP", 18), ("RIGHT", 20),
    ("LEFTFIRE", 4), ("DOWN", 24), ("LEFT", 19), ("UPRIGHT", 29), ("UP", 21), ("LEFT", 3),
    ("DOWN", 21), ("RIGHT", 3), ("LEFTFIRE", 24), ("RIGHT", 24), ("UPRIGHT", 24), ("LEFT", 4),
    ("UPRIGHT", 15), ("LEFTFIRE", 5),
)


def actions() -> list[str]:
    """One ALE action name per frame."""
    return [name for name, n in RUNS for _ in range(n)]


CYCLE = Path(__file__).with_name("cycle_route.json")


def cycle() -> dict:
    """The plain game's route through layouts 0, 1, 2 and back to 0 (cycle_route.json: how it was
    found and what it reaches, measured on ALE): its ``runs``, ``frames`` and ``layouts``
    ([layout, first frame]), checked for shape."""
    doc = json.loads(CYCLE.read_text())
    runs = [(str(name), int(n)) for name, n in doc["runs"]]
    if sum(n for _, n in runs) != doc["frames"]:
        raise ValueError(f"{CYCLE.name}: its runs hold {sum(n for _, n in runs)} frames, its header "
                         f"says {doc['frames']}")
    return {**doc, "runs": runs}


def cycle_actions() -> list[str]:
    """The cycle route, one ALE action name per frame."""
    return [name for name, n in cycle()["runs"] for _ in range(n)]
