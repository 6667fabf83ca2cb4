"""The audit session (alignment.audit.session): an audit's caches live in it and go with it, and two
audits in one process give what each gives alone."""

import gc
import json
import subprocess
import sys
import textwrap
import weakref
from pathlib import Path

import pytest

from alignment import fault_switch
from alignment.audit import probes, session
from alignment.spec.schema import Probe
from alignment.spec.store import load_spec

REPO = Path(__file__).resolve().parents[2]
# timings differ from run to run; everything else in an audit's JSON must not
TIMINGS = {"created", "seconds"}


def test_an_audit_session_in_another_shares_it_and_the_default_one_is_left_alone():
    default = session.current()
    with session.opened() as outer:
        assert session.current() is outer and outer is not default
        with session.opened() as inner:
            assert inner is outer
        assert session.current() is outer
    assert session.current() is default


def test_what_a_session_kept_is_freed_when_it_ends():
    spec = load_spec(REPO / "specs" / "pong.yaml")
    walk = Probe.model_validate({"seed": 0, "start": "reset",
                                 "steps": [{"action": "UP", "frames": 30}],
                                 "expectations": [{"signal": "score", "op": ">=", "value": 0}]})
    default_sizes = {k: len(v) for k, v in session.current().caches().items()}
    with session.opened() as s:
        results = probes.run_both("pong", walk, spec)
        switch = fault_switch.activate("pong", [])
        assert all(r.passed for r in results.values()), results
        filled = {k for k, v in s.caches().items() if v}
        assert {"compiled", "ale_emulators", "ale_prefixes", "ale_probe_runs",
                "jax_prefixes"} <= filled
        assert fault_switch.active() is switch
        held = [weakref.ref(c) for c in s.compiled.values()] + [weakref.ref(switch)]
        del results, switch
    assert s.empty() and fault_switch.active() is None
    gc.collect()
    assert all(ref() is None for ref in held), "a compiled game outlived its session"
    # nothing went to the process's session meanwhile
    assert {k: len(v) for k, v in session.current().caches().items()} == default_sizes


# ---- two audits in one process ----------------------------------------------------------------


def _strip(data):
    if isinstance(data, dict):
        return {k: _strip(v) for k, v in data.items() if k not in TIMINGS}
    if isinstance(data, list):
        return [_strip(v) for v in data]
    return data


def _two_faults_each(folder: Path, games) -> Path:
    """A faults folder with each game's first two seeded faults (the fault switch and a faulty
    game's own compile both run, in minutes)."""
    folder.mkdir()
    for game in games:
        (folder / f"{game}.py").write_text(textwrap.dedent(f"""
            from alignment.audit.faults import load_faults
            FAULTS = load_faults({game!r}, {str(REPO / "faults")!r})[:2]
        """))
    return folder


def _audits_in_one_process(out: str, faults_dir: str, names: list, shared: bool) -> None:
    """Run in an interpreter of its own: the audits ``names`` (``game`` or ``game+mod``) one after
    another, quick, in this process; each result's JSON written to ``out/<name>.json``. With
    ``shared`` every audit runs in one session, so each finds what the audits before it kept."""
    import contextlib

    from alignment.audit import core, modded

    outer = session.opened() if shared else contextlib.nullcontext()
    with outer as s:
        for name in names:
            game, _, mod = name.partition("+")
            if mod:
                result = modded.run_mod_audit(game, [mod], explore="quick", out_dir=Path(out),
                                              specs_dir=REPO / "specs")
            else:
                result = core.run_audit(game, explore="quick", faults_dir=Path(faults_dir),
                                        out_dir=Path(out), specs_dir=REPO / "specs", workers=1)
            (Path(out) / f"{name}.json").write_text(json.dumps(result.to_json()))
            if not shared:  # the audit's own session is gone; the process's was never used
                assert session.current().empty(), {k for k, v in session.current().caches().items()
                                                   if v}
    if shared:
        assert s.empty()


def _run(out: Path, faults_dir: Path, names: list, shared: bool = False) -> dict:
    out.mkdir()
    code = (f"from tests.audit.test_session import _audits_in_one_process; "
            f"_audits_in_one_process({str(out)!r}, {str(faults_dir)!r}, {names!r}, {shared!r})")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return {n: _strip(json.loads((out / f"{n}.json").read_text())) for n in names}


@pytest.fixture(scope="module")
def freeway_alone(tmp_path_factory):
    """Freeway's quick audit (two seeded faults) alone in a process, and its faults folder."""
    root = tmp_path_factory.mktemp("session")
    faults = _two_faults_each(root / "faults", ["pong", "freeway"])
    return faults, _run(root / "alone", faults, ["freeway"])["freeway"]


@pytest.mark.slow
def test_a_second_audit_of_another_game_gives_what_it_gives_alone(freeway_alone, tmp_path):
    faults, alone = freeway_alone
    together = _run(tmp_path / "together", faults, ["pong", "freeway"])
    assert together["freeway"]["summary"]["seeded_faults"] == 2
    assert together["freeway"] == alone


@pytest.mark.slow
def test_a_games_audit_after_a_modified_ones_in_one_session_gives_what_it_gives_alone(
        freeway_alone, tmp_path):
    # One session for both: every recording and build of the modified game is still there when
    # the game's own audit runs, so a cache keyed without the mods would hand it the modified
    # game's, which its lockstep runs leave (stop_cars parks Freeway's cars on ALE too).
    faults, alone = freeway_alone
    together = _run(tmp_path / "together", faults, ["freeway+stop_cars", "freeway"], shared=True)
    assert together["freeway+stop_cars"]["behaviour"] != alone["behaviour"]
    assert together["freeway"] == alone
