"""The pipeline on a real game with the real stage cores (what the README's `run frostbite` does)."""

import json
from pathlib import Path

import pytest

from alignment.pipeline import graph
from alignment.pipeline import execute, runs
from alignment.pipeline.configuration import Configuration


@pytest.mark.slow
def test_run_frostbite_offline_end_to_end(tmp_path, monkeypatch):
    monkeypatch.delenv("JAXTARI_ALIGN_DOCS", raising=False)
    cfg = Configuration(audits_dir=str(tmp_path / "audits"), stress_dir=str(tmp_path / "stress"),
                        reports_dir=str(tmp_path / "reports"))
    specs_before = Path("specs/frostbite.yaml").read_text()
    with runs.open_store(tmp_path / "state") as saver:
        info = execute.start(graph.compile(saver), "frostbite", cfg, tmp_path / "state")
    assert info.status == "done", info.status
    values = info.values
    assert values["spec"]["status"] == "reused" and values["review"]["status"] == "done"
    assert Path("specs/frostbite.yaml").read_text() == specs_before  # nothing to review: untouched
    assert values["audit"]["status"] == "done" and values["playtest"]["status"] == "done", values
    written = json.loads((tmp_path / "audits" / "frostbite.json").read_text())
    assert values["audit"]["summary"] == written["summary"]
    assert values["stress"]["status"] == "skipped"
    assert Path(values["report"]["path"]).read_text().startswith(f"# Pipeline run {info.run_id}")
