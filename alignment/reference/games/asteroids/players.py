"""Asteroids' players: the playtest's scripted player, and the deep player - the turning gunner of
gunner.py as a :data:`alignment.plugin.DeepPlayer` over ALE's clone/restore (its stored game,
gunner_route.json, clears 13 waves).

The scripted player turns and fires in the rhythm that clears the first wave on ALE (the spinning
gunner of tests/games/test_asteroids_collisions.py: 2 frames of LEFT with FIRE, 2 without, so the
button is released between shots) and jumps to hyperspace when an asteroid comes close to the ship.
"""

from __future__ import annotations

from alignment.plugin import ScriptedPolicy

from . import gunner, ram

SPIN_PERIOD = 4          # frames: LEFT+FIRE for the first half, LEFT alone for the second
CLOSE_ROWS = 6           # an asteroid this many rows from the ship ...
CLOSE_PIXELS = 10        # ... and this many pixels sideways is close enough to jump away


class ScriptedSpinner:
    """Spin left, fire on alternate pairs of frames; DOWN (hyperspace) when an asteroid is close."""

    def __call__(self, signals: dict, tick: int) -> set:
        if not signals:
            return set()
        if int(signals.get("ship_visible", 0)):
            x, y = int(signals["ship_x"]), int(signals["ship_y"])
            for on, ax, ay in zip(signals["asteroid_active"], signals["asteroid_x"],
                                  signals["asteroid_y"]):
                if int(on) and abs(int(ay) - y) < CLOSE_ROWS and abs(int(ax) - x) < CLOSE_PIXELS:
                    return {"down"}
        held = {"left"}
        if tick % SPIN_PERIOD < SPIN_PERIOD // 2:
            held.add("fire")
        return held


SCRIPTED = ScriptedPolicy("scripted-asteroids-v1", ScriptedSpinner)


def deep_player(g, rng, *, max_frames: int = 24_000) -> None:
    """The gunner's look-ahead (gunner.MOVES, gunner.HORIZON) on the catalog's lookahead handle:
    before each move, the first of its moves (in order of preference) after which no life is
    lost, each judged with the first move held for the horizon; ``rng`` is unused (the gunner's
    order is fixed, so its game is the stored one)."""
    moves = [[g.idx(name) for name in move] for move in gunner.MOVES]
    chunks = gunner.HORIZON // len(gunner.MOVES[0])
    while len(g.taken) < max_frames and not g.raw.game_over():
        lives = ram.lives(g.ram)
        chosen = moves[0]
        for move in moves:
            plan = [(i, 1) for i in move] + [(i, 1) for _ in range(chunks) for i in moves[0]]
            _, after, over = g.sim(plan)
            if ram.lives(after) == lives and not over:
                chosen = move
                break
        for i in chosen:
            g.play(i)
