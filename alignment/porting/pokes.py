"""Clone/restore probes: what one poked RAM byte changes at a chosen moment of a real game.

When a rule depends on a few quantities (a collision window, a threshold), the cleanest measure is
an experiment: play a game to just before the event, then for each candidate value restore that
state, write the byte, play on a few frames and read what came out. :func:`poke_outcomes` does it
on ALE (sticky actions off, one frame per act) for any ROM ale-py ships; it never mocks the
emulator, so its answers are measurements.

Example (BeamRider's loss window, ports/beamrider/NOTES.md): play random seed 0's actions to frame
1,056, poke the falling shot's x over 84..111, play one NOOP and read ram[12]::

    outcomes = poke_outcomes("beam_rider", actions[:1056], 39, range(84, 112), then=[0],
                             read=lambda ram: int(ram[12]))
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

import numpy as np

from alignment.porting.ramtrace import RAM_SIZE, TraceError, open_rom


def poke_outcomes(rom: str, actions: Sequence[int], address: int, values: Iterable[int], *,
                  then: Sequence[int], read: Callable[[np.ndarray], object],
                  seed: int = 0, fixed: Iterable[tuple[int, int]] = ()) -> dict[int, object]:
    """For each of ``values``: the state after ``actions`` (ALE action ids from reset), the
    ``fixed`` (address, value) writes made, ``address`` set to the value, the ``then`` actions
    played, and ``read`` applied to the RAM after them. Returns value -> what ``read`` gave. Bad
    input (an address outside the 128 bytes, a value outside a byte, no frame to play after the
    poke) is a :class:`TraceError`."""
    fixed = [(int(a), int(v)) for a, v in fixed]
    for a in [int(address)] + [a for a, _ in fixed]:
        if not 0 <= a < RAM_SIZE:
            raise TraceError(f"address {a} is outside the 2600's RAM (0..{RAM_SIZE - 1})")
    address = int(address)
    values = [int(v) for v in values]
    bad = [v for v in values + [v for _, v in fixed] if not 0 <= v <= 255]
    if bad:
        raise TraceError(f"a RAM byte holds 0..255, got {bad[:3]}")
    if not len(then):
        raise TraceError("give at least one action to play after the poke (then=[0] plays one NOOP)")
    import ale_py

    ale = open_rom(rom, seed=seed)
    for a in actions:
        ale.act(ale_py.Action(int(a)))
    start = ale.cloneState()
    out = {}
    for v in values:
        ale.restoreState(start)
        for a, w in fixed:
            ale.setRAM(a, w)
        ale.setRAM(address, v)
        for a in then:
            ale.act(ale_py.Action(int(a)))
        out[v] = read(ale.getRAM().copy())
    return out
