"""Seeded faults in a pool of spawned processes give the results a run in one process gives, in
the same order (alignment.audit.fault_pool)."""

import json
import textwrap
from pathlib import Path

import pytest

from alignment.audit import core, fault_pool, session
from tests.audit import toy


def _audit(subject, workers):
    said = []
    result = core.audit(subject, workers=workers, progress=said.append)
    return [f.to_json() for f in result.faults], said


@pytest.fixture(scope="module")
def run_here():
    """The toy's faults run in this process (one worker): what every pooled run must equal. A toy
    audit costs ~16 s under load, so the three tests share this one."""
    return _audit(toy.rebuildable_subject(), 1)


def test_the_toys_faults_in_a_pool_equal_those_run_here(run_here):
    serial, said_here = run_here
    pooled, said_pooled = _audit(toy.rebuildable_subject(), 2)
    assert pooled == serial
    assert [f["fault"] for f in serial] == ["free_payout", "endless", "five_lives"]
    assert [f["detected"] for f in serial] == [True, True, False]
    # the pool ran them (its lines), this process did not (the serial run's lines)
    assert "seeded faults: 3, 2 at a time" in said_pooled
    done = [s.split(" done: ") for s in said_pooled if " done: " in s]
    assert [k for k, _ in done] == ["seeded fault 1/3", "seeded fault 2/3", "seeded fault 3/3"]
    assert sorted(name for _, name in done) == sorted(f["fault"] for f in serial)
    assert not any(s.startswith("seeded fault 1/3: ") for s in said_pooled)
    assert "seeded fault 1/3: free_payout" in said_here


def test_a_subject_without_rebuild_runs_its_faults_here(run_here):
    pooled, said = _audit(toy.subject(), 2)
    assert "seeded fault 1/3: free_payout" in said and not any(" at a time" in s for s in said)
    assert pooled == run_here[0]


def test_a_pool_that_breaks_leaves_its_faults_to_this_process(run_here):
    results, said = _audit(toy.subject_that_breaks_a_pool(), 2)
    assert results == run_here[0]
    [broke] = [s for s in said if "the pool broke" in s]
    assert broke.endswith("3 left run here: free_payout, endless, five_lives")


def test_the_worker_count_follows_the_cores_and_the_faults(monkeypatch):
    monkeypatch.setattr(fault_pool, "available_cores", lambda: 2)
    assert fault_pool.worker_count(None, 15) == 2
    assert fault_pool.worker_count(None, 1) == 1
    assert fault_pool.worker_count(4, 3) == 3
    assert fault_pool.worker_count(1, 15) == 1
    assert fault_pool.worker_count(None, 0) == 1


@pytest.mark.slow
def test_pongs_faults_in_a_pool_equal_those_run_here(tmp_path):
    """The real path: exploration (the planner's walk handed to the workers) and the matched
    rollouts under each fault, on two of Pong's seeded faults."""
    repo = Path(__file__).resolve().parents[2]
    (tmp_path / "pong.py").write_text(textwrap.dedent(f"""
        from alignment.audit.faults import load_faults
        FAULTS = load_faults("pong", {str(repo / "faults")!r})[:2]
    """))
    with session.opened():  # the audit's planner walks, still there for the pool's workers
        serial = core.run_audit("pong", explore="quick", faults_dir=tmp_path,
                                out_dir=tmp_path / "out", workers=1)
        subject = core.catalog_subject("pong", specs_dir=repo / "specs", faults=True,
                                       faults_dir=tmp_path, docs=None, events=True,
                                       explore="quick")
        holding = [r.id for r in serial.rules if r.outcome == "pass"]
        said = []
        pooled = fault_pool.run_pooled(core.run_fault, subject, holding, serial.structure,
                                       said.append, 2)
    assert [f.to_json() for f in pooled] == [f.to_json() for f in serial.faults]
    assert len(pooled) == 2 and all(f.explore_rules is not None for f in pooled)
    assert not any("the pool broke" in s for s in said)
    json.dumps([f.to_json() for f in pooled])  # plain data, as the report writes it
