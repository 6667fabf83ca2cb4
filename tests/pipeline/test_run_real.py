"""The pipeline on a real game with the real stage cores (what the README's `run frostbite` does)."""

import json
import subprocess
from pathlib import Path

import pytest

from alignment.pipeline import graph
from alignment.pipeline import execute, runs
from alignment.pipeline.configuration import Configuration


def _audits_state() -> tuple[str, str]:
    """What git sees under audits/: the diff of tracked files and the untracked ones."""
    diff = subprocess.run(["git", "diff", "--", "audits/"], capture_output=True, text=True)
    status = subprocess.run(["git", "status", "--porcelain", "--", "audits/"],
                            capture_output=True, text=True)
    return diff.stdout, status.stdout


@pytest.mark.slow
def test_run_frostbite_offline_end_to_end(tmp_path, monkeypatch):
    monkeypatch.delenv("JAXTARI_ALIGN_DOCS", raising=False)
    # the committed audits folder, as the command line's run uses it (audits/ of this checkout)
    cfg = Configuration(stress_dir=str(tmp_path / "stress"), reports_dir=str(tmp_path / "reports"))
    specs_before = Path("specs/frostbite.yaml").read_text()
    audits_before = _audits_state()
    committed = json.loads(Path("audits/frostbite.json").read_text())
    with runs.open_store(tmp_path / "state") as saver:
        info = execute.start(graph.compile(saver), "frostbite", cfg, tmp_path / "state")
    assert info.status == "done", info.status
    values = info.values
    assert values["spec"]["status"] == "reused" and values["review"]["status"] == "done"
    assert Path("specs/frostbite.yaml").read_text() == specs_before  # nothing to review: untouched
    assert values["audit"]["status"] == "done" and values["playtest"]["status"] == "done", values
    # the run's audit is in its own folder; the committed one is left byte for byte
    assert _audits_state() == audits_before
    path = Path(values["audit"]["path"])
    assert path == tmp_path / "reports" / info.run_id / "frostbite.json"
    written = json.loads(path.read_text())
    assert values["audit"]["summary"] == written["summary"]
    assert path.with_suffix(".md").is_file()
    # issue 53's bar: the quick audit reaches the committed audit's verdicts
    against = values["audit"]["committed"]
    assert written["code_hash"] == committed["code_hash"] and not against["stale"]
    assert against["verdicts"] == "same", against["differences"]
    assert against["not_compared"] == ["mutation testing (run there only)"]
    assert values["stress"]["status"] == "skipped"
    assert Path(values["report"]["path"]).read_text().startswith(f"# Pipeline run {info.run_id}")
