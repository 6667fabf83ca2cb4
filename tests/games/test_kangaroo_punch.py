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
- the cycle route's own coconuts on layouts 1 and 2 (floors 2 and 1), punched a frame late the same
  way, each from reset in lockstep;
- coconuts written into RAM around the glove (rows above and at it, x across its reach) at standing
  starts on floors 0, 1 and 2 of every layout, facing each way, the ape's slow and fast coconut
  (difficulty 0 and 2), with every fire action held: each run equal on ALE and on the JAX game
  started from the same RAM (slow).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment import deepplay
from alignment.porting import ramtrace as rt
from alignment.reference.games.kangaroo import route
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


# the cycle route's (alignment/reference/games/kangaroo/cycle_route.json) falling coconuts on layouts
# 1 and 2: (route frames played, the steps after them, layout, floor). Found on ALE by branching at
# every 6th frame of each fall near the mother (NOOP, LEFT or RIGHT for 0-24 frames, then each fire
# action held): these parted from the JAX game before fa5d620 (it paid a frame early), as the
# stored games' coconuts on layout 0 did.
LATE_ON_THE_ROUTE = [(3610, (("RIGHTFIRE", 40),), 1, 2),
                     (5392, (("RIGHT", 8), ("UPFIRE", 40)), 2, 1)]


@pytest.mark.parametrize("played, steps, layout, floor", LATE_ON_THE_ROUTE)
def test_the_routes_coconuts_on_layouts_1_and_2_are_punched_a_frame_late_as_on_ale(
        played, steps, layout, floor):
    trace = rt.record("kangaroo", [(a, 1) for a in route.cycle_actions()[:played]] + list(steps))
    hits = np.nonzero(trace.rewards[played:] == 200)[0] + played
    assert len(hits) == 1
    h = int(hits[0])  # the frame's index: rams[h] is the RAM before it, rams[h + 1] after it
    ram = trace.rams[h].astype(int)
    assert ram[k.RAM_LEVEL] == layout and (CART.start_row - ram[k.RAM_MOTHER_ROW]) // k.ROWS_PER_FLOOR == floor
    # the coconut came into the glove's row, within the glove's reach, on the frame before the hit,
    # the glove out on both frames: a glove drawn on that frame would have met it (the JAX game
    # before the fix paid it there); ALE pays it, and takes it, a frame later
    glove_row = CART.layout_row_base[layout] + ram[k.RAM_MOTHER_ROW] + CART.glove_row
    glove_x = ram[k.RAM_MOTHER_X] + (CART.glove_right if ram[k.RAM_POSE] & k.FACING_RIGHT else CART.glove_left)
    assert trace.rams[h - 1, k.RAM_COCONUT_ROW] == glove_row - 1
    assert ram[k.RAM_COCONUT_ROW] == glove_row and abs(ram[k.RAM_COCONUT_X] - glove_x) <= CART.glove_reach
    assert ram[k.RAM_POSE] & k.PUNCH_REQUEST and trace.rams[h - 1, k.RAM_POSE] & k.PUNCH_REQUEST
    assert trace.rams[h + 1, k.RAM_COCONUT_ROW] == k.COCONUT_NONE and trace.lives[-1] == 3
    assert_lockstep(trace)


# standing starts on the cycle route's layouts 1 and 2 (route frames played): each floor it stands on
ROUTE_STANDS = (2240, 3033, 3586, 4461, 5082, 5818)


def _standing_starts():
    """ALE handles with the mother standing on floors 0, 1 and 2 of every layout: on layout 0 the
    bottom floor after the start tune, the spec's floor-1 and floor-2, and coconut-beside-floor-1
    (floor 1 with its lower fruit eaten, so the glove's row is drawn only with her); on layouts 1
    and 2 the cycle route's stands (ROUTE_STANDS)."""
    import ale_py

    cycle = route.cycle_actions()
    out = []
    for script in ([("NOOP", 170), ("RIGHT", 30)], _script("floor-1"),
                   _script("floor-2"), _script(SAVE_POINT),
                   *[[(a, 1) for a in cycle[:n]] for n in ROUTE_STANDS]):
        ale = rt.open_rom("kangaroo")
        for name, n in script:
            for _ in range(n):
                ale.act(ale_py.Action(rt.ACTION_NAMES.index(name)))
        out.append(ale)
    return out


@pytest.mark.slow
def test_coconuts_written_around_the_glove_are_punched_on_the_same_frame_as_on_ale():
    """Every layout's floors 0-2, both facings (the pose's facing bit written), the ape's slow and
    fast coconut (difficulty 0 and 2 written: at 2 it falls on walk phase 0 of even frames)."""
    import ale_py

    cases, states, actions, ale_rams, ale_rewards = [], [], [], [], []
    reached = set()
    for ale in _standing_starts():
        ram = ale.getRAM().copy()
        assert ram[k.RAM_MOTHER_STATE] == k.PLAYING and int(ram[k.RAM_POSE]) & ~(k.FACING_RIGHT | k.WALK_FRAME) == 0
        layout = int(ram[k.RAM_LEVEL])
        reached.add((layout, (CART.start_row - int(ram[k.RAM_MOTHER_ROW])) // k.ROWS_PER_FLOOR))
        snap = ale.cloneState()
        glove_row = CART.layout_row_base[layout] + int(ram[k.RAM_MOTHER_ROW]) + CART.glove_row
        for difficulty in (0, CART.coconut_fast_difficulty):
            for facing in (0, k.FACING_RIGHT):
                # x around the glove: facing left x - 1, right x + 9; a pixel either side and one more
                glove = CART.glove_right if facing else CART.glove_left
                for drow in (-1, 0):
                    for dx in range(glove - 2, glove + 3):
                        for action in FIRE_ACTIONS:
                            ale.restoreState(snap)
                            for index, value in ((k.RAM_COCONUT_ROW, glove_row + drow),
                                                 (k.RAM_COCONUT_X, (int(ram[k.RAM_MOTHER_X]) + dx) & k.BYTE),
                                                 (k.RAM_COCONUT_STATE, k.COCONUT_FALLING),
                                                 (k.RAM_DIFFICULTY, difficulty),
                                                 (k.RAM_POSE, (int(ram[k.RAM_POSE]) & ~k.FACING_RIGHT) | facing)):
                                ale.setRAM(index, value)
                            states.append(state_from_ram(ale.getRAM().copy()))
                            rams, rewards = [], []
                            for _ in range(HELD):
                                rewards.append(ale.act(ale_py.Action(rt.ACTION_NAMES.index(action))))
                                rams.append(ale.getRAM()[MIRRORED].copy())
                            cases.append((layout, int(ram[k.RAM_MOTHER_ROW]), difficulty, facing, drow, dx, action))
                            actions.append([rt.ACTION_NAMES.index(action)] * HELD)
                            ale_rams.append(rams)
                            ale_rewards.append(rewards)
    assert reached == {(layout, floor) for layout in range(3) for floor in range(3)}

    def body(s, a):
        s, r = GAME._step(s, a)
        return s, (s, r)

    batch = jax.tree_util.tree_map(lambda *x: jnp.stack(x), *states)
    _, (ours, rewards) = jax.jit(jax.vmap(lambda s, a: jax.lax.scan(body, s, a)))(
        batch, jnp.asarray(actions, jnp.int32))
    ale_rewards = np.asarray(ale_rewards)
    punched = (ale_rewards == 200).any(axis=1)
    assert punched.sum() >= len(cases) // 4, punched.mean()  # the sweep does punch coconuts
    # on every layout, facing each way
    assert {(c[0], c[3]) for c, p in zip(cases, punched) if p} == {(l, f) for l in range(3) for f in (0, k.FACING_RIGHT)}
    rewards = np.asarray(rewards)
    for c, case in enumerate(cases):
        mine = _mirrored(jax.tree_util.tree_map(lambda x: x[c], ours))
        bad = np.nonzero((mine != np.asarray(ale_rams[c])).any(1) | (rewards[c] != ale_rewards[c]))[0]
        assert len(bad) == 0, (f"(layout, row, difficulty, facing, drow, dx, action) {case}: frame {int(bad[0]) + 1} "
                               f"rewards jax {rewards[c, bad[0]]} ale {ale_rewards[c, bad[0]]}")
