"""The playtest session file: ``playtest/<game>/<session-id>.jsonl.gz``.

One JSON object per line, each with a ``type``:

- ``header`` (the first line): ``schema``, ``session_id``, ``game``, ``mode``, ``seed``, ``mods``,
  ``settings`` (fps, scale, frameskip 1, sticky 0), ``versions`` (jaxtari, ale-py, jax, python),
  ``code_hash`` (of the JAX game's source), ``player`` (``{"kind": "person"|"scripted", "name"}``),
  ``actions`` (the minimal action set, indices refer to it), ``signals`` (the names recorded), and
  ``started`` (UTC, ISO 8601).
- ``reset``: a new episode starts on both sides before tick ``tick``, with ``episode`` and ``seed``.
- ``frame``: one emulator frame on both sides: ``tick`` (0-based over the session), ``episode``,
  ``action`` (index into ``actions``), ``ale`` and ``jax`` (every signal after that frame),
  ``agree`` (every signal within its catalog tolerance) and ``diverged`` (the names that were not).
- ``mark``: ``tick`` (the last frame played when the mark was made), ``kind`` (``bug``,
  ``looks-right`` or ``note``) and ``text``.
- ``end``: ``ticks`` played and ``reason``; absent when the process was killed.

Writing is append-only: the file is created exclusively (a session is never overwritten), and the
buffered lines go out as one gzip member at least once a second, so a process killed with SIGKILL
loses at most the last second and the file still decompresses (gzip readers concatenate members).
Reading reports the file and line of the first unreadable line and keeps everything before it.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import gzip
import json
import math
import os
import secrets
import time
import zlib
from pathlib import Path
from typing import Any, Iterable, Mapping

from alignment import artefacts
from alignment.plain import plain as to_plain

SCHEMA = artefacts.PLAYTEST_SESSION.schema
SUFFIX = ".jsonl.gz"
MARK_KINDS = ("bug", "looks-right", "note")
PLAYER_KINDS = ("person", "scripted")
FLUSH_SECONDS = 1.0
# Also flush after this many buffered lines, so an unthrottled scripted player keeps members small.
FLUSH_LINES = 600
# Bounds on what a session file may hold, checked while reading (a zip bomb is not a session): 30
# minutes at 60 Hz is 108,000 frames of a few hundred bytes each, far below these.
MAX_UNPACKED_BYTES = 512 * 2**20
SEED_MAX = 2**32 - 1


class SessionError(ValueError):
    """A session that cannot be written or read at all (names the file and the reason)."""


def new_session_id(game: str) -> str:
    """A sortable, collision-safe id: UTC time, the game, and random hex."""
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{game}-{secrets.token_hex(3)}"


def session_path(root: Path, game: str, session_id: str) -> Path:
    return Path(root) / game / f"{session_id}{SUFFIX}"


def plain(value: Any) -> Any:
    """A signal value as JSON data (numbers and nested lists; a whole float is stored as an int)."""
    return to_plain(value, whole_floats_as_int=True)


class Recorder:
    """Appends one session's records; call :meth:`close` (or use as a context manager) at the end.

    ``header`` is the header record without its ``type``/``schema`` (see :func:`make_header`).
    """

    def __init__(self, path: os.PathLike | str, header: Mapping[str, Any], *,
                 flush_seconds: float = FLUSH_SECONDS, clock=time.monotonic):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._file = open(self.path, "xb")  # exclusive: an existing session is never replaced
        except FileExistsError:
            raise SessionError(f"{self.path} already exists; sessions are never overwritten "
                               f"(a new session gets a new id)") from None
        self._clock = clock
        self._flush_seconds = float(flush_seconds)
        self._lines: list[bytes] = []
        self._last_flush = clock()
        self.ticks = 0
        self.closed = False
        self._write({"type": "header", "schema": SCHEMA, **header})
        self.flush()

    def _write(self, record: Mapping[str, Any]) -> None:
        if self.closed:
            raise SessionError(f"{self.path}: the session is closed")
        self._lines.append(json.dumps(record, separators=(",", ":")).encode() + b"\n")
        if (len(self._lines) >= FLUSH_LINES
                or self._clock() - self._last_flush >= self._flush_seconds):
            self.flush()

    def flush(self) -> None:
        """Write the buffered lines as one gzip member and hand them to the OS."""
        if self._lines:
            self._file.write(gzip.compress(b"".join(self._lines), compresslevel=6, mtime=0))
            self._file.flush()
            self._lines = []
        self._last_flush = self._clock()

    def reset(self, episode: int, seed: int) -> None:
        self._write({"type": "reset", "tick": self.ticks, "episode": int(episode), "seed": int(seed)})

    def frame(self, episode: int, action: int, ale: Mapping[str, Any], jax: Mapping[str, Any],
              diverged: Iterable[str]) -> None:
        diverged = sorted(diverged)
        self._write({
            "type": "frame", "tick": self.ticks, "episode": int(episode), "action": int(action),
            "ale": {k: plain(v) for k, v in ale.items()},
            "jax": {k: plain(v) for k, v in jax.items()},
            "agree": not diverged, "diverged": diverged,
        })
        self.ticks += 1

    def mark(self, kind: str, text: str = "") -> dict:
        """A mark on the last frame played (tick -1 before the first frame); flushed at once."""
        if kind not in MARK_KINDS:
            raise SessionError(f"unknown mark kind {kind!r}; kinds: {', '.join(MARK_KINDS)}")
        record = {"type": "mark", "tick": self.ticks - 1, "kind": kind, "text": str(text)}
        self._write(record)
        self.flush()
        return record

    def close(self, reason: str = "quit") -> None:
        if self.closed:
            return
        self._write({"type": "end", "ticks": self.ticks, "reason": reason})
        self.flush()
        self._file.close()
        self.closed = True

    def __enter__(self) -> "Recorder":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close("quit" if exc_type is None else f"error: {exc_type.__name__}")


def make_header(*, session_id: str, game: str, mode: int | None, seed: int, mods: Iterable[str],
                settings: Mapping[str, Any], versions: Mapping[str, str], code_hash: str,
                player: Mapping[str, str], actions: Iterable[str], signals: Iterable[str]) -> dict:
    if player.get("kind") not in PLAYER_KINDS:
        raise SessionError(f"player kind must be one of {', '.join(PLAYER_KINDS)}, got {player!r}")
    return {
        "session_id": session_id, "game": game, "mode": mode, "seed": int(seed),
        "mods": list(mods), "settings": dict(settings), "versions": dict(versions),
        "code_hash": code_hash, "player": dict(player), "actions": list(actions),
        "signals": list(signals),
        "started": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


# ---- reading ------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ReadProblem:
    """Where a session stopped being readable: 1-based line of the decompressed text."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}, line {self.line}: {self.message}"


@dataclasses.dataclass
class Session:
    """One session as read: every record up to the first unreadable line."""

    path: Path
    header: dict
    frames: list[dict]
    resets: list[dict]
    marks: list[dict]
    end: dict | None
    problem: ReadProblem | None = None

    @property
    def game(self) -> str:
        return self.header["game"]

    @property
    def ticks(self) -> int:
        return len(self.frames)

    def episodes(self) -> list[tuple[dict, list[dict]]]:
        """(reset record, its frames) per episode, in order."""
        out: list[tuple[dict, list[dict]]] = []
        resets = sorted(self.resets, key=lambda r: r["tick"])
        for i, r in enumerate(resets):
            stop = resets[i + 1]["tick"] if i + 1 < len(resets) else len(self.frames)
            out.append((r, self.frames[r["tick"]:stop]))
        return out

    def first_divergence(self) -> dict | None:
        """The first frame where ALE and JAX disagreed on any signal while recording."""
        return next((f for f in self.frames if not f["agree"]), None)


def _decompress_members(data: bytes, limit: int | None = None) -> tuple[bytes, str | None]:
    """Concatenated gzip members -> text, and what went wrong (None when all of it read). Never
    unpacks more than ``limit`` bytes (default MAX_UNPACKED_BYTES)."""
    limit = MAX_UNPACKED_BYTES if limit is None else limit
    out: list[bytes] = []
    total = 0
    while data:
        d = zlib.decompressobj(wbits=31)
        pending = data
        while True:
            try:
                chunk = d.decompress(pending, limit - total + 1)
            except zlib.error as exc:
                return b"".join(out), f"corrupt gzip data ({exc})"
            out.append(chunk)
            total += len(chunk)
            if total > limit:
                return (b"".join(out)[:limit],
                        f"it unpacks to more than {limit:,} bytes, the bound on a session (a "
                        f"recorded session is far smaller); only the first {limit:,} were read")
            if d.eof or not d.unconsumed_tail:
                break
            pending = d.unconsumed_tail
        if not d.eof:
            return b"".join(out), "the file ends inside a compressed block (truncated)"
        data = d.unused_data
    return b"".join(out), None


def _whole(x, low: int | None = None, high: int | None = None) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)
            and (low is None or x >= low) and (high is None or x <= high))


def _finite_value(x) -> bool:
    """A recorded signal value: a bool, a whole number, a finite float, or a list of them."""
    if isinstance(x, bool) or _whole(x):
        return True
    if isinstance(x, float):
        return math.isfinite(x)
    if isinstance(x, list):
        return all(_finite_value(v) for v in x)
    return False


def _str_list(x) -> bool:
    return isinstance(x, list) and all(isinstance(v, str) and v for v in x) and len(set(x)) == len(x)


def _header_problem(rec: dict) -> str | None:
    """What is wrong with a header's values (None: nothing)."""
    if not isinstance(rec.get("game"), str) or not rec["game"]:
        return f"game {rec.get('game')!r} is not a game name"
    if not _whole(rec.get("seed"), 0, SEED_MAX):
        return f"seed {rec.get('seed')!r} is not a whole number from 0 to {SEED_MAX}"
    if rec.get("mode") is not None and not _whole(rec["mode"], 0):
        return f"mode {rec['mode']!r} is not a whole number >= 0"
    if not _str_list(rec.get("actions")) or not rec["actions"]:
        return f"actions {rec.get('actions')!r} is not a list of distinct action names"
    if not _str_list(rec.get("signals")) or not rec["signals"]:
        return (f"signals {rec.get('signals')!r} names no signals (a list of distinct names): a "
                "replay would check nothing")
    if not isinstance(rec.get("mods", []), list) or not all(
            isinstance(m, str) for m in rec.get("mods", [])):
        return f"mods {rec.get('mods')!r} is not a list of mod names"
    return None


def _record_problem(kind: str, rec: dict, header: dict, frames: int) -> str | None:
    """What is wrong with one record's values, given the header (None: nothing)."""
    if kind == "frame":
        if not _whole(rec["episode"], 0):
            return f"episode {rec['episode']!r} is not a whole number >= 0"
        n = len(header["actions"])
        if not _whole(rec["action"], 0, n - 1):
            return (f"action {rec['action']!r} is not an index into the session's {n} actions "
                    f"(0 to {n - 1})")
        if not isinstance(rec["agree"], bool):
            return f"agree {rec['agree']!r} is not true or false"
        for side in ("ale", "jax"):
            values = rec[side]
            if not isinstance(values, dict):
                return f"{side} is not a table of signal values"
            missing = [s for s in header["signals"] if s not in values]
            if missing:
                return f"{side} lacks the recorded signal(s) {', '.join(missing)}"
            bad = [s for s in header["signals"] if not _finite_value(values[s])]
            if bad:
                return (f"{side} {bad[0]} is {values[bad[0]]!r}, not a finite number, a boolean "
                        "or a list of them")
        if not _str_list(rec.get("diverged", [])):
            return f"diverged {rec.get('diverged')!r} is not a list of signal names"
    elif kind == "reset":
        if not _whole(rec["tick"], 0, frames):
            return f"reset tick {rec['tick']!r} is not a frame of the session (0 to {frames})"
        if not _whole(rec["episode"], 0) or not _whole(rec["seed"], 0, SEED_MAX):
            return f"reset episode {rec['episode']!r} or seed {rec['seed']!r} is not a valid number"
    elif kind == "mark":
        if not _whole(rec["tick"], -1, frames):
            return f"mark tick {rec['tick']!r} is not a frame played so far (-1 to {frames})"
        if rec["kind"] not in MARK_KINDS or not isinstance(rec["text"], str):
            return (f"mark kind {rec['kind']!r} (kinds: {', '.join(MARK_KINDS)}) or its text is "
                    "malformed")
    elif kind == "end":
        if not _whole(rec["ticks"], 0):
            return f"end ticks {rec['ticks']!r} is not a whole number >= 0"
    return None


_REQUIRED = {
    "header": ("game", "seed", "actions", "signals"),
    "reset": ("tick", "episode", "seed"),
    "frame": ("tick", "episode", "action", "ale", "jax", "agree"),
    "mark": ("tick", "kind", "text"),
    "end": ("ticks",),
}


def read_session(path: os.PathLike | str) -> Session:
    """Read a session; a damaged one yields its readable part and a :class:`ReadProblem`.

    Raises :class:`SessionError` only when not even the header can be read.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SessionError(f"{path}: cannot read ({exc.strerror or exc})") from None
    text, zproblem = _decompress_members(data)
    lines = text.split(b"\n")
    complete = lines[:-1]  # the bytes after the last newline are an unfinished line
    problem: ReadProblem | None = None
    if lines[-1] and zproblem is None:
        zproblem = "the last line is incomplete"
    header = None
    frames: list[dict] = []
    resets: list[dict] = []
    marks: list[dict] = []
    end = None
    for i, raw in enumerate(complete, start=1):
        try:
            rec = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            problem = ReadProblem(path, i, f"not a JSON record ({exc})")
            break
        kind = rec.get("type") if isinstance(rec, dict) else None
        missing = [k for k in _REQUIRED.get(kind, ()) if k not in rec]
        if kind not in _REQUIRED or missing:
            what = (f"missing {', '.join(missing)}" if missing else
                    f"unknown record type {kind!r} (types: {', '.join(_REQUIRED)})")
            problem = ReadProblem(path, i, what)
            break
        if header is None:
            if kind != "header":
                problem = ReadProblem(path, i, "the first record is not the header")
                break
            if rec.get("schema") != SCHEMA:
                problem = ReadProblem(path, i, f"schema {rec.get('schema')!r} is not {SCHEMA!r}")
                break
            bad = _header_problem(rec)
            if bad:
                problem = ReadProblem(path, i, bad)
                break
            header = rec
            continue
        bad = None if kind == "header" else _record_problem(kind, rec, header, len(frames))
        if bad:
            problem = ReadProblem(path, i, bad)
            break
        if kind == "frame":
            if rec["tick"] != len(frames):
                problem = ReadProblem(path, i, f"frame tick {rec['tick']} out of order "
                                               f"(expected {len(frames)})")
                break
            frames.append(rec)
        elif kind == "reset":
            resets.append(rec)
        elif kind == "mark":
            marks.append(rec)
        elif kind == "end":
            end = rec
        else:
            problem = ReadProblem(path, i, "a second header")
            break
    if problem is None and zproblem is not None:
        problem = ReadProblem(path, len(complete) + 1, zproblem)
    if header is None:
        why = problem.message if problem else "the file is empty"
        raise SessionError(f"{path}: no readable header ({why})")
    if frames and (not resets or resets[0]["tick"] != 0):
        resets.insert(0, {"type": "reset", "tick": 0, "episode": 0, "seed": header["seed"]})
    return Session(path, header, frames, resets, marks, end, problem)


def list_sessions(root: os.PathLike | str, game: str | None = None) -> list[Path]:
    """Session files under ``root`` (one game's, or all), oldest first by id."""
    root = Path(root)
    pattern = f"{game}/*{SUFFIX}" if game else f"*/*{SUFFIX}"
    return sorted(root.glob(pattern), key=lambda p: (p.parent.name, p.name))
