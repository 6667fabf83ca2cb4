"""A throwaway git repository with gate artefacts (audits with their rows, stress reports with their
per-seed returns, fidelity.toml), made the way the stages write them."""

import json
import subprocess
from pathlib import Path

from alignment import gate

# Per-seed final returns (10 seeds a side) and the random policy's: ALE gains 10 over random, so
# the margin is 2. JAX equal: equivalent; JAX 5 higher: different; JAX spread wide: inconclusive.
RANDOM_RETURNS = [0.0, 0.0, 0.0, 0.0]
ALE_FINALS = [10.0, 10.5, 9.5, 10.2, 9.8, 10.1, 9.9, 10.3, 9.7, 10.0]
JAX_FINALS = {
    "equivalent": ALE_FINALS,
    "different": [v + 5 for v in ALE_FINALS],
    "inconclusive": [4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 7.0, 15.0],
}


def write_audit(root: Path, game: str, code_hash: str = "", *, passed: int = 24, failed: int = 0,
                unprobed: int = 1, unjustified: int = 1, justified: int = 9, detected: int = 4,
                faults: int = 4, mutants=None, summary=None) -> dict:
    """An audit with these rows (default: coverage 0.96, recall 1.0, precision 0.9, fault detection
    1.0) and the summary they give, with ``summary`` written over it (a hand edit)."""
    rules = ([{"id": f"r.pass-{i}", "outcome": "pass"} for i in range(passed)]
             + [{"id": f"r.fail-{i}", "outcome": "fail"} for i in range(failed)]
             + [{"id": f"r.unprobed-{i}", "outcome": "unprobed", "no_probe_reason": "x"}
                for i in range(unprobed)])
    structure = ([{"kind": "constant", "name": f"c{i}", "justified": True} for i in range(justified)]
                 + [{"kind": "constant", "name": f"u{i}", "justified": False}
                    for i in range(unjustified)])
    fault_rows = [{"fault": f"f{i}", "detected": i < detected} for i in range(faults)]
    probed = passed + failed
    def ratio(a, b):  # as the audit writes them: rounded to 4 decimals
        return round(a / b, 4) if b else None

    figures = {"coverage": ratio(probed, len(rules)), "recall": ratio(passed, probed),
               "precision": ratio(justified, justified + unjustified),
               "fault_detection": ratio(detected, faults)}
    doc = {"schema": gate.AUDIT_SCHEMA, "game": game,
           "code_hash": gate.current_code_hash(game) if code_hash == "" else code_hash,
           "versions": {}, "created": "2026-12-04T00:00:00+00:00",
           "summary": {"reviewed_rules": len(rules), "probed_rules": probed, **figures,
                       **(summary or {})},
           "rules": rules, "structure": structure,
           "behaviour": {"kinds": {"ale": {}, "jax": {}}, "unjustified": []},
           "faults": fault_rows}
    if code_hash is None:
        del doc["code_hash"]
    if mutants is not None:
        doc["mutation"] = {"mutants": [{"id": f"m{i}", "status": s} for i, s in enumerate(mutants)]}
    (root / "audits").mkdir(exist_ok=True)
    (root / "audits" / f"{game}.json").write_text(json.dumps(doc))
    return doc


def write_stress(root: Path, game: str, outcome: str, obs: str = "objects",
                 steps: int = 524_288, label: str = "", code_hash: str = "") -> dict:
    """A stress report whose per-seed returns give ``outcome``; ``label`` written over the label."""
    from alignment.stress.statistics import verdict

    jax = JAX_FINALS[outcome]
    v = verdict(jax, ALE_FINALS, sum(RANDOM_RETURNS) / len(RANDOM_RETURNS))
    assert v["label"] == outcome, v["detail"]
    doc = {"schema": gate.STRESS_SCHEMA, "game": game, "obs": obs,
           "code_hash": gate.current_code_hash(game) if code_hash == "" else code_hash,
           "config": {"total_timesteps": steps},
           "backends": {"ale": {"final": ALE_FINALS}, "jax": {"final": jax}},
           "statistics": {"random_policy": {"returns": RANDOM_RETURNS, "mean": 0.0}},
           "verdict": {"label": label or outcome, "margin": v["margin"], "detail": v["detail"]}}
    if code_hash is None:
        del doc["code_hash"]
    (root / "stress").mkdir(exist_ok=True)
    (root / "stress" / f"{game}-{obs}.json").write_text(json.dumps(doc))
    return doc


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root,
                          check=True, capture_output=True, text=True).stdout


def make_repo(root: Path) -> Path:
    """main: a passing pong audit and stress report; thresholds for pong, no playtest required."""
    git(root, "init", "-q", "-b", "main")
    write_audit(root, "pong")
    write_stress(root, "pong", "equivalent")
    (root / "fidelity.toml").write_text(
        "[defaults]\nrequire_playtest = false\n[games.pong]\nrecall = 0.9\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root
