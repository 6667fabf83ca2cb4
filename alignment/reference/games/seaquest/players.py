"""Seaquest's players: the playtest's scripted player, and the deep player - a greedy lookahead
over ALE's clone/restore that rescues divers, surfaces with six, and so reaches later waves (the
patrol sub from wave 2) by play alone.

It follows the catalog's :data:`alignment.plugin.DeepPlayer` protocol
(``player(lookahead, rng, **options)``); ``alignment.deepplay.Lookahead.of_rom("seaquest")`` is
such a handle while the game is not in the catalog. The actions it chooses are data
(tests/data/deep/seaquest-s0.json),
replayed on both sides by tests/games/test_seaquest_logic.py.
"""

from __future__ import annotations

import numpy as np

from jaxtari.games.seaquest import constants as k

from alignment.plugin import ScriptedPolicy

# ---- the playtest's scripted player --------------------------------------------------------------
SURFACE_OXYGEN = 16  # below this the scripted sub heads up (the low-oxygen warning starts at 16)
# player_y that puts the sub's torpedo line in a lane (lanes top first): ram[97] of players' LANE_SUB_Y
# below, plus the sub's top-line offset
HUNT_LANE = 0  # the top lane: the shortest way up
SCREEN_W = 160
GROUP_MIDDLE = 16  # px from a group's x to its middle copy


class ScriptedDiver:
    """Dive to the top lane, turn towards its enemy group and keep firing, let the lane's divers
    swim into the sub, and go up when six are carried or the oxygen runs low. A human-like,
    imperfect player: it loses subs to enemy subs' missiles and to the lanes it crosses."""

    def __init__(self):
        self.surfacing = False

    def __call__(self, signals: dict, tick: int) -> set:
        if not signals:
            return set()
        y = int(signals["player_y"])
        surface_y = k.SUB_TOP_OFFSET + k.SUB_Y_MIN
        divers, oxygen = int(signals["divers_carried"]), int(signals["oxygen"])
        if divers == k.MAX_DIVERS or (oxygen < SURFACE_OXYGEN and y > surface_y):
            self.surfacing = True
        if self.surfacing:
            if y > surface_y:
                return {"up"}
            if oxygen < k.OXYGEN_MAX:  # wait out the refill (or the bonus)
                return set()
            self.surfacing = False
        held = {"fire"}
        x = int(signals["player_x"]) + k.SUB_WIDTH // 2
        diver_x = [int(v) for v in signals["diver_x"]]
        lanes = [lane for lane in range(k.NUM_LANES) if diver_x[lane]]
        lane = min(lanes, key=lambda i: abs(diver_x[i] - x) + 2 * abs(self._lane_y(i) - y),
                   default=HUNT_LANE)
        target = self._lane_y(lane)
        if y < target:
            held.add("down")
        elif y > target:
            held.add("up")
        gx = int(signals["enemy_x"][lane])
        if diver_x[lane] and abs(diver_x[lane] - x) > k.SUB_WIDTH // 2:
            held.add("left" if diver_x[lane] < x else "right")
        elif int(signals["enemy_copies"][lane]) and gx < SCREEN_W:
            want_left = gx + GROUP_MIDDLE < x
            if want_left != bool(signals["player_facing_left"]):
                held.add("left" if want_left else "right")
        return held

    @staticmethod
    def _lane_y(lane: int) -> int:
        """The player_y that puts the sub in a lane (top first)."""
        return LANE_SUB_Y[k.NUM_LANES - 1 - lane] + k.SUB_TOP_OFFSET


SCRIPTED = ScriptedPolicy("scripted-seaquest-v1", ScriptedDiver)


# ---- the deep player -------------------------------------------------------------------------------
MACROS = ("UPFIRE", "DOWNFIRE", "LEFTFIRE", "RIGHTFIRE", "UPLEFTFIRE", "UPRIGHTFIRE",
          "DOWNLEFTFIRE", "DOWNRIGHTFIRE", "FIRE", "UP")
DEAD = -1e9
WAVE = 1e6  # a wave won outweighs everything else
DIVER = 2e3
LOW_OXYGEN = 20  # below this, or with six divers, the player heads for the surface
HUNT_DEPTH = 60  # where the player waits for divers otherwise (ram[97])
# ram[97] that centres the sub on a lane's loop lines (lane 3 the top lane): its rows span
# ram[97] + 33..44, the lane's loop lines 65..79 down 24 a lane
LANE_SUB_Y = tuple(34 + 24 * (k.NUM_LANES - 1 - lane) for lane in range(k.NUM_LANES))


def _value(now, ram, over) -> float:
    lost = over or ram[k.RAM_DEATH] != 0 or ram[k.RAM_RESERVE_SUBS] < now[k.RAM_RESERVE_SUBS]
    if lost:
        return DEAD
    divers, oxygen, y = int(ram[k.RAM_DIVERS]), int(ram[k.RAM_OXYGEN]), int(ram[k.RAM_SUB_Y])
    v = WAVE * int(ram[k.RAM_LEVEL]) + DIVER * divers
    if divers == k.MAX_DIVERS or (oxygen < LOW_OXYGEN and divers > 0):
        return v - 100.0 * y  # up
    # otherwise towards the nearest diver swimming (its lane's middle line, its x)
    x = int(ram[k.RAM_SUB_X]) + k.SUB_WIDTH // 2
    best = None
    for lane in range(k.NUM_LANES):
        shark = (int(ram[k.RAM_ATTRIBUTES + lane]) & k.ATTR_SUB) == 0
        dx = int(ram[k.RAM_MISSILE_X + lane])
        if shark and ram[k.RAM_DIVER_STATE + lane] == k.DIVER_SWIMMING and 0 < dx < k.SCREEN_RIGHT:
            target_y = LANE_SUB_Y[lane]
            d = abs(y - target_y) + abs(x - dx - k.BALL_X_OFFSET)
            best = d if best is None else min(best, d)
    return v - 10.0 * (abs(y - HUNT_DEPTH) if best is None else best) + 0.1 * _score(ram)


def _score(ram) -> int:
    return int("".join(f"{int(b):02x}" for b in ram[k.RAM_SCORE:k.RAM_SCORE + 3]))


def deep_player(g, rng, *, max_frames: int = 12_000, waves: int = 3, step: int = 8,
                horizon: int = 32) -> None:
    """Play until ``waves`` waves are won, the game ends or ``max_frames`` frames: every
    ``step`` frames, the macro (held ``step`` frames, then ``horizon`` more) whose end state is
    worth most; ties broken by ``rng``."""
    macros = [g.idx(m) for m in MACROS]
    while len(g.taken) < max_frames and not g.raw.game_over():
        now = g.ram.copy()
        if int(now[k.RAM_LEVEL]) >= waves:
            break
        order = rng.permutation(len(macros))
        best, best_value = macros[order[0]], -np.inf
        for j in order:
            m = macros[j]
            _, ram, over = g.sim([(m, step + horizon)])
            value = _value(now, ram, over)
            if value > best_value:
                best, best_value = m, value
        g.play(best, step)
