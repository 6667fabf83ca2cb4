"""A throwaway git repository with gate artefacts (audits, stress reports, fidelity.toml)."""

import json
import subprocess
from pathlib import Path

from alignment import gate

GOOD = {"coverage": 0.95, "recall": 0.96, "precision": 0.9, "fault_detection": 1.0}


def write_audit(root: Path, game: str, code_hash: str = "", **summary) -> None:
    """An audit of the game's current code (or of ``code_hash``) with GOOD figures but ``summary``."""
    figures = {**GOOD, **summary}
    code_hash = code_hash or gate._current_code_hash(game) or "c0de"
    doc = {"schema": gate.AUDIT_SCHEMA, "game": game, "code_hash": code_hash, "versions": {},
           "summary": {"reviewed_rules": 20, "probed_rules": 19, "seeded_faults": 4,
                       "seeded_faults_detected": 4, "probes_failing_on_ale": 0, **figures},
           "rules": []}
    (root / "audits").mkdir(exist_ok=True)
    (root / "audits" / f"{game}.json").write_text(json.dumps(doc))


def write_stress(root: Path, game: str, label: str, obs: str = "objects",
                 steps: int = 524_288) -> None:
    (root / "stress").mkdir(exist_ok=True)
    (root / "stress" / f"{game}-{obs}.json").write_text(json.dumps(
        {"schema": gate.STRESS_SCHEMA, "config": {"total_timesteps": steps},
         "verdict": {"label": label, "margin": 0.1, "detail": ""}}))


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
