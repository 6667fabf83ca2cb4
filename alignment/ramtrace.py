"""Porting tool: per-frame RAM traces of the real emulator, for any ROM ale-py ships.

A game being ported is not in the catalog yet, so this module talks to ``ale_py`` directly by ROM
name (``"kangaroo"``, ``"seaquest"``; ale_py.roms names), one emulator frame per action, sticky
actions off (the emulator is then deterministic, re-checked in
tests/test_ramtrace.py). What it answers:

- :func:`record`: the RAM before the first frame and after every frame, the rewards, lives and
  game-over flags (optionally the screens) of an action sequence, optionally with RAM writes
  applied (the same :class:`~alignment.signals.RamWrite` data the ALE backend applies for a mod);
- :func:`changes`: per address, how often it changed, its first change, the values it took;
- :func:`follows`: the addresses whose value (or whose change) lines up with a target series -
  "which byte holds the lives / moves when the player moves right";
- :func:`write_effect`: the same actions with and without RAM writes: which addresses differ, from
  which frame (a mod's counterpart "changes the RAM it names and nothing else" or not);
- :func:`held` / :func:`random_holds`: action sequences (a held action; random actions each held
  for a random number of frames).

``python -m alignment.ramtrace ROM [--hold ACTION | --random] [--frames N] [--seed S]
[--write ADDR=VALUE ...]`` prints the changing addresses, and with ``--write`` what the writes
changed. Nothing here writes files.
"""

from __future__ import annotations

import dataclasses
from typing import Iterable, Optional, Sequence

import numpy as np

from alignment.actions import ACTION_NAMES
from alignment.signals import RamWrite, apply_ram_writes

RAM_SIZE = 128


class RamTraceError(ValueError):
    """Bad input to the tracer: unknown ROM or action, a frame count out of range."""


@dataclasses.dataclass
class Trace:
    """One rollout: ``ram[t]`` is the RAM after ``t`` frames (``ram[0]``: right after reset, after
    any reset writes), ``reward[t]``/``lives[t]``/``over[t]`` belong to frame ``t + 1``;
    ``actions`` are ALE action ids (0..17). The rollout stops at game over."""

    rom: str
    actions: np.ndarray  # (T,) ALE action ids actually played
    ram: np.ndarray  # (T + 1, 128) uint8
    reward: np.ndarray  # (T,) int
    lives: np.ndarray  # (T,) int
    over: np.ndarray  # (T,) bool
    screens: Optional[np.ndarray] = None  # (T + 1, 210, 160, 3) uint8 when asked for

    @property
    def frames(self) -> int:
        return len(self.actions)


def action_id(name_or_id) -> int:
    """``"UPFIRE"``/``"upfire"``/``10`` -> 10; a clear error otherwise."""
    if isinstance(name_or_id, (int, np.integer)):
        i = int(name_or_id)
        if 0 <= i < len(ACTION_NAMES):
            return i
        raise RamTraceError(f"ALE action ids are 0..{len(ACTION_NAMES) - 1}, got {i}")
    key = str(name_or_id).strip().upper()
    if key not in ACTION_NAMES:
        raise RamTraceError(f"unknown action {name_or_id!r}; ALE's actions: {', '.join(ACTION_NAMES)}")
    return ACTION_NAMES.index(key)


def open_rom(rom: str, *, seed: int = 0, mode: int | None = None):
    """A fresh ``ALEInterface`` with the ROM loaded: one frame per act, sticky actions off."""
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    try:
        path = roms.get_rom_path(str(rom))
    except Exception as exc:  # ale_py raises its own error types for unknown names
        raise RamTraceError(f"unknown ROM {rom!r} ({exc}); ale_py.roms names are lower case with "
                            f"underscores, e.g. 'kangaroo', 'space_invaders'") from None
    if path is None:
        raise RamTraceError(f"unknown ROM {rom!r}; ale_py.roms names are lower case with "
                            f"underscores, e.g. 'kangaroo', 'space_invaders'")
    ale = ale_py.ALEInterface()
    ale.setInt("random_seed", int(seed) % (2**31))
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", 1)
    ale.loadROM(path)
    if mode is not None:
        modes = list(ale.getAvailableModes())
        if int(mode) not in modes:
            raise RamTraceError(f"{rom}: mode {mode} not available; modes: {modes}")
        ale.setMode(int(mode))
        ale.reset_game()
    return ale


def held(action, frames: int) -> np.ndarray:
    """``frames`` frames of one action (name or ALE id)."""
    return np.full(_check_frames(frames), action_id(action), np.int32)


def random_holds(frames: int, seed: int = 0, *, actions: Sequence = tuple(range(18)),
                 max_hold: int = 8) -> np.ndarray:
    """Random actions among ``actions``, each held for 1..``max_hold`` frames (seeded)."""
    ids = np.asarray([action_id(a) for a in actions], np.int32)
    rng = np.random.default_rng(seed)
    out = np.empty(_check_frames(frames), np.int32)
    t = 0
    while t < len(out):
        hold = int(rng.integers(1, max_hold + 1))
        out[t:t + hold] = ids[rng.integers(0, len(ids))]
        t += hold
    return out


MAX_FRAMES = 1_000_000


def _check_frames(frames) -> int:
    n = int(frames)
    if not 0 <= n <= MAX_FRAMES:
        raise RamTraceError(f"frames must be 0..{MAX_FRAMES}, got {frames!r}")
    return n


def record(rom: str, actions: Iterable, *, writes: Sequence[RamWrite] = (), seed: int = 0,
           mode: int | None = None, screens: bool = False, start=None) -> Trace:
    """Play ``actions`` (ALE ids or names) frame by frame from reset (or from ``start``, an
    ``ALEState`` of this ROM) and record the RAM after every frame; ``writes`` are applied after
    reset and after every frame as the ALE backend applies a mod's counterpart."""
    ids = np.asarray([action_id(a) for a in actions], np.int32)
    _check_frames(len(ids))
    import ale_py

    ale = open_rom(rom, seed=seed, mode=mode)
    if start is not None:
        ale.restoreState(start)
    acts = [ale_py.Action(i) for i in range(len(ACTION_NAMES))]
    writes = tuple(writes)

    def write(event):
        if writes:
            apply_ram_writes(writes, event, ale.getRAM(), ale.setRAM)

    write("reset")
    rams = [np.array(ale.getRAM(), np.uint8)]
    shots = [ale.getScreenRGB().copy()] if screens else None
    reward, lives, over = [], [], []
    for a in ids:
        reward.append(int(ale.act(acts[a])))
        write("frame")
        rams.append(np.array(ale.getRAM(), np.uint8))
        if screens:
            shots.append(ale.getScreenRGB().copy())
        lives.append(int(ale.lives()))
        over.append(bool(ale.game_over()))
        if over[-1]:
            break
    n = len(reward)
    return Trace(str(rom), ids[:n], np.stack(rams), np.asarray(reward, np.int64),
                 np.asarray(lives, np.int64), np.asarray(over, bool),
                 np.stack(shots) if screens else None)


@dataclasses.dataclass(frozen=True)
class AddressChanges:
    address: int
    changes: int  # frames on which the byte changed
    first: Optional[int]  # the first frame (1-based) whose RAM differs from the frame before
    values: tuple[int, ...]  # the distinct values taken, sorted (at most ``keep``)
    distinct: int  # how many distinct values


def changes(ram: np.ndarray, *, keep: int = 12) -> list[AddressChanges]:
    """Per address of a (T+1, 128) RAM trace: how often and when it changed and what it held;
    only the addresses that changed, most frequently changing first."""
    ram = np.asarray(ram)
    if ram.ndim != 2 or ram.shape[1] != RAM_SIZE:
        raise RamTraceError(f"a RAM trace is (frames + 1, {RAM_SIZE}); got shape {ram.shape}")
    moved = ram[1:] != ram[:-1]
    out = []
    for a in np.flatnonzero(moved.any(axis=0)):
        vals = np.unique(ram[:, a])
        out.append(AddressChanges(int(a), int(moved[:, a].sum()), int(np.argmax(moved[:, a])) + 1,
                                  tuple(int(v) for v in vals[:keep]), len(vals)))
    return sorted(out, key=lambda c: (-c.changes, c.address))


def follows(ram: np.ndarray, target: Sequence, *, on: str = "value") -> list[int]:
    """Addresses of a (T+1, 128) trace that line up with ``target`` (T+1 values):
    ``on="value"``: the byte equals target[t] + c for one constant c on every frame (an offset
    coordinate or counter); ``on="change"``: the byte changes exactly on the frames the target
    changes (an event's flag or counter, whatever its encoding)."""
    ram = np.asarray(ram).astype(np.int64)
    target = np.asarray(target).astype(np.int64)
    if target.shape != (ram.shape[0],):
        raise RamTraceError(f"target needs one value per RAM row ({ram.shape[0]}), got "
                            f"shape {target.shape}")
    if on == "value":
        diff = ram - target[:, None]
        return [int(a) for a in np.flatnonzero((diff == diff[:1]).all(axis=0))]
    if on == "change":
        t_moved = target[1:] != target[:-1]
        moved = ram[1:] != ram[:-1]
        return [int(a) for a in np.flatnonzero((moved == t_moved[:, None]).all(axis=0))]
    raise RamTraceError(f"on is 'value' or 'change', got {on!r}")


@dataclasses.dataclass(frozen=True)
class WriteEffect:
    """What RAM writes changed against the same actions without them."""

    frames: int  # frames compared (the shorter rollout)
    written: tuple[int, ...]  # the addresses the writes name
    differing: dict[int, int]  # address -> first frame (0 = after reset) where it differs
    reward_first: Optional[int]  # first frame (1-based) whose reward differs, None if none
    over_first: Optional[int]  # first frame (1-based) whose game-over flag differs

    @property
    def others(self) -> dict[int, int]:
        """Differing addresses the writes do not name."""
        return {a: f for a, f in self.differing.items() if a not in self.written}


def write_effect(rom: str, actions: Iterable, writes: Sequence[RamWrite], **kw) -> WriteEffect:
    """Play ``actions`` with and without ``writes``; per address the first frame that differs."""
    actions = list(actions)
    plain = record(rom, actions, **kw)
    mod = record(rom, actions, writes=writes, **kw)
    n = min(plain.frames, mod.frames)
    diff = plain.ram[:n + 1] != mod.ram[:n + 1]
    differing = {int(a): int(np.argmax(diff[:, a])) for a in np.flatnonzero(diff.any(axis=0))}

    def first(x, y):
        bad = np.flatnonzero(x[:n] != y[:n])
        return int(bad[0]) + 1 if len(bad) else None

    return WriteEffect(n, tuple(sorted({w.address for w in writes})), differing,
                       first(plain.reward, mod.reward), first(plain.over, mod.over))


def parse_write(text: str) -> RamWrite:
    """``"8=127"`` -> RamWrite(8, 127) (every frame); decimal or 0x hex."""
    try:
        a, v = str(text).split("=")
        return RamWrite(int(a, 0), int(v, 0))
    except ValueError as exc:
        raise RamTraceError(f"a write is ADDRESS=VALUE (0..127 = 0..255, decimal or 0x hex), got "
                            f"{text!r} ({exc})") from None


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m alignment.ramtrace", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("rom", help="an ale_py.roms name, e.g. kangaroo")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--hold", default=None, help="hold one ALE action (name) every frame")
    how.add_argument("--random", action="store_true", help="random actions held 1..8 frames")
    p.add_argument("--frames", type=int, default=600)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--write", action="append", default=[], metavar="ADDR=VALUE",
                   help="a RAM write applied after reset and every frame (repeatable)")
    args = p.parse_args(argv)
    try:
        actions = (random_holds(args.frames, args.seed) if args.random
                   else held(args.hold or "NOOP", args.frames))
        writes = [parse_write(w) for w in args.write]
        if writes:
            eff = write_effect(args.rom, actions, writes, seed=args.seed)
            print(f"{args.rom}: {eff.frames} frames with writes {args.write}")
            print(f"  reward first differs: {eff.reward_first}; game over: {eff.over_first}")
            for a, f in sorted(eff.differing.items(), key=lambda x: x[1]):
                mark = "" if a in eff.written else "  (not written)"
                print(f"  ram[{a:3d}] differs from frame {f}{mark}")
            return 0
        tr = record(args.rom, actions, seed=args.seed)
    except (RamTraceError, ValueError) as exc:
        print(f"error: {exc}")
        return 2
    print(f"{args.rom}: {tr.frames} frames, reward {int(tr.reward.sum())}, "
          f"game over: {bool(tr.over[-1]) if tr.frames else False}")
    for c in changes(tr.ram):
        more = "" if c.distinct <= len(c.values) else f" ... ({c.distinct} values)"
        print(f"  ram[{c.address:3d}] changed {c.changes:5d}x, first at frame {c.first}: "
              f"{list(c.values)}{more}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
