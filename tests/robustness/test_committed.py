"""The committed robustness reports describe the mods as the games declare them now: a report
made before a counterpart's verdict changed (exact or not, what differs) or a mod's description
changed shows here, with the command that re-makes it."""

import json
from pathlib import Path

import pytest

from alignment.robustness.core import ale_status
from alignment.robustness.schema import check
from jaxtari.mod_registry import registered_mods

FOLDER = Path(__file__).resolve().parents[2] / "robustness"
REPORTS = sorted(FOLDER.glob("*.json"))


def test_there_are_committed_reports():
    assert {p.stem for p in REPORTS} >= {"breakout", "freeway", "frostbite", "pong"}


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.stem)
def test_a_committed_report_describes_the_mods_as_declared_now(path):
    report = check(json.loads(path.read_text("utf-8")))
    mods = registered_mods(report.game)
    assert set(report.mods) <= set(mods), f"{path.name}: mods no longer registered"
    for name, info in report.mods.items():
        now = json.loads(json.dumps(ale_status(report.game, name)))
        said = info.model_dump(exclude_unset=True)  # a write's mask only where the report has one
        stale = f"{path.name} ({name}) is stale: re-run `{report.command}`"
        assert said["description"] == mods[name].description, stale
        assert said["counterpart"] == now["counterpart"], stale
        assert said["jax_only"] == now["jax_only"], stale
