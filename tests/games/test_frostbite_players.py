"""Frostbite's deep player (alignment/reference/games/frostbite/players.py) judges its lookahead by
``doomed``: a Bailey already lost, read from ALE's RAM long before ALE's lives() drops. Checked here
on stored deep games replayed on ALE: every life lost is announced by it well ahead, and it never
announces a loss that does not come."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from alignment import deepplay
from alignment.reference.games.frostbite import players
from alignment.reference.games.frostbite.ram import BEAR_HIT, BEAR_HIT_BIT, JUMP, LIVES

DEEP = Path(__file__).parents[1] / "data" / "deep"
LEAD = 150  # frames: at least this long between the first doomed frame and the life it costs


def _replay(name):
    """Per frame of a stored game on ALE: doomed, the lives byte, the bear's touch, in a jump."""
    doc, actions = deepplay.load_actions(DEEP / name)
    g = deepplay.Lookahead("frostbite", mode=doc.get("mode"))
    rows = []
    for a in actions:
        g.raw.act(g.actions[int(a)])
        ram = g.ram
        rows.append((players.doomed(ram), int(ram[LIVES]), bool(ram[BEAR_HIT] & BEAR_HIT_BIT),
                     bool(ram[JUMP])))
    return tuple(np.array(c) for c in zip(*rows))


def _runs(flags):
    """(start, stop) of each run of True."""
    edges = np.diff(np.r_[0, flags.astype(int), 0])
    return list(zip(np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0]))


@pytest.mark.parametrize("name", ["frostbite-s2.json", "frostbite-s7-m2.json"])
def test_doomed_announces_every_lost_bailey_and_nothing_else(name):
    doomed, lives, _, _ = _replay(name)
    lost = np.nonzero(lives[1:] < lives[:-1])[0] + 1  # frames where the lives byte drops
    runs = _runs(doomed)
    if runs and runs[-1][1] == len(doomed):
        # the last Bailey: ALE ends the game as he starts to sink (the lives byte is 0 already)
        assert lives[-1] == 0
        runs = runs[:-1]
    assert len(lost) >= 2
    assert [stop for _, stop in runs] == lost.tolist(), (runs, lost)
    for start, stop in runs:
        assert stop - start >= LEAD, f"doomed only {stop - start} frames before the loss at {stop}"

def test_the_bear_dooms_a_bailey_it_touches_on_the_ground_not_in_the_air():
    """The stored mode-2 game (levels 5 to 10, the bear on the shore throughout) has the bear touch
    Bailey in mid-jump many times: his landing clears the touch and no life is lost, so none of
    those frames is doomed. Its last Bailey lands on the shore touched: doomed from that frame, the
    bear pushes him off the shore's left edge and ALE's game over ends the recording."""
    doomed, lives, bear, jumping = _replay("frostbite-s7-m2.json")
    air, ground = bear & jumping, bear & ~jumping
    assert air.sum() > 100 and not doomed[air].any()
    first = int(np.argmax(ground))
    assert ground.any() and ground[first:].all() and doomed[first:].all()
    assert lives[first] == 0 and len(doomed) - first >= 60
