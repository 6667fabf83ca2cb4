"""The newer surfaces (stress, run, audit, playtest, the Python API) under bad input, faults and
concurrency (issue 33): each case refused before any work with a message naming the input and the
fix, or the correct result — never a lost file or a silently wrong one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from alignment.cli import app

REPO = Path(__file__).resolve().parents[1]
COMMITTED_STRESS = REPO / "stress" / "superseded" / "pong-objects.json"  # a real full-size report


def _invoke(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


# ---- 1. committed artefacts are never overwritten by a run of another configuration ------------


@pytest.fixture
def committed_stress(tmp_path) -> Path:
    out = tmp_path / "stress"
    out.mkdir()
    shutil.copy(COMMITTED_STRESS, out / COMMITTED_STRESS.name)
    return out


def test_stress_defaults_refuse_to_replace_a_report_of_another_budget(committed_stress):
    before = (committed_stress / "pong-objects.json").read_bytes()
    result = _invoke("stress", "pong", "--out", str(committed_stress))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "holds a stronger stress report" in text
    assert "agent steps per seed: 2,097,152 now, 2,048 in this run" in text
    assert "--replace" in text and "--out" in text
    assert (committed_stress / "pong-objects.json").read_bytes() == before
    assert not (committed_stress / ".checkpoints").exists()  # refused before any training


def test_stress_refuses_an_unreadable_report_in_out(tmp_path):
    (tmp_path / "pong-objects.json").write_text("{half a report")
    result = _invoke("stress", "pong", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "cannot be read" in result.output and "--replace" in result.output
    assert (tmp_path / "pong-objects.json").read_text() == "{half a report"


def test_stress_api_check_accepts_the_same_configuration_and_refuses_another(committed_stress):
    """The same run or a stronger one (more seeds, a larger budget) passes; fewer seeds or
    backends, a smaller budget or another hyperparameter is refused."""
    import dataclasses

    from alignment.learning.config import budget_config
    from alignment.stress.report import ReplaceRefused, check_replace

    data = json.loads(COMMITTED_STRESS.read_text())
    same = budget_config(data["config"]["total_timesteps"], "objects")
    check_replace(committed_stress, "pong-objects", same, data["seeds"], ("jax", "ale"))
    check_replace(committed_stress, "pong-objects", same, range(len(data["seeds"]) + 2),
                  ("jax", "ale"))
    check_replace(committed_stress, "pong-objects", budget_config(2 * same.total_timesteps),
                  data["seeds"], ("jax", "ale"))
    with pytest.raises(ReplaceRefused, match=r"seeds: \[0, 1, 2, 3, 4\] now, \[0, 1, 2\] in"):
        check_replace(committed_stress, "pong-objects", same, [0, 1, 2], ("ale", "jax"))
    with pytest.raises(ReplaceRefused, match=r"backends: \[ale, jax\] now, \[jax\] in this run"):
        check_replace(committed_stress, "pong-objects", same, data["seeds"], ("jax",))
    with pytest.raises(ReplaceRefused, match="PPO learning_rate: 0.00025 now, 0.001 in this run"):
        check_replace(committed_stress, "pong-objects",
                      dataclasses.replace(same, learning_rate=1e-3), data["seeds"], ("jax", "ale"))


def test_run_with_stress_refuses_before_any_stage_and_takes_the_stress_folder(committed_stress,
                                                                                  tmp_path):
    before = (committed_stress / "pong-objects.json").read_bytes()
    state = tmp_path / "state"
    result = _invoke("run", "pong", "--stress", "smoke", "--stress-out", str(committed_stress),
                     "--state-dir", str(state))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "--stress-out" in text and "--stress-replace" in text
    assert (committed_stress / "pong-objects.json").read_bytes() == before
    assert not (state / "checkpoints.sqlite").exists()  # no run was started


@pytest.mark.parametrize("args, bound", [
    (("--seeds", "100000"), "less than or equal to 256"),
    (("--budget", str(2**40)), "1,000,000,000"),
])
def test_stress_bounds_are_named_before_any_allocation(tmp_path, args, bound):
    result = _invoke("stress", "pong", "--out", str(tmp_path), *args)
    assert result.exit_code == 2
    assert bound in " ".join(result.output.split())


# ---- 2. multi-file reports are written as one unit ------------------------------------------------

_KILL_AT = """
import os, signal, sys
from alignment import atomic
calls = 0
real = os.replace
def replace(a, b):
    global calls
    calls += 1
    if calls == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)
    real(a, b)
os.replace = replace
atomic.write_files(sys.argv[1], {"pong.json": "new json", "pong.md": "new md",
                                 "pong-curves.png": b"new png"})
"""


@pytest.mark.parametrize("kill_at", [1, 2, 3, 4, 5])
def test_a_report_killed_between_its_writes_is_all_old_or_all_new(tmp_path, kill_at):
    import subprocess
    import sys

    from alignment import atomic

    old = {"pong.json": b"old json", "pong.md": b"old md", "pong-curves.png": b"old png"}
    for name, data in old.items():
        (tmp_path / name).write_bytes(data)
    proc = subprocess.run([sys.executable, "-c", _KILL_AT, str(tmp_path), str(kill_at)],
                          capture_output=True, text=True, timeout=60)
    # os.replace calls: 1 the journal (the commit point), 2..4 the three files
    assert proc.returncode == (-9 if kill_at <= 4 else 0), proc.stderr
    atomic.recover(tmp_path)  # what every reader and writer of a report folder does first
    seen = {name: (tmp_path / name).read_bytes() for name in old}
    if kill_at == 1:
        assert seen == old
    else:
        assert seen == {n: d.replace(b"old", b"new") for n, d in old.items()}
    assert not list(tmp_path.glob(f"{atomic.JOURNAL_PREFIX}*"))


def test_the_audit_refuses_a_folder_where_its_markdown_goes_before_any_work(tmp_path):
    (tmp_path / "pong.md").mkdir()
    result = _invoke("audit", "pong", "--out", str(tmp_path))
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "pong.md' is a directory" in text and "move it aside" in text
    assert not (tmp_path / "pong.json").exists()


def _tiny_result():
    import numpy as np

    from alignment.learning.config import budget_config
    from alignment.stress.core import BackendRuns, StressResult, compare

    runs = {k: BackendRuns([1024, 2048], np.array([[1.0, 2.0], [1.5, v]]), np.ones((2, 2), int),
                           np.array([2.0, v]), 1.0, 4096) for k, v in (("ale", 2.5), ("jax", 3.0))}
    stats, verdict, notes = compare(runs)
    return StressResult("freeway", "objects", "2048", budget_config(2048), [0, 1], runs, stats,
                        verdict, notes, "0" * 64, {"python": "3"})


def test_the_stress_report_is_written_whole_or_not_at_all(tmp_path):
    from alignment import atomic
    from alignment.stress import report

    (tmp_path / "freeway-objects.json").write_text("old")
    (tmp_path / "freeway-objects.md").write_text("old")
    (tmp_path / "freeway-objects-final.png").mkdir()  # the last file cannot be replaced
    with pytest.raises(atomic.OutputLocationError, match="freeway-objects-final.png"):
        report.write(_tiny_result(), tmp_path)
    assert (tmp_path / "freeway-objects.json").read_text() == "old"
    assert (tmp_path / "freeway-objects.md").read_text() == "old"
    assert not (tmp_path / "freeway-objects-curves.png").exists()
    (tmp_path / "freeway-objects-final.png").rmdir()
    paths = report.write(_tiny_result(), tmp_path)
    assert sorted(paths) == ["curves", "final", "json", "md"]
    assert json.loads(paths["json"].read_text())["game"] == "freeway"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths.values())


# ---- 3. checksums cover everything they protect; recorded values validated on read --------------


def _checkpoint(interval=2):  # at most two intervals
    import numpy as np

    from alignment.learning import checkpoints as ckpts

    history = [{"interval": k, "steps": 1024 * (k + 1), "return": [0.89, 1.89][k], "episodes": 1,
                "losses": [0.1, 0.2]} for k in range(interval)]
    return ckpts.Checkpoint(interval, [np.arange(4, dtype=np.float32)], history, None, 3.0)


def test_a_stress_checkpoints_checksum_covers_its_learning_curve(tmp_path):
    from alignment.learning import checkpoints as ckpts

    path = ckpts.save(tmp_path, "jax", 0, _checkpoint())
    assert ckpts.load(path).history[1]["return"] == 1.89
    data = path.read_bytes()
    assert data.count(b'"return": 1.89') == 1
    path.write_bytes(data.replace(b'"return": 1.89', b'"return": 5.39'))  # one digit moved
    with pytest.raises(ckpts.CorruptCheckpoint, match="checksum"):
        ckpts.load(path)
    found, notes = ckpts.latest(tmp_path, "jax", 0)
    assert found is None and "restarts" in notes[0]


@pytest.mark.parametrize("row", [{"interval": 0, "steps": 1024, "return": float("nan"), "episodes": 1},
                                 {"interval": 0, "steps": 1024, "return": "1", "episodes": 1},
                                 {"interval": 0, "steps": 1024, "return": 1.0, "episodes": -1},
                                 {"interval": 5, "steps": 1024, "return": 1.0, "episodes": 1},
                                 None])
def test_a_checkpoints_curve_is_checked_value_by_value_even_with_a_good_checksum(tmp_path, row):
    from alignment.learning import checkpoints as ckpts

    ck = _checkpoint(interval=1)
    ck.history = [row]
    path = ckpts.save(tmp_path, "jax", 0, ck)
    with pytest.raises(ckpts.CorruptCheckpoint, match="learning curve"):
        ckpts.load(path)


def _specs_with(tmp_path, text: str) -> Path:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "pong.yaml").write_text(text)
    return specs


def test_the_audit_refuses_another_games_spec_before_writing_anything(tmp_path):
    specs = _specs_with(tmp_path, (REPO / "specs" / "freeway.yaml").read_text())
    result = _invoke("audit", "pong", "--specs", str(specs), "--out", str(tmp_path / "out"),
                     "--no-faults", "--no-events")
    assert result.exit_code == 1
    assert "is the spec of 'freeway', not 'pong'" in " ".join(result.output.split())
    assert not (tmp_path / "out" / "pong.json").exists()


def test_a_duplicate_key_in_a_spec_is_an_error_naming_the_key_and_lines(tmp_path):
    text = (REPO / "specs" / "pong.yaml").read_text()
    line = text.splitlines().index("rules:") + 1
    specs = _specs_with(tmp_path, text + "rules: []\n")
    result = _invoke("audit", "pong", "--specs", str(specs), "--out", str(tmp_path / "out"),
                     "--no-faults", "--no-events")
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert f"the key 'rules' appears twice (lines {line} and {len(text.splitlines()) + 1})" in out
    assert not (tmp_path / "out" / "pong.json").exists()


@pytest.mark.parametrize("text", ["a: " + "[" * 3000, "a: " + "{b: " * 200 + "1" + "}" * 200])
def test_deeply_nested_yaml_is_a_clear_error(text):
    from alignment.spec.store import MAX_YAML_DEPTH, SpecFileError, parse_yaml

    with pytest.raises(SpecFileError, match=f"nested deeper than {MAX_YAML_DEPTH}"):
        parse_yaml(text)


def _store_with_rows(root: Path) -> Path:
    import os

    from alignment.pipeline import runs

    with runs.open_store(root) as saver:
        saver.conn.executemany(
            "INSERT INTO writes(thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, "
            "type, value) VALUES (?,?,?,?,?,?,?,?)",
            [(f"t{i}", "", f"c{i}", "x", 0, "ch", "json", os.urandom(200)) for i in range(2000)])
        saver.conn.commit()
    return runs.db_path(root)


def test_a_damaged_sqlite_state_file_is_detected_with_the_fix(tmp_path):
    path = _store_with_rows(tmp_path)
    data = bytearray(path.read_bytes())
    page = 4096  # SQLite's default page size; page 4 is a b-tree page of the store
    data[3 * page:4 * page] = b"\x55" * page
    path.write_bytes(bytes(data))
    result = _invoke("runs", "--state-dir", str(tmp_path))
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "is damaged (SQLite's quick_check: Page 4" in text and "move it aside" in text
    assert path.read_bytes() == bytes(data)  # left as it was


def test_a_second_resume_of_a_running_run_is_refused(tmp_path):
    from alignment.pipeline import runs

    with runs.open_store(tmp_path):
        pass
    with runs.run_lock(tmp_path, "pong-1"):
        result = _invoke("run", "pong", "--resume", "pong-1", "--state-dir", str(tmp_path))
        assert result.exit_code == 1
        assert "run pong-1 is running now (pid " in " ".join(result.output.split())
    result = _invoke("run", "pong", "--resume", "pong-1", "--state-dir", str(tmp_path))
    assert "no run 'pong-1'" in result.output  # the lock is gone with its holder


# ---- playtest sessions: every recorded value checked on read -------------------------------------

SESSIONS = REPO / "playtest"


def _records(game: str) -> list[dict]:
    import gzip

    path = sorted((SESSIONS / game).glob("*.jsonl.gz"))[0]
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    return [json.loads(line) for line in lines[:60]] + [json.loads(lines[-1])]


def _write_session(folder: Path, records: list[dict], name="s.jsonl.gz") -> Path:
    import gzip

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode()))
    return path


def _first(records, kind):
    return next(i for i, r in enumerate(records) if r["type"] == kind)


def _frame_with(records, side, signal, value):
    out = [dict(r) for r in records]
    i = _first(out, "frame") + 3
    out[i] = {**out[i], side: {**out[i][side], signal: value}}
    return out, i + 1


@pytest.mark.parametrize("value", [None, float("nan"), float("inf"), "12", {"a": 1}])
def test_a_missing_null_or_nan_recorded_value_is_named_with_its_line(tmp_path, value):
    from alignment.playtest.session import read_session

    records = _records("pong")
    signal = records[0]["signals"][0]
    changed, line = _frame_with(records, "ale", signal, value)
    s = read_session(_write_session(tmp_path / "pong", changed))
    assert s.problem is not None and s.problem.line == line
    assert f"ale {signal} is" in s.problem.message and "not a finite number" in s.problem.message
    assert s.ticks == 3  # the frames before it are kept


def test_a_frame_lacking_a_recorded_signal_is_named(tmp_path):
    from alignment.playtest.session import read_session

    records = _records("pong")
    signal = records[0]["signals"][-1]
    changed = [dict(r) for r in records]
    i = _first(changed, "frame")
    changed[i] = {**changed[i], "jax": {k: v for k, v in changed[i]["jax"].items() if k != signal}}
    s = read_session(_write_session(tmp_path / "pong", changed))
    assert s.problem.line == i + 1 and f"jax lacks the recorded signal(s) {signal}" in s.problem.message


@pytest.mark.parametrize("field, value, words", [
    ("signals", [], "names no signals"),
    ("actions", [], "not a list of distinct action names"),
    ("seed", -1, "seed -1"),
    ("seed", True, "seed True"),
    ("game", None, "game None"),
])
def test_a_bad_header_value_refuses_the_session_with_its_name(tmp_path, field, value, words):
    from alignment.playtest.session import SessionError, read_session

    records = _records("pong")
    records[0] = {**records[0], field: value}
    path = _write_session(tmp_path / "pong", records)
    with pytest.raises(SessionError, match="no readable header") as err:
        read_session(path)
    assert words in str(err.value) and str(path) in str(err.value)


def test_an_out_of_range_action_is_refused(tmp_path):
    from alignment.playtest.session import read_session

    records = _records("pong")
    i = _first(records, "frame") + 1
    records[i] = {**records[i], "action": len(records[0]["actions"])}
    s = read_session(_write_session(tmp_path / "pong", records))
    assert s.problem.line == i + 1 and "not an index into the session's" in s.problem.message


def test_another_games_session_in_a_games_folder_fails_replay(tmp_path):
    from alignment.playtest.core import replay

    path = _write_session(tmp_path / "pong", _records("freeway"))
    [result] = replay([path])
    assert not result.passed
    assert "a session of freeway in pong's folder" in result.error and "move it to" in result.error


def test_nan_never_compares_equal_in_replay():
    import numpy as np

    from alignment.playtest.core import _differences

    ticks = np.arange(3)
    same = _differences("ale", "x", np.array([1.0, 2.0, 3.0]), np.array([1, 2, 3]), ticks, 0)
    assert same is None
    nan = _differences("ale", "x", np.array([1.0, np.nan, 3.0]), np.array([1, 2, 3]), ticks, 0)
    assert nan is not None and nan.tick == 1
    both = _differences("ale", "x", np.array([np.nan]), np.array([np.nan]), ticks[:1], 0)
    assert both is not None


def test_a_gzip_bomb_is_read_only_up_to_the_bound(tmp_path, monkeypatch):
    import gzip

    from alignment.playtest import session

    monkeypatch.setattr(session, "MAX_UNPACKED_BYTES", 1 << 20)
    records = _records("pong")
    body = json.dumps(records[0]).encode() + b"\n" + b" " * (8 << 20)
    path = tmp_path / "pong" / "bomb.jsonl.gz"
    path.parent.mkdir()
    path.write_bytes(gzip.compress(body))
    assert path.stat().st_size < 64 << 10
    s = session.read_session(path)
    assert "unpacks to more than 1,048,576 bytes" in s.problem.message


def test_playtest_list_shows_every_session_flagging_damaged_and_cut_off_ones(tmp_path):
    records = _records("pong")
    _write_session(tmp_path / "pong", records, "a-good.jsonl.gz")
    _write_session(tmp_path / "pong", records[:-1], "b-cut.jsonl.gz")  # no end record
    bad = [dict(r) for r in records]
    bad[0] = {**bad[0], "signals": "score"}
    _write_session(tmp_path / "pong", bad, "c-bad.jsonl.gz")
    marked = [dict(r) for r in records]
    marked.insert(-1, {"type": "mark", "tick": 3, "kind": "bug", "text": "[red]x[/red] [bold"})
    _write_session(tmp_path / "pong", marked, "d-mark.jsonl.gz")
    result = _invoke("playtest", "list", "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "a-good" in out and "c-bad.jsonl.gz: damaged, unreadable:" in out
    assert "b-cut.jsonl.gz" in out and "unfinished (no end record" in out
    assert "[red]x[/red] [bold" in out  # mark text printed as written, not as rich markup


# ---- 4. Ctrl-C is honoured from the first instant --------------------------------------------------


@pytest.mark.parametrize("delay", [0.5, 1.5, 3.0])
def test_ctrl_c_in_the_first_seconds_ends_the_command_without_writing(tmp_path, delay):
    """SIGINT while the command still imports (JAX's GC callback once swallowed it there and the
    audit ran on to rewrite its report with exit 0)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "alignment.cli", "audit", "pong", "--out",
                             str(out)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    time.sleep(delay)
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)  # an audit takes minutes: still running = swallowed
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the command went on after Ctrl-C") from None
    # 130 from the handler; -2 only if the signal came before Python ran a line of the program
    assert proc.returncode in (130, -signal.SIGINT), err.decode()[-2000:]
    assert not (out / "pong.json").exists()


# ---- 7. states and actions passed to step -----------------------------------------------------------


@pytest.fixture(scope="module")
def pong_and_freeway():
    import jax

    import jaxtari

    pong, freeway = jaxtari.make("pong"), jaxtari.make("freeway")
    return pong, pong.reset(jax.random.key(0))[1], freeway.reset(jax.random.key(0))[1]


def test_another_games_state_into_step_is_a_clear_error(pong_and_freeway):
    from jaxtari.env import InvalidStateError

    pong, _, freeway_state = pong_and_freeway
    for call in (pong.step, pong.checked_step):
        with pytest.raises(InvalidStateError, match="FreewayState, not a pong state"):
            call(freeway_state, 0)


def test_checked_step_refuses_an_action_name_like_step(pong_and_freeway):
    from jaxtari.env import InvalidActionError

    pong, state, _ = pong_and_freeway
    for call in (pong.step, pong.checked_step):
        with pytest.raises(InvalidActionError, match=r"'RIGHT' is a string \(use game.action_index"):
            call(state, "RIGHT")


@pytest.mark.parametrize("value, words", [(2**40, "does not fit its int32"),
                                          (float("nan"), "does not fit its int32"),
                                          (1.5, "does not fit its int32")])
def test_a_python_number_its_field_cannot_hold_is_refused(pong_and_freeway, value, words):
    from jaxtari.env import InvalidStateError

    pong, state, _ = pong_and_freeway
    bad = state.replace(ball_x=value)
    for call in (pong.step, pong.checked_step):
        with pytest.raises(InvalidStateError, match=rf"state field .ball_x = .* {words}"):
            call(bad, 0)


def test_an_array_of_another_dtype_in_a_state_is_refused(pong_and_freeway):
    import jax.numpy as jnp

    from jaxtari.env import InvalidStateError

    pong, state, _ = pong_and_freeway
    with pytest.raises(InvalidStateError, match=r"\.ball_x is float32, the game's is int32"):
        pong.step(state.replace(ball_x=jnp.float32(jnp.nan)), 0)


def test_checked_step_names_a_non_finite_float_field_under_jit():
    import jax
    import jax.numpy as jnp

    from tests.toy_game import ToyGame  # a game with a float field

    game = ToyGame()
    _, state = game.reset(jax.random.key(0))
    floats = [jax.tree_util.keystr(p) for p, leaf in jax.tree_util.tree_leaves_with_path(state)
              if jnp.issubdtype(jnp.asarray(leaf).dtype, jnp.floating)]
    assert floats, "the toy game needs a float field for this test"
    field = floats[0].lstrip(".")
    bad = state.replace(**{field: jnp.full_like(getattr(state, field), jnp.inf)})
    err, _ = jax.jit(game.checked_step)(bad, 0)
    with pytest.raises(Exception, match=rf"state field \.{field} holds NaN or infinity"):
        err.throw()
    ok, _ = jax.jit(game.checked_step)(state, 0)
    ok.throw()


# ---- fault files --------------------------------------------------------------------------------


@pytest.mark.parametrize("text, words", [
    ("FAULTS = [\n", "SyntaxError"),
    ("import sys\nsys.exit(3)\n", "SystemExit"),
    ("FAULTS = 'none'\n", "must define FAULTS"),
    ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
])
def test_every_bad_fault_file_is_a_clean_audit_error(tmp_path, text, words):
    faults = tmp_path / "faults"
    faults.mkdir()
    (faults / "pong.py").write_text(text)
    result = _invoke("audit", "pong", "--faults-dir", str(faults), "--out", str(tmp_path / "out"),
                     "--no-events")
    assert result.exit_code == 1, result.output
    out = " ".join(result.output.split())
    assert "error:" in out and words in out and "pong.py" in out
    assert not (tmp_path / "out" / "pong.json").exists()


def test_a_fault_file_looping_at_import_is_stopped_at_the_time_limit(tmp_path, monkeypatch):
    from alignment.audit import faults

    monkeypatch.setattr(faults, "LOAD_SECONDS", 1)
    (tmp_path / "pong.py").write_text("while True:\n    pass\n")
    with pytest.raises(faults.FaultSetError, match="did not finish loading within 1 s"):
        faults.load_faults("pong", tmp_path)


# ---- 5. inputs bounded before allocation, the bound named ------------------------------------------


@pytest.mark.parametrize("stack", [10**6, 65, 0, True])
def test_make_env_bounds_the_frame_stack(stack):
    from jaxtari.wrappers import MAX_FRAME_STACK, make_env

    with pytest.raises(ValueError, match=f"from 1 \\(no stack\\) to {MAX_FRAME_STACK}"):
        make_env("pong", obs="pixels", frame_stack=stack)


@pytest.mark.parametrize("args, words", [
    (("--scale", "100"), "--scale"),
    (("--fps", "0"), "--fps"),
    (("--every", "0"), "--every"),
])
def test_export_bounds_are_named_before_any_frame(tmp_path, args, words):
    session = sorted((SESSIONS / "pong").glob("*.jsonl.gz"))[0]
    result = _invoke("playtest", "export", str(session), "--video", str(tmp_path / "v.gif"), *args)
    assert result.exit_code == 2 and words in result.output
    assert not list(tmp_path.iterdir())


def test_export_core_bounds_the_scale(tmp_path):
    from alignment.playtest import export

    session = sorted((SESSIONS / "pong").glob("*.jsonl.gz"))[0]
    with pytest.raises(export.ExportError, match="--scale must be a whole number from 1 to 8"):
        export.write_video(session, tmp_path / "v.gif", scale=100)


@pytest.mark.parametrize("fps", ["nan", "inf", "-1", "1001"])
def test_play_fps_must_be_a_finite_rate(tmp_path, fps):
    result = _invoke("playtest", "script", "pong", "--fps", fps, "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "is not a frame rate: give a number from 0 (as fast as it goes) to 1000" in \
        " ".join(result.output.replace("│", " ").split())


def test_minari_export_refuses_observations_float32_cannot_hold(tmp_path):
    from alignment.playtest import export

    records = _records("pong")
    signal = records[0]["signals"][0]
    changed, _ = _frame_with(records, "jax", signal, 1e39)  # finite, but past float32
    path = _write_session(tmp_path / "pong", changed)
    with pytest.raises(export.ExportError, match="observation of episode 0 step 4 is not finite"):
        export.write_minari(path, tmp_path / "minari")
    assert not list((tmp_path / "minari").rglob("*.json"))


def test_a_probes_work_is_bounded_when_the_spec_is_read():
    import yaml

    from alignment.spec.schema import MAX_PROBE_FRAMES
    from alignment.spec.store import SpecFileError, parse_yaml

    data = yaml.safe_load((REPO / "specs" / "pong.yaml").read_text())
    rule = next(r for r in data["rules"] if (r.get("probe") or {}).get("protocol") == "v5")
    rule["probe"]["seeds"] = 1000
    rule["probe"]["steps"] = [{"action": "NOOP", "agent_steps": 27_000}]
    with pytest.raises(SpecFileError, match=f"past the bound of {MAX_PROBE_FRAMES:,}"):
        parse_yaml(yaml.safe_dump(data))


# ---- 6/7. output locations, earlier reports and refs: clear errors before any work ---------------


@pytest.mark.parametrize("args, option", [
    (("stress", "pong", "--out", "{f}"), "--out"),
    (("run", "pong", "--state-dir", "{f}/x"), "--state-dir"),
    (("run", "pong", "--stress", "smoke", "--stress-out", "{f}", "--state-dir", "{d}"), "--stress-out"),
])
def test_an_output_location_that_is_a_file_is_a_usage_error_with_the_fix(tmp_path, args, option):
    afile = tmp_path / "afile"
    afile.write_text("x")
    result = _invoke(*(a.format(f=afile, d=tmp_path / "state") for a in args))
    text = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 2, text
    assert option in text and "is a file, not a folder" in text and "choose another" in text
    assert "Errno" not in text and ".probe" not in text
    assert not (tmp_path / "state").exists()


def test_a_malformed_earlier_report_does_not_block_the_audit(tmp_path):
    from alignment.audit.report import load_reference

    (tmp_path / "pong.json").write_text(json.dumps({"schema": "jaxtari-align/audit/v1",
                                                    "rules": "not a list"}))
    previous, why = load_reference("pong", tmp_path, None)
    assert previous is None and "unusable" in why and "rules" in why


def test_against_refuses_a_ref_git_would_read_as_an_option(tmp_path):
    from alignment.audit.core import AuditError
    from alignment.audit.report import load_reference

    target = tmp_path / "written-by-git"
    with pytest.raises(AuditError, match="cannot start with '-'"):
        load_reference("pong", tmp_path, f"--output={target}")
    assert not target.exists()


def test_two_reports_written_into_one_folder_at_once_both_land(tmp_path):
    import threading

    from alignment import atomic

    barrier = threading.Barrier(8)

    def write(i):
        barrier.wait()
        atomic.write_files(tmp_path, {f"g{i}.json": f"json {i}", f"g{i}.md": f"md {i}"})

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(8):
        assert (tmp_path / f"g{i}.json").read_text() == f"json {i}"
        assert (tmp_path / f"g{i}.md").read_text() == f"md {i}"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"g{i}.{ext}" for i in range(8) for ext in ("json", "md"))
