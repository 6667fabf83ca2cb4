"""The audit of one game against its reviewed spec (stage 2): returns data, never prints.

:func:`run_audit` audits a catalog game; :func:`audit` audits any :class:`Subject` (a spec, a game
class, its source files and a probe runner), which is how the tests audit a toy game.

Per reviewed rule the outcome is one of

- ``pass``: the probe holds on ALE and on the JAX game;
- ``fail``: it holds on ALE and fails on JAX - a bug in the JAX game;
- ``wrong-probe``: it fails on ALE - a wrong probe or a wrong rule, never counted against JAX;
- ``probe-error``: the probe cannot run as written (unknown signal, unknown save point...);
- ``unprobed``: no probe; ``no_probe_reason`` says why, or the rule is a coverage gap.

coverage = rules with an ALE-validated probe (pass + fail) / reviewed rules;
recall = pass / (pass + fail);
precision = justified items / all items, where the items are the game's mechanics and Constants
fields (justified by a rule tag or a ``measured:`` tag, :mod:`alignment.audit.trace`) and the kinds
of event the JAX game produced in matched rollouts (justified when ALE produced them too,
:mod:`alignment.audit.events`);
fault detection = seeded faults whose broken rule was flagged / seeded faults
(:mod:`alignment.audit.faults`);
mutation score = killed / (killed + survived) mutants, equivalent ones excluded
(:mod:`alignment.audit.mutants`): the audit's self-check against changes nobody chose.

Probes run in lockstep with the emulator (:mod:`alignment.audit.lockstep`): a JAX run that leaves
ALE's on any frame fails its rule, save-point prefix included. Exploration
(:mod:`alignment.audit.explore`) then plays the game from every start on both: a divergence it
attributes to a rule fails that rule (``explore`` in its row), and one it can attribute to no rule
is a spec gap (``summary.spec_gaps``), which fails the audit. Under each seeded fault every probe
that holds on the real game runs again, the save points are re-checked (their prefixes compared)
the exploration runs again and the matched rollouts (whole games from reset) are compared frame by
frame with ALE's; a fault is flagged by its rule's probe or by an exploration or rollout
divergence attributed to it.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from alignment import artefacts
from alignment.audit import session
from alignment.audit import trace as tracing
from alignment.audit.faults import DEFAULT_FAULTS_DIR, Fault, FaultResult, load_faults
from alignment.spec.schema import GameSpec, Probe

SCHEMA = artefacts.AUDIT.schema
OUTCOMES = ("fail", "probe-error", "wrong-probe", "unprobed", "pass")


class AuditError(ValueError):
    """An audit that cannot run; the message names the problem and the fix."""


ProbeRunner = Callable[[Probe, str, Sequence[Any]], Any]  # (probe, backend, mods) -> ProbeResult


@dataclasses.dataclass
class Subject:
    """Everything an audit reads about one game."""

    game: str
    spec: GameSpec
    game_cls: type
    source_files: list[Path]
    run_probe: ProbeRunner
    signals: Sequence[str]
    code_hash: str
    versions: dict
    events: Optional[Callable[[], dict]] = None  # matched-rollout events (behavioural precision)
    # exploration from every start: (mods, structure items) -> alignment.audit.explore.Exploration
    explore: Optional[Callable[[Sequence[Any], Sequence[Any]], Any]] = None
    # the matched rollouts on a faulty game: (mods, structure items) ->
    # alignment.audit.events.fault_events' dict; None: not run under faults
    fault_events: Optional[Callable[[Sequence[Any], Sequence[Any]], dict]] = None
    faults: Optional[list[Fault]] = None
    faults_note: str = ""
    spec_path: str = ""
    spans: str = "not checked"
    # (sample, progress) -> alignment.audit.mutants.MutationResult; None: the subject has no mutants
    mutation: Optional[Callable[[Any, Callable[[str], None]], Any]] = None
    # a modified game's audit (alignment.audit.modded): reviewed rules left out of the rows (the
    # rules its mods change), and whether ALE plays the modified game (False: JAX-only, the
    # probes judged by their expectations on the JAX game alone)
    left_out: frozenset = frozenset()
    ale_probes: bool = True
    # () -> the same Subject, built afresh: picklable (a module-level function, or a partial of
    # one), so that a pool of processes can run the seeded faults (alignment.audit.fault_pool);
    # None: they run in this process
    rebuild: Optional[Callable[[], "Subject"]] = None


@dataclasses.dataclass
class RuleResult:
    id: str
    category: str
    statement: str
    origin: str
    outcome: str
    detail: str = ""
    ale: Optional[dict] = None
    jax: Optional[dict] = None
    no_probe_reason: Optional[str] = None
    start: Optional[str] = None  # where the probe starts (GameSpec.describe_start): reset, a save
    # point, or a RAM-written start (pokes)
    trace: list[str] = dataclasses.field(default_factory=list)
    llm: Optional[dict] = None
    divergence: Optional[dict] = None  # the JAX probe's first frame off ALE's (lockstep)
    explore: list[dict] = dataclasses.field(default_factory=list)  # divergences attributed here

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class AuditResult:
    game: str
    code_hash: str
    versions: dict
    created: str
    spec_path: str
    spans: str
    rules: list[RuleResult]
    traceability: tracing.Traceability
    structure: list[tracing.Item]
    behaviour: Optional[dict]
    faults: Optional[list[FaultResult]]
    faults_note: str
    llm: dict
    exploration: Optional[dict] = None  # Exploration.to_json() of the game as it is
    mutation: Optional[dict] = None  # MutationResult.to_json(); None when not run
    mutation_note: str = ""
    name: str = ""  # the report's file name (default: the game); <game>+<mod>... for a modified game
    modified: Optional[dict] = None  # a modified game's audit: the mods and where they ran

    @property
    def report_name(self) -> str:
        return self.name or self.game

    def count(self, outcome: str) -> int:
        return sum(r.outcome == outcome for r in self.rules)

    def summary(self) -> dict:
        reviewed = len(self.rules)
        passed, failed = self.count("pass"), self.count("fail")
        probed = passed + failed
        structural_ok = sum(i.justified for i in self.structure)
        b = self.behaviour or {"kinds": {"jax": {}}, "unjustified": []}
        jax_kinds = len(b["kinds"]["jax"])
        behaviour_ok = jax_kinds - len(b["unjustified"])
        items = len(self.structure) + jax_kinds
        faults = self.faults or []
        detected = sum(f.detected for f in faults)
        ex = self.exploration or {}
        return {
            "reviewed_rules": reviewed,
            "probed_rules": probed,
            "coverage": _ratio(probed, reviewed),
            "recall": _ratio(passed, probed),
            "precision": _ratio(structural_ok + behaviour_ok, items),
            "structural_precision": _ratio(structural_ok, len(self.structure)),
            "behavioural_precision": _ratio(behaviour_ok, jax_kinds),
            "seeded_faults": len(faults),
            "seeded_faults_detected": detected,
            "fault_detection": _ratio(detected, len(faults)),
            "probes_failing_on_ale": self.count("wrong-probe"),
            "failing_on_jax": failed,
            "probe_errors": self.count("probe-error"),
            "unprobed_rules": self.count("unprobed"),
            "ram_written_starts": sum(bool(r.start and r.start.startswith("RAM-written"))
                                      for r in self.rules),
            "unprobed_without_reason": sum(r.outcome == "unprobed" and not r.no_probe_reason
                                           for r in self.rules),
            "untraced_rules": len(self.traceability.untraced),
            "unknown_tags": len(self.traceability.unknown_tags),
            "seeded_faults_caught": sum(f.caught for f in faults),
            "explore_frames": ex.get("frames"),
            "explore_divergences": None if not ex else len(ex["divergences"]),
            "spec_gaps": None if not ex else ex["spec_gaps"],
            **self._mutation_summary(),
        }

    def _mutation_summary(self) -> dict:
        from alignment.audit.mutants import score

        rows = (self.mutation or {}).get("mutants") or []
        return {"mutation_score": score(rows) if self.mutation else None,
                **{f"mutants_{s}": sum(r["status"] == s for r in rows)
                   for s in ("killed", "survived", "equivalent")}}

    def to_json(self) -> dict:
        return {
            "schema": SCHEMA,
            "game": self.game,
            "code_hash": self.code_hash,
            "versions": self.versions,
            "created": self.created,
            "spec": {"path": self.spec_path, "spans": self.spans},
            "summary": self.summary(),
            "rules": [r.to_json() for r in self.rules],
            "traceability": self.traceability.to_json(),
            "structure": [i.to_json() for i in self.structure],
            "behaviour": self.behaviour,
            "faults": None if self.faults is None else [f.to_json() for f in self.faults],
            "faults_note": self.faults_note,
            "llm": self.llm,
            "exploration": self.exploration,
            "mutation": self.mutation,
            "mutation_note": self.mutation_note,
            **({"modified": self.modified} if self.modified is not None else {}),
        }


def _ratio(a: int, b: int) -> Optional[float]:
    return round(a / b, 4) if b else None


def _probe_problem(rule, signals: Sequence[str]) -> Optional[str]:
    for i, exp in enumerate(rule.probe.expectations, 1):
        if exp.signal not in signals:
            return (f"rule {rule.id}: probe expectation {i} ({exp.describe()}) names unknown signal "
                    f"{exp.signal!r}; signals of this game: {', '.join(signals)}")
    return None


def _result_json(result) -> dict:
    return {"passed": bool(result.passed), "failures": list(result.failures)}


def _divergence(result) -> Optional[dict]:
    div = getattr(result, "divergence", None)
    return None if div is None else div.to_json()


def audit(subject: Subject, *, llm: str = "offline", model: Optional[str] = None,
          llm_cache=None, faults: bool = True, mutants=None,
          progress: Optional[Callable[[str], None]] = None,
          workers: Optional[int] = None) -> AuditResult:
    """Audit ``subject``: probes on both backends, traceability, precision, seeded faults, and
    mutation testing when ``mutants`` (an :class:`alignment.audit.mutants.Sample`) is given.

    It runs in an audit session of its own (:mod:`alignment.audit.session`: everything it keeps,
    let go when it returns), or in the one already open."""
    with session.opened():
        return _audit(subject, llm=llm, model=model, llm_cache=llm_cache, faults=faults,
                      mutants=mutants, progress=progress, workers=workers)


def _audit(subject: Subject, *, llm: str, model: Optional[str], llm_cache, faults: bool, mutants,
           progress: Optional[Callable[[str], None]], workers: Optional[int]) -> AuditResult:
    say = progress or (lambda label: None)
    spec = subject.spec
    tags = tracing.read_tags(subject.source_files)
    traced = tracing.trace(spec, tags)
    reviewed = [r for r in spec.rules if r.status == "reviewed"]
    probed = [r for r in reviewed if r.id not in subject.left_out]

    verdicts = None
    if llm != "offline":
        # Asked first: a verdict reads the rule and the source only, so a missing API key or a
        # provider that cannot answer ends the audit in seconds, not after its probes, faults and
        # mutants (it is reconciled with the probes' outcomes below).
        from alignment.audit.llm_audit import audit_rules

        say(f"LLM auditor ({llm})")
        verdicts = audit_rules(subject, probed, provider=llm, model=model, cache=llm_cache)

    rules: list[RuleResult] = []
    for n, rule in enumerate(probed, 1):
        say(f"probe {n}/{len(probed)}: {rule.id}")
        res = RuleResult(rule.id, rule.category, rule.statement, rule.origin, "unprobed",
                         no_probe_reason=rule.unprobed, trace=traced.locations[rule.id])
        rules.append(res)
        if rule.probe is None:
            res.detail = rule.unprobed or "no probe and no reason given: a coverage gap"
            continue
        res.start = spec.describe_start(rule.probe)
        problem = _probe_problem(rule, subject.signals)
        if problem is None:
            try:
                ale = subject.run_probe(rule.probe, "ale", ()) if subject.ale_probes else None
                res.ale = None if ale is None else _result_json(ale)
                if ale is None or ale.passed:
                    jax = subject.run_probe(rule.probe, "jax", ())
                    res.jax = _result_json(jax)
                    res.divergence = _divergence(jax)
            except ValueError as exc:  # ProbeError: an unknown save point, ...
                problem = f"rule {rule.id}: {exc}"
        if problem is not None:
            res.outcome, res.detail = "probe-error", problem
        elif res.ale is not None and not res.ale["passed"]:
            res.outcome = "wrong-probe"
            res.detail = ("the probe fails on ALE, the ground truth: a wrong probe or a wrong rule "
                          f"({'; '.join(res.ale['failures'])})")
        elif not res.jax["passed"]:
            res.outcome = "fail"
            res.detail = (f"holds on ALE, fails on JAX: {'; '.join(res.jax['failures'])}"
                          if res.ale is not None else
                          f"fails on the JAX game (JAX-only): {'; '.join(res.jax['failures'])}")
        else:
            res.outcome = "pass"

    structure = tracing.structure(subject.game_cls, tags, {r.id for r in reviewed})

    exploration = None
    if subject.explore is not None:
        say("exploration from every start")
        found = subject.explore((), structure)
        exploration = found.to_json()
        by_id = {r.id: r for r in rules}
        for d in found.divergences:
            for rule_id in d["rules"]:
                row = by_id.get(rule_id)
                if row is None:
                    continue
                row.explore.append(d)
                if row.outcome == "pass":
                    row.outcome = "fail"
                    row.detail = (f"its probe holds, but exploration diverges: frame {d['frame']} "
                                  f"({d['where']}): {d['signal']} ALE {d['ale']}, JAX {d['jax']}")

    behaviour = None
    if subject.events is not None:
        say("matched rollouts (behavioural precision)")
        behaviour = subject.events()

    fault_results = None
    faults_note = subject.faults_note
    if faults and subject.faults is not None:
        fault_results = _run_faults(subject, reviewed, rules, structure, say, workers)
    elif not faults:
        faults_note = "seeded faults not run (faults=False)"

    mutation, mutation_note = None, ""
    if mutants is None:
        mutation_note = "mutation testing not run (--mutants none)"
    elif subject.mutation is None:
        mutation_note = f"{subject.game} has no mutants (not a catalog game with a JAX port)"
    else:
        mutation = subject.mutation(mutants, say).to_json()

    llm_info: dict[str, Any] = {"provider": llm, "model": model}
    if verdicts is not None:
        from alignment.audit.llm_audit import reconcile

        by_id = {r.id: r for r in rules}
        for rule_id, v in verdicts.items():
            v["disagrees_with_probe"] = reconcile(by_id[rule_id].outcome, v)
            by_id[rule_id].llm = v
        llm_info["model"] = next((v.get("model") for v in verdicts.values() if v.get("model")), model)

    return AuditResult(
        game=subject.game, code_hash=subject.code_hash, versions=subject.versions,
        created=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        spec_path=subject.spec_path, spans=subject.spans, rules=rules, traceability=traced,
        structure=structure, behaviour=behaviour, faults=fault_results, faults_note=faults_note,
        llm=llm_info, exploration=exploration, mutation=mutation, mutation_note=mutation_note,
    )


def own_compile(spec: GameSpec, probe: Probe) -> bool:
    """Whether a probe needs a compile of its own on each faulty game: the v5 protocol (the
    wrapper), or a game mode other than the default (a probe's or its save point's). Such probes
    still run under every fault (a fault's flags must name the rule it broke, not whichever probes
    were cheap); this says what costs a compile."""
    if getattr(probe, "protocol", None) == "v5" or getattr(probe, "mode", None) is not None:
        return True
    points = getattr(spec, "save_points", None) or {}
    start = probe.start
    while start in points:
        if getattr(points[start], "mode", None) is not None:
            return True
        start = points[start].start
    return False


def _run_faults(subject: Subject, reviewed, rules: list[RuleResult], structure,
                say, workers: Optional[int] = None) -> list[FaultResult]:
    """Each fault against every probe that holds on the real game (lockstep, prefixes included),
    the save points re-checked, the exploration and the matched rollouts run again on the faulty
    game. With ``workers`` > 1 and a subject that can be rebuilt in another process, the faults
    run in a pool of that many processes (:mod:`alignment.audit.fault_pool`); the results are the
    same, in the same order."""
    from alignment import fault_switch
    from alignment.audit import fault_pool

    holding = [r.id for r in rules if r.outcome == "pass"]
    switch = _fault_switch(subject)
    if switch is not None:
        variant = switch.variant(None, True)
        left = [f"{subject.faults[i].name} ({why})" for i, why in sorted(variant.left_out.items())]
        say(f"seeded faults: one compile serves {len(variant.slots)} of {len(subject.faults)}"
            + (f"; compiled one by one: {', '.join(left)}" if left else ""))
    try:
        n = fault_pool.worker_count(workers, len(subject.faults))
        if n > 1 and subject.rebuild is not None:
            return fault_pool.run_pooled(run_fault, subject, holding, structure, say, n)
        return [run_fault(subject, i, holding, structure, say) for i in range(len(subject.faults))]
    finally:
        fault_switch.deactivate()
        session.current().release_compiled()


def _fault_switch(subject: Subject):
    """The fault switch (:mod:`alignment.fault_switch`) of a catalog game's seeded faults, made
    active: one compile serves them; None for a game outside the catalog."""
    from alignment import catalog, fault_switch

    if not subject.faults or subject.game not in catalog.games():
        return None
    try:
        switch = fault_switch.activate(subject.game, [f.mod for f in subject.faults])
        switch.variant(None, True)
        return switch
    except Exception:  # no switch: each fault compiles its own game, as it would without one
        fault_switch.deactivate()
        return None


def run_fault(subject: Subject, index: int, holding: Sequence[str], structure,
              say=lambda label: None) -> FaultResult:
    """Seeded fault ``index`` of ``subject``: the probes of the ``holding`` rules (the fault's own
    rule first), the exploration and the matched rollouts on the game built with it. Its compiled
    programs are released afterwards."""
    _fault_switch(subject)  # in a pool's process, its first fault makes it
    fault = subject.faults[index]
    total = len(subject.faults)
    probes = {r.id: r.probe for r in subject.spec.rules if r.status == "reviewed"}
    known = {r.id for r in subject.spec.rules}
    say(f"seeded fault {index + 1}/{total}: {fault.name}")
    if fault.breaks not in known:
        return FaultResult(fault.name, fault.breaks, fault.description, [],
                           error=f"names rule {fault.breaks!r}, which the spec lacks")
    run = ([fault.breaks] if fault.breaks in holding else []) + [
        r for r in holding if r != fault.breaks]
    flagged, in_prefix, error = [], [], None
    explored = rolled = None
    try:
        for rule_id in run:
            result = subject.run_probe(probes[rule_id], "jax", (fault.mod,))
            if not result.passed:
                flagged.append(rule_id)
                div = getattr(result, "divergence", None)
                if div is not None and div.where.startswith("in the prefix"):
                    in_prefix.append(rule_id)
        if subject.explore is not None:
            say(f"seeded fault {index + 1}/{total}: {fault.name}: exploration")
            explored = subject.explore((fault.mod,), structure)
        if subject.fault_events is not None:
            say(f"seeded fault {index + 1}/{total}: {fault.name}: matched rollouts")
            rolled = subject.fault_events((fault.mod,), structure)
    except Exception as exc:  # a fault that breaks the game's build is reported, not raised
        error = f"{type(exc).__name__}: {exc}"
    if fault.breaks not in holding and error is None and (
            explored is None or fault.breaks not in explored.rules) and (
            rolled is None or fault.breaks not in rolled["rules"]):
        error = (f"{fault.breaks} has no probe that holds on the real game, and neither "
                 "exploration nor the matched rollouts attributed anything to it, so nothing "
                 "flagged it")
    res = FaultResult(fault.name, fault.breaks, fault.description, flagged, error,
                      in_prefix=in_prefix, events=rolled)
    if explored is not None:
        res.explore_rules = explored.rules
        res.explore_first = explored.first()
        res.explore_divergences = len(explored.divergences)
        res.save_points = {s["name"].removeprefix("save point "): s["divergence"]
                           for s in explored.starts if s["kind"] == "save-point"}
    # the faulty game's own programs: never run again (AuditSession.release_compiled says why);
    # the fault switch's are kept for the next fault
    session.current().release_compiled()
    return res


# ---- catalog games ----------------------------------------------------------------------------


def check_out_dir(out_dir: Path) -> None:
    """Fail before any work when reports cannot be written to ``out_dir``."""
    from alignment import atomic

    try:
        atomic.check_writable_dir(out_dir, what="--out folder")
    except atomic.OutputLocationError as err:
        raise AuditError(
            f"cannot write the audit: {err} (a previous report is left as it was)") from None


def _load_spec(game: str, specs_dir: Path, documents) -> GameSpec:
    from alignment.spec.store import SpecFileError, load_spec

    path = Path(specs_dir) / f"{game}.yaml"
    if not path.exists():
        raise AuditError(f"{game} has no spec: {path} is missing; make it with "
                         f"`jaxtari-align spec {game} --out {specs_dir}` and review it")
    try:
        spec = load_spec(path, documents=documents)
    except SpecFileError as err:
        raise AuditError(_name_rules(str(err), path)) from None
    if spec.game != game:
        # another game's spec would be probed and written as this game's report
        raise AuditError(f"{path} is the spec of {spec.game!r}, not {game!r}; put {game}'s spec "
                         f"there (or pass --specs with a folder holding {game}.yaml)")
    return spec


def _name_rules(message: str, path: Path) -> str:
    """A schema error's ``rules[3]`` made ``rules[3] (scoring.ice-block)``: the rule by its id."""
    import re

    import yaml

    try:
        rules = yaml.safe_load(path.read_text("utf-8")).get("rules") or []
    except Exception:
        return message

    def named(m):
        i = int(m.group(1))
        rid = rules[i].get("id") if i < len(rules) and isinstance(rules[i], dict) else None
        return f"{m.group(0)} ({rid})" if rid else m.group(0)

    return re.sub(r"rules\[(\d+)\]", named, message)


def _documents(game: str, docs) -> tuple[Optional[dict], str]:
    from alignment.docs.corpus import load_documents, resolve_docs_dir

    if resolve_docs_dir(docs) is None:
        return None, "not checked (no --docs corpus or JAXTARI_ALIGN_DOCS)"
    loaded = load_documents(game, docs_dir=docs)
    return loaded.by_id(), f"checked against {', '.join(sorted(loaded.by_id())) or 'no documents'}"



def audited_game(game: str, explore: str):
    """What every audit checks before any work: the catalog's name for ``game``, its entry, and the
    exploration budget named ``explore`` (full, quick or none); :class:`AuditError` otherwise."""
    from alignment import catalog
    from alignment.audit.explore import FULL, QUICK

    budgets = {"full": FULL, "quick": QUICK, "none": None}
    if explore not in budgets:
        raise AuditError(f"unknown exploration budget {explore!r}; use one of: "
                         f"{', '.join(budgets)}")
    try:
        canon = catalog.canonical(game)
    except catalog.UnknownCatalogGame as exc:
        raise AuditError(str(exc)) from None
    e = catalog.entry(canon)
    ok, why = e.jax_available()
    if not ok:
        raise AuditError(f"cannot audit {canon}: {why}")
    return canon, e, budgets[explore]

def run_audit(game: str, *, llm: str = "offline", model: Optional[str] = None,
              out_dir: Path = Path(artefacts.AUDIT.folder),
              specs_dir: Path = Path(artefacts.SPEC.folder), faults: bool = True,
              faults_dir: Path = DEFAULT_FAULTS_DIR, docs=None, events: bool = True,
              llm_cache=None, progress: Optional[Callable[[str], None]] = None,
              explore: str = "full", mutants=None, workers: Optional[int] = None) -> AuditResult:
    """Audit a catalog game's JAX implementation against ``specs_dir/<game>.yaml``.

    ``explore``: ``full`` (:data:`alignment.audit.explore.FULL`), ``quick`` (a pull request's
    smaller budget, :data:`~alignment.audit.explore.QUICK`) or ``none``.

    Writes nothing (:func:`alignment.audit.report.write` does); ``out_dir`` is checked to be
    writable before any work. ``mutants``: an :class:`alignment.audit.mutants.Sample` to run
    mutation testing (None: not run). ``workers``: processes for the seeded faults (None: one
    per core this process may use; 1: none besides this one).
    """
    canon, _, _ = audited_game(game, explore)
    check_out_dir(out_dir)
    subject = catalog_subject(canon, specs_dir=specs_dir, faults=faults, faults_dir=faults_dir,
                              docs=docs, events=events, explore=explore, progress=progress)
    return audit(subject, llm=llm, model=model, llm_cache=llm_cache, faults=faults,
                 mutants=mutants, progress=progress, workers=workers)


def catalog_subject(game: str, *, specs_dir: Path, faults: bool, faults_dir: Path, docs,
                    events: bool, explore: str,
                    progress: Optional[Callable[[str], None]] = None) -> Subject:
    """The audit subject of a catalog game; it can be built again in another process (its
    ``rebuild``, without ``progress``), where a pool runs its seeded faults."""
    import functools

    from alignment.audit import probes
    from alignment.provenance import EMULATOR_STACK, versions
    from alignment.audit.explore import explore as explore_game
    from alignment.audit.source import code_hash, game_source_files, shared_source_files

    canon, e, budget = audited_game(game, explore)
    documents, spans = _documents(canon, docs)
    spec = _load_spec(canon, specs_dir, documents)

    import jaxtari
    from alignment.audit import mutants as mutation

    game_cls = jaxtari.game_class(e.jax_game)
    files = game_source_files(e.jax_game)

    def mutate(sample, say):
        return mutation.run_mutation(canon, spec, game_cls, files, sample,
                                     explore=explore != "none", progress=say)

    fault_set = load_faults(canon, faults_dir) if faults else None
    note = "" if fault_set is not None or not faults else (
        f"no seeded faults: {faults_dir}/{canon}.py does not exist")
    return Subject(
        game=canon, spec=spec, game_cls=game_cls,
        source_files=files + shared_source_files(),
        run_probe=lambda probe, backend, mods: probes.run_probe(canon, probe, backend, mods,
                                                               spec=spec),
        signals=list(e.signals) + list(probes.EXTRA_SIGNALS), code_hash=code_hash(e.jax_game),
        versions=versions(EMULATOR_STACK),
        events=(lambda: _events(canon)) if events else None, faults=fault_set, faults_note=note,
        fault_events=(lambda mods, structure: _fault_events(canon, spec, mods, structure))
        if events else None,
        spec_path=str(Path(specs_dir) / f"{canon}.yaml"), spans=spans,
        explore=(lambda mods, structure: explore_game(spec, mods=mods, budget=budget,
                                                      structure=structure, progress=progress))
        if budget is not None else None,
        mutation=mutate,
        rebuild=functools.partial(catalog_subject, canon, specs_dir=specs_dir, faults=faults,
                                  faults_dir=faults_dir, docs=docs, events=events,
                                  explore=explore),
    )


def _events(game: str) -> dict:
    from alignment.audit.events import matched_events

    return matched_events(game)


def _fault_events(game: str, spec, mods, structure) -> dict:
    from alignment.audit.events import fault_events

    return fault_events(game, spec, mods, structure)
