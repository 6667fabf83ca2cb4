"""alignment/porting/pokes.py on the real emulator: each poked value is played from the same
cloned state, and bad input is a clear error."""

from __future__ import annotations

import pytest

from alignment.porting.pokes import poke_outcomes
from alignment.porting.ramtrace import TraceError

ROM = "beam_rider"


def test_each_value_starts_from_the_same_state():
    # BeamRider's sector byte (ram[0]) is not touched by the intro: a poke reads back after a frame
    got = poke_outcomes(ROM, [0] * 10, 0, [1, 5, 9], then=[0], read=lambda r: int(r[0]))
    assert got == {1: 1, 5: 5, 9: 9}
    # the frame counter (ram[1]) is the same after each restore, whatever was poked elsewhere
    counts = poke_outcomes(ROM, [0] * 10, 0, [1, 5, 9], then=[0, 0], read=lambda r: int(r[1]))
    assert len(set(counts.values())) == 1


def test_fixed_writes_come_with_every_value():
    # the sector (ram[0]) and the enemies left (ram[84]) hold through a frame of the intro
    got = poke_outcomes(ROM, [0] * 10, 84, [3, 4], then=[0], read=lambda r: (int(r[0]), int(r[84])),
                        fixed=[(0, 7)])
    assert got == {3: (7, 3), 4: (7, 4)}


@pytest.mark.parametrize("address,values,then,words", [
    (128, [1], [0], "outside the 2600's RAM"),
    (0, [256], [0], "holds 0..255"),
    (0, [1], [], "at least one action"),
])
def test_bad_input_names_the_problem(address, values, then, words):
    with pytest.raises(TraceError, match=words):
        poke_outcomes(ROM, [0], address, values, then=then, read=lambda r: 0)


@pytest.mark.parametrize("fixed,words", [([(200, 1)], "outside the 2600's RAM"), ([(1, 300)], "holds 0..255")])
def test_a_bad_fixed_write_names_the_problem(fixed, words):
    with pytest.raises(TraceError, match=words):
        poke_outcomes(ROM, [0], 0, [1], then=[0], read=lambda r: 0, fixed=fixed)
