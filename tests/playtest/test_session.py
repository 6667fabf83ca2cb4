"""The session file: round trip, never overwritten, flushed once a second, damaged files read up to
the damage with the file and line named."""

from __future__ import annotations

import gzip
import json

import pytest

from alignment.playtest.session import (
    SCHEMA,
    Recorder,
    SessionError,
    make_header,
    read_session,
)


def _header(sid="s1"):
    return make_header(session_id=sid, game="pong", mode=None, seed=3, mods=["lazy_enemy"],
                       settings={"fps": 60}, versions={"jaxtari": "0"}, code_hash="abc",
                       player={"kind": "scripted", "name": "t"}, actions=["NOOP", "FIRE"],
                       signals=["score", "ball_x"])


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def _write(path, frames=5, clock=None):
    rec = Recorder(path, _header(), clock=clock or Clock())
    rec.reset(0, 3)
    for i in range(frames):
        rec.frame(0, i % 2, {"score": 0, "ball_x": i}, {"score": 0, "ball_x": i + (i == 3)},
                  ["ball_x"] if i == 3 else [])
    return rec


def test_round_trip_keeps_every_record(tmp_path):
    path = tmp_path / "pong" / "s1.jsonl.gz"
    rec = _write(path)
    rec.mark("note", "ball | passes through")
    rec.mark("bug")
    rec.close()
    s = read_session(path)
    assert s.problem is None
    assert s.header["schema"] == SCHEMA and s.header["seed"] == 3 and s.header["mods"] == ["lazy_enemy"]
    assert [f["action"] for f in s.frames] == [0, 1, 0, 1, 0]
    assert [f["jax"]["ball_x"] for f in s.frames] == [0, 1, 2, 4, 4]
    assert [f["agree"] for f in s.frames] == [True, True, True, False, True]
    assert s.first_divergence()["tick"] == 3
    assert s.marks == [{"type": "mark", "tick": 4, "kind": "note", "text": "ball | passes through"},
                       {"type": "mark", "tick": 4, "kind": "bug", "text": ""}]
    assert s.end == {"type": "end", "ticks": 5, "reason": "quit"}
    assert len(s.episodes()) == 1 and len(s.episodes()[0][1]) == 5


def test_a_session_is_never_overwritten(tmp_path):
    path = tmp_path / "s.jsonl.gz"
    _write(path).close()
    before = path.read_bytes()
    with pytest.raises(SessionError, match="never overwritten"):
        Recorder(path, _header())
    assert path.read_bytes() == before


def test_unknown_mark_kind_is_refused(tmp_path):
    rec = _write(tmp_path / "s.jsonl.gz")
    with pytest.raises(SessionError, match="bug, looks-right, note"):
        rec.mark("maybe")


def test_records_reach_the_file_once_a_second(tmp_path):
    path = tmp_path / "s.jsonl.gz"
    clock = Clock()
    rec = _write(path, frames=3, clock=clock)
    assert read_session(path).ticks == 0  # buffered: less than a second has passed
    clock.t = 1.0
    rec.frame(0, 0, {"score": 0, "ball_x": 9}, {"score": 0, "ball_x": 9}, [])
    s = read_session(path)  # the file as it is now, the recorder still open
    assert s.ticks == 4 and s.end is None and s.problem is None
    # each flush is a gzip member of its own
    assert path.read_bytes().count(b"\x1f\x8b\x08") >= 2


def test_truncated_file_names_the_line_and_keeps_the_rest(tmp_path):
    path = tmp_path / "s.jsonl.gz"
    clock = Clock()
    rec = _write(path, frames=2, clock=clock)
    clock.t = 1.0
    rec.flush()
    good = path.stat().st_size
    for i in range(3):
        rec.frame(0, 0, {"score": 0, "ball_x": 50 + i}, {"score": 0, "ball_x": 50 + i}, [])
    rec.close()
    data = path.read_bytes()
    path.write_bytes(data[: good + (len(data) - good) // 2])  # cut inside the last member
    s = read_session(path)
    assert s.ticks >= 2
    assert s.problem is not None and s.problem.path == path
    assert s.problem.line == 2 + s.ticks + 1  # header, reset, the frames read, then the damage
    assert "truncated" in s.problem.message
    assert str(path) in str(s.problem)


def test_corrupt_line_names_the_line(tmp_path):
    path = tmp_path / "s.jsonl.gz"
    lines = [json.dumps({"type": "header", "schema": SCHEMA, **_header()}),
             json.dumps({"type": "reset", "tick": 0, "episode": 0, "seed": 3}),
             json.dumps({"type": "frame", "tick": 0, "episode": 0, "action": 1,
                         "ale": {"score": 0, "ball_x": 7}, "jax": {"score": 0, "ball_x": 7},
                         "agree": True}),
             '{"type": "frame", "tick": 1, oops',
             json.dumps({"type": "end", "ticks": 2})]
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    s = read_session(path)
    assert s.ticks == 1 and s.end is None
    assert s.problem.line == 4 and "not a JSON record" in s.problem.message


def test_unreadable_header_is_an_error_naming_the_file(tmp_path):
    path = tmp_path / "s.jsonl.gz"
    path.write_bytes(b"not gzip at all")
    with pytest.raises(SessionError, match=str(path)):
        read_session(path)
    path.write_bytes(b"")
    with pytest.raises(SessionError, match="empty"):
        read_session(path)
