"""Replay: an untouched session passes; a JAX game changed by a mod, a changed recording or a
changed code hash is found and named; damaged files replay their readable part; the CLI's exit
status and messages."""

from __future__ import annotations

import gzip
import json

import jax
import numpy as np
from typer.testing import CliRunner

import jaxtari
from alignment.cli import app
from alignment.playtest import core
from alignment.playtest.session import read_session

runner = CliRunner()


def _rewrite(src, dst, edit):
    """A copy of a session with each record passed through ``edit`` (None drops it)."""
    lines = gzip.decompress(src.read_bytes()).decode().splitlines()
    out = [edit(json.loads(line)) for line in lines]
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in out if r).encode()))
    return dst


def test_untouched_session_replays_clean(pong_session):
    [r] = core.replay([pong_session.path])
    assert r.passed and r.failure is None and r.differences == []
    assert r.frames == r.recorded_frames == pong_session.ticks
    assert not r.code_changed and r.read_problem is None


def _first_lazy_enemy_difference(session):
    """Where Pong with lazy_enemy first differs from Pong, stepping jaxtari directly."""
    actions = [f["action"] for f in session.frames]
    traces = []
    for mods in ((), ("lazy_enemy",)):
        game = jaxtari.make("pong", mods=mods)
        _, state = game.reset(jax.random.key(session.header["seed"]))
        step = jax.jit(game.step)
        rows = []
        for a in actions:
            _, state, *_ = step(state, a)
            rows.append({k: int(v) for k, v in game.signals(state).items()})
        traces.append(rows)
    for tick, (a, b) in enumerate(zip(*traces)):
        changed = sorted(k for k in a if a[k] != b[k])
        if changed:
            return tick, changed, traces[1][tick]
    raise AssertionError("lazy_enemy changed nothing in this session")


def test_a_mod_on_the_jax_game_fails_naming_frame_and_signal(pong_session):
    session = read_session(pong_session.path)
    tick, changed, modded = _first_lazy_enemy_difference(session)
    [r] = core.replay([pong_session.path], jax_mods=["lazy_enemy"])
    assert not r.passed and r.jax_mods == ("lazy_enemy",)
    f = r.failure
    assert (f.frame, f.side) == (tick, "jax") and f.signal in changed
    assert f.recorded == session.frames[tick]["jax"][f.signal] and f.now == modded[f.signal]
    assert f.nearest_mark is not None
    assert f.nearest_mark["tick"] == min((m["tick"] for m in session.marks),
                                         key=lambda t: (abs(t - tick), t))
    assert all(d.side == "jax" for d in r.differences)  # the ALE side is untouched
    assert f"frame {tick}" in f.describe() and repr(f.signal) in f.describe()


def test_a_changed_recording_fails_at_that_frame(pong_session, tmp_path):
    def edit(rec):
        if rec["type"] == "frame" and rec["tick"] == 123:
            rec["ale"]["ball_y"] += 5
        return rec

    path = _rewrite(pong_session.path, tmp_path / "pong" / "edited.jsonl.gz", edit)
    [r] = core.replay([path])
    assert not r.passed
    assert (r.failure.frame, r.failure.side, r.failure.signal) == (123, "ale", "ball_y")
    assert r.failure.nearest_mark["tick"] == 119  # the note, made on frame 119
    assert r.failure.now == r.failure.recorded - 5


def test_another_game_version_is_replayed_and_the_hash_change_shown(pong_session, tmp_path):
    def edit(rec):
        if rec["type"] == "header":
            rec["code_hash"] = "0" * 64
        return rec

    path = _rewrite(pong_session.path, tmp_path / "pong" / "old.jsonl.gz", edit)
    [r] = core.replay([path])
    assert r.passed and r.frames == pong_session.ticks  # same behaviour: still passes
    assert r.code_changed and r.code_hash_now == core.code_hash("pong")
    assert any("000000000000" in n and r.code_hash_now[:12] in n for n in r.notes)
    out = runner.invoke(app, ["playtest", "replay", str(path)])
    assert out.exit_code == 0 and "code hash" in out.output


def test_a_truncated_session_replays_its_readable_part_and_names_the_line(pong_session, tmp_path):
    data = pong_session.path.read_bytes()
    path = tmp_path / "pong" / "cut.jsonl.gz"
    path.parent.mkdir(parents=True)
    path.write_bytes(data[: len(data) - 40])
    [r] = core.replay([path])
    assert r.read_problem is not None and r.read_problem.path == path
    assert 0 < r.frames < pong_session.ticks and r.failure is None
    assert not r.passed  # a damaged file does not pass CI
    out = runner.invoke(app, ["playtest", "replay", str(path)])
    assert out.exit_code == 1
    text = " ".join(out.output.split())
    assert f"line {r.read_problem.line}" in text and "replayed" in text


def test_unknown_game_in_a_session_is_an_error_with_choices(pong_session, tmp_path):
    path = _rewrite(pong_session.path, tmp_path / "x" / "bad.jsonl.gz",
                    lambda rec: {**rec, "game": "pongg"} if rec["type"] == "header" else rec)
    [r] = core.replay([path])
    assert not r.passed and "pong" in r.error and "freeway" in r.error


def test_cli_replay_list_show(pong_session, tmp_path):
    root = pong_session.path.parent.parent
    out = runner.invoke(app, ["playtest", "replay", "--game", "pong", "--root", str(root),
                              "--report", str(tmp_path / "rep")])
    assert out.exit_code == 0, out.output
    assert "pass" in out.output
    report = json.loads((tmp_path / "rep" / "replay.json").read_text())
    assert report["passed"] and report["sessions"][0]["frames"] == pong_session.ticks
    out = runner.invoke(app, ["playtest", "replay", str(pong_session.path), "--jax-mod", "lazy_enemy"])
    assert out.exit_code == 1 and "FAIL" in out.output
    assert "nearest mark" in " ".join(out.output.split())
    out = runner.invoke(app, ["playtest", "list", "--root", str(root)])
    assert out.exit_code == 0 and "paddle looks | right" in " ".join(out.output.split())
    out = runner.invoke(app, ["playtest", "show", str(pong_session.path), "--json"])
    shown = json.loads(out.output)
    assert shown["frames"] == pong_session.ticks and len(shown["marks"]) == 3
    assert shown["player"]["kind"] == "scripted"


def test_cli_bad_input_gives_messages(tmp_path):
    out = runner.invoke(app, ["playtest", "replay", "--game", "pongg", "--root", str(tmp_path)])
    assert out.exit_code == 1 and "freeway" in out.output and "Traceback" not in out.output
    out = runner.invoke(app, ["playtest", "replay", "--game", "pong", "--root", str(tmp_path)])
    # no sessions: nothing to replay (the gate decides whether a game must be playtested)
    assert out.exit_code == 0 and "jaxtari-align play pong" in " ".join(out.output.split())
    out = runner.invoke(app, ["playtest", "replay", str(tmp_path / "nope.jsonl.gz")])
    assert out.exit_code == 1 and "no such session file" in out.output
    out = runner.invoke(app, ["play", "pong", "--mods", "nope", "--out", str(tmp_path)])
    assert out.exit_code == 1 and "lazy_enemy" in out.output
    out = runner.invoke(app, ["play", "pong", "--mode", "7", "--out", str(tmp_path)])
    assert out.exit_code == 1 and "[0, 1]" in out.output
    assert not list(tmp_path.rglob("*.jsonl.gz"))  # nothing recorded for bad input


def test_play_refuses_unknown_game_and_bad_out_before_any_work(tmp_path):
    out = runner.invoke(app, ["play", "pongg", "--out", str(tmp_path)])
    assert out.exit_code == 1 and "freeway" in out.output and "frostbite" in out.output
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = runner.invoke(app, ["play", "pong", "--out", str(blocker)])
    assert out.exit_code == 2 and "--out" in out.output
    out = runner.invoke(app, ["play", "pong", "--scale", "0", "--out", str(tmp_path)])
    assert out.exit_code == 2
