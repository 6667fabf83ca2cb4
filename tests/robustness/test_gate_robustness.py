"""The gate reads a committed robustness report: a mod whose JAX and ALE PC are "different" fails
the game, like a stress verdict of "different"; a damaged report fails naming it."""

import json

from alignment import gate
from tests.gate_fixtures import make_repo
from tests.robustness.test_verdicts import TENTH, TENTH_PC, _report


def _made(doc: dict) -> dict:
    """The report as the stage writes it: its statistics and comparison details made from its
    returns (the label kept as the test sets it)."""
    from alignment.robustness import pc as pcm

    for mod in doc["mods"]:
        pcs = {side: pcm.side_pc(d["agents"], d["random"], mod) for side, d in doc["sides"].items()}
        doc["statistics"][mod] = pcm.aggregate(pcs)
        c = pcm.compare_sides(pcs["jax"], pcs["ale"])
        doc["comparison"][mod].update({k: c.get(k) for k in ("margin", "detail", "more_seeds", "test",
                                                         "paired_mean_difference")})
    return json.loads(json.dumps(doc))


def _evaluate(root, game="pong"):
    cfg = gate.load_config(root / "fidelity.toml")
    return gate.evaluate(game, cfg.for_game(game), root=root, config=cfg, replay=None,
                         fingerprint=None)


def test_a_different_jax_vs_ale_pc_fails_the_game(tmp_path):
    repo = make_repo(tmp_path)
    before = set(_evaluate(repo).failures)
    (repo / "robustness").mkdir()
    doc = _made(_report("equivalent"))
    doc["game"] = "pong"
    (repo / "robustness" / "pong.json").write_text(json.dumps(doc))
    assert set(_evaluate(repo).failures) == before
    doc = _made(_report("different", TENTH, TENTH_PC))  # the returns themselves part
    doc["game"] = "pong"
    (repo / "robustness" / "pong.json").write_text(json.dumps(doc))
    new = set(_evaluate(repo).failures) - before
    assert len(new) == 1
    assert next(iter(new)).startswith("robustness: pong m: JAX and ALE PC differ beyond the "
                                      "margin ±0.1 (PC jax -0.50 vs ale -0.90")
    doc["comparison"]["m"]["label"] = "equivalent"  # a label cannot hide it
    (repo / "robustness" / "pong.json").write_text(json.dumps(doc))
    assert len(set(_evaluate(repo).failures) - before) == 2
    (repo / "robustness" / "pong.json").write_text("{")
    assert any("robustness/pong.json is not valid JSON" in f for f in _evaluate(repo).failures)


def test_a_report_made_on_other_code_is_a_note_naming_its_command(tmp_path):
    repo = make_repo(tmp_path)
    (repo / "robustness").mkdir()
    doc = _made(_report("equivalent"))
    doc.update(game="pong", code_hash="0123456789abcdef", command="jaxtari-align robustness pong")
    (repo / "robustness" / "pong.json").write_text(json.dumps(doc))
    verdict = _evaluate(repo)
    assert not [f for f in verdict.failures if "robustness" in f]
    said = [n for n in verdict.notes if n.startswith("robustness/pong.json was made on code "
                                                     "0123456789ab, the game's code is now ")]
    assert len(said) == 1 and said[0].endswith(
        ": re-run `jaxtari-align robustness pong` to measure the current game")
