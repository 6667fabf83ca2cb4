"""RAM traces of ALE rollouts: which bytes a game writes, when, and which one tracks a quantity.

The first tool of a port: before any JAX code, play the ROM on the real emulator (sticky actions
off, one emulator frame per action, so the run is deterministic) and look at its 128 bytes of RAM
frame by frame. General: it takes any ROM ale-py ships (by its slug, e.g. ``"seaquest"``), not
only the catalog's games, since a game being ported is not in the catalog yet.

- :func:`record` plays an action script (or a seeded random policy) and keeps every frame's RAM,
  the reward, ``lives()`` and ``game_over()``: a :class:`Trace`;
- :func:`activity` summarises each byte that changed (how often, its range, distinct values, the
  first frame it changed, the largest step between frames);
- :func:`candidates` ranks the bytes that follow a quantity you know per frame (a position you
  read off the screen, a counter, the summed reward): equal, equal up to an offset, or moving in
  step with it;
- :func:`diff` names the bytes two snapshots differ in (e.g. before and after an event);
- :func:`events` lists the frames a byte changed on, with the action held and its old/new values.

``python -m alignment.porting GAME --script RIGHT:30,FIRE:4 --frames 400`` prints the activity
table (see ``--help``). Facts found with it still need their public source named where they land.
"""

from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

import numpy as np

from alignment.actions import ACTION_NAMES

RAM_SIZE = 128


class TraceError(ValueError):
    """Bad input to a trace: an unknown ROM or action, a malformed script, an empty rollout."""


@dataclasses.dataclass(frozen=True)
class Trace:
    """One ALE rollout: ``rams[0]`` is the RAM after reset, ``rams[t + 1]`` after frame ``t``."""

    rom: str
    rams: np.ndarray  # (T + 1, 128) uint8
    actions: np.ndarray  # (T,) ALE action ids played
    rewards: np.ndarray  # (T,) int
    lives: np.ndarray  # (T + 1,) ALE lives()
    game_over: np.ndarray  # (T + 1,) bool
    action_names: tuple[str, ...]  # the names of ALE's action ids, for reports
    screens: Optional[np.ndarray] = None  # (T + 1, 210, 160, 3) uint8 when recorded

    @property
    def frames(self) -> int:
        return int(len(self.actions))


def open_rom(rom: str, *, mode: Optional[int] = None, difficulty: Optional[int] = None,
             seed: int = 0):
    """A fresh ``ALEInterface`` on any ROM ale-py ships (by its slug): one emulator frame per act,
    sticky actions off, reset; an unknown ROM, mode or difficulty is a :class:`TraceError`."""
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    try:
        path = roms.get_rom_path(rom)
    except Exception as exc:  # ale_py raises its own error types for unknown names
        raise TraceError(f"unknown ROM {rom!r}: give an ale-py ROM slug such as 'seaquest' "
                         f"({type(exc).__name__}: {exc})") from None
    if path is None:
        raise TraceError(f"unknown ROM {rom!r}: give an ale-py ROM slug such as 'seaquest'")
    ale = ale_py.ALEInterface()
    ale.setInt("random_seed", int(seed) % (2**31))
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", 1)
    ale.loadROM(str(path))
    for value, available, setter, what in (
            (mode, ale.getAvailableModes, ale.setMode, "mode"),
            (difficulty, ale.getAvailableDifficulties, ale.setDifficulty, "difficulty")):
        if value is not None:
            options = [int(v) for v in available()]
            if int(value) not in options:
                raise TraceError(f"{rom}: {what} {value} not available; {what}s: {options}")
            setter(int(value))
    ale.reset_game()
    return ale


def parse_script(text: str) -> list[tuple[str, int]]:
    """``"RIGHT:30,FIRE:4,NOOP"`` -> ``[("RIGHT", 30), ("FIRE", 4), ("NOOP", 1)]``."""
    names = ACTION_NAMES
    steps = []
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        name, _, count = part.partition(":")
        name = name.strip().upper()
        if name not in names:
            raise TraceError(f"unknown action {name!r} in the script; ALE's actions: {', '.join(names)}")
        try:
            n = int(count) if count.strip() else 1
        except ValueError:
            raise TraceError(f"the frame count of {part!r} is no integer: write NAME:FRAMES, "
                             "e.g. RIGHT:30") from None
        if n < 1:
            raise TraceError(f"the frame count of {part!r} must be at least 1")
        steps.append((name, n))
    if not steps:
        raise TraceError("the script is empty: write e.g. RIGHT:30,FIRE:4")
    return steps


def record(rom: str, script: Sequence[tuple[str, int]] | None = None, *, frames: Optional[int] = None,
           seed: int = 0, mode: Optional[int] = None, difficulty: Optional[int] = None,
           hold: tuple[int, int] = (1, 1), until_game_over: bool = True,
           writes: Sequence = (), screens: bool = False,
           pokes: Optional[dict[int, dict[int, int]]] = None) -> Trace:
    """Play ``rom`` on ALE and keep the RAM of every frame.

    With a ``script`` (steps of (ALE action name, frames)) the script is played, repeated until
    ``frames`` frames when given. Without one a seeded random policy over the ROM's minimal actions
    plays ``frames`` frames, each action held for a number of frames drawn from ``hold`` (inclusive).
    Stops early at game over when ``until_game_over``. ``writes``: RAM writes
    (:class:`alignment.signals.RamWrite`, a mod's ALE counterpart) applied after reset and after
    every frame exactly as the ALE backend applies them; ``screens``: keep every frame's screen too.
    ``pokes``: {frame: {address: byte}}, bytes set just before that frame (0 first) is played - a
    deep start such as a later wave, the random policy's actions unchanged.
    """
    lo, hi = (int(h) for h in hold)
    if not 1 <= lo <= hi:
        raise TraceError(f"hold must be (min, max) frames with 1 <= min <= max, got {hold}")
    if script is None and frames is None:
        raise TraceError("give a script, a number of frames, or both")
    if frames is not None and int(frames) < 1:
        raise TraceError(f"frames must be at least 1, got {frames}")
    pokes = dict(pokes or {})
    for when, writes_then in pokes.items():
        for address, value in dict(writes_then).items():
            if not (isinstance(when, int) and when >= 0 and 0 <= int(address) < RAM_SIZE and 0 <= int(value) <= 255):
                raise TraceError(f"a poke needs a frame >= 0, a RAM address 0..127 and a byte 0..255, got "
                                 f"frame {when!r}, address {address!r}, value {value!r}")
    ale = open_rom(rom, mode=mode, difficulty=difficulty, seed=seed)
    import ale_py

    names = ACTION_NAMES
    if script is not None:
        plan = [names.index(n) for n, k in script for _ in range(int(k))]
        if frames is not None:
            plan = [plan[i % len(plan)] for i in range(int(frames))]
    else:
        rng = np.random.default_rng(seed)
        minimal = [int(a.value) for a in ale.getMinimalActionSet()]
        plan = []
        while len(plan) < int(frames):
            plan += [minimal[rng.integers(len(minimal))]] * int(rng.integers(lo, hi + 1))
        plan = plan[:int(frames)]
    writes = tuple(writes)

    def write(event: str) -> None:
        if writes:
            from alignment.signals import apply_ram_writes

            apply_ram_writes(writes, event, ale.getRAM(), ale.setRAM)

    write("reset")
    rams, rewards, lives, over, played = [ale.getRAM().copy()], [], [ale.lives()], [ale.game_over()], []
    shots = [ale.getScreenRGB().copy()] if screens else None
    for t, a in enumerate(plan):
        if until_game_over and over[-1]:
            break
        for address, value in pokes.get(t, {}).items():
            ale.setRAM(int(address), int(value))
        rewards.append(ale.act(ale_py.Action(a)))
        write("frame")
        played.append(a)
        rams.append(ale.getRAM().copy())
        lives.append(ale.lives())
        over.append(ale.game_over())
        if screens:
            shots.append(ale.getScreenRGB().copy())
    return Trace(rom, np.asarray(rams, np.uint8), np.asarray(played, np.int64),
                 np.asarray(rewards, np.int64), np.asarray(lives, np.int64),
                 np.asarray(over, bool), names, np.stack(shots) if screens else None)


@dataclasses.dataclass(frozen=True)
class ByteActivity:
    address: int  # 0..127 (the 6502 address is 0x80 + address)
    changes: int  # frames on which it changed
    distinct: int  # distinct values seen
    low: int
    high: int
    first_change: int  # the frame (0-based) of its first change
    largest_step: int  # the largest |new - old| between two frames


def activity(trace: Trace) -> list[ByteActivity]:
    """Every byte that changed during ``trace``, most often changed first."""
    r = trace.rams.astype(np.int64)
    if len(r) < 2:
        return []
    step = np.diff(r, axis=0)
    changed = step != 0
    out = []
    for a in np.flatnonzero(changed.any(axis=0)):
        col = r[:, a]
        out.append(ByteActivity(int(a), int(changed[:, a].sum()), int(len(np.unique(col))),
                                int(col.min()), int(col.max()),
                                int(np.argmax(changed[:, a])), int(np.abs(step[:, a]).max())))
    return sorted(out, key=lambda b: (-b.changes, b.address))


@dataclasses.dataclass(frozen=True)
class Candidate:
    address: int
    relation: str  # "equal", "offset", "inverted" (value = offset - byte) or "in step"
    offset: int  # for "offset"/"inverted" (0 otherwise)
    agreement: float  # the share of frames where the relation holds (1.0: every frame)


def candidates(trace: Trace, values, *, frames: Optional[np.ndarray] = None,
               limit: int = 10) -> list[Candidate]:
    """Bytes that follow ``values`` (one per RAM snapshot of the trace, ``len(trace.rams)``; or
    one per entry of ``frames``, the snapshot indices they were read at), best first.

    Each byte is tried as the value itself, the value plus a constant (the most common difference),
    a constant minus it, and as moving in step (same sign of change on the frames either moves)."""
    rams = trace.rams.astype(np.int64)
    idx = np.arange(len(rams)) if frames is None else np.asarray(frames, np.int64)
    v = np.asarray(values, np.int64)
    if v.shape != idx.shape:
        raise TraceError(f"values has shape {v.shape}; it needs one value per snapshot "
                         f"({idx.shape[0]})")
    if len(idx) == 0:
        raise TraceError("no values to match")
    r = rams[idx]
    out = []
    for a in range(RAM_SIZE):
        col = r[:, a]
        tries = [("equal", 0, float(np.mean(col == v)))]
        for relation, d in (("offset", v - col), ("inverted", v + col)):
            vals, counts = np.unique(d, return_counts=True)
            best = int(np.argmax(counts))
            if vals[best] != 0 or relation == "inverted":
                tries.append((relation, int(vals[best]), float(counts[best] / len(d))))
        dv, dc = np.sign(np.diff(v)), np.sign(np.diff(col))
        moving = (dv != 0) | (dc != 0)
        if moving.any():
            tries.append(("in step", 0, float(np.mean(dv[moving] == dc[moving]))))
        relation, offset, agreement = max(tries, key=lambda t: t[2])
        out.append(Candidate(a, relation, offset, agreement))
    out.sort(key=lambda c: (-c.agreement, c.address))
    return out[:limit]


def diff(before, after) -> dict[int, tuple[int, int]]:
    """{address: (before, after)} for every byte two RAM snapshots differ in."""
    b, a = np.asarray(before, np.int64), np.asarray(after, np.int64)
    if b.shape != (RAM_SIZE,) or a.shape != (RAM_SIZE,):
        raise TraceError(f"two RAM snapshots of {RAM_SIZE} bytes are needed, got {b.shape} and {a.shape}")
    return {int(i): (int(b[i]), int(a[i])) for i in np.flatnonzero(b != a)}


@dataclasses.dataclass(frozen=True)
class Event:
    frame: int  # 0-based frame whose step changed the byte
    action: str
    old: int
    new: int


def events(trace: Trace, address: int) -> list[Event]:
    """Every frame on which byte ``address`` changed."""
    if not 0 <= int(address) < RAM_SIZE:
        raise TraceError(f"address {address} is outside the RAM (0..{RAM_SIZE - 1})")
    col = trace.rams[:, int(address)].astype(np.int64)
    return [Event(int(t), trace.action_names[int(trace.actions[t])], int(col[t]), int(col[t + 1]))
            for t in np.flatnonzero(np.diff(col) != 0)]


def activity_table(trace: Trace, rows: Optional[int] = None) -> str:
    """The activity of a trace as plain text, one byte a line."""
    lines = [f"{trace.rom}: {trace.frames} frames, reward {int(trace.rewards.sum())}, "
             f"lives {int(trace.lives[0])} -> {int(trace.lives[-1])}"
             f"{', game over' if trace.game_over[-1] else ''}",
             "ram  addr  changes distinct  low high first  step"]
    for b in activity(trace)[:rows]:
        lines.append(f"{b.address:>3}  ${0x80 + b.address:02X}  {b.changes:>7} {b.distinct:>8} "
                     f"{b.low:>4} {b.high:>4} {b.first_change:>5} {b.largest_step:>5}")
    return "\n".join(lines)
