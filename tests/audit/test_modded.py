"""The audit of a modified game (``audit GAME --mods``), the modified game on ALE in the probes,
and the gate's judging of ``audits/<game>+<mod>.json``."""

import copy
import json

import numpy as np
import pytest

from alignment import catalog
from alignment.audit import modded, probes
from alignment.audit import report as audit_report
from alignment.audit.core import AuditError
from alignment.gate.config import Thresholds
from alignment.gate.core import Artefacts, _mod_audit_part
from alignment.spec.schema import Probe
from alignment.spec.store import load_spec

CARS = slice(108, 118)  # Freeway's car bytes (alignment/reference/games/freeway/ram.py)


def test_mod_sides_say_which_mods_run_where():
    s = modded.mod_sides("freeway", ["stop_cars"])
    assert s.on_ale and not s.exact  # equal on every signal, not on the screen
    assert s.rules == ("physics.car-speeds", "physics.collision-push-back")
    j = modded.mod_sides("Freeway", ["invincible"])
    assert not j.on_ale and set(j.jax_only) == {"invincible"}
    assert j.to_json()["backends"] == ["jax"]
    assert "collision latches" in j.to_json()["ran"]
    both = modded.mod_sides("freeway", ["stop_cars,invincible"])
    assert both.names == ("stop_cars", "invincible") and not both.on_ale
    assert modded.report_name(both) == "freeway+stop_cars+invincible"


def test_mod_sides_refuse_an_unknown_or_repeated_mod():
    with pytest.raises(AuditError, match="zero_gravity.*stop_cars"):
        modded.mod_sides("freeway", ["zero_gravity"])
    with pytest.raises(AuditError, match="twice"):
        modded.mod_sides("freeway", ["stop_cars", "stop_cars"])


def test_the_mod_hash_is_the_games_hash_and_the_mods():
    base = catalog.code_hash("freeway")
    one = catalog.mod_code_hash("freeway", ["stop_cars"])
    assert one != base and one == catalog.mod_code_hash("freeway", ("stop_cars",))
    assert one != catalog.mod_code_hash("freeway", ["invincible"])
    assert catalog.split_modified_name("freeway+stop_cars+invincible") == (
        "freeway", ("stop_cars", "invincible"))


def test_the_emulator_plays_the_mods_counterpart_in_a_probe():
    spec = load_spec("specs/freeway.yaml")
    walk = Probe.model_validate({"seed": 0, "start": "reset",
                                 "steps": [{"action": "UP", "frames": 40}],
                                 "expectations": [{"signal": "score", "op": ">=", "value": 0}]})
    _, plain = probes.ale_recordings("freeway", walk, spec, 0)
    _, parked = probes.ale_recordings("freeway", walk, spec, 0, ale_mods=("stop_cars",))
    cars = np.asarray(parked.traces["car_x"])
    assert np.all(cars == cars[0]), "stop_cars parks every car on ALE"
    assert np.any(np.asarray(plain.traces["car_x"]) != np.asarray(plain.traces["car_x"])[0])
    # the same JAX mod ends where the counterpart does (equal on every signal, see
    # tests/test_counterparts.py; the screen is not exact)
    jax = probes.run_on_jax("freeway", walk, ["stop_cars"], spec, lockstep=False)
    assert jax.passed
    np.testing.assert_array_equal(jax.end["car_x"], parked.end["car_x"])


def test_a_v5_probe_on_the_modified_emulator_writes_ram_every_frame():
    spec = load_spec("specs/freeway.yaml")
    rule = next(r for r in spec.rules if r.id == "timing.frameskip-v5")
    res = probes.run_on_ale("freeway", rule.probe, spec, mods=("stop_cars",))
    assert res.passed, res.failures  # 10 agent steps are still 40 frames
    ram = probes._gym_env("freeway").unwrapped.ale.getRAM()
    assert np.all(ram[CARS] == 0)


def test_a_screen_probe_without_lockstep_is_not_judged_as_passing():
    spec = load_spec("specs/freeway.yaml")
    screen = Probe.model_validate({"seed": 0, "start": "reset",
                                   "steps": [{"action": "NOOP", "frames": 8}],
                                   "expectations": [{"signal": "screen", "op": "matches_ale"}]})
    res = probes.run_on_jax("freeway", screen, ["invincible"], spec, lockstep=False)
    assert not res.passed and "not judged" in res.failures[0]


@pytest.fixture(scope="module")
def jax_only_audit(tmp_path_factory):
    """Freeway modified by invincible (no ALE counterpart): a JAX-only audit, written."""
    out = tmp_path_factory.mktemp("audits")
    result = modded.run_mod_audit("freeway", ["invincible"], out_dir=out, explore="none",
                                  events=False)
    audit_report.write(result, out)
    return result, out


def test_a_jax_only_audit_of_a_modified_game(jax_only_audit):
    result, out = jax_only_audit
    assert result.report_name == "freeway+invincible"
    assert result.code_hash == catalog.mod_code_hash("freeway", ["invincible"])
    ids = {r.id for r in result.rules}
    assert "physics.collision-push-back" not in ids  # the rule the mod changes
    assert "scoring.crossing" in ids
    assert all(r.ale is None for r in result.rules)  # ALE does not play this modified game
    assert result.count("fail") == 0 and result.count("pass") >= 7
    data = json.loads((out / "freeway+invincible.json").read_text())
    assert data["modified"]["backends"] == ["jax"] and data["modified"]["mods"] == ["invincible"]
    assert data["exploration"] is None and data["behaviour"] is None
    md = (out / "freeway+invincible.md").read_text()
    assert md.startswith("# Audit of freeway modified by invincible")
    assert "JAX only: invincible has no ALE counterpart" in md


def _gate(root, t=Thresholds()):
    return _mod_audit_part(Artefacts(root), "freeway", t, catalog.mod_code_hash)


def _committed(tmp_path, doc, name="freeway+invincible"):
    (tmp_path / "audits").mkdir(exist_ok=True)
    (tmp_path / "specs").mkdir(exist_ok=True)  # the spec the gate holds the audit's rows against
    (tmp_path / "specs" / "freeway.yaml").write_text(
        (catalog._repo_root() / "specs" / "freeway.yaml").read_text())
    (tmp_path / "audits" / f"{name}.json").write_text(json.dumps(doc))
    return tmp_path


def test_the_gate_judges_a_modified_games_audit(jax_only_audit, tmp_path):
    _, out = jax_only_audit
    doc = json.loads((out / "freeway+invincible.json").read_text())
    failures, notes = _gate(_committed(tmp_path, doc))
    assert failures == [] and "freeway+invincible: audit of the modified game passes" in notes[0]

    stale = copy.deepcopy(doc)
    stale["code_hash"] = catalog.code_hash("freeway")  # the original game's hash is not this one's
    failures, _ = _gate(_committed(tmp_path, stale))
    assert len(failures) == 1 and "audit freeway --mods invincible --quick" in failures[0]

    gap = copy.deepcopy(doc)
    gap["exploration"] = {"divergences": [{"frame": 9, "rules": [], "signal": "screen"}]}
    failures, _ = _gate(_committed(tmp_path, gap))
    assert "spec gaps" in failures[0] and "frame 9" in failures[0]

    failing = copy.deepcopy(doc)
    for row in failing["rules"]:
        if row["outcome"] == "pass":
            row["outcome"] = "fail"
    failures, _ = _gate(_committed(tmp_path, failing))
    assert any("recall" in f and "below" in f for f in failures)
    # the switch in fidelity.toml: reported, not judged
    failures, notes = _gate(tmp_path, Thresholds(mod_audits=False))
    assert failures == [] and any("not judged" in n for n in notes)


def test_the_gate_refuses_an_audit_that_names_other_mods(jax_only_audit, tmp_path):
    _, out = jax_only_audit
    doc = json.loads((out / "freeway+invincible.json").read_text())
    failures, _ = _gate(_committed(tmp_path, doc, "freeway+stop_cars"))
    assert len(failures) == 1 and "does not say it audits freeway modified by stop_cars" in failures[0]


def test_parting_modified_games_fail_only_when_the_counterparts_are_exact(jax_only_audit, tmp_path):
    _, out = jax_only_audit
    doc = json.loads((out / "freeway+invincible.json").read_text())
    doc["behaviour"] = {"kinds": {"ale": {}, "jax": {}}, "unjustified": [],
                        "rollouts": [{"policy": "random", "episode": 0,
                                      "divergence": {"frame": 12, "signal": "score"}}]}
    doc["modified"]["counterparts"] = {"invincible": {"exact": False}}
    doc["modified"]["counterparts_exact"] = False
    assert _gate(_committed(tmp_path, doc))[0] == []
    doc["modified"]["counterparts"] = {"invincible": {"exact": True}}
    doc["modified"]["counterparts_exact"] = True
    failures, _ = _gate(_committed(tmp_path, doc))
    assert "part in 1 matched rollout" in failures[0]


def test_a_probe_the_modified_real_game_fails_is_reported_not_counted_as_uncovered(
        jax_only_audit, tmp_path):
    _, out = jax_only_audit
    doc = json.loads((out / "freeway+invincible.json").read_text())
    passing = [r for r in doc["rules"] if r["outcome"] == "pass"]
    passing[0]["outcome"] = "wrong-probe"
    doc["summary"]["coverage"] = round((len(passing) - 1) / len(doc["rules"]), 4)
    doc["summary"]["recall"] = 1.0
    failures, notes = _gate(_committed(tmp_path, doc))
    assert failures == []
    assert any(passing[0]["id"] in n and "without declaring" in n for n in notes)
