"""The stage contracts (spec, audit + report, playtest, stress) for the toy game.

They let the graph run end to end in seconds. The toy has no ALE ROM, so its ground truth is its
own rules written as plain Python (:func:`reference_run`); the "JAX" side is ``tests/toy_game.py``'s
``ToyGame`` run for real. The artefacts follow the schemas the gate reads.

Knobs for tests, as files (so that a re-run node sees the same world as a fresh process would):
``<specs dir>/.fail-once`` makes the next audit raise once; ``<specs dir>/.hang`` makes it write
``.started`` and then wait (for a test to kill the process). A run writes its audit into its own
folder, so the knobs live beside the spec the audit reads.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any, Optional

import jax

from alignment import atomic
from alignment.spec.schema import ALE_ACTION_NAMES, GameSpec, Rule
from alignment.spec.store import load_spec, merge, spec_path, write_spec
from tests.toy_game import ToyConstants, ToyGame

GAME = "toy"
STRESS_SCHEMA = "jaxtari-align/stress/v1"
CONSTS = ToyConstants()


def _probe(steps, expectations) -> dict:
    return {"seed": 0, "start": "reset",
            "steps": [{"action": a, "frames": f} for a, f in steps],
            "expectations": [dict(zip(("signal", "op", "value"), e)) for e in expectations]}


# What the toy's "extractor" finds. scoring.fire-pays-ten is a wrong rule: FIRE pays 1 per frame.
EXTRACTED = (
    ("scoring.action-payout", "Every frame pays the ALE id of the action held.",
     _probe([("FIRE", 10)], [("score", "increases_by", 10)])),
    ("lives.frame-forty", "A life is lost on frame 40.",
     _probe([("NOOP", 40)], [("lives", "decreases_by", 1)])),
    ("termination.frame-hundred", "The game ends on frame 100.",
     _probe([("NOOP", 100)], [("terminated", "==", True)])),
    ("scoring.fire-pays-ten", "FIRE pays ten points a frame.",
     _probe([("FIRE", 1)], [("score", "increases_by", 10)])),
)


@dataclasses.dataclass
class SpecResult:
    path: Path
    spec: GameSpec
    added: list[str]
    changed: list[str]
    kept: list[str]


def extracted_spec() -> GameSpec:
    rules = [Rule(id=rid, category=rid.split(".")[0], statement=text, origin="measured",
                  note="toy rule, measured on the toy's reference", probe=probe)
             for rid, text, probe in EXTRACTED]
    return GameSpec(game=GAME, title="Toy", actions=list(ALE_ACTION_NAMES[:6]), rules=rules)


def build(game, *, docs=None, llm="offline", model=None, out_dir=Path("specs"),
          force=False) -> SpecResult:
    path = spec_path(out_dir, game)
    existing = load_spec(path) if path.exists() else None
    result = merge(extracted_spec(), existing, force=force)
    return SpecResult(path, result.spec, list(result.added), [], list(result.kept))


# --------------------------------------------------------------------------------------------------
# Running steps on both "backends"


def reference_run(steps) -> tuple[dict, dict]:
    """Start and end signals of the toy's written rules after ``steps`` [(action, frames)]."""
    sig = {"score": 0, "lives": CONSTS.start_lives, "terminated": False, "frame": 0}
    start = dict(sig)
    for action, frames in steps:
        for _ in range(frames):
            if sig["terminated"]:
                break
            sig["frame"] += 1
            sig["score"] += ALE_ACTION_NAMES.index(action)
            sig["lives"] -= sig["frame"] == CONSTS.life_loss_frame
            sig["terminated"] = sig["frame"] >= CONSTS.game_over_frame
    return start, sig


_GAME = ToyGame()
_STEP = jax.jit(_GAME.step)


def _signals(state) -> dict:
    return {"score": int(_GAME.score(state)), "lives": int(_GAME.lives(state)),
            "terminated": bool(_GAME.is_terminal(state)), "frame": int(state.frame)}


def jax_run(steps) -> tuple[dict, dict]:
    _, state = _GAME.reset(jax.random.key(0))
    start = _signals(state)
    for action, frames in steps:
        for _ in range(frames):
            if bool(_GAME.is_terminal(state)):
                break
            _, state, *_ = _STEP(state, _GAME.action_index(action))
    return start, _signals(state)


def _holds(op, a, b, value) -> bool:
    return {"==": lambda: b == value, "increases_by": lambda: b - a == value,
            "decreases_by": lambda: a - b == value}[op]()


def _check(probe, run) -> dict:
    start, end = run([(s.action, s.frames) for s in probe.steps])
    failures = [f"{e.signal} {e.op} {e.value} (start {start[e.signal]}, end {end[e.signal]})"
                for e in probe.expectations
                if not _holds(e.op, start[e.signal], end[e.signal], e.value)]
    return {"passed": not failures, "failures": failures}


# --------------------------------------------------------------------------------------------------
# Audit (core + report writer)


def run_audit(game, *, llm="offline", model=None, out_dir=Path("audits"), specs_dir=Path("specs"),
              faults=True, docs=None, explore="full", mutants=None, progress=None) -> dict:
    marker = Path(specs_dir) / ".fail-once"
    if marker.exists():
        marker.unlink()
        raise RuntimeError("injected failure in the toy audit")
    if (Path(specs_dir) / ".hang").exists():
        (Path(specs_dir) / ".started").touch()
        time.sleep(600)
    spec = load_spec(spec_path(specs_dir, game))
    reviewed = [r for r in spec.rules if r.status == "reviewed"]
    rules = []
    for n, rule in enumerate(reviewed, 1):
        if progress is not None:
            progress(f"probe {n}/{len(reviewed)}: {rule.id}")
        ale = _check(rule.probe, reference_run)
        jax_side = _check(rule.probe, jax_run) if ale["passed"] else None
        outcome = "wrong-probe" if not ale["passed"] else "pass" if jax_side["passed"] else "fail"
        rules.append({"id": rule.id, "outcome": outcome, "ale": ale, "jax": jax_side})
    valid = [r for r in rules if r["ale"]["passed"]]
    summary = {
        "reviewed_rules": len(reviewed), "probed_rules": len(valid),
        "coverage": len(valid) / len(reviewed) if reviewed else 0.0,
        "recall": sum(r["jax"]["passed"] for r in valid) / len(valid) if valid else 0.0,
        "precision": 1.0, "seeded_faults": 0, "seeded_faults_detected": 0, "fault_detection": 1.0,
        "probes_failing_on_ale": len(rules) - len(valid),
    }
    # what alignment.audit.command.audit_measures reads: a full budget walks longer, and mutation
    # testing records its sample's size
    walk = {"quick": 240, "full": 600}.get(explore)
    return {"game": game, "summary": summary, "rules": rules, "explore": explore,
            "exploration": None if walk is None else {"budget": {"walk_frames": walk}},
            "mutation": None if mutants is None else {"sample": {"size": mutants.size}}}


def to_json(result: dict) -> dict:
    """The toy's reports: its stress result is already the report's data; an audit gets a header."""
    if result.get("schema") == STRESS_SCHEMA:
        return result
    return {"schema": "jaxtari-align/audit/v1", "code_hash": "toy", "versions": {}, **result}


def write(result, out_dir=None, *, previous=None, ref="") -> Path:
    """The toy's writer for every stage (spec, audit and stress); an audit written with the
    report it follows names it (``changed_since``), as the real writer does."""
    if isinstance(result, SpecResult):
        return write_spec(result.spec, result.path)
    doc = to_json(result)
    if previous is not None:
        doc["changed_since"] = {"ref": ref}
    name = f"{doc['game']}-{doc['obs']}" if doc["schema"] == STRESS_SCHEMA else doc["game"]
    return atomic.write_text(Path(out_dir) / f"{name}.json", json.dumps(doc, indent=2))


# --------------------------------------------------------------------------------------------------
# Playtest: a session is {"actions": [[action, frames], ...], "score": final score}


@dataclasses.dataclass
class ReplayResult:
    passed: bool
    frames: int
    failure: Optional[str]


def sessions_for(game, root=Path("playtest")) -> list[Path]:
    return sorted((Path(root) / game).glob("*.json"))


def record_session(root: Path, name: str, actions) -> Path:
    _, end = reference_run(actions)
    return atomic.write_text(Path(root) / GAME / f"{name}.json",
                             json.dumps({"actions": actions, "score": end["score"]}))


def replay(paths) -> list[ReplayResult]:
    out = []
    for path in paths:
        session = json.loads(Path(path).read_text())
        _, end = jax_run([tuple(s) for s in session["actions"]])
        ok = end["score"] == session["score"]
        out.append(ReplayResult(ok, end["frame"], None if ok else
                                f"score {end['score']} now, {session['score']} recorded"))
    return out


# --------------------------------------------------------------------------------------------------
# Stress: returns of a fixed action sequence on both sides; equal returns are "equivalent"


def run_stress(game, *, obs="objects", budget="smoke", seeds=5, backends=("ale", "jax"),
               out_dir=Path("stress"), on_progress=None) -> dict[str, Any]:
    steps = [(ALE_ACTION_NAMES[s % 6], 10) for s in range(seeds)]
    if on_progress is not None:
        on_progress("ale", 10 * seeds)
    ale, jx = reference_run(steps)[1]["score"], jax_run(steps)[1]["score"]
    label = "equivalent" if ale == jx else "different"
    return {"schema": STRESS_SCHEMA, "game": game, "obs": obs, "budget": budget,
            "verdict": {"label": label, "margin": 0.0, "detail": f"return {ale} on ALE, {jx} on JAX"}}


def check_run(out_dir, game, obs, budget, seeds, backends=("ale", "jax")) -> None:
    """The toy's reports record no training configuration: any run may replace one."""
