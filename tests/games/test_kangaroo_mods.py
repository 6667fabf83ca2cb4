"""Kangaroo's mods (jaxtari/games/kangaroo/mods.py) against their ALE counterparts
(alignment/reference/games/kangaroo/ram.ALE_MODS): the same RAM writes on both sides, so the modified games
agree frame by frame (slow: whole random games; the default run has the climb with no_monkey and
no_coconut together, tests/games/test_kangaroo_logic.py)."""

from __future__ import annotations

import json
from pathlib import Path

import jax
import numpy as np
import pytest

from alignment.actions import ACTION_NAMES
from alignment.porting import ramtrace as rt
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.constants import KangarooConstants
from jaxtari.games.kangaroo.game import ram_of_state
from jaxtari.games.kangaroo.mods import MODS
from alignment.reference.games.kangaroo import planner
from alignment.reference.games.kangaroo import ram as gt
from tests.games.test_kangaroo_logic import assert_lockstep, modded


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
        assert (rams[:, gt.TIMER] == KangarooConstants().start_timer).all()
    assert_lockstep(trace, length=6000, mods=(mod,))


LAYOUT1 = Path(__file__).resolve().parents[1] / "data" / "kangaroo" / "planner-layout1-s0.json"


@pytest.mark.slow
def test_the_planned_game_through_layout_1_matches_ale_with_the_mods_on_both_sides():
    """30,002 frames found by alignment/reference/games/kangaroo/planner.py on the JAX game (monkeys,
    coconut and timer held off): layout 0 climbed to the baby, the round won, then layout 1's
    upper floors; replayed on ALE with the mods' RAM writes, every frame agrees."""
    doc = json.loads(LAYOUT1.read_text())
    actions = [a for a, n in doc["runs"] for _ in range(n)]
    assert len(actions) == doc["frames"] and tuple(doc["mods"]) == planner.MODS_USED
    writes = [w for m in doc["mods"] for w in gt.ALE_MODS[m].writes]
    trace = rt.record("kangaroo", [(ACTION_NAMES[a], 1) for a in actions], writes=writes)
    assert set(np.unique(trace.rams[:, gt.LEVEL])) == {0, 1}
    assert (trace.rams[trace.rams[:, gt.LEVEL] == 1, gt.MOTHER_ROW] <= 6).any()  # upper floors
    assert_lockstep(trace, length=len(actions), mods=planner.MODS_USED)
