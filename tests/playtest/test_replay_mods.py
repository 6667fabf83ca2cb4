"""``playtest replay --mods``: a session replayed on the modified game, on both sides where the mods
have ALE counterparts."""

from __future__ import annotations

import pytest

from alignment.playtest import core

from .conftest import record


@pytest.mark.slow  # records a session, replays it three times (150 s on the loaded 2-core box)
def test_replay_with_mods_runs_them_on_ale_where_they_have_a_counterpart(tmp_path):
    result = record("freeway", tmp_path, 90, schedule=[])  # the original game, cars driving
    [plain] = core.replay([result.path])
    assert plain.passed
    [parked] = core.replay([result.path], mods=["stop_cars"])
    # both sides now park the cars: the recorded (driving) car_x differs on ALE and on JAX
    sides = {d.side for d in parked.differences if d.signal == "car_x"}
    assert not parked.passed and sides == {"ale", "jax"}
    assert any("on ALE stop_cars" in n for n in parked.notes)
    [jax_only] = core.replay([result.path], mods=["all_black_cars"])
    # a visual-only mod without counterpart: ALE plays the original, no signal changes
    assert jax_only.passed and any("on ALE none" in n for n in jax_only.notes)
