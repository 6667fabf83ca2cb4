"""A planner on the JAX game (exact against ALE, so what it finds replays on ALE): random shooting
over held actions, scored by the layout reached and the highest row climbed.

- With the monkeys, the coconut and the timer held off (the no_monkey, no_coconut and frozen_timer
  mods on both sides) it drove the stored game tests/data/kangaroo/planner-layout1-s0.json (30,002
  frames: layout 0 climbed to the baby, then layout 1's upper floors; 7 min on the shared 2-core
  machine under load; re-running ``plan(seed=0)`` gives it again, checked once on 2026-12-04, not
  in the tests: it takes minutes).
- On the plain game, scored also by the distance to layout 0's next ladder (``route=True``), it
  found the playtest's route (:mod:`.route`, 205 s under load).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from alignment.actions import ACTION_NAMES
from jaxtari.games.kangaroo import Kangaroo
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.constants import KangarooConstants
from jaxtari.games.kangaroo.mods import MODS

CART = KangarooConstants()  # the cartridge's own numbers

MODS_USED = ("no_monkey", "no_coconut", "frozen_timer")
MOVES = ("UP", "UPRIGHT", "UPLEFT", "RIGHT", "LEFT", "NOOP", "DOWN", "RIGHT", "LEFT", "UP")
# the plain game's moves: the climb's, and the punch (monkeys, apples) and the duck (thrown apples)
PLAIN_MOVES = MOVES + ("FIRE", "FIRE", "DOWN", "RIGHTFIRE", "LEFTFIRE")
CANDIDATES = 512  # plans tried per decision
HORIZON = 96  # frames each plan runs
KEPT = 24  # frames of the best plan played before deciding again
HOLD = (4, 40)  # frames an action of a plan is held (low inclusive, high exclusive)
START_WAIT = 170  # NOOP frames first (the start tune)
LOST_LIFE = 100_000  # a plan that loses a life scores below any other
LEVEL_WEIGHT, ROW_WEIGHT = 1000, 10
DYING = 1  # ram[54] while the mother dies (a life about to be lost)
# the route's scoring (plan(route=True)): a layout outweighs every row, a row every pixel, a death all
ROUTE_LEVEL_WEIGHT, ROUTE_ROW_WEIGHT, ROUTE_X_WEIGHT = 10**7, 10**4, 10
ROUTE_LOST_LIFE = 10**9
# layout 0: the x (ram[17]) of the ladder up from each floor (the middle of the 114..121 and 2..9
# from which holding UP climbs, measured: players.LADDERS), and on the top floor the baby's side
ROUTE_X = (118, 6, 118, 118)


def game(mods=MODS_USED) -> Kangaroo:
    consts = {}
    for mod in MODS:
        if mod.name in mods:
            consts.update(mod.constants)
    return Kangaroo(KangarooConstants(**consts))


def plan(seed: int = 0, max_frames: int = 30_000, until_level: int = 2, mods=MODS_USED,
         moves=MOVES, route: bool = False) -> list[int]:
    """ALE action ids from reset until ``until_level`` or ``max_frames``, on the game with
    ``mods`` (on ALE: their counterparts' RAM writes), trying held ``moves``. ``route``: score
    plans also by the mother's distance from layout 0's next ladder (:data:`ROUTE_X`) and count a
    death begun within the horizon as a lost life (what the plain game needs: without it the
    search finds no ladder before the timer runs out)."""
    g = game(mods)
    moves = np.array([ACTION_NAMES.index(n) for n in moves])
    route_x = jnp.asarray(ROUTE_X, jnp.int32)

    def roll(s, acts):
        def body(s, a):
            s, _ = g._step(s, a)
            return s, (s.mother_row, s.level)
        return jax.lax.scan(body, s, acts)

    @jax.jit
    def scores(s, acts):
        final, (rows, levels) = jax.vmap(lambda a: roll(s, a))(acts)
        if not route:
            lost = final.lives < s.lives
            return (levels.max(1) * LEVEL_WEIGHT - rows.min(1) * ROW_WEIGHT - final.mother_row
                    - lost * LOST_LIFE)
        lost = (final.lives != s.lives) | (final.mother_state == DYING)
        floor = jnp.clip((CART.start_row - final.mother_row) // k.ROWS_PER_FLOOR, 0, k.FLOORS - 1)
        on_layout_0 = final.level == 0
        away = jnp.where(on_layout_0, jnp.abs(final.mother_x - route_x[floor]), 0)
        return (levels.max(1) * ROUTE_LEVEL_WEIGHT - final.mother_row * ROUTE_ROW_WEIGHT
                - away * ROUTE_X_WEIGHT - lost * ROUTE_LOST_LIFE)

    play = jax.jit(lambda s, a: roll(s, a)[0])
    rng = np.random.default_rng(seed)
    taken = [0] * START_WAIT
    s = play(g._reset(jax.random.key(0)), jnp.zeros(START_WAIT, jnp.int32))
    while len(taken) < max_frames and int(s.level) < until_level:
        acts = np.zeros((CANDIDATES, HORIZON), np.int32)
        for i in range(CANDIDATES):
            j = 0
            while j < HORIZON:
                n = int(rng.integers(*HOLD))
                acts[i, j:j + n] = moves[rng.integers(len(moves))]
                j += n
        best = int(np.asarray(scores(s, jnp.asarray(acts))).argmax())
        s = play(s, jnp.asarray(acts[best, :KEPT]))
        taken += acts[best, :KEPT].tolist()
    return taken  # may run up to KEPT - 1 frames past max_frames
