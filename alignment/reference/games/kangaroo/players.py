"""Kangaroo's deep player (work in progress): a clone/restore search on ALE meant to climb the first
floor layout to the baby, so that recorded games reach the second and third layouts.

What it does today (measured, seed 0, tests/data/deep/kangaroo-s0.json): it climbs to the
second floor of layout 0 on each of its three lives and scores 2,500 in 7,689 frames, but it never
reaches the top floor: it dies to coconuts dropped on the ladders and to the apples and monkeys of
the second floor. The route and the checks below are right as far as they go; what is missing is
a search deep enough to wait out the big ape's coconut before a climb (it tracks the mother's x
until it drops) and to punch the monkeys on the second floor.

Route of layout 0 (measured on ale-py 0.12.1 with the monkeys and the coconut held off: holding UP
for 60 frames climbs a ladder only from these x, ram[17]): bottom floor x 114..121, first floor
x 2..9, second floor x 114..121; on the top floor the mother walks to the baby (ram[83]). Other
layouts have no route yet.

Each decision (every ``STEP`` frames) tries the moves in order of preference (towards the next
ladder or climbing it, punching, ducking, jumping, waiting) and takes the first after which some
held follow-up, or a short dodge then a follow-up, keeps the mother alive for ``HORIZON`` frames
(ram[54] stays 0 and no life is lost); a climb is started only when holding UP is safe all the
way up, and is then held to the top. When no move is safe, random short plans are tried, then the
move that lives longest.
"""

from __future__ import annotations

import numpy as np

from alignment.plugin import ScriptedPolicy
from alignment.reference.games.kangaroo import ram as k
from alignment.reference.games.kangaroo import route

STEP = 4  # frames per decision
HORIZON = 48  # frames looked ahead after a move to see whether it leads to a death
CLIMB_HORIZON = 160  # frames a climb is checked for: up a ladder (about 100) and standing on above
CLIMB_FRAMES = 8  # frames of UP tried while on a ladder spot
START_WAIT = 160  # frames the mother waits after reset (measured)
PLAYING = 0  # ram[54] while the mother plays
WAIT_CHANCE = 0.02
CLIMB_POSES = (39, 47)  # ram[18] while on a ladder (OCAtari; seen here while climbing)

# layout -> floor -> (lowest, highest) ram[17] from which UP climbs (measured, see above)
LADDERS = {0: {0: (114, 121), 1: (2, 9), 2: (114, 121)}}


def _alive(ram, lives_before: int) -> bool:
    return int(ram[k.MOTHER_STATE]) == PLAYING and int(ram[k.LIVES]) == lives_before


def _target(ram) -> tuple[int, int] | None:
    """(low, high) ram[17] of the next ladder, or around the baby on the top floor."""
    floor = k.mother_floor(ram)
    if floor == k.FLOORS - 1:
        baby = int(ram[k.BABY_X])
        return baby - 2, baby + 2
    return LADDERS.get(int(ram[k.LEVEL]), {}).get(floor)


def moves_towards(ram) -> list[tuple[str, int]]:
    """The moves to try, best first."""
    x = int(ram[k.MOTHER_X])
    target = _target(ram)
    first: list[tuple[str, int]] = []
    if target is not None:
        low, high = target
        if x < low:
            first = [("RIGHT", STEP)]
        elif x > high:
            first = [("LEFT", STEP)]
        else:
            first = [("UP", CLIMB_FRAMES)]
    else:
        first = [("UP", CLIMB_FRAMES)]
    rest = [("FIRE", STEP), ("DOWN", STEP), ("UP", STEP), ("UPRIGHT", STEP), ("UPLEFT", STEP),
            ("NOOP", STEP), ("RIGHTFIRE", STEP), ("LEFTFIRE", STEP)]
    if _on_ladder_spot(ram):  # no half climbs (see _climb)
        rest = [m for m in rest if not m[0].startswith("UP")]
    return first + rest


DODGES = ("UP", "DOWN", "FIRE", "UPRIGHT", "UPLEFT", "RIGHT", "LEFT")
DODGE_FRAMES = 16
FOLLOW_UPS = ("NOOP", "DOWN", "UP", "FIRE", "RIGHT", "LEFT")  # what may follow a move in the lookahead


def play_kangaroo(g, rng: np.random.Generator, *, max_frames: int = 30_000,
                  until_level: int = 2) -> None:
    """Play until ``until_level`` (the layout index) is reached, the game ends or ``max_frames``."""
    g.play(g.idx("NOOP"), START_WAIT)
    while len(g.taken) < max_frames and not g.raw.game_over():
        ram = g.ram
        if int(ram[k.LEVEL]) >= until_level:
            return
        if int(ram[k.MOTHER_STATE]) != PLAYING:  # dying or waiting: nothing to decide
            g.play(g.idx("NOOP"), STEP)
            continue
        lives = int(ram[k.LIVES])
        options = moves_towards(ram)
        chosen = next((m for m in options if _survivable(g, m, lives)), None)
        if chosen is None:  # no simple move is safe: random plans, then the longest-living move
            plan = _random_escape(g, rng, lives)
            if plan is not None:
                for name, n in plan[:ESCAPE_KEPT]:
                    g.play(g.idx(name), n)
                continue
            chosen = max(options, key=lambda m: _frames_alive(g, m, lives))
        if rng.random() < WAIT_CHANCE and _survivable(g, ("NOOP", STEP), lives):
            chosen = ("NOOP", STEP)  # a rare safe wait breaks cycles between two safe moves
        if chosen[0] == "UP" and _on_ladder_spot(ram) and _survivable(g, chosen, lives):
            _climb(g)  # checked safe all the way up: no stopping half-way
        else:
            g.play(g.idx(chosen[0]), chosen[1])


def _climb(g) -> None:
    """Hold UP until the mother stands on the next floor (the path the check simulated)."""
    floor = k.mother_floor(g.ram)
    for _ in range(CLIMB_FRAMES + CLIMB_HORIZON):
        g.play(g.idx("UP"), 1)
        ram = g.ram
        if k.mother_floor(ram) > floor and int(ram[k.MOTHER_POSE]) not in CLIMB_POSES:
            return


def _on_ladder_spot(ram) -> bool:
    target = _target(ram)
    return (int(ram[k.MOTHER_POSE]) in CLIMB_POSES or (
        target is not None and k.mother_floor(ram) < k.FLOORS - 1
        and target[0] <= int(ram[k.MOTHER_X]) <= target[1]))


def _survivable(g, move, lives: int) -> bool:
    """Whether some follow-up keeps the mother alive for ``HORIZON`` frames after ``move``; a climb
    cannot dodge half-way, so UP on a ladder must be safe all the way up."""
    first = (g.idx(move[0]), move[1])
    if move[0] == "UP" and _on_ladder_spot(g.ram):
        _, end, over = g.sim([first, (g.idx("UP"), CLIMB_HORIZON)])
        return not over and _alive(end, lives)
    _, after, over = g.sim([first])
    if over or not _alive(after, lives):
        return False
    towards = moves_towards(after)[0][0]
    if _on_ladder_spot(after):
        towards = "NOOP"  # a climb is checked on its own, whole
    for follow in (towards, *FOLLOW_UPS):
        if follow.startswith("UP") and _on_ladder_spot(after):
            continue
        _, end, over = g.sim([first, (g.idx(follow), HORIZON)])
        if not over and _alive(end, lives):
            return True
    # two-part dodges: a short jump, duck or punch, then on towards the target or waiting
    for dodge in DODGES:
        if dodge.startswith("UP") and _on_ladder_spot(after):
            continue
        for follow in (towards, "NOOP", "DOWN"):
            _, end, over = g.sim([first, (g.idx(dodge), DODGE_FRAMES),
                                  (g.idx(follow), HORIZON - DODGE_FRAMES)])
            if not over and _alive(end, lives):
                return True
    return False


def _frames_alive(g, move, lives: int) -> int:
    """Frames the mother lives after ``move`` under its best single held follow-up (capped)."""
    first = (g.idx(move[0]), move[1])
    best = 0
    for follow in FOLLOW_UPS:
        for cut in range(HORIZON // 4, CLIMB_HORIZON + 1, HORIZON // 4):
            _, end, over = g.sim([first, (g.idx(follow), cut)])
            if over or not _alive(end, lives):
                break
            best = max(best, cut)
    return best


ESCAPE_TRIES = 60  # random plans tried when no simple move is safe
ESCAPE_MOVES = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "RIGHTFIRE",
                "LEFTFIRE", "DOWNFIRE")
ESCAPE_KEPT = 2  # macros of a safe random plan played before deciding again


def _random_escape(g, rng: np.random.Generator, lives: int):
    """A random plan of held moves (4..16 frames each, ``HORIZON`` frames in all) that keeps the
    mother alive, or None."""
    for _ in range(ESCAPE_TRIES):
        plan, total = [], 0
        while total < HORIZON + STEP:
            n = int(rng.integers(1, 5)) * STEP
            plan.append((ESCAPE_MOVES[int(rng.integers(len(ESCAPE_MOVES)))], n))
            total += n
        if _on_ladder_spot(g.ram) and any(m.startswith("UP") for m, _ in plan):
            continue  # no half climbs: a climb is only ever started whole (see _climb)
        _, end, over = g.sim([(g.idx(m), n) for m, n in plan])
        if not over and _alive(end, lives):
            return plan
    return None


# ---- the playtest's scripted player --------------------------------------------------------------
CONTROLS = ("up", "down", "left", "right", "fire")
PUNCH_ON, PUNCH_PERIOD = 4, 8  # after the route: punch 4 frames in every 8, standing


def controls_of(action_name: str) -> set:
    """The controls held for an ALE action name ("UPRIGHT" -> {"up", "right"})."""
    return {c for c in CONTROLS if c.upper() in action_name}


class RoutePlayer:
    """Plays the route the JAX planner found for the plain game (:mod:`.route`: from reset to
    floor layout 1), keyed on the frame the ALE side reports (so a pause or a note does not put it
    out of step; without a frame signal, the window's tick), then stands punching. The game is
    the same on both sides frame for frame, so the route found on the JAX game climbs on ALE as
    well."""

    def __init__(self):
        self.actions = route.actions()

    def __call__(self, signals: dict, tick: int) -> set:
        if not signals:
            return set()
        # the window's signals carry the frame since reset; RAM-decoded ones alone do not
        frame = int(signals.get("frame", tick))
        if frame < len(self.actions):
            return controls_of(self.actions[frame])
        return {"fire"} if frame % PUNCH_PERIOD < PUNCH_ON else set()


SCRIPTED = ScriptedPolicy("planner-route-kangaroo-v1", RoutePlayer)
