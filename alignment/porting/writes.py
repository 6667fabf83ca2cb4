"""What RAM writes do to a game on the real emulator: the ALE half of a mod, measured before it is
held against the JAX mod (:mod:`alignment.counterparts` does that once the game is in the catalog).

:func:`write_effect` plays the same actions with and without the writes (the same
:class:`~alignment.signals.RamWrite` data the ALE backend applies) and says, per RAM address, the
first frame the two runs differ, and the first frame the reward and the game-over flag differ: a
counterpart that "changes the RAM it names and nothing else" has no :attr:`WriteEffect.others`.
"""

from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

import numpy as np

from alignment.porting.ramtrace import TraceError, record
from alignment.signals import RamWrite


@dataclasses.dataclass(frozen=True)
class WriteEffect:
    frames: int  # frames compared (the shorter of the two rollouts)
    written: tuple[int, ...]  # the addresses the writes name
    differing: dict[int, int]  # address -> first snapshot (0: right after reset) where it differs
    reward_first: Optional[int]  # first frame (0-based) whose reward differs; None: never
    over_first: Optional[int]  # first snapshot whose game-over flag differs; None: never

    @property
    def others(self) -> dict[int, int]:
        """Differing addresses the writes do not name."""
        return {a: f for a, f in self.differing.items() if a not in self.written}


def write_effect(rom: str, script, writes: Sequence[RamWrite], **options) -> WriteEffect:
    """Play ``script`` (steps of (ALE action name, frames), as :func:`record` takes) on ``rom``
    with and without ``writes``; ``options`` go to :func:`record` (frames, seed, mode, ...)."""
    writes = tuple(writes)
    if not writes or not all(isinstance(w, RamWrite) for w in writes):
        raise TraceError("give at least one RAM write (alignment.signals.RamWrite)")
    plain = record(rom, script, **options)
    mod = record(rom, script, writes=writes, **options)
    n = min(plain.frames, mod.frames)
    diff = plain.rams[:n + 1] != mod.rams[:n + 1]

    def first(x, y):
        bad = np.flatnonzero(x != y)
        return int(bad[0]) if len(bad) else None

    return WriteEffect(n, tuple(sorted({w.address for w in writes})),
                       {int(a): int(np.argmax(diff[:, a])) for a in np.flatnonzero(diff.any(axis=0))},
                       first(plain.rewards[:n], mod.rewards[:n]),
                       first(plain.game_over[:n + 1], mod.game_over[:n + 1]))


def parse_write(text: str) -> RamWrite:
    """``"8=127"`` -> ``RamWrite(8, 127)`` (after reset and every frame); decimal or 0x hex."""
    try:
        a, v = str(text).split("=")
        return RamWrite(int(a, 0), int(v, 0))
    except ValueError as exc:
        raise TraceError(f"a RAM write is ADDRESS=VALUE (address 0..127, value 0..255, decimal or "
                         f"0x hex), got {text!r} ({exc})") from None
