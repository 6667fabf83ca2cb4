"""Playtest core: find sessions and replay them on both backends as a regression check.

A session (see :mod:`alignment.playtest.session`) holds, for every frame played, the action and every
catalog signal of both sides. :func:`replay` plays each episode's actions again from the same seed on
the ALE and the JAX backend (their ``run`` fast path) and compares what each side reports now with
what it reported then, frame by frame and signal by signal, with no tolerance: the same inputs must
give the same numbers. The first difference fails the session, named by frame, side and signal, with
the mark the player made nearest to it. Nothing here prints; the command module and the graph read
the returned :class:`ReplayResult`\\ s.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from alignment import artefacts, catalog
from alignment.backends import BACKENDS as SIDES
from alignment.playtest.session import (
    ReadProblem,
    Session,
    SessionError,
    list_sessions,
    plain,
    read_session,
)

# Recorded values go through JSON; an integer or a float that survived repr() compares exactly.
EXACT = 1e-9


def code_hash(game: str) -> str:
    """The JAX game's code hash, as every artefact records it (one home: ``catalog.code_hash``)."""
    return catalog.code_hash(game)


def ale_counterparts(game: str, mods: Sequence[str]) -> tuple[str, ...]:
    """The mods that also run on ALE (the game's ground truth gives them as RAM writes)."""
    from alignment.backends import mods_key

    have = catalog.entry(game).ale_mods
    return tuple(m for m, k in zip(mods, mods_key(mods)) if k in have)


def make_sides(game: str, mods: Sequence[str] = (), mode: int | None = None, *,
               ale_mods: Sequence[str] | None = None) -> dict[str, Any]:
    """The ALE and the JAX backend of a session. The JAX side gets ``mods``; the ALE side those of
    ``ale_mods`` (default: ``mods``) that have an ALE counterpart, the rest being JAX-only."""
    from alignment.backends import make_backend

    ale = ale_counterparts(game, tuple(mods if ale_mods is None else ale_mods))
    return {"ale": make_backend("ale", game, mods=ale, mode=mode),
            "jax": make_backend("jax", game, mods=tuple(mods), mode=mode)}


@dataclasses.dataclass(frozen=True)
class Difference:
    """One signal of one side that replays differently from the recording."""

    side: str  # "ale" | "jax"
    signal: str
    tick: int  # first session frame where it differs
    episode: int
    episode_frame: int  # frames since that episode's reset (1-based, like the `frame` signal)
    recorded: Any
    now: Any
    frames_differing: int

    def describe(self) -> str:
        return (f"frame {self.tick} (episode {self.episode}, frame {self.episode_frame}): "
                f"{self.side} {self.signal} recorded {self.recorded!r}, now {self.now!r}")


@dataclasses.dataclass(frozen=True)
class Failure:
    """The first difference of a failed replay, with the mark nearest to it."""

    frame: int
    side: str
    signal: str
    recorded: Any
    now: Any
    episode: int
    episode_frame: int
    nearest_mark: dict | None

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        text = (f"frame {self.frame} (episode {self.episode}, frame {self.episode_frame}): "
                f"{self.side} signal {self.signal!r} recorded {self.recorded!r}, now {self.now!r}")
        if self.nearest_mark is not None:
            m = self.nearest_mark
            note = f" {m['text']!r}" if m.get("text") else ""
            text += f"; nearest mark: {m['kind']}{note} at frame {m['tick']}"
        return text


@dataclasses.dataclass
class ReplayResult:
    path: Path
    game: str | None
    passed: bool
    frames: int  # frames replayed
    recorded_frames: int
    failure: Failure | None = None
    differences: list[Difference] = dataclasses.field(default_factory=list)
    read_problem: ReadProblem | None = None
    error: str | None = None  # why the session could not be replayed at all
    code_hash_recorded: str | None = None
    code_hash_now: str | None = None
    notes: list[str] = dataclasses.field(default_factory=list)
    marks: list[dict] = dataclasses.field(default_factory=list)
    recorded_divergence: dict | None = None  # first frame where ALE and JAX disagreed when recorded
    jax_mods: tuple[str, ...] = ()
    seconds: float = 0.0

    @property
    def code_changed(self) -> bool:
        return (self.code_hash_recorded is not None and self.code_hash_now is not None
                and self.code_hash_recorded != self.code_hash_now)

    def to_json(self) -> dict:
        return {
            "path": str(self.path), "game": self.game, "passed": self.passed, "frames": self.frames,
            "recorded_frames": self.recorded_frames,
            "failure": dataclasses.asdict(self.failure) if self.failure else None,
            "differences": [dataclasses.asdict(d) for d in self.differences],
            "read_problem": ({"line": self.read_problem.line, "message": self.read_problem.message}
                             if self.read_problem else None),
            "error": self.error, "code_hash_recorded": self.code_hash_recorded,
            "code_hash_now": self.code_hash_now, "code_changed": self.code_changed,
            "notes": self.notes, "marks": self.marks,
            "recorded_divergence": self.recorded_divergence, "jax_mods": list(self.jax_mods),
            "seconds": round(self.seconds, 3),
        }


def sessions_for(game: str, root: Path = Path(artefacts.PLAYTEST_SESSION.folder)) -> list[Path]:
    """The recorded sessions of a game (any spelling the catalog accepts), oldest first."""
    return list_sessions(root, catalog.canonical(game))


def nearest_mark(marks: Sequence[dict], tick: int) -> dict | None:
    if not marks:
        return None
    return min(marks, key=lambda m: (abs(int(m["tick"]) - tick), int(m["tick"])))


class _Sides:
    """One pair of backends per (game, JAX mods, mode), reused across episodes and sessions."""

    def __init__(self):
        self._cache: dict[tuple, dict[str, Any]] = {}

    def get(self, game: str, mods: tuple[str, ...], mode, ale_mods: tuple[str, ...]) -> dict:
        key = (game, mods, mode, ale_mods)
        if key not in self._cache:
            self._cache[key] = make_sides(game, mods, mode, ale_mods=ale_mods)
        return self._cache[key]


def _as_array(values: list) -> np.ndarray:
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        return np.asarray(values, dtype=object)


def _differences(side: str, name: str, recorded: np.ndarray, now: np.ndarray, ticks: np.ndarray,
                 episode: int) -> Difference | None:
    """The first frame where a recorded trace and the replayed one differ, or None."""
    n = min(len(recorded), len(now))
    if recorded.dtype == object or now.dtype == object or recorded.shape[1:] != now.shape[1:]:
        bad = np.ones(n, bool)
    else:
        # `not <=`: a NaN on either side is a difference (NaN > x is False, so `>` passed it)
        diff = ~(np.abs(recorded[:n] - now[:n].astype(np.float64)) <= EXACT)
        bad = diff.reshape(n, -1).any(axis=1) if diff.ndim > 1 else diff
    if len(recorded) > len(now):
        bad = np.concatenate([bad, np.ones(len(recorded) - n, bool)])
    idx = np.flatnonzero(bad)
    if not len(idx):
        return None
    i = int(idx[0])
    rec = plain(recorded[i])
    cur = plain(now[i]) if i < len(now) else "(no frame: the replay ended)"
    return Difference(side, name, int(ticks[i]), episode, i + 1, rec, cur, int(len(idx)))


def _folder_game(path: Path) -> str | None:
    """The game whose folder (``<root>/<game>/``) holds a session, when it is a game's folder."""
    try:
        return catalog.canonical(path.parent.name)
    except (catalog.UnknownCatalogGame, ValueError):
        return None


def _replay_one(path: Path, backends: _Sides, jax_mods: tuple[str, ...] | None,
                both_mods: tuple[str, ...] | None = None) -> ReplayResult:
    t0 = time.perf_counter()
    try:
        session = read_session(path)
    except SessionError as exc:
        return ReplayResult(path, None, False, 0, 0, error=str(exc))
    h = session.header
    result = ReplayResult(path, h.get("game"), False, 0, session.ticks, read_problem=session.problem,
                          marks=list(session.marks), recorded_divergence=session.first_divergence(),
                          code_hash_recorded=h.get("code_hash"))
    try:
        game = catalog.canonical(h["game"])
        entry = catalog.entry(game)
        result.code_hash_now = code_hash(game)
    except (catalog.UnknownCatalogGame, KeyError, ValueError) as exc:
        result.error = f"cannot replay: {exc}"
        return result
    folder = _folder_game(path)
    if folder is not None and folder != game:
        result.error = (f"a session of {game} in {folder}'s folder {path.parent}: it would be "
                        f"counted as {folder}'s; move it to {path.parent.parent / game}")
        return result
    recorded_mods = tuple(h.get("mods") or ())
    mods = recorded_mods if jax_mods is None else tuple(jax_mods)
    ale_mods = recorded_mods
    if both_mods is not None:  # --mods: the modified game on both sides (ALE where it has one)
        mods = ale_mods = tuple(both_mods)
        on_ale = ale_counterparts(game, ale_mods)
        result.notes.append(f"mods {', '.join(mods) or 'none'}: on ALE "
                            f"{', '.join(on_ale) or 'none'} (RAM-write counterparts), the rest "
                            f"JAX-only")
    result.jax_mods = mods
    if result.code_changed:
        result.notes.append(f"the JAX game's code changed since recording: code hash "
                            f"{result.code_hash_recorded[:12]} then, {result.code_hash_now[:12]} now")
    try:
        sides = backends.get(game, mods, h.get("mode"), ale_mods)
    except Exception as exc:  # unknown mod/mode, a JAX game that does not build: a message
        result.error = f"cannot build the backends: {type(exc).__name__}: {exc}"
        return result
    names = list(h["actions"])
    now_names = list(sides["ale"].action_names)
    missing = [a for a in names if a not in now_names]
    if missing:
        result.error = (f"the session's actions {missing} are not in {game}'s action set now "
                        f"({', '.join(now_names)})")
        return result
    remap = np.asarray([now_names.index(a) for a in names], np.int32)
    recorded_signals = [s for s in h["signals"]]
    gone = [s for s in recorded_signals if s not in entry.signals]
    new = [s for s in entry.signals if s not in recorded_signals]
    if gone:
        result.notes.append(f"signals recorded but no longer in the catalog (not checked): "
                            f"{', '.join(gone)}")
    if new:
        result.notes.append(f"catalog signals added since recording (not checked): {', '.join(new)}")
    checked = [s for s in recorded_signals if s in entry.signals]

    first: dict[tuple[str, str], Difference] = {}
    counts: dict[tuple[str, str], int] = {}
    for reset, frames in session.episodes():
        if not frames:
            continue
        actions = remap[np.asarray([f["action"] for f in frames], np.int64)]
        ticks = np.asarray([f["tick"] for f in frames])
        for side in SIDES:
            backend = sides[side]
            backend.reset(seed=int(reset["seed"]))
            trace = backend.run(actions)
            for name in checked:
                recorded = _as_array([f[side].get(name) for f in frames])
                now = np.asarray(trace[name])
                d = _differences(side, name, recorded, now, ticks, int(reset["episode"]))
                if d is None:
                    continue
                key = (side, name)
                counts[key] = counts.get(key, 0) + d.frames_differing
                if key not in first:
                    first[key] = d
        result.frames += len(frames)
    result.differences = sorted(
        (dataclasses.replace(d, frames_differing=counts[k]) for k, d in first.items()),
        key=lambda d: (d.tick, SIDES.index(d.side), d.signal))
    if result.differences:
        d = result.differences[0]
        result.failure = Failure(d.tick, d.side, d.signal, d.recorded, d.now, d.episode,
                                 d.episode_frame, nearest_mark(session.marks, d.tick))
    # A damaged file fails CI even when its readable part replays clean.
    result.passed = result.failure is None and session.problem is None
    result.seconds = time.perf_counter() - t0
    return result


def replay(paths: Iterable[Path], *, jax_mods: Sequence[str] | None = None,
           mods: Sequence[str] | None = None) -> list[ReplayResult]:
    """Replay sessions on both backends; ``jax_mods`` replaces the recorded mods on the JAX side
    (to see what a change to the JAX game breaks); ``mods`` replaces them on both sides (ALE gets
    those with an ALE counterpart, the rest run JAX-only, as ``play --mods`` records them)."""
    backends = _Sides()
    jm = None if jax_mods is None else tuple(jax_mods)
    both = None if mods is None else tuple(mods)
    return [_replay_one(Path(p), backends, jm, both) for p in paths]


__all__ = ["Difference", "Failure", "ReplayResult", "code_hash", "nearest_mark", "replay",
           "sessions_for", "versions", "Session"]
