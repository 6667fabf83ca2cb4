"""Issue 47: every attempt to weaken, forge or drop the evidence that its table lists, each as a
test that fails the gate (or the workflow, where only the workflow can catch it), and attempts of
our own in the same spirit (marked "own attempt"). The weakenings against the base each name the
exact item a reason in fidelity.toml would have to name."""

import ast
import copy
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from alignment import catalog, gate
from alignment.gate import closure, declarations, weakening
from tests.gate_fixtures import (ALE_FINALS, git, unaudited_mods_toml, write_audit, write_spec,
                                 write_stress)
from tests.gate_fixtures import commit_all as _commit, evaluate_game as _evaluate

ROOT = Path(__file__).resolve().parents[1]




def _branch(repo):
    git(repo, "checkout", "-qb", "change")


def _json(path: Path) -> dict:
    return json.loads(path.read_text())


def _write(path: Path, doc: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))


def _item(failures, key):
    """The failure of the weakening ``key`` (it names the key a reason must give)."""
    found = [f for f in failures if f'"{key}" = "..."' in f]
    assert found, (key, failures)
    return found[0]


# ==== stress ======================================================================================

def test_stress_finals_edited_apart_from_the_curves_fail(repo):
    """Attempt: per-seed `final` returns edited (curves untouched) and the report re-made, so that
    the verdict reads "equivalent"."""
    doc = write_stress(repo, "pong", "different")
    doc["backends"]["jax"]["final"] = list(ALE_FINALS)  # the verdict of these is "equivalent"
    doc["verdict"] = {**doc["verdict"], "label": "equivalent"}
    _write(repo / "stress" / "pong-objects.json", doc)
    failures = _evaluate(repo).failures
    assert any(f.startswith("stress/pong-objects.json: backends.jax seed 0: final return 10.0 is "
                            "not its curve's last value 15.0") for f in failures), failures


def test_half_the_stress_seeds_dropped_on_both_sides_is_a_weakening(repo):
    """Attempt: 10 of the 20 seeds kept, the same ones on both sides, the verdict unchanged."""
    _branch(repo)
    doc = _json(repo / "stress" / "pong-objects.json")
    for side in doc["backends"].values():
        for key in ("curves", "episodes", "final"):
            side[key] = side[key][:5]
    doc["seeds"] = doc["seeds"][:5]
    from alignment.stress.remake import recomputed_verdict

    v = recomputed_verdict(doc)
    doc["verdict"] = {k: v[k] for k in ("label", "margin", "random_return", "gain", "detail",
                                        "more_seeds") if k in v}
    _write(repo / "stress" / "pong-objects.json", doc)
    failures = _evaluate(repo, base="main").failures
    assert _item(failures, "stress.seeds:objects").startswith(
        "stress (objects): seeds 10 -> 5 against main (dropped: 5, 6, 7, 8, 9)")


def test_own_attempt_a_stress_backend_dropped_and_a_return_without_an_episode(repo):
    _branch(repo)
    doc = _json(repo / "stress" / "pong-objects.json")
    doc["backends"]["jax"]["curves"][0][0] = 99.0
    doc["backends"]["jax"]["episodes"][0][0] = 0
    _write(repo / "stress" / "pong-objects.json", doc)
    assert any("checkpoint 0 has 0 episode(s) and return 99.0" in f
               for f in _evaluate(repo).failures)
    del doc["backends"]["jax"]
    _write(repo / "stress" / "pong-objects.json", doc)
    _item(_evaluate(repo, base="main").failures, "stress.side:objects/jax")


def test_own_attempt_random_policy_returns_edited_to_widen_the_margin(repo):
    """The margin is a share of ALE's gain over the random policy: lowering its recorded returns
    (same seed, same episodes, same code) widens the margin until "inconclusive" reads
    "equivalent". Measured returns cannot change without the settings or the code changing."""
    _branch(repo)
    doc = _json(repo / "stress" / "pong-objects.json")
    doc["statistics"]["random_policy"]["returns"] = [-40.0, -40.0, -40.0, -40.0]
    doc["statistics"]["random_policy"]["mean"] = -40.0
    _write(repo / "stress" / "pong-objects.json", doc)
    failures = _evaluate(repo, base="main").failures
    assert any(f.startswith("stress (objects): the random policy's returns changed against main "
                            "with the same settings and code") for f in failures), failures


def test_a_stress_verdict_detail_or_margin_edited_fails(repo):
    doc = _json(repo / "stress" / "pong-objects.json")
    doc["verdict"]["margin"] = 50.0
    doc["verdict"]["detail"] = "equivalent within a generous margin"
    _write(repo / "stress" / "pong-objects.json", doc)
    failures = _evaluate(repo).failures
    assert any(f.startswith("stress/pong-objects.json: verdict.margin says 50.0, the per-seed "
                            "returns give 2.0") for f in failures), failures
    assert any(f.startswith("stress/pong-objects.json: verdict.detail is not") for f in failures)


# ==== robustness ==================================================================================

def _robustness(repo, game="pong", mod="no_enemy_points") -> dict:
    """A robustness report made as the stage makes it: statistics and comparison from the
    per-episode returns (five seeds, two episodes, both sides)."""
    from alignment.robustness import pc as pcm

    def side(shift):
        agents = {"original": [[10.0 + i, 11.0 + i] for i in range(5)],
                  mod: [[5.0 + i + shift, 6.0 + i] for i in range(5)]}
        random = {"original": [0.0, 1.0, 0.0, 1.0], mod: [0.0, 0.0, 1.0, 1.0]}
        return {"agents": agents, "random": random,
                "random_mean": {k: pcm.random_mean(v) for k, v in random.items()},
                "truncated": {"original": 0, mod: 0}, "wall_seconds": {"agents": 1.0, "random": 1.0}}

    sides = {"jax": side(0.0), "ale": side(0.1)}
    pcs = {s: pcm.side_pc(d["agents"], d["random"], mod) for s, d in sides.items()}
    c = pcm.compare_sides(pcs["jax"], pcs["ale"])
    doc = {"schema": "jaxtari-align/robustness/v1", "game": game, "obs": "objects",
           "code_hash": gate.current_code_hash(game), "versions": {}, "command": "",
           "wall_seconds": 1.0,
           "agents": {"source": "s", "steps_per_seed": 2048, "seeds": [0, 1, 2, 3, 4],
                      "trained_here": False, "trained_on": "jax"},
           "episodes": 2, "random_episodes": 4, "max_steps": 100,
           "mods": {mod: {"description": "d", "ale": True, "jax_only": None,
                          "counterpart": {"writes": [], "exact": False, "measured": "m",
                                          "differs": "d"}}},
           "sides": sides, "pc": {mod: {s: pcm.nan_to_none(v) for s, v in pcs.items()}},
           "statistics": {mod: pcm.aggregate(pcs)},
           "comparison": {mod: {k: c.get(k) for k in ("label", "margin", "detail", "more_seeds",
                                                      "test", "paired_mean_difference")}},
           "notes": []}
    doc = json.loads(json.dumps(doc))
    _write(repo / "robustness" / f"{game}.json", doc)
    return doc


@pytest.fixture
def robust(repo):
    doc = _robustness(repo)
    _commit(repo, "robustness")
    _branch(repo)
    return doc


def test_a_made_robustness_report_passes(repo, robust):
    assert not [f for f in _evaluate(repo, base="main").failures if "robustness" in f]


@pytest.mark.parametrize("edit, named", [
    (lambda d: d["statistics"]["no_enemy_points"]["jax"]["iqm"].update(value=0.0),
     "statistics.no_enemy_points.jax.iqm.value says 0.0"),
    (lambda d: d["statistics"]["no_enemy_points"]["ale"]["median"].update(low=-0.01),
     "statistics.no_enemy_points.ale.median.low says -0.01"),
    (lambda d: d["comparison"]["no_enemy_points"].update(margin=5.0),
     "comparison.no_enemy_points.margin says 5.0"),
    (lambda d: d["comparison"]["no_enemy_points"].update(detail="the same task"),
     "comparison.no_enemy_points.detail says 'the same task'"),
])
def test_robustness_aggregates_edited_fail(repo, robust, edit, named):
    """Attempts: the robustness IQM, median, margin or detail edited."""
    doc = copy.deepcopy(robust)
    edit(doc)
    _write(repo / "robustness" / "pong.json", doc)
    failures = _evaluate(repo).failures
    assert any(named in f for f in failures), failures


def test_a_robustness_report_deleted_or_its_ale_side_dropped_is_a_weakening(repo, robust):
    """Attempts: the robustness report deleted; its ALE side dropped (the rest re-derived)."""
    (repo / "robustness" / "pong.json").unlink()
    assert _item(_evaluate(repo, base="main").failures, "artefact:robustness/pong.json") == (
        "robustness/pong.json deleted against main: allowed only with a reason for this exact "
        "item, new or rewritten in this change: fidelity.toml [overrides.pong] "
        "\"artefact:robustness/pong.json\" = \"...\"")
    doc = copy.deepcopy(robust)
    del doc["sides"]["ale"]
    from alignment.robustness import pc as pcm

    pcs = {"jax": pcm.side_pc(doc["sides"]["jax"]["agents"], doc["sides"]["jax"]["random"],
                              "no_enemy_points")}
    doc["pc"]["no_enemy_points"] = {"jax": pcm.nan_to_none(pcs["jax"])}
    doc["statistics"]["no_enemy_points"] = json.loads(json.dumps(pcm.aggregate(pcs)))
    doc["comparison"] = {}
    _write(repo / "robustness" / "pong.json", doc)
    failures = _evaluate(repo, base="main").failures
    assert not [f for f in failures if f.startswith("robustness/pong.json:")], failures
    _item(failures, "robustness.side:ale")
    reason = "ALE is being re-measured on the new counterpart (issue 99); JAX side kept meanwhile."
    (repo / "fidelity.toml").write_text((repo / "fidelity.toml").read_text()
                                        + f'[overrides.pong]\n"robustness.side:ale" = "{reason}"\n')
    verdict = _evaluate(repo, base="main")
    assert verdict.passed, verdict.failures
    assert ("robustness.side:ale", "robustness: side ale dropped against main", reason) in \
        verdict.weakenings


def test_robustness_returns_nan_with_pc_null_fail(repo, robust):
    """Attempt: a return written NaN (and its PC null): the schema says never NaN."""
    text = (repo / "robustness" / "pong.json").read_text()
    doc = copy.deepcopy(robust)
    doc["sides"]["jax"]["agents"]["no_enemy_points"][0][0] = "NAN_HERE"
    doc["pc"]["no_enemy_points"]["jax"][0] = None
    (repo / "robustness" / "pong.json").write_text(json.dumps(doc).replace('"NAN_HERE"', "NaN"))
    failures = _evaluate(repo).failures
    assert any(f.startswith("robustness/pong.json is not valid JSON (NaN is not a number JSON "
                            "has") for f in failures), failures
    assert text  # the committed report itself parsed


def test_own_attempt_robustness_rows_shorter_than_the_episodes_it_claims(repo, robust):
    doc = copy.deepcopy(robust)
    doc["sides"]["jax"]["agents"]["no_enemy_points"][2] = [5.0]  # one episode, not two
    _write(repo / "robustness" / "pong.json", doc)
    assert any("sides.jax.agents.no_enemy_points: a seed's row does not hold `episodes` = 2" in f
               for f in _evaluate(repo).failures)


def test_fewer_robustness_mods_episodes_seeds_and_budget_are_weakenings(repo, robust):
    assert not weakening.robustness_items(robust, robust, "r", "main")
    fewer = copy.deepcopy(robust)
    fewer.update(episodes=1, random_episodes=2, max_steps=50)
    fewer["agents"].update(seeds=[0, 1, 2], steps_per_seed=1024)
    fewer["mods"] = {}
    keys = [w.key for w in weakening.robustness_items(robust, fewer, "r", "main")]
    assert keys == ["robustness.mod:no_enemy_points", "robustness.seeds", "robustness.episodes",
                    "robustness.random_episodes", "robustness.max_steps", "robustness.budget"]


# ==== audits of modified games and the mods ========================================================

def _mod_audit(repo, name="pong+no_enemy_points") -> Path:
    doc = _json(ROOT / "audits" / "pong+no_enemy_points.json")
    path = repo / "audits" / f"{name}.json"
    _write(path, doc)
    return path


def test_a_deleted_mod_audit_is_a_weakening(repo):
    """Attempt: audits/pong+no_enemy_points.json deleted (CI re-audits only what is committed)."""
    shutil.copy(ROOT / "specs" / "pong.yaml", repo / "specs" / "pong.yaml")
    _mod_audit(repo)
    _commit(repo, "mod audit")
    _branch(repo)
    (repo / "audits" / "pong+no_enemy_points.json").unlink()
    failures = _evaluate(repo, base="main").failures
    assert _item(failures, "artefact:audits/pong+no_enemy_points.json").startswith(
        "audits/pong+no_enemy_points.json deleted against main")


def test_every_mod_has_an_audit_or_a_declared_reason(repo):
    """Attempt: a mod with no audit changed. A mod must have a committed audit or a declared
    reason (the gate lists them); a declared one that has an audit, or a declared name the game
    does not register, fails too."""
    from alignment.gate import registered_mods

    mods = registered_mods("pong")
    (repo / "fidelity.toml").write_text("[defaults]\nrequire_playtest = false\n")
    failures = _evaluate(repo).failures
    for mod in mods:
        assert (f"mod {mod} has no audit (audits/pong+{mod}.json) and is not declared unaudited: "
                f"run `jaxtari-align audit pong --mods {mod} --quick` and commit it, or say why "
                f"not in fidelity.toml [unaudited_mods.pong] {mod} = \"...\"") in failures
    (repo / "fidelity.toml").write_text(unaudited_mods_toml().replace(
        "[unaudited_mods.pong]\n",
        '[unaudited_mods.pong]\nno_such_mod = "a mod this game does not have"\n'))
    failures = _evaluate(repo).failures
    assert any("[unaudited_mods.pong] names 'no_such_mod', which pong does not register" in f
               for f in failures)
    verdict = _evaluate(repo)
    assert set(verdict.unaudited) >= set(mods)
    text = gate.markdown([verdict])
    assert "mods without an audit of the modified game" in text and f"- `{mods[0]}`: " in text


def test_changing_a_mod_stales_its_audit(tmp_path, monkeypatch):
    """A mod lives in its game's package: editing it moves the modified game's code hash."""
    copy_root = tmp_path / "copy"
    for rel in ("jaxtari", "specs", "alignment/reference/games", "faults"):
        shutil.copytree(ROOT / rel, copy_root / rel, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(catalog, "_games_dir", lambda: copy_root / "jaxtari" / "games")
    before = catalog.mod_code_hash("pong", ["lazy_enemy"])
    mods = copy_root / "jaxtari" / "games" / "pong" / "mods.py"
    mods.write_text(mods.read_text() + "\n# a changed mod\n")
    assert catalog.mod_code_hash("pong", ["lazy_enemy"]) != before


def test_own_attempt_an_audit_of_a_look_alike_mod_name(repo):
    """An audit named for a mod the game does not register (a Cyrillic 's' in no_enemy_points)
    cannot stand for the real mod's."""
    shutil.copy(ROOT / "specs" / "pong.yaml", repo / "specs" / "pong.yaml")
    fake = "no_enemy_point\u0455"
    path = _mod_audit(repo, f"pong+{fake}")
    doc = _json(path)
    doc["modified"]["mods"] = [fake]
    _write(path, doc)
    failures = _evaluate(repo).failures
    assert any(f.startswith(f"audits/pong+{fake}.json audits mod(s) '{fake}' that pong does not "
                            "register") for f in failures), failures


# ==== the game's audit =============================================================================

def test_another_games_audit_copied_in_fails(repo):
    """Attempt: freeway's audit committed as pong's, with pong's code hash."""
    shutil.copy(ROOT / "specs" / "pong.yaml", repo / "specs" / "pong.yaml")
    doc = _json(ROOT / "audits" / "freeway.json")
    doc["code_hash"] = gate.current_code_hash("pong")
    _write(repo / "audits" / "pong.json", doc)
    failures = _evaluate(repo).failures
    assert any(f.startswith("audits/pong.json says it audits 'freeway', not pong") for f in failures)
    assert "audits/pong.json was made against spec 'specs/freeway.yaml', not specs/pong.yaml; " \
           "re-run `jaxtari-align audit pong`" in failures
    assert any(f.startswith("audits/pong.json has rows for rule(s) specs/pong.yaml does not have "
                            "as reviewed") for f in failures)
    assert any(f.startswith("audits/pong.json has no row for reviewed rule(s) of specs/pong.yaml")
               for f in failures)


def test_surviving_mutants_relabelled_killed_fail(repo):
    """Attempt: the surviving mutants relabelled killed, the score 1.0."""
    doc = write_audit(repo, "pong", mutants=["killed"] * 8 + ["survived"] * 2)
    for m in doc["mutation"]["mutants"][8:]:
        m["status"] = "killed"
    doc["mutation"]["score"] = 1.0
    _write(repo / "audits" / "pong.json", doc)
    failures = _evaluate(repo).failures
    assert "audits/pong.json: mutant m8 is marked killed but names nothing that killed it (a " \
           "survivor relabelled?)" in failures
    doc["mutation"]["mutants"][8]["killed_by"] = ["r-24"]  # the unprobed rule: no probe killed it
    doc["mutation"]["mutants"][9]["killed_by"] = ["explore:save point nowhere/random-holds"]
    _write(repo / "audits" / "pong.json", doc)
    failures = _evaluate(repo).failures
    assert any(f.startswith("audits/pong.json: mutant m8 is marked killed by r-24, which is no "
                            "passing probe") for f in failures)
    assert any(f.startswith("audits/pong.json: mutant m9 is marked killed by explore:save point "
                            "nowhere/random-holds") for f in failures)


def test_the_real_audits_mutant_rows_agree_and_a_relabel_of_its_survivors_fails(repo):
    shutil.copy(ROOT / "specs" / "pong.yaml", repo / "specs" / "pong.yaml")
    doc = _json(ROOT / "audits" / "pong.json")
    assert gate.rederive.mutant_rows(doc, "a") == []
    survivors = [m for m in doc["mutation"]["mutants"] if m["status"] == "survived"]
    assert survivors  # the committed audit has survivors to relabel (one since issue 46's window)
    for m in survivors:
        m["status"] = "killed"
    # one problem a relabelled row, two summary counts
    assert len(gate.rederive.mutant_rows(doc, "a")) == len(survivors) + 2


def test_a_spec_gap_in_the_games_own_audit_fails(repo):
    """Attempt: an exploration divergence no rule explains written into the game's audit."""
    doc = write_audit(repo, "pong")
    doc["exploration"]["divergences"] = [{"start": "reset", "frame": 412, "signal": "ball_x",
                                          "rules": []}]
    _write(repo / "audits" / "pong.json", doc)
    failures = _evaluate(repo).failures
    assert ("audits/pong.json: 1 exploration divergence(s) no rule explains (spec gaps), the "
            "first at frame 412 from 'reset'") in failures


def test_a_reviewed_rule_deleted_with_its_row_and_two_faults_deleted(repo):
    """Attempts: a reviewed rule deleted with its audit row (the rest still 100%); two seeded
    faults deleted (7/7 is still 100%)."""
    _branch(repo)
    doc = write_audit(repo, "pong", passed=23, unprobed=1)  # r-23 (a passing rule) gone
    write_spec(repo, "pong", [(r["id"], r["outcome"] != "unprobed") for r in doc["rules"]])
    failures = _evaluate(repo, base="main").failures
    assert _item(failures, "spec.rule:r-24").startswith(
        "reviewed rule r-24 removed from the spec against main")
    # the row alone deleted, the spec kept: the audit no longer covers the reviewed spec
    write_audit(repo, "pong")
    doc = _json(repo / "audits" / "pong.json")
    del doc["rules"][3]
    _write(repo / "audits" / "pong.json", doc)
    assert any("has no row for reviewed rule(s) of specs/pong.yaml: r-3" in f
               for f in _evaluate(repo).failures)
    write_audit(repo, "pong", faults=2, detected=2)
    failures = _evaluate(repo, base="main").failures
    for name in ("f2", "f3"):
        assert _item(failures, f"audit.fault:{name}").startswith(
            f"seeded fault {name} no longer run by the audit against main")


def test_a_probe_removed_from_the_spec_is_a_weakening(repo):
    _branch(repo)
    write_audit(repo, "pong", passed=23, unprobed=2)
    failures = _evaluate(repo, base="main").failures
    _item(failures, "spec.probe:r-23")


def test_own_attempt_a_duplicated_passing_row_inflates_recall(repo):
    doc = write_audit(repo, "pong", passed=20, failed=4)
    doc["rules"] += [dict(doc["rules"][0]) for _ in range(30)]
    _write(repo / "audits" / "pong.json", doc)
    assert any(f.startswith("audits/pong.json has more than one row for rule(s) r-0") for f in
               _evaluate(repo).failures)


def test_own_attempt_a_json_key_given_twice(repo):
    """A rule row with "outcome" twice: a reader keeps the last ("pass"), a reviewer reading the
    diff sees the first ("fail")."""
    write_audit(repo, "pong")
    text = (repo / "audits" / "pong.json").read_text()
    text = text.replace('"outcome": "pass"', '"outcome": "fail", "outcome": "pass"', 1)
    (repo / "audits" / "pong.json").write_text(text)
    failures = _evaluate(repo).failures
    assert any(f.startswith("audits/pong.json is not valid JSON (key(s) 'outcome' given twice in "
                            "one object") for f in failures), failures


def test_own_attempt_a_smaller_exploration_budget_and_another_mutant_sample(repo):
    _branch(repo)
    doc = write_audit(repo, "pong", mutants=["killed"] * 4)
    _commit(repo)
    doc["exploration"]["budget"]["walk_frames"] = 60
    doc["exploration"]["budget"]["policies"] = ["random-holds"]
    doc["mutation"]["sample"]["seed"] = 7
    _write(repo / "audits" / "pong.json", doc)
    failures = _evaluate(repo, base="HEAD").failures
    assert _item(failures, "audit.budget:walk_frames").startswith(
        "exploration budget walk_frames 240 -> 60 against HEAD")
    _item(failures, "audit.budget:policies")
    _item(failures, "audit.mutation:sample")


def _batched(doc, drawn, population):
    """The audit's mutant rows and sample as a run that drew ``drawn`` of ``population`` batched
    Constants mutants would write them (every row one of the draw)."""
    doc["mutation"]["mutants"] = [{"id": f"m{i}", "status": "killed",
                                   "killed_by": ["explore:reset/random-holds"]}
                                  for i in range(drawn)]
    doc["mutation"]["sample"]["batched"] = {"population": population, "size": drawn,
                                            "count": drawn}
    doc["mutation"]["sample"]["sampled"] = 0
    return doc


def _resampled(doc, statuses):
    """The audit's mutant rows as {id: status}, each killed one killed by a walk of the audit."""
    doc["mutation"]["mutants"] = [
        {"id": i, "status": s, "killed_by": ["explore:reset/random-holds"] if s == "killed" else []}
        for i, s in statuses.items()]
    return doc


def test_a_re_made_audit_with_another_draw_is_compared_over_the_common_mutants(repo):
    """An honest re-make on other code draws another sample: half the base's mutants, half new
    ones, one of the new ones surviving. The whole-sample score drops (1.00 -> 0.90) though no
    mutant the base ran fares worse: the gate compares the mutants both audits ran."""
    _branch(repo)
    doc = write_audit(repo, "pong", mutants=["killed"] * 10)
    _commit(repo)
    statuses = {f"m{i}": "killed" for i in range(5)}
    statuses.update({f"n{i}": "killed" for i in range(4)}, n4="survived")
    _write(repo / "audits" / "pong.json", _resampled(doc, statuses))
    verdict = _evaluate(repo, base="HEAD")
    assert verdict.passed, verdict.failures
    assert verdict.figures["mutation_score"] == pytest.approx(0.9)
    assert any(n.startswith("mutation score compared with HEAD over the 5 mutant(s) both audits "
                            "ran (5 only in HEAD's sample, 5 only in this one") for n in
               verdict.notes), verdict.notes


def test_a_common_mutant_killed_by_the_base_and_surviving_now_fails(repo):
    """Attempt: a new draw that hides a lost kill among new killed mutants (the whole score even
    rises), and, with the same draw, a kill lost while another survivor is killed (the score
    unchanged)."""
    _branch(repo)
    doc = write_audit(repo, "pong", mutants=["killed"] * 8 + ["survived"] * 2)
    _commit(repo)
    statuses = {"m0": "survived", **{f"m{i}": "killed" for i in range(1, 5)},
                **{f"n{i}": "killed" for i in range(20)}}
    _write(repo / "audits" / "pong.json", _resampled(copy.deepcopy(doc), statuses))
    failures = _evaluate(repo, base="HEAD").failures
    assert ("mutant(s) killed by HEAD's audit and not killed now: m0 (survived) - a probe or walk "
            "that caught them no longer does") in failures, failures
    assert ("mutation_score dropped against HEAD over the 5 mutants both audits ran: 1.00 -> 0.80"
            in failures), failures
    # the same draw: m0's kill lost, survivor m8 now killed; the score stays 0.80
    swapped = {f"m{i}": m["status"] for i, m in enumerate(doc["mutation"]["mutants"])}
    swapped.update(m0="survived", m8="killed")
    _write(repo / "audits" / "pong.json", _resampled(copy.deepcopy(doc), swapped))
    failures = _evaluate(repo, base="HEAD").failures
    assert ("mutant(s) killed by HEAD's audit and not killed now: m0 (survived) - a probe or walk "
            "that caught them no longer does") in failures, failures
    assert not any("mutation_score dropped" in f for f in failures), failures


def test_own_attempt_an_audit_with_one_batched_mutant_fails(repo):
    """Attempt: `jaxtari-align audit pong --batched-mutants 1`: a mutation score of 1.0 over one
    mutant of 437."""
    from alignment.audit.mutants import QUICK_BATCHED

    doc = _batched(write_audit(repo, "pong", mutants=["killed"]), 1, 437)
    _write(repo / "audits" / "pong.json", doc)
    failures = _evaluate(repo).failures
    assert (f"audits/pong.json ran 1 of 437 batched Constants mutants, fewer than the quick "
            f"audit's {QUICK_BATCHED}: its mutation score rests on too few mutants; re-run "
            "`jaxtari-align audit pong --quick` (without --batched-mutants) and commit it"
            in failures), failures
    # the quick audit's draw passes; so does all of a game that has fewer
    _write(repo / "audits" / "pong.json", _batched(doc, QUICK_BATCHED, 437))
    assert not [f for f in _evaluate(repo).failures if "batched" in f]
    _write(repo / "audits" / "pong.json", _batched(doc, 12, 12))
    assert not [f for f in _evaluate(repo).failures if "batched" in f]


def test_own_attempt_batched_counts_edited_apart_from_the_rows_fail(repo):
    doc = _batched(write_audit(repo, "pong", mutants=["killed"]), 48, 437)
    doc["mutation"]["mutants"] = doc["mutation"]["mutants"][:5]  # rows dropped, counts kept
    _write(repo / "audits" / "pong.json", doc)
    failures = _evaluate(repo).failures
    assert any(f.startswith("audits/pong.json: mutation.sample says 48 batched and 0 sampled "
                            "mutants ran, its rows and stillborn list hold 5") for f in failures)
    del doc["mutation"]["sample"]["batched"]
    _write(repo / "audits" / "pong.json", doc)
    assert any(f.startswith("audits/pong.json: mutation.sample records no count of batched")
               for f in _evaluate(repo).failures)


def test_own_attempt_fewer_batched_mutants_than_the_base_is_a_weakening(repo):
    _branch(repo)
    doc = _batched(write_audit(repo, "pong", mutants=["killed"]), 120, 437)
    _write(repo / "audits" / "pong.json", doc)
    _commit(repo)
    _write(repo / "audits" / "pong.json", _batched(doc, 60, 437))
    failures = _evaluate(repo, base="HEAD").failures
    assert _item(failures, "audit.mutation:sample").startswith(
        "fewer batched Constants mutants drawn against HEAD (120 of 437 -> 60 of 437)")
    # all of a game whose Constants lost fields: fewer run, none left out
    _write(repo / "audits" / "pong.json", _batched(doc, 60, 60))
    assert not [f for f in _evaluate(repo, base="HEAD").failures if "audit.mutation" in f]


# ==== the plug-in's excuses ========================================================================

DECLARED = {"pong": {"signals": {"score": 0.0, "ball_x": 1.0, "player_score": 0.0},
                     "known_ends": [], "counterparts": ["no_enemy_points"], "mods": []}}


def _declared(now: dict):
    return lambda sha: DECLARED if sha is not None else now


@pytest.mark.parametrize("change, key", [
    (lambda d: d["pong"]["known_ends"].append("serve timeout"), "plugin.known_end:serve timeout"),
    (lambda d: d["pong"]["signals"].update(ball_x=4.0), "plugin.tolerance:ball_x"),
    (lambda d: d["pong"]["signals"].pop("player_score"), "plugin.signal:player_score"),
    (lambda d: d["pong"]["counterparts"].clear(), "plugin.counterpart:no_enemy_points"),
])
def test_a_new_known_end_a_widened_tolerance_or_a_dropped_signal_is_a_weakening(repo, change, key):
    """Attempts: a known end added to the plug-in; a signal's tolerance widened. Own attempts: a
    signal no longer compared; a mod's ALE counterpart removed (it is then judged JAX-only)."""
    now = copy.deepcopy(DECLARED)
    change(now)
    failures = _evaluate(repo, base="HEAD", declarations=_declared(now)).failures
    _item(failures, key)
    assert _evaluate(repo, base="HEAD", declarations=_declared(DECLARED)).passed


@pytest.fixture(scope="module")
def code_repo(tmp_path_factory):
    """A repository holding a copy of the code (jaxtari, alignment, specs, faults) at main."""
    root = tmp_path_factory.mktemp("code") / "repo"
    for rel in ("jaxtari", "alignment", "specs", "faults"):
        shutil.copytree(ROOT / rel, root / rel, ignore=shutil.ignore_patterns("__pycache__"))
    git(root, "init", "-q", "-b", "main")
    _commit(root, "code")
    return root


def test_the_plugins_declarations_are_read_from_the_base_commit(code_repo):
    """The base's plug-in is read from the base's own tree, in a fresh interpreter: a tolerance
    widened in the work tree shows against it."""
    ram = code_repo / "alignment" / "reference" / "games" / "pong" / "ram.py"
    text = ram.read_text()
    old = 'Signal("player_score", ram_byte(PLAYER_SCORE), jax_signal("player_score"), 0,'
    assert old in text
    ram.write_text(text.replace(old, old.replace(", 0,", ", 1,")))
    try:
        sha = gate.resolve_ref("main", code_repo)
        then = declarations.at_commit(sha, str(code_repo))
        now = declarations.current(code_repo)
    finally:
        ram.write_text(text)
    assert then["pong"]["signals"]["player_score"] == 0.0
    assert now["pong"]["signals"]["player_score"] == 1.0
    assert [w.key for w in weakening.plugin_items(then["pong"], now["pong"], "main")] == [
        "plugin.tolerance:player_score"]


# ==== the code hash: the traced closure ==========================================================

def test_a_constant_moved_to_a_module_outside_the_hash_fails(code_repo):
    """Attempt: a game constant moved to a new module outside jaxtari/ (changed in a later pull
    request, the code hash would not move). The game's step is traced in a fresh interpreter and
    the module it imports is named."""
    (code_repo / "pong_numbers.py").write_text("SERVE_DELAY = 63\n")
    constants = code_repo / "jaxtari" / "games" / "pong" / "constants.py"
    text = constants.read_text()
    constants.write_text(text + "\nfrom pong_numbers import SERVE_DELAY  # noqa: E402,F401\n")
    try:
        problems = closure.problems("pong", code_repo)
    finally:
        constants.write_text(text)
        (code_repo / "pong_numbers.py").unlink()
    assert problems == [
        "code hash: pong's step imports pong_numbers.py, which its code hash does not cover "
        "(alignment.catalog.behaviour_files): move it into jaxtari/ (or the game's package) so "
        "that a change to it stales the game's artefacts"]


def _edit(path: Path, old, new: str) -> None:
    """``old`` replaced by ``new`` once in the file (``old`` None: ``new`` appended)."""
    text = path.read_text()
    assert old is None or old in text, (path, old)
    path.write_text(text + new if old is None else text.replace(old, new, 1))


def test_games_traced_together_each_fail_on_their_own_problem(code_repo):
    """Several games traced, a fresh interpreter each: each game's own module outside the hash is named for that game only;
    a game that cannot be made fails alone; and what one game ran (a cached helper whose body
    imports a module outside the hash) is not taken as run for the next one (one interpreter
    tracing both would find the second game's call a cache hit, its body not run): every game
    that calls it is named, traced one at a time."""
    edits = {
        code_repo / "jaxtari" / "games" / "pong" / "constants.py":
            (None, "\nfrom pong_numbers import SERVE_DELAY  # noqa: E402,F401\n"),
        code_repo / "jaxtari" / "games" / "breakout" / "constants.py":
            (None, "\nfrom breakout_numbers import BRICK_SCORE  # noqa: E402,F401\n"),
        code_repo / "jaxtari" / "games" / "freeway" / "game.py":
            ("    def render(self, state):\n",
             "    def render(self, state):\n        raise RuntimeError('freeway draws nothing')\n"),
        code_repo / "jaxtari" / "wrappers.py":
            ("        self._game = game\n",
             "        from jaxtari.cached_probe import once\n        once()\n"
             "        self._game = game\n"),
    }
    added = {code_repo / "pong_numbers.py": "SERVE_DELAY = 63\n",
             code_repo / "breakout_numbers.py": "BRICK_SCORE = 7\n",
             code_repo / "shared_numbers.py": "VALUE = 1\n",
             code_repo / "jaxtari" / "cached_probe.py":
                 "import functools\n\n\n@functools.lru_cache(maxsize=None)\ndef once():\n"
                 "    import shared_numbers\n    return shared_numbers.VALUE\n"}
    texts = {path: path.read_text() for path in edits}
    try:
        for path, (old, new) in edits.items():
            _edit(path, old, new)
        for path, text in added.items():
            path.write_text(text)
        games = ["pong", "freeway", "breakout"]
        with closure.Traces(closure.jax_games(games), code_repo, workers=1) as traces:
            found = {game: traces.problems(game) for game in games}
    finally:
        for path, text in texts.items():
            path.write_text(text)
        for path in added:
            path.unlink()

    def outside(game, rel):
        return (f"code hash: {game}'s step imports {rel}, which its code hash does not cover "
                f"(alignment.catalog.behaviour_files): move it into jaxtari/ (or the game's "
                f"package) so that a change to it stales the game's artefacts")
    assert found["pong"] == [outside("pong", "pong_numbers.py"),
                             outside("pong", "shared_numbers.py")]
    assert found["breakout"] == [outside("breakout", "breakout_numbers.py"),
                                 outside("breakout", "shared_numbers.py")]
    assert found["freeway"] == ["code hash: making and tracing freeway's step failed in a fresh "
                                "interpreter: RuntimeError: freeway draws nothing"]


def test_a_tree_whose_jaxtari_does_not_import_fails_every_game_saying_why(code_repo):
    init = code_repo / "jaxtari" / "__init__.py"
    text = init.read_text()
    init.write_text(text + "\nraise ImportError('jaxtari is broken here')\n")
    try:
        with closure.Traces(closure.jax_games(["pong", "breakout"]), code_repo) as traces:
            found = {game: traces.problems(game) for game in ("pong", "breakout")}
    finally:
        init.write_text(text)
    assert found == {game: [f"code hash: making and tracing {game}'s step failed in a fresh "
                            "interpreter: ImportError: jaxtari is broken here (the tracing "
                            "interpreter ended with status 1)"] for game in ("pong", "breakout")}


def test_a_trace_past_its_time_fails_naming_the_limit(code_repo):
    with closure.Traces(closure.jax_games(["pong"]), code_repo, timeout=1) as traces:
        problems = traces.problems("pong")
    assert problems == ["code hash: making and tracing pong's step failed in a fresh interpreter: "
                        "it took over 1 s"]


def test_the_closure_follows_imports_of_code_that_ran_not_a_registry():
    """Every game's package is imported by the registry; only what this game's code imports (at
    module level, or in a function that ran) is its closure."""
    files = [f"/r/{p}" for p in ("jaxtari/games/pong/game.py", "jaxtari/games/breakout/game.py",
                                 "alignment/signals.py", "shared_consts.py")]
    found = closure.uncovered("pong", [Path(f) for f in files], Path("/r"),
                              covered={Path("/r/jaxtari/games/pong/game.py")})
    assert found == ["jaxtari/games/breakout/game.py", "shared_consts.py"]


# ==== a change that makes the game a mutant the audit could not kill =============================

def test_a_constant_set_to_a_surviving_mutants_value_is_a_weakening(repo):
    """Attempt: a constant changed to the value of a mutant that survived the audit (the replay
    passes, and an honest re-audit passes too: no probe sees it)."""
    value = gate.core.current_constants("pong")("charge_rows_after_reading")
    doc = write_audit(repo, "pong", mutants=["killed"])
    doc["mutation"]["mutants"].append({
        "id": "constant:charge_rows_after_reading-", "kind": "constant", "status": "survived",
        "target": f"pong.PongConstants.charge_rows_after_reading {value + 1} -> {value}",
        "killed_by": []})
    _write(repo / "audits" / "pong.json", doc)
    _commit(repo)
    failures = _evaluate(repo, base="HEAD").failures
    assert _item(failures, "mutant.applied:constant:charge_rows_after_reading-").startswith(
        f"the change makes charge_rows_after_reading {value + 1} -> {value}, the mutant "
        "constant:charge_rows_after_reading- that survived HEAD's audit")


def test_a_source_line_set_to_a_surviving_mutant_is_a_weakening(repo):
    from alignment.audit.mutants import _walk

    src = "def serve_ready(timer):\n    return timer < 63\n"
    path = repo / "jaxtari" / "games" / "pong" / "serve.py"
    path.parent.mkdir(parents=True)
    path.write_text(src)
    index = next(i for i, n in enumerate(_walk(ast.parse(src))) if isinstance(n, ast.Compare))
    doc = write_audit(repo, "pong", mutants=["killed"])
    doc["mutation"]["mutants"].append({
        "id": f"comparison:jaxtari/games/pong/serve.py:2:{index}:shift", "kind": "comparison",
        "status": "survived", "target": "timer < 63  ->  < becomes <= (shift)", "killed_by": []})
    _write(repo / "audits" / "pong.json", doc)
    _commit(repo)
    path.write_text("def serve_ready(timer):\n    # ready a frame later\n    return timer <= 63\n")
    failures = _evaluate(repo, base="HEAD").failures
    assert _item(failures, f"mutant.applied:comparison:jaxtari/games/pong/serve.py:2:{index}:shift")
    path.write_text("def serve_ready(timer):\n    return timer < 64\n")  # not that mutant
    assert not [f for f in _evaluate(repo, base="HEAD").failures if "mutant.applied" in f]


# ==== the summary lists every item =================================================================

def test_the_comment_lists_each_weakening_with_its_reason_or_none(repo):
    _branch(repo)
    write_audit(repo, "pong", faults=3, detected=3)
    (repo / "stress" / "pong-objects.json").unlink()
    reason = "the fault f3 duplicated f1's mechanism exactly; dropped in issue 99 (measured)."
    (repo / "fidelity.toml").write_text((repo / "fidelity.toml").read_text()
                                        + f'[overrides.pong]\n"audit.fault:f3" = "{reason}"\n')
    verdict = _evaluate(repo, base="main")
    text = gate.markdown([verdict], base="main")
    assert "**pong**: weaker than the base in 2 item(s), 1 with a reason this change gives" in text
    assert f"| `audit.fault:f3` | seeded fault f3 no longer run by the audit against main | " \
           f"{reason} |" in text
    assert "| `artefact:stress/pong-objects.json` | stress/pong-objects.json deleted against " \
           "main | **none: fails** |" in text
    assert not verdict.passed


# ==== the workflow: the gate that judges is the base's ============================================

def _workflow_steps() -> list[dict]:
    import yaml

    doc = yaml.safe_load((ROOT / ".github" / "workflows" / "fidelity.yml").read_text())
    [job] = doc["jobs"].values()
    return job["steps"]


def test_the_workflow_runs_the_base_branchs_gate_on_the_changes_artefacts(tmp_path):
    """Attempt: the gate's own code edited in the pull request (to pass itself). The workflow
    restores alignment/gate/ from the base before any step that runs the gate; run here as
    written on a throwaway repository whose change edits the gate."""
    steps = _workflow_steps()
    names = [s.get("name") for s in steps]
    swap = names.index("The gate from the base branch")
    assert swap < names.index("Games this change touches") < names.index("Gate")
    assert swap > names.index("Tests")  # the change's own tests run on its own code first
    repo = tmp_path / "repo"
    (repo / "alignment" / "gate").mkdir(parents=True)
    (repo / "alignment" / "gate" / "core.py").write_text("STRICT = True\n")
    git(repo, "init", "-q", "-b", "main")
    _commit(repo, "base")
    git(repo, "checkout", "-qb", "change")
    (repo / "alignment" / "gate" / "core.py").write_text("STRICT = False  # the change\n")
    (repo / "alignment" / "gate" / "loophole.py").write_text("PASS = True\n")
    _commit(repo, "weaker gate")
    out = subprocess.run(["bash", "-e", "-c", steps[swap]["run"]], cwd=repo, capture_output=True,
                         text=True, env={"BASE": "main", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert (repo / "alignment" / "gate" / "core.py").read_text() == "STRICT = True\n"
    assert not (repo / "alignment" / "gate" / "loophole.py").exists()
    assert "gate code of main" in out.stdout


def test_codeowners_protect_the_gate_the_workflow_and_the_thresholds():
    lines = [line.split() for line in (ROOT / ".github" / "CODEOWNERS").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    owned = {parts[0]: parts[1:] for parts in lines}
    for path in ("/alignment/gate/", "/.github/", "/fidelity.toml", "/tests/test_gate.py",
                 "/tests/test_gate_attempts.py"):
        assert owned.get(path), path
    from alignment.gate.command import PROTECTED

    assert {p.strip("/") for p in PROTECTED} <= {p.strip("/") for p in owned} | {"CODEOWNERS"}


def test_the_gate_names_protected_files_a_change_edits(repo):
    from alignment.gate.command import protected_changes

    _branch(repo)
    (repo / "fidelity.toml").write_text((repo / "fidelity.toml").read_text() + "\n")
    (repo / "alignment" / "gate").mkdir(parents=True)
    (repo / "alignment" / "gate" / "core.py").write_text("x = 1\n")
    (repo / "README.md").write_text("words\n")
    _commit(repo)
    assert protected_changes("main", repo) == ["alignment/gate/core.py", "fidelity.toml"]
    text = gate.markdown([_evaluate(repo)], protected=["fidelity.toml"])
    assert "**This change edits what protects the gate**" in text and "- `fidelity.toml`" in text


# ==== a relabelled survivor is run again ===========================================================

def _real_pong(repo) -> dict:
    shutil.copy(ROOT / "specs" / "pong.yaml", repo / "specs" / "pong.yaml")
    doc = _json(ROOT / "audits" / "pong.json")
    _write(repo / "audits" / "pong.json", doc)
    _commit(repo, "the real audit")
    _branch(repo)
    return doc


def _relabel(repo, doc, killer="scoring.point-for") -> list[str]:
    """The survivors relabelled killed, by a probe that passes, the score and summary to match."""
    doc = copy.deepcopy(doc)
    ids = []
    for m in doc["mutation"]["mutants"]:
        if m["status"] == "survived":
            m.update(status="killed", killed_by=[killer])
            ids.append(m["id"])
    s = doc["mutation"]["summary"]
    s["killed"], s["survived"] = s["killed"] + s["survived"], 0
    doc["mutation"]["score"] = doc["summary"]["mutation_score"] = s["score"] = 1.0
    _write(repo / "audits" / "pong.json", doc)
    return ids


def test_a_survivor_relabelled_killed_with_a_plausible_killer_is_run_again(repo):
    """The relabel with a plausible killer (a passing probe) agrees with every row: the gate
    runs each mutant whose status improved against the base (here a stand-in for the run)."""
    doc = _real_pong(repo)
    ids = _relabel(repo, doc)
    assert ids and not gate.rederive.mutant_rows(_json(repo / "audits" / "pong.json"), "a")
    ran = []
    failures = _evaluate(repo, base="main",
                         rekill=lambda g, m: ran.append(m) or "survived").failures
    assert ran == sorted(ids)
    assert any(f.startswith(f"audits/pong.json: mutant {ids[0]} survived main's audit and is "
                            "recorded killed now (by scoring.point-for), but run again against "
                            "the probes, walks and rollouts it survived") for f in failures)
    verdict = _evaluate(repo, base="main", rekill=lambda g, m: "killed")
    assert not [f for f in verdict.failures if "mutant" in f]
    assert any("run again, it is killed" in n for n in verdict.notes)


@pytest.mark.slow  # two mutants of Pong played against its probes, walks and rollouts (~1 min)
def test_a_survivor_relabelled_killed_survives_when_run_again(repo):
    from alignment.gate import rekill

    doc = _real_pong(repo)
    ids = _relabel(repo, doc)
    failures = _evaluate(repo, base="main",
                         rekill=lambda g, m: rekill.status(g, m, repo)).failures
    for mutant in ids:
        assert any(f.startswith(f"audits/pong.json: mutant {mutant} survived main's audit") and
                   f.endswith("it survived: re-run the audit instead of editing its rows")
                   for f in failures), failures


# ==== the docs' figures come from the artefacts ===================================================

def test_a_figure_edited_in_the_readme_fails_the_gate(repo, monkeypatch):
    """Attempt: README figures edited by hand. The tables are generated from the artefacts
    (`jaxtari-align docs-tables`); the gate fails when a block differs from what they give, and,
    against the base, when a block is removed."""
    from typer.testing import CliRunner

    from alignment import doc_tables
    from alignment.cli import app

    begin = "<!-- generated: audits (jaxtari-align docs-tables) -->"
    (repo / "README.md").write_text(
        doc_tables.generate(f"# Games\n\n{begin}\n<!-- end generated: audits -->\n", repo))
    assert "| Pong | 96% (24/25) |" in (repo / "README.md").read_text()
    _commit(repo, "docs")
    monkeypatch.chdir(repo)
    runner = CliRunner()
    args = ["gate", "pong", "--no-replay", "--no-trace", "--markdown", "gate.md"]
    assert runner.invoke(app, args).exit_code == 0
    text = (repo / "README.md").read_text()
    (repo / "README.md").write_text(text.replace("96% (24/25)", "100% (25/25)", 1))
    out = runner.invoke(app, args)
    assert out.exit_code == 1, out.output
    assert ("docs tables: README.md: audits (rewrite it with `jaxtari-align docs-tables`)"
            in out.output)
    md = (repo / "gate.md").read_text()
    assert "## Fidelity gate: failed for artefacts" in md and "docs tables: README.md" in md
    (repo / "README.md").write_text("# Games\n\nfigures written by hand: 0.99\n")
    out = runner.invoke(app, args + ["--base", "main"])
    assert out.exit_code == 1
    assert "docs tables: README.md: the generated block audits was removed against main" in \
        out.output


def test_own_attempt_a_mod_audit_re_made_on_one_side_with_fewer_rows(repo):
    shutil.copy(ROOT / "specs" / "pong.yaml", repo / "specs" / "pong.yaml")
    path = _mod_audit(repo)
    _commit(repo, "mod audit")
    _branch(repo)
    doc = _json(path)
    doc["modified"]["backends"] = ["jax"]
    del doc["rules"][0]
    doc["exploration"]["budget"]["walk_frames"] = 24
    _write(path, doc)
    failures = _evaluate(repo, base="main").failures
    _item(failures, "mod-audit.side:pong+no_enemy_points/ale")
    first = _json(ROOT / "audits" / "pong+no_enemy_points.json")["rules"][0]["id"]
    _item(failures, f"mod-audit.rule:pong+no_enemy_points/{first}")
    _item(failures, "mod-audit.audit.budget:walk_frames")


def test_own_attempt_a_probes_expectation_loosened(repo):
    """`score == 10` made `score >= 0`: the probe is still there, it checks nothing."""
    _branch(repo)
    spec = repo / "specs" / "pong.yaml"
    import yaml

    doc = yaml.safe_load(spec.read_text())
    doc["rules"][0]["probe"]["expectations"] = [{"signal": "score", "op": "==", "value": 10}]
    spec.write_text(yaml.safe_dump(doc))
    _commit(repo, "base expectation")
    doc["rules"][0]["probe"]["expectations"] = [{"signal": "score", "op": ">=", "value": 0}]
    spec.write_text(yaml.safe_dump(doc))
    assert _item(_evaluate(repo, base="HEAD").failures, "spec.expectation:r-0").startswith(
        "the probe of rule r-0 no longer expects {\"op\": \"==\", \"signal\": \"score\", "
        "\"value\": 10} against HEAD")


def test_own_attempt_a_counterpart_no_longer_marked_exact(repo):
    then = copy.deepcopy(DECLARED)
    then["pong"]["exact"] = {"no_enemy_points": True}
    now = copy.deepcopy(then)
    now["pong"]["exact"] = {"no_enemy_points": None}
    failures = _evaluate(repo, base="HEAD",
                         declarations=lambda sha: then if sha else now).failures
    _item(failures, "plugin.exact:no_enemy_points")


def test_own_attempt_a_game_dropped_from_the_gate(repo, monkeypatch):
    from typer.testing import CliRunner

    from alignment.cli import app

    _branch(repo)
    (repo / "specs" / "pong.yaml").unlink()
    (repo / "audits" / "pong.json").unlink()
    (repo / "fidelity.toml").write_text("[defaults]\nrequire_playtest = false\n"
                                        + unaudited_mods_toml())
    _commit(repo, "no more pong")
    monkeypatch.chdir(repo)
    out = CliRunner().invoke(app, ["gate", "--base", "main", "--no-replay", "--no-trace",
                                   "--markdown", "gate.md"])
    assert out.exit_code == 1
    assert "pong: judged at main (specs/pong.yaml), gone from this change's gate" in out.output


def test_a_transfer_report_is_not_read_as_a_learning_curve_report_and_its_deletion_is_named(repo):
    """Stage 4's transfer report (stress/<game>-<obs>-transfer.json, its own schema) sits beside
    the learning-curve report: the gate lists it, and deleting it is a weakening item."""
    _write(repo / "stress" / "pong-objects-transfer.json",
           {"schema": "jaxtari-align/transfer/v1", "game": "pong"})
    verdict = _evaluate(repo)
    # judged as a transfer report (alignment/stress/transfer_check.py): this stub has no returns
    assert not verdict.passed
    assert "stress/pong-objects-transfer.json: no ale side" in verdict.failures
    assert gate.verify.verify_stress(repo)[1] == ["stress/pong-objects.json"]
    _commit(repo, "transfer")
    (repo / "stress" / "pong-objects-transfer.json").unlink()  # (its deletion is named all the same)
    _item(_evaluate(repo, base="HEAD").failures, "artefact:stress/pong-objects-transfer.json")


# ==== the mutant draw ==============================================================================

def _drawn_doc(pop, traced, size=3, batched_size=5, seed=0):
    """An audit's mutation section as the audit writes it when it draws from ``pop``."""
    from alignment.audit.mutants import expected_draw

    sample = {"seed": seed, "size": size, "batched": {"size": batched_size, "traced": traced}}
    drawn_b, drawn_r, sizes = expected_draw(pop, traced, sample)
    sample["batched"].update(population=sizes["batched"], count=len(drawn_b))
    rows = [{"id": m.id, "status": "killed", "killed_by": ["r-1"]} for m in drawn_b + drawn_r]
    return {"mutation": {"mutants": rows, "stillborn": [], "sample": sample}}


def test_the_recorded_mutants_must_be_the_draw_of_the_current_codes_population():
    """Attempts on Pong's real population: a drawn mutant swapped for another, a survivor trimmed
    from the sample, the batched population recorded smaller, a traced field that is no Constants
    field, no traced fields recorded at all."""
    pop = gate.core.current_population("pong")
    traced = sorted({m.field for m in pop if m.batched})[:6]
    doc = _drawn_doc(pop, traced)
    assert gate.rederive.mutant_draw(doc, "a", "pong", pop) == []

    swapped = copy.deepcopy(doc)
    outside = next(m.id for m in pop if m.id not in {r["id"] for r in doc["mutation"]["mutants"]})
    swapped["mutation"]["mutants"][0]["id"] = outside
    (problem,) = gate.rederive.mutant_draw(swapped, "a", "pong", pop)
    assert problem.startswith("a: the mutants recorded are not those seed 0 draws from the code's "
                              "population: 1 drawn mutant(s) have no row"), problem
    assert f"1 row(s) are no mutant of the draw ({outside})" in problem

    trimmed = copy.deepcopy(doc)
    del trimmed["mutation"]["mutants"][-1]
    assert "1 drawn mutant(s) have no row" in gate.rederive.mutant_draw(trimmed, "a", "pong", pop)[0]

    smaller = copy.deepcopy(doc)
    smaller["mutation"]["sample"]["batched"]["population"] -= 1
    assert any("batched.population says" in p
               for p in gate.rederive.mutant_draw(smaller, "a", "pong", pop))

    bogus = copy.deepcopy(doc)
    bogus["mutation"]["sample"]["batched"]["traced"] = traced + ["no_such_field"]
    assert "traced names no_such_field" in gate.rederive.mutant_draw(bogus, "a", "pong", pop)[0]

    untraced = copy.deepcopy(doc)
    del untraced["mutation"]["sample"]["batched"]["traced"]
    assert "records no list of traced Constants fields" in \
        gate.rederive.mutant_draw(untraced, "a", "pong", pop)[0]

    # another seed's draw recorded under seed 0 (the seed itself changed is a weakening, below)
    other = _drawn_doc(pop, traced, seed=1)
    other["mutation"]["sample"]["seed"] = 0
    assert gate.rederive.mutant_draw(other, "a", "pong", pop)
