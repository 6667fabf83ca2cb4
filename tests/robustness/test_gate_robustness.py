"""The gate reads a committed robustness report: a mod whose JAX and ALE PC are "different" fails
the game, like a stress verdict of "different"; a damaged report fails naming it."""

import json

from alignment import gate
from tests.gate_fixtures import make_repo
from tests.robustness.test_verdicts import _report


def _evaluate(root, game="pong"):
    cfg = gate.load_config(root / "fidelity.toml")
    return gate.evaluate(game, cfg.for_game(game), root=root, config=cfg, replay=None,
                         fingerprint=None)


def test_a_different_jax_vs_ale_pc_fails_the_game(tmp_path):
    repo = make_repo(tmp_path)
    before = set(_evaluate(repo).failures)
    (repo / "robustness").mkdir()
    doc = _report("equivalent")
    doc["game"] = "pong"
    (repo / "robustness" / "pong.json").write_text(json.dumps(doc))
    assert set(_evaluate(repo).failures) == before
    doc["comparison"]["m"]["label"] = "different"
    (repo / "robustness" / "pong.json").write_text(json.dumps(doc))
    new = set(_evaluate(repo).failures) - before
    assert new == {"robustness: pong m: JAX and ALE PC differ beyond the margin ±0.1 (why)"}
    (repo / "robustness" / "pong.json").write_text("{")
    assert any("robustness/pong.json is not valid JSON" in f for f in _evaluate(repo).failures)
