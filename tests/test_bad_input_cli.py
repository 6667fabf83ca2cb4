"""Bad input to the command line: a usage message and exit 2 before any work, or a clear error.

The property for every surface is the same: a clean exit whose message names the input, or the
correct result; never a traceback, a hang or a changed file that should not change. Numeric options
are drawn by hypothesis (out-of-range values, and in-range values with an unusable output folder so
that no example starts a long run).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from alignment.cli import app
from alignment.cli_checks import MAX_EPISODE_FRAMES, SEED_MAX
from tests.docs.paths import REPO, TEST_DOCS

RUNNER = CliRunner()


def invoke(*args: str):
    result = RUNNER.invoke(app, list(args))
    # a traceback would surface as an exception other than SystemExit
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def _output(result) -> str:
    """Everything printed, with rich's error box and its line wrapping taken out."""
    import re

    text = result.output  # click mixes stderr into it
    text = re.sub(r"[\u2500-\u257f]", " ", text)
    return re.sub(r"\s+", " ", text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(["--seed", "--max-frames", "--frameskip", "--episodes"]),
       value=st.one_of(st.integers(max_value=0), st.integers(min_value=SEED_MAX + 1)))
def test_compare_out_of_range_numbers_are_usage_errors(option, value):
    if option == "--seed" and value == 0:
        value = -1
    result = invoke("compare", "pong", option, str(value), "--out", "/nonexistent-never-used")
    assert result.exit_code == 2
    assert option in _output(result)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, SEED_MAX), frames=st.integers(1, MAX_EPISODE_FRAMES))
def test_compare_refuses_an_unusable_out_folder_before_work(tmp_path_factory, seed, frames):
    blocker = tmp_path_factory.mktemp("out") / "a-file"
    blocker.write_text("keep me\n")
    started = time.monotonic()
    result = invoke("compare", "pong", "--seed", str(seed), "--max-frames", str(frames),
                    "--frameskip", "1", "--out", str(blocker))
    assert result.exit_code == 2 and "is a file" in _output(result)
    assert blocker.read_text() == "keep me\n"
    assert time.monotonic() - started < 30  # no emulator run, no compile


def test_frameskip_longer_than_the_episode_is_refused():
    result = invoke("compare", "pong", "--frameskip", "2000", "--max-frames", "1000")
    assert result.exit_code == 2 and "more than --max-frames 1000" in _output(result)


def test_policy_file_that_is_a_directory_or_too_long(tmp_path):
    result = invoke("compare", "pong", "--policy", "file", "--policy-file", str(tmp_path),
                    "--out", str(tmp_path / "r"))
    assert result.exit_code == 1 and "is a directory" in _output(result)
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps({"actions": ["NOOP", "FIRE"], "repeat": 10**12}))
    result = invoke("compare", "pong", "--policy", "file", "--policy-file", str(huge),
                    "--out", str(tmp_path / "r"))
    assert result.exit_code == 1 and "longest episode ALE v5 plays" in _output(result)


def test_unknown_policy_names_the_choices():
    result = invoke("compare", "pong", "--policy", "clever")
    assert result.exit_code == 2 and "random" in _output(result)


def test_spec_out_that_is_a_file_or_holds_a_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("JAXTARI_ALIGN_CACHE", str(tmp_path / "cache"))
    a_file = tmp_path / "specs-file"
    a_file.write_text("x\n")
    result = invoke("spec", "pong", "--docs", str(TEST_DOCS), "--out", str(a_file))
    assert result.exit_code == 1 and "not a directory" in _output(result)
    assert a_file.read_text() == "x\n"
    (tmp_path / "specs" / "pong.yaml").mkdir(parents=True)
    result = invoke("spec", "pong", "--docs", str(TEST_DOCS), "--out", str(tmp_path / "specs"),
                    "--force")
    assert result.exit_code == 1 and "is a directory" in _output(result)


def test_probe_refuses_a_spec_of_another_game(tmp_path):
    spec = (REPO / "specs" / "frostbite.yaml").read_text()
    (tmp_path / "pong.yaml").write_text(spec)
    result = invoke("probe", "pong", "--specs", str(tmp_path))
    assert result.exit_code == 1
    assert "spec of 'frostbite'" in _output(result) and "not 'pong'" in _output(result)


def test_one_unrunnable_probe_fails_its_own_row(tmp_path):
    import yaml

    data = yaml.safe_load((REPO / "specs" / "pong.yaml").read_text())
    probed = [r for r in data["rules"] if r.get("probe") and r["status"] == "reviewed"][:2]
    probed[0]["probe"]["expectations"][0]["signal"] = "paddle_colour"
    data["rules"] = probed
    (tmp_path / "pong.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    result = invoke("probe", "pong", "--specs", str(tmp_path), "--backend", "ale")
    out = _output(result)
    assert result.exit_code == 1
    assert "paddle_colour" in out and probed[1]["id"] in out and "pass" in out


def test_ctrl_c_during_a_jax_compile_exits_130_cleanly(tmp_path):
    """SIGINT while the JAX side compiles: exit 130 with a message, never a crash (was exit 139)."""
    # Enough work that the run is still going after 8 s on an idle machine with warm caches (one
    # 400-frame episode once finished first, exit 0, and a signal during teardown gave -2).
    cmd = [sys.executable, "-m", "alignment.cli", "compare", "frostbite", "--episodes", "20",
           "--max-frames", "20000", "--out", str(tmp_path / "out")]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    time.sleep(8)  # past the imports, inside the episodes and compiles
    assert proc.poll() is None, "the command ended before the signal: give it more work"
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 130, err.decode()[-2000:]
    assert b"interrupted; nothing half-written" in err
    assert not list((tmp_path / "out").glob("*")) if (tmp_path / "out").exists() else True
