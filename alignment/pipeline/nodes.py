"""The pipeline's nodes (one per stage, each calling that stage's core) and the routing functions.

A node returns data for the state and never prints. Each imports its stage core when it runs (the
module the configuration names for the stage), so a run imports only the stages it reaches.
A node that stops for a person (``interrupt``) does nothing before it but read: LangGraph re-runs
an interrupted node from its start on resume. A long stage's progress ("probe 3/30: ...") goes out
on the graph's custom stream (``runtime.stream_writer``), which the command line prints.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any, Mapping

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from alignment import artefacts
from alignment.docs.corpus import DOCS_ENV
from alignment.gate import why_failed
from alignment.pipeline import committed
from alignment.pipeline import review as review_step
from alignment.pipeline.configuration import Configuration
from alignment.pipeline.report import write_run_report
from alignment.pipeline.state import PipelineState
from alignment.plain import plain
from alignment.spec.store import load_spec, spec_path


def _cfg(runtime: Runtime[Configuration]) -> Configuration:
    return runtime.context or Configuration()


def _progress(runtime: Runtime[Configuration], stage: str):
    """A ``progress(label)`` for a stage core: each label goes out on the run's custom stream."""
    def say(label: str) -> None:
        runtime.stream_writer({"stage": stage, "progress": str(label)})
    return say


def _core(stage: str, cfg: Configuration):
    """The module of ``stage``'s core, imported now (a run imports only what it reaches)."""
    return importlib.import_module(cfg.module(stage))


# --------------------------------------------------------------------------------------------------
# spec


def spec(state: PipelineState, runtime: Runtime[Configuration]) -> dict:
    cfg, game = _cfg(runtime), state["game"]
    path = spec_path(cfg.specs_dir, game)
    if path.exists() and not cfg.extract:
        current = load_spec(path)
        counts = {s: sum(r.status == s for r in current.rules)
                  for s in ("extracted", "reviewed", "rejected", "stale")}
        listed = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
        return {"stage": "spec", "spec_path": str(path), "spec": {
            "status": "reused", "counts": counts,
            "detail": f"the committed {path} ({listed or 'no rules'}) as it is; --extract "
                      "extracts it again from documents"}}
    if not (cfg.docs or os.environ.get(DOCS_ENV) or cfg.online):
        why = "no committed spec" if not path.exists() else "--extract asked"
        return {"stage": "spec", "spec_path": None, "spec": {
            "status": "failed",
            "detail": f"{why} for {game} and no documents offline: pass --docs DIR (a corpus of "
                      f"farama/ and atariage/ files, or ${DOCS_ENV}) or --online to fetch the pages"}}
    core, store = _core("spec", cfg), _core("spec_report", cfg)
    result = core.build(game, docs=cfg.docs, llm=cfg.llm, model=cfg.model,
                        out_dir=Path(cfg.specs_dir), force=False)
    store.write(result)
    ids = {k: [str(i) for i in getattr(result, k, ()) or ()] for k in ("added", "changed", "kept")}
    return {"stage": "spec", "spec_path": str(result.path),
            "spec": {"status": "done", **ids,
                     "detail": f"{len(ids['added'])} new, {len(ids['changed'])} changed, "
                               f"{len(ids['kept'])} kept rule(s) in {result.path}"}}


def after_spec(state: PipelineState) -> str:
    return "review" if state.get("spec_path") else "report"


# --------------------------------------------------------------------------------------------------
# review (human in the loop)


def _documents(game: str, cfg: Configuration) -> dict[str, Any]:
    """The cited documents when an offline corpus is at hand (review shows span text); else none."""
    from alignment.docs.corpus import load_documents, resolve_docs_dir

    try:
        if resolve_docs_dir(cfg.docs) is None:
            return {}
        return load_documents(game, docs_dir=cfg.docs).by_id()
    except (ValueError, OSError):
        return {}  # the span's place is still shown; only its text is missing


def review(state: PipelineState, runtime: Runtime[Configuration]) -> dict:
    cfg, game = _cfg(runtime), state["game"]
    path = Path(state["spec_path"])
    current = load_spec(path)
    pending = review_step.pending_rules(
        current, changed=(state.get("spec") or {}).get("changed", ()),
        ale_failures=(state.get("audit") or {}).get("ale_failures") or {},
        acknowledged=state.get("acknowledged") or ())
    if not pending:
        return {"stage": "review", "review": {"status": "done", "pending": [], "applied": [],
                                              "detail": "no rule waits for review"}}
    answer = interrupt(review_step.payload(game, path, current, pending, _documents(game, cfg)))
    ids = [p.rule_id for p in pending]
    try:
        decisions = review_step.check_answer(answer, ids)
    except review_step.ReviewAnswerError as err:
        return {"errors": [f"review: {err}"],
                "review": {"status": "waiting", "pending": ids, "applied": [], "detail": str(err)}}
    applied, acknowledged = review_step.apply(path, decisions, pending, state.get("run_id", "?"))
    remaining = [i for i in ids if i not in decisions]
    accepted = sum(v == review_step.ACCEPT for v in decisions.values())
    return {"stage": "review", "decisions": decisions, "acknowledged": acknowledged,
            "review": {"status": "waiting" if remaining else "done", "pending": remaining,
                       "applied": applied,
                       "detail": f"{accepted} accepted, {len(decisions) - accepted} rejected, "
                                 f"{len(remaining)} still waiting"}}


def after_review(state: PipelineState) -> str:
    outcome = state.get("review") or {}
    if outcome.get("pending"):
        return "review"
    audited = (state.get("audit") or {}).get("status") in ("done", "failed")
    # Only acknowledgements (nothing written to the spec): the audit already in hand still holds.
    if audited and not outcome.get("applied"):
        return "playtest"
    return "audit"


# --------------------------------------------------------------------------------------------------
# audit


def ale_failures(audit: Mapping[str, Any]) -> dict[str, str]:
    """Rule id -> what failed, for the rules whose probe fails on ALE, from an audit JSON."""
    listed = (audit.get("summary") or {}).get("probes_failing_on_ale")
    out: dict[str, str] = {}
    for rule in audit.get("rules") or ():
        ale = rule.get("ale") or {}
        if rule.get("outcome") == "wrong-probe" or (isinstance(ale, Mapping)
                                                    and ale.get("passed") is False):
            out[rule["id"]] = ("; ".join(ale.get("failures") or ()) or rule.get("detail")
                               or "fails on ALE")
    if isinstance(listed, (list, tuple)):
        for rule_id in listed:
            out.setdefault(str(rule_id), "fails on ALE")
    return out


def audit(state: PipelineState, runtime: Runtime[Configuration]) -> dict:
    """The audit into the run's own folder (``<reports>/<run>/<game>.json``, ``.md``), its
    verdicts compared with the committed audit's; the committed audit is replaced only by a full
    run's audit that is not weaker (:mod:`alignment.pipeline.committed`)."""
    cfg, game = _cfg(runtime), state["game"]
    core, report = _core("audit", cfg), _core("audit_report", cfg)
    out_dir = committed.run_audit_dir(cfg.reports_dir, state.get("run_id") or "run")
    result = core.run_audit(game, llm=cfg.llm, model=cfg.model, out_dir=out_dir,
                            specs_dir=Path(cfg.specs_dir), faults=cfg.faults, docs=cfg.docs,
                            explore=cfg.audit_budget, mutants=_mutants(cfg),
                            progress=_progress(runtime, "audit"))
    old, committed_path, why = committed.load_committed(cfg.audits_dir, game)
    # the run's audit says what changed since the committed one, as `jaxtari-align audit` does
    since = {} if old is None else {"previous": old, "ref": str(committed_path)}
    written = report.write(result, out_dir, **since)
    files = [str(p) for p in (written if isinstance(written, (list, tuple)) else [written])]
    path = artefacts.AUDIT.path(out_dir, game=game)
    data = plain(report.to_json(result))  # what was written, as the state holds it
    summary = data.get("summary") or {}
    failing = ale_failures(data)
    figures = ", ".join(f"{k} {summary[k]:.2f}" for k in ("coverage", "recall", "precision",
                                                            "fault_detection")
                        if isinstance(summary.get(k), (int, float)))
    against = _against_committed(cfg, (old, committed_path, why), data,
                                 lambda: report.write(result, Path(cfg.audits_dir), **since))
    detail = f"{figures} ({cfg.audit_budget} audit); {against['said']}"
    return {"stage": "audit", "audit": {"status": "done", "path": str(path), "files": files,
                                        "summary": summary, "budget": cfg.audit_budget,
                                        "ale_failures": failing, "committed": against,
                                        "detail": detail}}


def _mutants(cfg: Configuration):
    """A full run's mutation testing is the audit command's full audit's (so that its audit can
    stand in for the committed one); the quick run's has none (issue 53: minutes, not half an
    hour)."""
    if cfg.audit_budget != "full":
        return None
    from alignment.audit import mutants
    from alignment.audit.command import DEFAULT_MUTANTS

    return mutants.parse_option(DEFAULT_MUTANTS)


def _against_committed(cfg: Configuration, found: tuple, data: dict, replace) -> dict:
    """The run's verdicts against the committed audit's (``found``: what
    :func:`~alignment.pipeline.committed.load_committed` found), and whether this run wrote over it
    (``replace()`` writes it there)."""
    old, path, why = found
    out: dict[str, Any] = {"path": str(path), "replaced": False}
    if old is None:
        out.update(verdicts="none committed", said=f"{why}: nothing to compare with")
    else:
        out.update(committed.compare(old, data))
        diffs = out["differences"]
        shown = "; ".join(diffs[:3]) + (f"; {len(diffs) - 3} more" if len(diffs) > 3 else "")
        out["said"] = ((f"verdicts differ from the committed {path} ({shown})" if diffs
                        else f"same verdicts as the committed {path}")
                       + (" (an audit of another code hash)" if out["stale"] else ""))
    if cfg.audit_budget != "full":
        out["kept"] = (f"{path} is left as it is: a run's quick audit never writes there"
                       if path.exists() else
                       f"a run's quick audit writes nothing to {path.parent}/ (`jaxtari-align "
                       f"audit {path.stem} --quick` makes the audit committed there)")
        return out
    weaker = None if old is None else committed.weaker_than_committed(path, old, data)
    if weaker is not None:
        out["kept"] = f"{path} is left as it is: {weaker}"
        return out
    replace()
    out["replaced"] = True
    out["kept"] = f"wrote {path} too (" + (
        f"{why})" if old is None else "this full audit is not weaker than the one there)")
    return out


def after_audit(state: PipelineState) -> str:
    failing = (state.get("audit") or {}).get("ale_failures") or {}
    if set(failing) - set(state.get("acknowledged") or ()):
        return "review"
    return "playtest"


# --------------------------------------------------------------------------------------------------
# playtest replay


def playtest(state: PipelineState, runtime: Runtime[Configuration]) -> dict:
    cfg, game = _cfg(runtime), state["game"]
    core = _core("playtest", cfg)
    root = Path(cfg.playtest_dir)
    paths = list(core.sessions_for(game, root=root))
    if not paths and cfg.playtest_missing == "interrupt":
        interrupt({"kind": "playtest", "game": game, "where": str(root / game),
                   "command": f"jaxtari-align play {game}"})
        paths = list(core.sessions_for(game, root=root))
    if not paths:
        return {"stage": "playtest", "playtest": {
            "status": "not playtested", "sessions": [],
            "detail": f"no recorded session under {root / game}; record one with "
                      f"`jaxtari-align play {game}`"}}
    say = _progress(runtime, "playtest")
    results = []
    for n, p in enumerate(paths, 1):
        say(f"replay {n}/{len(paths)}: {Path(p).name}")
        results.extend(core.replay([p]))
    sessions = [{"path": str(p), "passed": bool(r.passed), "frames": int(r.frames),
                 "failure": None if r.passed else why_failed(r)}
                for p, r in zip(paths, results)]
    passed = sum(s["passed"] for s in sessions)
    return {"stage": "playtest", "playtest": {
        "status": "done" if passed == len(sessions) else "failed", "sessions": sessions,
        "detail": f"{passed} of {len(sessions)} session(s) replay clean"}}


def after_playtest(state: PipelineState, runtime: Runtime[Configuration]) -> str:
    return "stress" if _cfg(runtime).stress_budget else "report"


# --------------------------------------------------------------------------------------------------
# stress


def stress(state: PipelineState, runtime: Runtime[Configuration]) -> dict:
    cfg, game = _cfg(runtime), state["game"]
    core, report = _core("stress", cfg), _core("stress_report", cfg)
    out_dir = Path(cfg.stress_dir)
    if not cfg.stress_replace:  # checked again here: a resumed run reaches this stage much later
        report.check_run(out_dir, game, cfg.stress_obs, cfg.stress_budget, cfg.stress_seeds)
    say = _progress(runtime, "stress")
    result = core.run_stress(game, obs=cfg.stress_obs, budget=cfg.stress_budget,
                             seeds=cfg.stress_seeds, out_dir=out_dir,
                             on_progress=lambda side, steps: say(f"{side}: {steps:,} agent steps"))
    report.write(result, out_dir)
    path = artefacts.STRESS.path(out_dir, game=game, obs=cfg.stress_obs)
    verdict = plain(report.to_json(result)).get("verdict") or {}
    label = verdict.get("label", "?")
    return {"stage": "stress", "stress": {
        "status": "failed" if label == "different" else "done", "path": str(path),
        "verdict": verdict, "detail": f"{label} at budget {cfg.stress_budget}"}}


# --------------------------------------------------------------------------------------------------
# report


def report(state: PipelineState, runtime: Runtime[Configuration]) -> dict:
    cfg = _cfg(runtime)
    update: dict[str, Any] = {}
    if "stress" not in state:
        update["stress"] = {"status": "skipped",
                            "detail": "no budget asked (pass --stress smoke|cpu|paper|STEPS)"}
    path = write_run_report({**state, **update}, Path(cfg.reports_dir))
    return {**update, "stage": "report", "report": {"status": "done", "path": str(path)}}
