"""Kangaroo's punch at the falling coconut against the real emulator (issue 50): the glove (missile 1)
meets the coconut (the ball) only on a frame whose kernel draws player 1 on the glove's row, so where
the mother shares her rows with a fruit (drawn every other frame) a coconut falling into her glove on
a frame she is not drawn is knocked away a frame later (rule timing.punch-lands-when-drawn).

- the spec's save point coconut-beside-floor-1 and the rule's probe, from reset, in lockstep with ALE
  on every mirrored RAM byte, the reward and the lives (the JAX game before the fix scored the
  coconut on frame 943, ALE on 944);
- the stored planner game (tests/data/deep/kangaroo-planner-s1.json, 14,304 frames) meets the same
  situation on its own (floor 1: the coconut into the glove on frame 1,423, a frame the mother is
  not drawn, paid on 1,424): its first 1,500 frames in lockstep (the whole game: tests/test_deepplay.py, slow);
- coconuts written into RAM around the glove (rows above and at it, x across both facings' reach)
  at standing starts on floors 0, 1 and 2, with every fire action held: each run equal on ALE and
  on the JAX game started from the same RAM.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment import deepplay
from alignment.porting import ramtrace as rt
from alignment.spec.store import load_spec
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.constants import KangarooConstants
from jaxtari.games.kangaroo.game import state_from_ram
from tests.docs.paths import SPECS
from tests.games.test_kangaroo_logic import GAME, MIRRORED, _mirrored, assert_lockstep

SPEC = load_spec(SPECS / "kangaroo.yaml")
CART = KangarooConstants()  # the cartridge's own numbers
RULE = "timing.punch-lands-when-drawn"
SAVE_POINT = "coconut-beside-floor-1"
FIRE_ACTIONS = ("FIRE", "UPFIRE", "DOWNFIRE", "LEFTFIRE", "RIGHTFIRE", "UPLEFTFIRE", "UPRIGHTFIRE",
                "DOWNLEFTFIRE", "DOWNRIGHTFIRE")
HELD = 24  # frames each fire action is held in the sweep: a punch's glove lasts 26


def _script(*names):
    """(action, frames) from reset: a save point's steps (its chain from reset), then the rule's
    probe's where named."""
    out = []
    for name in names:
        if name == RULE:
            steps = SPEC.rule(RULE).probe.steps
        else:
            _, steps = SPEC.save_point_steps(name)
        out += [(s.action, s.frames) for s in steps]
    return out


def test_the_coconut_punched_on_a_frame_the_mother_is_not_drawn_matches_ale():
    trace = rt.record("kangaroo", _script(SAVE_POINT, RULE))
    hits = np.nonzero(trace.rewards == 200)[0]
    assert len(hits) == 1
    h = int(hits[0])  # rams[t + 1] is the RAM after frame t
    glove_row = int(trace.rams[h, k.RAM_MOTHER_ROW]) + CART.glove_row  # layout 0: row base 0
    assert int(trace.rams[h, k.RAM_LEVEL]) == 0
    # on ALE the coconut came into the glove's row on frame h - 1 and went with the 200 on frame h
    assert int(trace.rams[h - 1, k.RAM_COCONUT_ROW]) == glove_row - 1
    assert int(trace.rams[h, k.RAM_COCONUT_ROW]) == glove_row
    assert int(trace.rams[h + 1, k.RAM_COCONUT_ROW]) == k.COCONUT_NONE
    assert int(trace.rams[h, k.RAM_POSE]) & k.PUNCH_REQUEST  # the glove was out on both frames
    assert trace.lives[-1] == 3
    assert_lockstep(trace)


PLANNED = SPECS.parent / "tests" / "data" / "deep" / "kangaroo-planner-s1.json"
PLANNED_LATE_HIT = 1424  # the frame ALE pays the coconut (the JAX game before the fix: 1,423)


def test_the_planner_game_punches_a_coconut_a_frame_late_as_ale_does():
    doc, actions = deepplay.load_actions(PLANNED)
    names = deepplay.Lookahead.of_rom("kangaroo").names
    trace = rt.record("kangaroo", [(names[a], 1) for a in actions[:1500]])
    h = PLANNED_LATE_HIT - 1  # the frame's index: rams[h + 1] is the RAM after it
    assert trace.rewards[h] == 200 and trace.rams[h + 1, k.RAM_COCONUT_ROW] == k.COCONUT_NONE
    glove_row = int(trace.rams[h, k.RAM_MOTHER_ROW]) + CART.glove_row  # layout 0
    assert int(trace.rams[h, k.RAM_COCONUT_ROW]) == glove_row  # there a frame before, not hit
    assert int(trace.rams[h, k.RAM_LEVEL]) == 0
    assert_lockstep(trace)


def _standing_starts():
    """RAM snapshots (ALE state, RAM) with the mother standing on floors 0, 1 and 2 of layout 0:
    the bottom floor after the start tune, the spec's floor-1 and floor-2, and coconut-beside-floor-1
    (floor 1 with its lower fruit eaten, so the glove's row is drawn only with her)."""
    import ale_py

    out = []
    for script in ([("NOOP", 170), ("RIGHT", 30)], _script("floor-1"),
                   _script("floor-2"), _script(SAVE_POINT)):
        ale = rt.open_rom("kangaroo")
        for name, n in script:
            for _ in range(n):
                ale.act(ale_py.Action(rt.ACTION_NAMES.index(name)))
        out.append(ale)
    return out


@pytest.mark.slow
def test_coconuts_written_around_the_glove_are_punched_on_the_same_frame_as_on_ale():
    import ale_py

    cases, states, actions, ale_rams, ale_rewards = [], [], [], [], []
    floors = set()
    for ale in _standing_starts():
        ram = ale.getRAM().copy()
        assert ram[k.RAM_MOTHER_STATE] != k.DYING and int(ram[k.RAM_POSE]) & ~(k.FACING_RIGHT | k.WALK_FRAME) == 0
        floors.add((CART.start_row - int(ram[k.RAM_MOTHER_ROW])) // k.ROWS_PER_FLOOR)
        snap = ale.cloneState()
        glove_row = int(ram[k.RAM_MOTHER_ROW]) + CART.glove_row
        # x around both gloves: facing left (x - 1) and right (x + 9), one pixel either side and one more
        for drow in (-1, 0):
            for dx in (*range(-3, 2), *range(7, 12)):
                for action in FIRE_ACTIONS:
                    ale.restoreState(snap)
                    ale.setRAM(k.RAM_COCONUT_ROW, glove_row + drow)
                    ale.setRAM(k.RAM_COCONUT_X, (int(ram[k.RAM_MOTHER_X]) + dx) & k.BYTE)
                    ale.setRAM(k.RAM_COCONUT_STATE, k.COCONUT_FALLING)
                    states.append(state_from_ram(ale.getRAM().copy()))
                    rams, rewards = [], []
                    for _ in range(HELD):
                        rewards.append(ale.act(ale_py.Action(rt.ACTION_NAMES.index(action))))
                        rams.append(ale.getRAM()[MIRRORED].copy())
                    cases.append((int(ram[k.RAM_MOTHER_ROW]), drow, dx, action))
                    actions.append([rt.ACTION_NAMES.index(action)] * HELD)
                    ale_rams.append(rams)
                    ale_rewards.append(rewards)
    assert floors == {0, 1, 2}

    def body(s, a):
        s, r = GAME._step(s, a)
        return s, (s, r)

    batch = jax.tree_util.tree_map(lambda *x: jnp.stack(x), *states)
    _, (ours, rewards) = jax.jit(jax.vmap(lambda s, a: jax.lax.scan(body, s, a)))(
        batch, jnp.asarray(actions, jnp.int32))
    ale_rewards = np.asarray(ale_rewards)
    assert (ale_rewards == 200).any(axis=1).sum() >= len(cases) // 4  # the sweep does punch coconuts
    rewards = np.asarray(rewards)
    for c, case in enumerate(cases):
        mine = _mirrored(jax.tree_util.tree_map(lambda x: x[c], ours))
        bad = np.nonzero((mine != np.asarray(ale_rams[c])).any(1) | (rewards[c] != ale_rewards[c]))[0]
        assert len(bad) == 0, (f"(row, drow, dx, action) {case}: frame {int(bad[0]) + 1} "
                               f"rewards jax {rewards[c, bad[0]]} ale {ale_rewards[c, bad[0]]}")
