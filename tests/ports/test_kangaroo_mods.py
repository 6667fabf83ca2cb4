"""Kangaroo's mods (ports/kangaroo/game/mods.py) against their ALE counterparts
(ports/kangaroo/reference/ram.ALE_MODS): the same RAM writes on both sides, so the modified games
agree frame by frame (slow: whole random games; the default run has the climb with no_monkey and
no_coconut together, tests/ports/test_kangaroo_logic.py)."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from alignment.porting import ramtrace as rt
from ports.kangaroo.game import constants as k
from ports.kangaroo.game.game import ram_of_state
from ports.kangaroo.game.mods import MODS
from ports.kangaroo.reference import ram as gt
from tests.ports.test_kangaroo_logic import assert_lockstep, modded


def test_every_mod_has_an_ale_counterpart_writing_the_bytes_it_holds():
    assert {m.name for m in MODS} == set(gt.ALE_MODS)
    for mod in MODS:
        ours = ram_of_state(modded(mod.name)._reset(jax.random.key(0)))
        plain = ram_of_state(modded()._reset(jax.random.key(0)))
        held = {i: v for i, v in ours.items() if plain[i] != v or i in
                {w.address for w in gt.ALE_MODS[mod.name].writes}}
        assert held == {w.address: w.value for w in gt.ALE_MODS[mod.name].writes}, mod.name


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mod", [m.name for m in MODS])
def test_a_modded_random_game_matches_its_ale_counterpart(mod, seed):
    trace = rt.record("kangaroo", frames=6000, seed=seed, hold=(1, 8),
                      writes=gt.ALE_MODS[mod].writes)
    rams = trace.rams
    if mod == "no_monkey":
        assert (rams[:, gt.MONKEY_ROW] == gt.NO_MONKEY).all()
    if mod == "frozen_timer":
        assert (rams[:, gt.TIMER] == k.START_TIMER).all()
    assert_lockstep(trace, length=6000, mods=(mod,))
