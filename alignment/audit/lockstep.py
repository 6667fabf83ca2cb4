"""ALE and the JAX game in lockstep: the same steps on both, compared frame by frame.

The audit's probes (:mod:`alignment.audit.probes`) and its exploration
(:mod:`alignment.audit.explore`) both play a list of steps (actions held for some frames, and pokes
between frames) on the emulator and on the JAX game and look for the first frame where the two
differ: any catalog signal beyond its tolerance (``Signal.within``), the frame's reward (exactly),
or the 210x160 RGB screen on the frames a :class:`Screens` rule samples. A probe that only compared
its end values would let a JAX game that diverged and came back (a score reached one frame late, a
life lost by another path, a sprite drawn wrong for a few frames) pass; a comparison on every frame
does not.

The emulator's side of a run is a :class:`Recording`, made once and kept (screens compressed): the
JAX side of the same run, under any number of faults or mutants, is compared with it without
playing ALE again. The JAX side runs as compiled scans that keep each frame's state, and only the
sampled frames are rendered (:meth:`alignment.backends.JaxBackend.run_screens`).
"""

from __future__ import annotations

import dataclasses
import zlib
from typing import Any, Optional, Sequence

import numpy as np

from alignment.backends import REWARD, Backend, BackendError

SCREEN = "screen"  # the name of the 210x160 RGB frame in a divergence
SCREEN_SHAPE = (210, 160, 3)


@dataclasses.dataclass(frozen=True)
class Screens:
    """Which frames' screens are compared: every ``every``-th frame since reset, the run's last
    frame, and every frame of the run when ``all_frames`` (a screen probe)."""

    every: int = 4
    all_frames: bool = False

    def wanted(self, first: int, n: int, last: bool) -> list[int]:
        """Indices 0..n-1 of a segment whose first frame is frame ``first + 1`` since reset."""
        if self.all_frames:
            return list(range(n))
        idx = [t for t in range(n) if (first + t + 1) % self.every == 0]
        if last and n and (not idx or idx[-1] != n - 1):
            idx.append(n - 1)
        return idx


@dataclasses.dataclass
class Recording:
    """One side's run of some steps: per-frame signals and rewards, sampled screens."""

    frame0: int  # frames since reset before the first step
    traces: dict[str, np.ndarray]  # signal (and "reward") -> value after each frame
    screen_frames: list[int]  # indices into the traces of the sampled screens
    screens: list  # zlib-compressed bytes (a kept recording) or arrays
    start: dict  # signals before the first step
    end: dict  # signals after the last step

    @property
    def frames(self) -> int:
        return len(self.traces.get(REWARD, ()))

    def screen(self, i: int) -> np.ndarray:
        s = self.screens[i]
        if isinstance(s, bytes):
            return np.frombuffer(zlib.decompress(s), np.uint8).reshape(SCREEN_SHAPE)
        return np.asarray(s)


@dataclasses.dataclass
class Divergence:
    """The first frame where the JAX game left the emulator, and what differed there."""

    frame: int  # frames since reset (1 = after the first frame)
    signal: str  # a catalog signal, "reward" or "screen"
    ale: Any
    jax: Any
    where: str  # "save point NAME", "probe steps", an exploration walk, ...
    others: list[str] = dataclasses.field(default_factory=list)  # also differing on that frame

    def describe(self) -> str:
        also = f" (also {', '.join(self.others)})" if self.others else ""
        return (f"diverges from ALE at frame {self.frame} ({self.where}): {self.signal} "
                f"ALE {_fmt(self.ale)}, JAX {_fmt(self.jax)}{also}")

    def to_json(self) -> dict:
        return {"frame": self.frame, "signal": self.signal, "ale": _jsonable(self.ale),
                "jax": _jsonable(self.jax), "where": self.where, "others": list(self.others)}


def _fmt(v) -> str:
    if isinstance(v, str):
        return v
    a = np.asarray(v)
    return str(a.item()) if a.ndim == 0 else str(a.tolist())


def _jsonable(v):
    if isinstance(v, str):
        return v
    a = np.asarray(v)
    return a.item() if a.ndim == 0 else a.tolist()


def _segments(steps: Sequence) -> list:
    """Steps as ("act", [action names]) runs and ("poke", {name: value}) writes, in order."""
    out: list = []
    for i, s in enumerate(steps, 1):
        if getattr(s, "is_poke", False):
            out.append(("poke", (i, s)))
            continue
        frames = [s.action] * int(s.frames or 0)
        if out and out[-1][0] == "act":
            out[-1][1].extend(frames)
        else:
            out.append(("act", frames))
    return out


def play(backend: Backend, steps: Sequence, screens: Screens, *, keep: bool = False) -> Recording:
    """Play ``steps`` (ProbeSteps, or anything with ``action``/``frames``/``poke``) on
    ``backend`` from its current state, recording every frame and the sampled screens;
    ``keep`` compresses the screens (a reference recording kept for many comparisons)."""
    frame0 = int(backend.frame)
    start = backend.signals()
    segments = [seg for seg in _segments(steps) if seg[0] == "poke" or seg[1]]
    last_act = max((i for i, seg in enumerate(segments) if seg[0] == "act"), default=-1)
    parts, shot_at, shots, done = [], [], [], 0
    for i, (kind, what) in enumerate(segments):
        if kind == "poke":
            n, step = what
            try:
                for name, value in step.poke.items():
                    backend.poke(name, value)
            except BackendError as exc:
                raise BackendError(f"step {n} ({step.describe()}): {exc}") from None
            continue
        actions = actions_of(backend, what)
        want = screens.wanted(frame0 + done, len(actions), last=i == last_act)
        traces, got = backend.run_screens(actions, want)
        parts.append(traces)
        shot_at += [done + t for t in want]
        shots += [zlib.compress(np.ascontiguousarray(x, np.uint8).tobytes(), 1) if keep else x
                  for x in got]
        done += len(actions)
    if parts:
        traces = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    else:
        traces = backend.run([])
    return Recording(frame0, traces, shot_at, shots, start, backend.signals())


def actions_of(backend: Backend, actions) -> np.ndarray:
    """Action names or indices as the backend's indices (a BackendError names an unknown one)."""
    if isinstance(actions, np.ndarray) and np.issubdtype(actions.dtype, np.integer):
        return actions.astype(np.int32)
    return backend.action_indices(actions)


def first_divergence(signals: dict, ale: Recording, jax: Recording, where: str,
                     known_ends: Sequence = ()) -> Optional[Divergence]:
    """The first frame where ``jax`` leaves ``ale`` (same steps from the same state), or None.

    ``signals``: the catalog's signals of the game (name -> Signal, for tolerances). A signal
    beyond its tolerance or a reward that differs on a frame is found on that frame; a screen on
    the sampled frame it differs (the earliest of all counts; ties name a signal first).
    ``known_ends``: the game's :class:`~alignment.signals.KnownEnd` declarations; where one ends
    the JAX game's episode (:func:`known_end`), nothing after that frame is compared and its
    ``differs`` signals not on it."""
    n = min(ale.frames, jax.frames)
    if n == 0:
        return None
    end = known_end(known_ends, ale, jax)
    excused: tuple = ()
    if end is not None:
        n, excused = end[1] + 1, end[0].differs
    first, names = None, []
    for k in [*signals, REWARD]:
        if k not in ale.traces or k not in jax.traces:
            continue
        m = n - 1 if k in excused else n
        a = np.asarray(ale.traces[k], np.float64)[:m].reshape(m, -1)
        b = np.asarray(jax.traces[k], np.float64)[:m].reshape(m, -1)
        tol = signals[k].tolerance if k in signals else 0.0
        bad = np.nonzero(np.any(np.abs(a - b) > tol, axis=1))[0]
        if not len(bad):
            continue
        t = int(bad[0])
        if first is None or t < first:
            first, names = t, [k]
        elif t == first:
            names.append(k)
    cap = n - 1 - (SCREEN in excused)
    shot = _first_screen(ale, jax, limit=cap if first is None else min(first, cap))
    if shot is not None and (first is None or shot[0] < first):
        t, what = shot
        return Divergence(ale.frame0 + t + 1, SCREEN, "ALE's screen", what, where)
    if first is None:
        if end is None and ale.frames != jax.frames:
            return Divergence(ale.frame0 + n + 1, "frames", ale.frames, jax.frames, where)
        return None
    k = names[0]
    others = names[1:] + ([SCREEN] if shot is not None and shot[0] == first else [])
    return Divergence(ale.frame0 + first + 1, k, _value(ale.traces[k][first]),
                      _value(jax.traces[k][first]), where, others)


def known_end(known_ends: Sequence, ale: Recording, jax: Recording):
    """(the KnownEnd, trace index) where one of ``known_ends`` ends the JAX game's episode in
    these recordings: the first frame JAX reports ``terminated`` and ALE does not, with the end's
    marker signal non-zero on both sides; else None."""
    if not known_ends or "terminated" not in jax.traces or "terminated" not in ale.traces:
        return None
    n = min(ale.frames, jax.frames)
    over = np.nonzero(np.asarray(jax.traces["terminated"][:n], bool))[0]
    if not len(over) or bool(np.asarray(ale.traces["terminated"])[over[0]]):
        return None
    t = int(over[0])
    for end in known_ends:
        mark_a, mark_j = ale.traces.get(end.marker), jax.traces.get(end.marker)
        if mark_a is not None and mark_j is not None and np.any(mark_a[t]) and np.any(mark_j[t]):
            return end, t
    return None


def _value(v):
    a = np.asarray(v)
    return a.item() if a.ndim == 0 else a


def _first_screen(ale: Recording, jax: Recording, limit: Optional[int]):
    """(trace index, description) of the first sampled screen that differs, up to ``limit``."""
    shared = dict(zip(jax.screen_frames, range(len(jax.screen_frames))))
    for i, t in enumerate(ale.screen_frames):
        if limit is not None and t > limit:
            return None
        j = shared.get(t)
        if j is None:
            continue
        what = screen_difference(ale.screen(i), jax.screen(j))
        if what:
            return t, what
    return None


def screen_difference(ale_rgb: np.ndarray, jax_rgb: np.ndarray) -> Optional[str]:
    """None when two 210x160 RGB frames are equal; else how many pixels differ, and where."""
    a, b = np.asarray(ale_rgb), np.asarray(jax_rgb)
    if a.shape != b.shape:
        return f"shapes differ: ALE {a.shape}, JAX {b.shape}"
    diff = np.any(a != b, axis=-1)
    if not diff.any():
        return None
    rows, cols = np.nonzero(diff)
    return (f"{int(diff.sum())} pixels differ in rows {rows.min()}-{rows.max()}, "
            f"columns {cols.min()}-{cols.max()}")


__all__ = ["BackendError", "Divergence", "Recording", "SCREEN", "Screens", "actions_of",
           "first_divergence", "play", "screen_difference"]
