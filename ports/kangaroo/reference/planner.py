"""A planner on the JAX game (exact against ALE, so what it finds replays on ALE): random shooting
over held actions with the monkeys, the coconut and the timer held off (the no_monkey,
no_coconut and frozen_timer mods on both sides), scored by the layout reached and the highest row
climbed. It drove the stored game tests/data/ports/kangaroo-layout1-s0.json (30,002 frames: layout 0
climbed to the baby, then layout 1's upper floors; 7 min on the shared 2-core machine under load; re-running ``plan(seed=0)`` gives it again, checked
once on 2026-12-04, not in the tests: it takes minutes).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from alignment.actions import ACTION_NAMES
from ports.kangaroo.game import Kangaroo
from ports.kangaroo.game.game import KangarooConstants
from ports.kangaroo.game.mods import MODS

MODS_USED = ("no_monkey", "no_coconut", "frozen_timer")
MOVES = ("UP", "UPRIGHT", "UPLEFT", "RIGHT", "LEFT", "NOOP", "DOWN", "RIGHT", "LEFT", "UP")
CANDIDATES = 512  # plans tried per decision
HORIZON = 96  # frames each plan runs
KEPT = 24  # frames of the best plan played before deciding again
HOLD = (4, 40)  # frames an action of a plan is held (low inclusive, high exclusive)
START_WAIT = 170  # NOOP frames first (the start tune)
LOST_LIFE = 100_000  # a plan that loses a life scores below any other
LEVEL_WEIGHT, ROW_WEIGHT = 1000, 10


def game() -> Kangaroo:
    consts = {}
    for mod in MODS:
        if mod.name in MODS_USED:
            consts.update(mod.constants)
    return Kangaroo(KangarooConstants(**consts))


def plan(seed: int = 0, max_frames: int = 30_000, until_level: int = 2) -> list[int]:
    """ALE action ids from reset until ``until_level`` or ``max_frames``."""
    g = game()
    moves = np.array([ACTION_NAMES.index(n) for n in MOVES])

    def roll(s, acts):
        def body(s, a):
            s, _ = g._step(s, a)
            return s, (s.mother_row, s.level)
        return jax.lax.scan(body, s, acts)

    @jax.jit
    def scores(s, acts):
        final, (rows, levels) = jax.vmap(lambda a: roll(s, a))(acts)
        lost = final.lives < s.lives
        return (levels.max(1) * LEVEL_WEIGHT - rows.min(1) * ROW_WEIGHT - final.mother_row
                - lost * LOST_LIFE)

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
