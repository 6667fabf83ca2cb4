"""The fault switch (alignment.fault_switch): one compile plays every seeded fault, each fault's
frames those of its own build; what it cannot hold is left to a build of its own, and its
programs outlive release_compiled."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from alignment import fault_switch
from alignment.audit.session import current as current_session
from jaxtari.mods import InternalMod, PostStepMod
from tests.audit import toy
from tests.toy_game import ToyGame


def _bonus_at_30(game, prev, s, r):
    hit = s.frame == 30
    return s.replace(total=s.total + 7.0 * hit), r + 7.0 * hit


def _double_payout(self, a):
    return 2.0 * a.astype("float32")


def _payout_if_many_lives(self, a):
    # a Python branch on a constant: it cannot take the constant as a traced input
    return a.astype("float32") * (2.0 if self.consts.start_lives > 4 else 1.0)


MODS = [f.mod for f in toy.FAULTS] + [
    PostStepMod("bonus_at_30", "7 more points on frame 30", _bonus_at_30),
    InternalMod("double_payout", "buttons pay twice", mechanics={"payout": _double_payout}),
    InternalMod("late_and_long", "life lost at 50, the game ends at 200",
                constants={"life_loss_frame": 50, "game_over_frame": 200}),
]
ACTIONS = np.random.default_rng(3).integers(0, 18, 150).astype(np.int32)


def _frames(game, step=None):
    step = step or jax.jit(lambda s, a: game.step(s, a)[1:3])
    state = game.reset(jax.random.key(4))[1]
    rows = []
    for a in ACTIONS:
        state, r = step(state, a)
        rows.append((int(state.frame), float(state.total), int(state.lives), float(r),
                     bool(game.is_terminal(state))))
    return rows


def test_every_fault_plays_as_its_own_build_under_one_compile():
    v = fault_switch.Variant("toy", ToyGame, MODS, None, True)
    assert v.slots == list(range(len(MODS))) and v.left_out == {}
    compiles = []

    def step(x, state, a):
        compiles.append(1)  # traced once per compile
        return v.make(x).step(state, a)[1:3]

    switched = jax.jit(step)
    for i, mod in enumerate(MODS):
        own = toy._game([mod])
        x = v.x(i)
        assert _frames(v.make(x), lambda s, a, x=x: switched(x, s, a)) == _frames(own), mod.name
    assert len(compiles) == 1
    # the faults differ from the game and from each other: the index picks each one
    assert len({tuple(map(tuple, _frames(toy._game([m])))) for m in MODS} | {
        tuple(map(tuple, _frames(toy._game([]))))}) == len(MODS) + 1


def test_what_the_switch_cannot_hold_is_left_to_its_own_build():
    odd = [InternalMod("payout_if_many", "pays twice with many lives",
                       mechanics={"payout": _payout_if_many_lives}),
           InternalMod("no_such_field", "a constant the game lacks", constants={"nope": 1})]
    v = fault_switch.Variant("toy", ToyGame, MODS + odd, None, True)
    n = len(MODS)
    assert v.slots == list(range(n))  # start_lives is traced (five_lives): the Python branch fails
    assert sorted(v.left_out) == [n, n + 1]
    assert "does not trace" in v.left_out[n] and "does not build" in v.left_out[n + 1]


def test_a_tuple_constant_stays_static():
    # a tuple's elements, traced, would be weakly typed where the static tuple's array is not
    import jaxtari
    from alignment.audit.faults import load_faults

    lanes = [f.mod for f in load_faults("freeway") if "lane_periods" in f.mod.constants]
    assert lanes
    v = fault_switch.Variant("freeway", jaxtari.game_class("freeway"), lanes, None, True)
    assert v.slots == [] and "lane_periods" in v.left_out[0]


def test_a_switch_serves_only_its_own_mod_objects():
    sw = fault_switch.activate("pong", MODS[:1])
    try:
        assert sw.slot([MODS[0]]) == 0
        assert sw.slot([InternalMod("free_payout", "a namesake", constants={})]) is None
        assert sw.slot(MODS[:1] * 2) is None and sw.slot(["free_payout"]) is None
        assert fault_switch.activate("pong", MODS[:1]) is sw  # the same faults: the same switch
        assert fault_switch.serving("freeway", MODS[:1], None, True) is None
    finally:
        fault_switch.deactivate()
    assert fault_switch.active() is None


def test_kept_programs_outlive_release_compiled():
    traced = []

    def f(x, y):
        traced.append(1)
        return x * y + 1

    kept = fault_switch.Kept(f)
    assert int(kept(np.int32(2), 3)) == 7
    current_session().release_compiled()
    assert int(kept(np.int32(5), 3)) == 16 and len(traced) == 1
    kept(np.float32(2.0), 3)  # another signature: another program
    assert len(traced) == 2


@pytest.mark.slow
def test_pong_faults_on_the_backend_play_as_their_own_builds():
    # the backend's path (alignment.backends.JaxBackend): every fault of pong from one switch,
    # frame for frame and screen for screen as its own build, from reset
    from alignment import backends
    from alignment.audit.faults import load_faults

    faults = load_faults("pong")
    frames = np.repeat(np.random.default_rng(0).integers(0, 6, 400), 4)
    shots = list(range(0, len(frames), 53))

    def run(mod):
        b = backends.make_backend("jax", "pong", mods=(mod,), full_action_space=True)
        b.reset(0)
        return b.run_screens(frames, at=shots)

    fault_switch.activate("pong", [f.mod for f in faults])
    try:
        switched = [run(f.mod) for f in faults]
        assert fault_switch.active().variant(None, True).left_out == {}
    finally:
        fault_switch.deactivate()
        current_session().release_compiled()
    for f, (traces, screens) in zip(faults, switched):
        own_traces, own_screens = run(f.mod)
        current_session().release_compiled()
        for k in traces:
            assert np.array_equal(traces[k], own_traces[k]), (f.name, k)
        assert all(np.array_equal(a, b) for a, b in zip(screens, own_screens)), f.name
