"""Kangaroo's seeded faults (faults/kangaroo.py): well formed, each naming a reviewed rule of
specs/kangaroo.yaml that has a probe; each flagged by that probe on the JAX game (slow), and the
nine staged with the port caught by the stored games too: the fault's JAX game departs from the
plain one (which equals ALE on every frame of these games: test_kangaroo_logic) in a mirrored
byte, the reward or the lives."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment import deepplay
from alignment.audit import probes
from alignment.spec.store import load_spec
from alignment.porting.ramtrace import ACTION_NAMES
from jaxtari.mods import PostStepMod
from jaxtari.games.kangaroo import Kangaroo
from jaxtari.games.kangaroo.game import FIELD_RAM, KangarooConstants
from faults.kangaroo import FAULTS
from tests.docs.paths import SPECS
from tests.games.test_kangaroo_logic import CLIMB, STORED

HELD_OFF = KangarooConstants(monkeys_held_off=True, coconut_held_off=True)
SPEC = load_spec(SPECS / "kangaroo.yaml")
# the faults staged with the port, which its stored games (the deep game, the held-off climb) reach;
# the others need a poked score, a punched coconut or the third layout, which only their probes do
STAGED = ("three_in_reserve", "slow_apples", "fruit_pays_double", "bell_never_rings",
          "fruit_never_regrows", "time_bonus_twice", "never_ends", "monkeys_never_throw",
          "punch_pays_300")


def test_the_faults_are_at_least_eight_distinct_mods_each_breaking_one_rule():
    assert len(FAULTS) >= 8
    assert len({f.name for f in FAULTS}) == len(FAULTS)
    assert len({f.breaks for f in FAULTS}) == len(FAULTS)
    for f in FAULTS:
        assert isinstance(f.mod, PostStepMod) and "." in f.breaks and f.mod.description


def test_each_fault_names_a_reviewed_rule_with_a_probe():
    for f in FAULTS:
        rule = SPEC.rule(f.breaks)
        assert rule.status == "reviewed" and rule.probe is not None, f.name


def _run(game, actions):
    """Mirrored bytes (T, n), rewards and lives of ``game.step`` over ``actions``."""

    def body(s, a):
        _, s, r, _, info = game.step(s, a)
        return s, (s, r, info["lives"])

    _, (states, rewards, lives) = jax.jit(lambda s, a: jax.lax.scan(body, s, a))(
        game._reset(jax.random.key(0)), jnp.asarray(actions, jnp.int32))
    cols = []
    for name in FIELD_RAM:
        v = np.asarray(getattr(states, name))
        cols.append(v if v.ndim == 2 else v[:, None])
    return np.concatenate(cols, 1), np.asarray(rewards), np.asarray(lives)


def _games():
    _, deep = deepplay.load_actions(STORED)
    climb = [ACTION_NAMES.index(n) for n, c in CLIMB for _ in range(c)]
    return [(KangarooConstants(), list(deep)), (HELD_OFF, climb)]


@pytest.mark.slow
@pytest.mark.parametrize("fault", [f for f in FAULTS if f.name in STAGED], ids=lambda f: f.name)
def test_each_staged_fault_is_caught_by_the_stored_games(fault):
    for consts, actions in _games():
        plain = _run(Kangaroo(consts), actions)
        faulty = _run(Kangaroo(consts, post_step_mods=[fault.mod]), actions)
        if any(not np.array_equal(a, b) for a, b in zip(plain, faulty)):
            return
    pytest.fail(f"{fault.name}: the stored games play the same with and without it")


@pytest.mark.slow
@pytest.mark.parametrize("fault", [f for f in FAULTS if f.name not in STAGED], ids=lambda f: f.name)
def test_each_added_fault_is_flagged_by_the_probe_of_its_rule(fault):
    probe = SPEC.rule(fault.breaks).probe
    assert probes.run_probe("kangaroo", probe, "ale", spec=SPEC).passed
    assert probes.run_probe("kangaroo", probe, "jax", spec=SPEC).passed
    assert not probes.run_probe("kangaroo", probe, "jax", (fault.mod,), spec=SPEC).passed
