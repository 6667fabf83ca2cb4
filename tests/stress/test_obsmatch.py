"""The matched episode compares the agent's observation on both backends: equal on a real agent's
game, and a planted difference in ALE's side is found at its frame and named (real emulator, CPU)."""

from __future__ import annotations

import numpy as np
import pytest

from alignment.learning import policy as pol
from alignment.stress import obsmatch, transfer
from alignment.stress.obsmatch import CHUNK

PLANTED = CHUNK + 37  # past the first compiled chunk, so its frame index is counted across chunks


@pytest.fixture(scope="module")
def breakout_actions():
    """The first ALE game of the committed Breakout objects agent (seed 1), sticky actions off (so
    the matched replay is that very game), cut at 600 agent steps: a trained agent's actions."""
    p = pol.load("stress/policies/breakout-objects.npz", "breakout", "objects")
    e = transfer.ale_episodes(p, 1, [0], seed=0, sticky=0.0, keep_actions=1, max_frames=2400)
    assert len(e.actions[0]) >= 500, e.steps
    return e.actions[0]


class _OffFrom:
    """ALE's side as usual, but one value raised by one from the ``at``-th frame it is given on."""

    def __init__(self, inner, at: int, index):
        self.inner, self.at, self.index, self.seen = inner, at, index, 0

    def __call__(self, batch):
        out = np.array(self.inner(batch), copy=True)
        late = np.arange(self.seen, self.seen + len(out)) >= self.at
        self.seen += len(out)
        out[(late,) + self.index] += 1
        return out


def test_objects_observation_equal_on_a_trained_agents_game_and_a_planted_field_found(
        breakout_actions):
    from alignment.reference.features import FeatureDecoder

    clean = transfer.matched_episode("breakout", breakout_actions, seed=0, obs="objects")
    seen = clean["observation"]
    assert seen["first_divergence"] is None and seen["frames"] > PLANTED + 100, seen
    assert not transfer.parts(clean)
    assert "the agent's observation equal on all" in transfer.divergence(clean)

    dec = FeatureDecoder("breakout")
    names = obsmatch.feature_names(dec.game)
    assert len(names) == dec.size
    field = next(i for i, n in enumerate(names) if n.startswith("ball[0].") and n.endswith(".y"))
    planted = transfer.matched_episode("breakout", breakout_actions, seed=0, obs="objects",
                                       decoder=_OffFrom(dec, PLANTED, (field,)))
    row = planted["observation"]
    assert row["first_divergence"] == PLANTED and row["fields_differing"] == 1, row
    assert row["fields"][0]["field"] == names[field]
    assert row["fields"][0]["ale"] == row["fields"][0]["jax"] + 1
    # every frame is compared on past the first difference
    assert row["frames"] == seen["frames"] and row["frames_differing"] == row["frames"] - PLANTED
    assert row["fields_ever"] == [names[field]]
    assert planted["first_divergence"] is None  # the signals never part: only the observation
    assert transfer.parts(planted)
    assert f"frame {PLANTED}" in transfer.divergence(planted) and names[field] in \
        transfer.divergence(planted)


def test_pixel_observation_equal_and_a_planted_pixel_found(breakout_actions):
    frames = np.repeat(np.asarray(breakout_actions[:400]), 4)
    clean = obsmatch.compare_observations("breakout", "pixels", frames, seed=0)
    assert clean["first_divergence"] is None and clean["frames"] > PLANTED, clean
    planted = obsmatch.compare_observations(
        "breakout", "pixels", frames, seed=0,
        decoder=_OffFrom(transfer.observe_screen, PLANTED, (40, 17)))
    assert planted["first_divergence"] == PLANTED and planted["pixels_differing"] == 1, planted
    row, col, ale, jax = planted["pixels"][0]
    assert (row, col) == (40, 17) and ale == (jax + 1) % 256
    assert planted["frames_differing"] == clean["frames"] - PLANTED


def test_a_report_made_before_the_observation_check_says_so():
    old = {"agent_seed": 1, "episode": 0, "episode_seed": 0, "frames": 3824,
           "first_divergence": None, "signals": []}
    assert not transfer.parts(old)
    assert "observation not compared" in transfer.divergence(old)
    assert transfer.parts({**old, "observation": {"frames": 10, "first_divergence": 4,
                                                  "pixels_differing": 2, "pixels": []}})


def test_unknown_observation_mode_is_refused():
    with pytest.raises(ValueError, match="'objects' or 'pixels'"):
        obsmatch.compare_observations("breakout", "ram", [0, 0], seed=0)


def test_committed_reports_without_the_observation_still_hold_and_say_what_they_lack(tmp_path):
    import json
    from pathlib import Path

    from alignment.stress import transfer_check, transfer_report

    rel = "stress/breakout-objects-transfer.json"
    doc = json.loads(Path(rel).read_text())
    assert all("observation" in m for m in doc["matched"])  # the committed one has it now
    # the same report as it was made before the comparison existed
    for m in doc["matched"]:
        del m["observation"]
    old = tmp_path / rel
    old.parent.mkdir(parents=True)
    old.write_text(json.dumps(doc))
    assert transfer_check.check(tmp_path, rel, replay=False) == []
    text = transfer_report.to_markdown(transfer_report.from_json(doc))
    assert "the agent's observation not compared" in text


def test_transfer_matched_adds_the_observation_to_a_committed_report(tmp_path):
    import json
    import shutil
    from pathlib import Path

    from typer.testing import CliRunner

    from alignment.cli import app

    rel = "stress/breakout-objects-transfer.json"
    shutil.copy(rel, tmp_path / Path(rel).name)
    before = json.loads(Path(rel).read_text())
    res = CliRunner().invoke(app, ["transfer-matched", "breakout", "--obs", "objects", "--out",
                                   str(tmp_path)])
    assert res.exit_code == 0, res.output
    after = json.loads((tmp_path / Path(rel).name).read_text())
    (m,) = after["matched"]
    old = before["matched"][0]
    assert {k: m[k] for k in old} == old  # the signals replayed as the report says
    assert m["observation"]["first_divergence"] is None and m["observation"]["frames"] > 500
    assert after["sides"] == before["sides"] and after["verdict"] == before["verdict"]
    assert "the agent's observation equal on all" in (tmp_path / "breakout-objects-transfer.md") \
        .read_text()
    # a report whose matched episode's actions are recorded neither in its row (reports made
    # before the matched games were the agent's own) nor in its sides is refused, naming the fix
    assert len(m["actions"]) == m["agent_steps"]  # the committed row records its own game
    for key in ("actions", "sticky", "agent_return", "agent_steps"):
        del after["matched"][0][key]
    after["sides"]["ale"][after["seeds"].index(m["agent_seed"])]["actions"] = []
    (tmp_path / Path(rel).name).write_text(json.dumps(after))
    res = CliRunner().invoke(app, ["transfer-matched", "breakout", "--obs", "objects", "--out",
                                   str(tmp_path)])
    assert res.exit_code == 2 and "jaxtari-align transfer breakout --obs objects" in res.output


def test_transfer_matched_play_refuses_a_policy_that_is_not_the_evaluated_one(tmp_path):
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from alignment.cli import app

    rel = "stress/breakout-objects-transfer.json"
    doc = json.loads(Path(rel).read_text())
    out = tmp_path / Path(rel).name
    args = ["transfer-matched", "breakout", "--obs", "objects", "--out", str(tmp_path), "--play"]
    for change, said in (({"policy_sha256": "0" * 64}, "sha256 differs"),
                         ({"policy_file": None}, "names no committed policy file"),
                         ({"policy_file": "stress/policies/nowhere.npz"}, "is not committed")):
        out.write_text(json.dumps({**doc, **change}))
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 2 and said in res.output, res.output
        assert "jaxtari-align transfer breakout --obs objects" in res.output
        assert json.loads(out.read_text()) == {**doc, **change}  # nothing written
