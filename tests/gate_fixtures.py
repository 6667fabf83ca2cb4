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
    1.0) and the summary they give, with ``summary`` written over it (a hand edit); the spec it
    was made against (``specs/<game>.yaml``: one reviewed rule a row, ids ``r-0``, ``r-1``, ...
    in row order, the probed ones with a probe) is written beside it."""
    outcomes = ["pass"] * passed + ["fail"] * failed + ["unprobed"] * unprobed
    rules = [{"id": f"r-{i}", "outcome": o, **({"no_probe_reason": "x"} if o == "unprobed" else {})}
             for i, o in enumerate(outcomes)]
    write_spec(root, game, [(r["id"], r["outcome"] != "unprobed") for r in rules])
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
           "spec": {"path": f"specs/{game}.yaml", "spans": "not checked"},
           "summary": {"reviewed_rules": len(rules), "probed_rules": probed, **figures,
                       **(summary or {})},
           "rules": rules, "structure": structure,
           "behaviour": {"kinds": {"ale": {}, "jax": {}}, "unjustified": []},
           "faults": fault_rows,
           "exploration": {"budget": dict(EXPLORE_BUDGET), "starts": [{"name": "reset"}],
                           "divergences": []}}
    if code_hash is None:
        del doc["code_hash"]
    if mutants is not None:
        doc["mutation"] = {"mutants": [
            {"id": f"m{i}", "status": s,
             "killed_by": ["explore:reset/random-holds"] if s == "killed" else []}
            for i, s in enumerate(mutants)],
            # every row one of the batched draw, which ran all (as the quick audit does when a
            # game has no more than alignment.audit.mutants.QUICK_BATCHED)
            "sample": {"seed": 0, "size": 8,
                       "batched": {"population": len(mutants), "size": None,
                                   "count": len(mutants)}}}
    (root / "audits").mkdir(exist_ok=True)
    (root / "audits" / f"{game}.json").write_text(json.dumps(doc))
    return doc


EXPLORE_BUDGET = {"walk_frames": 240, "policies": ["random-holds", "human-holds"], "seeds": 1}


def write_spec(root: Path, game: str, rules) -> None:
    """A spec with these reviewed rules ((id, has a probe) pairs): the fields the gate reads."""
    import yaml

    (root / "specs").mkdir(exist_ok=True)
    doc = {"schema_version": 1, "game": game,
           "rules": [{"id": rid, "status": "reviewed",
                      **({"probe": {"seed": 0, "start": "reset", "steps": [],
                                    "expectations": []}} if probed else {})}
                     for rid, probed in rules]}
    (root / "specs" / f"{game}.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))


def unaudited_mods_toml() -> str:
    """``[unaudited_mods.<game>]`` declaring every mod each game registers (a fixture repository
    commits no audit of a modified game)."""
    from alignment import catalog
    from alignment.gate import registered_mods

    out = ""
    for game in catalog.games():
        mods = registered_mods(game)
        if mods:
            out += f"[unaudited_mods.{game}]\n" + "".join(
                f'{m} = "no audit of the modified game in this fixture repository"\n'
                for m in mods)
    return out


def write_stress(root: Path, game: str, outcome: str, obs: str = "objects",
                 steps: int = 524_288, label: str = "", code_hash: str = "") -> dict:
    """A stress report whose per-seed returns give ``outcome``; ``label`` written over the label."""
    from alignment.learning.statistics import verdict

    jax = JAX_FINALS[outcome]
    v = verdict(jax, ALE_FINALS, sum(RANDOM_RETURNS) / len(RANDOM_RETURNS))
    assert v["label"] == outcome, v["detail"]
    doc = {"schema": gate.STRESS_SCHEMA, "game": game, "obs": obs,
           "code_hash": gate.current_code_hash(game) if code_hash == "" else code_hash,
           "config": {"total_timesteps": steps}, "seeds": list(range(len(ALE_FINALS))),
           "backends": {"ale": _runs(ALE_FINALS), "jax": _runs(jax)},
           "statistics": {"random_policy": {"backend": "ale", "episodes": len(RANDOM_RETURNS),
                                            "seed": 0, "sticky": 0.25,
                                            "returns": RANDOM_RETURNS, "mean": 0.0}},
           "verdict": {**{k: v[k] for k in VERDICT_FIELDS if k in v}, "label": label or outcome}}
    if code_hash is None:
        del doc["code_hash"]
    (root / "stress").mkdir(exist_ok=True)
    (root / "stress" / f"{game}-{obs}.json").write_text(json.dumps(doc))
    return doc


VERDICT_FIELDS = ("margin", "random_return", "gain", "detail", "more_seeds")
CHECKPOINTS = [1024, 2048, 3072]


def _runs(finals) -> dict:
    """Per-seed curves (three checkpoints, one episode each) ending at each final return."""
    return {"steps": CHECKPOINTS, "curves": [[f - 2.0, f - 1.0, f] for f in finals],
            "episodes": [[1, 1, 1] for _ in finals], "final": list(finals)}


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root,
                          check=True, capture_output=True, text=True).stdout


def make_repo(root: Path) -> Path:
    """main: a passing pong audit and stress report; thresholds for pong, no playtest required."""
    git(root, "init", "-q", "-b", "main")
    write_audit(root, "pong")
    write_stress(root, "pong", "equivalent")
    (root / "fidelity.toml").write_text(
        "[defaults]\nrequire_playtest = false\n[games.pong]\nrecall = 0.9\n"
        + unaudited_mods_toml())
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def evaluate_game(root: Path, game: str = "pong", base: str | None = None, **kw):
    """The gate's verdict on ``game`` in ``root`` (against ``base`` when given), without replays."""
    cfg = gate.load_config(root / "fidelity.toml")
    base_cfg = gate.Artefacts(root, ref=base).config() if base else None
    kw.setdefault("replay", None)
    kw.setdefault("fingerprint", None)
    kw.setdefault("population", None)  # the fixtures' mutant rows are no real game's draw
    return gate.evaluate(game, cfg.for_game(game), root=root, base=base, config=cfg,
                         base_config=base_cfg, **kw)


def commit_all(root: Path, message: str = "change") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)
