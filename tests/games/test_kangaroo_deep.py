"""Kangaroo's deep play (a port in progress): the stored game of the deep player replays on ALE to
what its header says, and (slow) the player chooses it again."""

import numpy as np
import pytest

from pathlib import Path

from alignment import deepplay
from alignment.porting import ramtrace
from alignment.reference.games.kangaroo import players
from alignment.reference.games.kangaroo import ram as k

STORED = Path(__file__).resolve().parents[1] / "data" / "deep" / "kangaroo-s0.json"


def _replay(actions):
    names = deepplay.Lookahead.of_rom("kangaroo").names
    return ramtrace.record("kangaroo", [(names[a], 1) for a in actions])


def test_the_stored_deep_game_climbs_to_the_second_floor_on_ale():
    doc, actions = deepplay.load_actions(STORED)
    tr = _replay(actions)
    assert tr.frames == doc["frames"] == len(actions)
    floors = [k.mother_floor(r) for r in tr.rams]
    assert max(floors) == 2 and floors.index(2) > 0
    assert int(tr.rewards.sum()) == k.score(tr.rams[-1]) == 2_500
    assert tr.game_over[-1] and not tr.game_over[:-1].any()
    assert (tr.rams[:, k.LEVEL] == 0).all()  # the second layout is not reached yet


def test_a_rom_lookahead_simulates_and_comes_back():
    g = deepplay.Lookahead.of_rom("kangaroo")
    assert len(g.names) == 18 and g.names[:3] == ["NOOP", "FIRE", "UP"]
    g.play(g.idx("NOOP"), 200)
    before = g.ram.copy()
    _, after, over = g.sim([(g.idx("RIGHT"), 60)])
    assert not over and after[k.MOTHER_X] > before[k.MOTHER_X]
    assert np.array_equal(g.ram, before) and len(g.taken) == 200


@pytest.mark.slow
def test_the_deep_player_chooses_the_stored_game_again():
    doc, stored = deepplay.load_actions(STORED)
    g = deepplay.Lookahead.of_rom("kangaroo")
    players.play_kangaroo(g, np.random.default_rng(0), max_frames=12_000, until_level=1)
    assert doc["player"] == "play_kangaroo(seed=0, max_frames=12000, until_level=1)"
    np.testing.assert_array_equal(np.asarray(g.taken), stored)
