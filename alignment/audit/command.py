"""The audit stage's commands: ``jaxtari-align audit``, ``probe`` and ``compare``.

Only this module prints: the cores (:mod:`alignment.audit.core`, :mod:`alignment.audit.probes`,
:mod:`alignment.audit.compare`) return data; :mod:`alignment.audit.report` and
:mod:`alignment.audit.compare_report` write the files.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional

from alignment import artefacts, catalog, cli_checks
from alignment.audit import compare_report, probes
from alignment.audit.compare import CompareError, run_compare
from alignment.audit.compare_report import fmt
from alignment.audit.mutants import DEFAULT_SAMPLED, QUICK_BATCHED, QUICK_SAMPLED
from alignment.backends import BackendError
from alignment.catalog import UnknownCatalogGame
from alignment.reference.ale import AleError
from alignment.reference.policy import POLICIES, PolicyError
from jaxtari.protocol import V5

DEFAULT_OUT = Path(artefacts.AUDIT.folder)
DEFAULT_FAULTS_DIR = Path(artefacts.FAULTS.folder)
DEFAULT_MUTANTS, QUICK_MUTANTS = str(DEFAULT_SAMPLED), str(QUICK_SAMPLED)  # as --mutants spells them


def register(app) -> None:
    """Add the ``audit``, ``probe``, ``compare`` and ``savepoint`` commands to the jaxtari-align app."""
    _register_audit(app)
    _register_probes_and_compare(app)
    from alignment.audit.savepoints import savepoint_command

    app.command("savepoint")(savepoint_command)


def _register_probes_and_compare(app) -> None:
    import typer

    @app.command("probe")
    def probe_command(
        game: str = typer.Argument(..., help="game name, e.g. Frostbite"),
        specs: Path = typer.Option(Path(artefacts.SPEC.folder), "--specs",
                                   help="folder of <game>.yaml specs"),
        backend: list[str] = typer.Option(list(probes.BACKENDS), "--backend", help="ale and/or jax"),
        mods: list[str] = typer.Option([], "--mods",
                                       help="probe the modified game (comma separated or "
                                            "repeated): only the rules the mods do not change; on "
                                            "ALE too where every mod has an ALE counterpart"),
    ) -> None:
        """Run every reviewed probe of specs/<game>.yaml on ALE and on the JAX game."""
        from rich.console import Console
        from rich.table import Table

        from alignment.spec.store import load_spec

        console = Console()
        try:
            canon = catalog.canonical(game)
            path = specs / f"{canon}.yaml"
            if not path.exists():
                raise probes.ProbeError(
                    f"no spec at {path}; write one with `jaxtari-align spec {game}`")
            for b in backend:
                if b not in probes.BACKENDS:
                    raise probes.ProbeError(
                        f"unknown backend {b!r}; backends: {', '.join(probes.BACKENDS)}")
            spec = load_spec(path)
            if spec.game != canon:
                raise probes.ProbeError(
                    f"{path} is the spec of {spec.game!r} (its game: field), not {canon!r}; "
                    f"give the folder holding {canon}.yaml with --specs")
            for warning in _stale_spans(spec):
                console.print(f"[yellow]warning:[/yellow] {warning}", soft_wrap=True)
            names, touched = _mods_and_rules(canon, mods)
            ale_mods, lockstep = (), None
            if names:
                backend, ale_mods, lockstep, said = _probe_sides(canon, names, backend)
                console.print(f"{said}; left out, the rules they change: "
                              f"{', '.join(sorted(touched)) or 'none'}", soft_wrap=True,
                              markup=False)
            results = probes.run_probes(spec, backend, mods=names, skip_rules=touched,
                                        ale_mods=ale_mods, lockstep=lockstep)
        except (probes.ProbeError, catalog.UnknownCatalogGame, ValueError) as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(1)
        table = Table(title=f"{canon}: probes of {path}")
        table.add_column("rule")
        for b in backend:
            table.add_column(b)
        failed = 0
        for rule_id, by_backend in results:
            cells = []
            for b in backend:
                r = by_backend[b]
                failed += not r.passed
                cells.append("[green]pass[/green]" if r.passed else f"[red]{r.summary()}[/red]")
            table.add_row(rule_id, *cells)
        console.print(table)
        if not results:
            console.print("no reviewed rule of this spec has a probe")
        if failed:
            raise typer.Exit(1)

    @app.command("compare")
    def compare(
        game: str = typer.Argument(..., help="catalog game: pong, freeway, frostbite, ..."),
        policy: str = typer.Option("random", help="random | scripted | file"),
        episodes: int = typer.Option(5, min=1, max=cli_checks.MAX_EPISODES, help="episodes per backend"),
        seed: int = cli_checks.seed_option(help="seed of the policy and the sticky actions"),
        policy_file: Optional[Path] = typer.Option(
            None, help='with --policy file: JSON ["NOOP", "UP", ...] or {"actions": [...], '
                       '"repeat": k}, or names separated by spaces'),
        max_frames: int = cli_checks.frames_option(10_000, "emulator frames per episode at most"),
        out: Path = typer.Option(Path(artefacts.COMPARE.folder),
                                 help="folder for <game>-compare.json/.md"),
        frameskip: int = typer.Option(V5.frameskip, min=1, max=cli_checks.MAX_EPISODE_FRAMES,
                                      help=f"frames per agent step (ALE v5: {V5.frameskip}), at most "
                                           "--max-frames"),
        sticky: float = typer.Option(V5.repeat_action_probability, min=0.0, max=1.0,
                                     help="sticky-action probability of the v5 episodes (ALE v5: "
                                          f"{V5.repeat_action_probability})"),
        mods: list[str] = typer.Option([], "--mods",
                                       help="play the modified game (comma separated or repeated); "
                                            "on ALE too when every mod has an ALE counterpart"),
    ) -> None:
        """Play the same policy on ALE and on the JAX game; compare episodes, events and signals."""
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        err = Console(stderr=True)
        if policy not in POLICIES:
            raise cli_checks.bad_parameter(
                "--policy", f"unknown policy {policy!r}; policies: {', '.join(POLICIES)}")
        if frameskip > max_frames:
            raise cli_checks.bad_parameter(
                "--frameskip", f"{frameskip} frames per step is more than --max-frames {max_frames}")
        cli_checks.output_dir(out)
        try:
            mods = cli_checks.mod_list(mods)
        except cli_checks.InputError as exc:
            raise cli_checks.usage("--mods", exc) from None
        try:
            with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/"
                          "{task.total}"), TimeElapsedColumn(), console=err, transient=True) as bar:
                task = bar.add_task(f"compare {game}", total=2 * episodes + 1)
                report = run_compare(
                    game, policy=policy, episodes=episodes, seed=seed,
                    policy_file=str(policy_file) if policy_file else None, max_frames=max_frames,
                    frameskip=frameskip, sticky=sticky,
                    advance=lambda label, n: bar.update(task, advance=n, description=label),
                    mods=mods,
                )
            paths = compare_report.write_report(report, out)
        except (UnknownCatalogGame, PolicyError, CompareError, AleError, BackendError) as exc:
            err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(1)
        except OSError as exc:
            err.print(f"error: cannot write the report to {str(out)!r}: {exc}", markup=False,
                      soft_wrap=True)
            raise typer.Exit(1)
        _print_compare(Console(), report, paths)


def _mods_and_rules(canon: str, mods: list[str]) -> tuple[list[str], set[str]]:
    """Registered mod names (ProbeError listing the game's mods for an unknown one) and the spec
    rules they declare they change."""
    from jaxtari.mod_registry import resolve
    from jaxtari.mods import ModError

    try:
        wanted = cli_checks.mod_list(mods)
    except cli_checks.InputError as exc:
        raise probes.ProbeError(str(exc)) from None
    try:
        resolved = resolve(canon, wanted)
    except ModError as exc:
        raise probes.ProbeError(str(exc)) from None
    return [m.name for m in resolved], {r for m in resolved for r in m.rules}


def _probe_sides(canon: str, names: list[str], backend: list[str]):
    """(backends, ale_mods, lockstep, what runs where) of ``probe --mods``: ALE plays the modified
    game where every mod has a counterpart (in lockstep with JAX when every one is exact), else the
    probes run JAX-only; asking ALE alone for a mod without a counterpart is refused."""
    from alignment.audit.core import AuditError
    from alignment.audit.modded import mod_sides

    try:
        sides = mod_sides(canon, names)
    except AuditError as exc:
        raise probes.ProbeError(str(exc)) from None
    mods = ", ".join(names)
    if sides.on_ale:
        how = ("exact: the JAX runs in lockstep with ALE's" if sides.exact else
               "not all exact: each side judged by the probes' expectations")
        return (backend, names, sides.exact,
                f"mods {mods} on both backends (ALE: their RAM-write counterparts, {how})")
    why = "; ".join(f"{k}: {v}" for k, v in sides.jax_only.items())
    if "jax" not in backend:
        raise probes.ProbeError(f"mods {', '.join(sides.jax_only)} have no ALE counterpart, so "
                                f"they run JAX-only ({why}); use --backend jax")
    return (["jax"], (), False,
            f"mods {mods} run JAX-only (no ALE counterpart: {why}); the probes' expectations "
            "are judged on the modified JAX game alone")


def _stale_spans(spec) -> list[str]:
    """Spans of the spec that no longer match its documents, when those are at hand (offline)."""
    import os

    from alignment.docs.corpus import DOCS_ENV, load_documents
    from alignment.spec.schema import check_spans

    if not os.environ.get(DOCS_ENV):
        return []
    try:
        loaded = load_documents(spec.game)
    except Exception as exc:  # documents that cannot be read do not stop the probes
        return [f"could not check the spec's spans against ${DOCS_ENV}: {exc}"]
    return [f"stale span: {p}; re-extract with `jaxtari-align spec {spec.game}`"
            for p in check_spans(spec, loaded.by_id())]


def _print_compare(console, report: dict, paths: list[Path]) -> None:
    from rich.table import Table

    table_rows = compare_report.rows(report)
    st = report["settings"]
    console.print(f"[bold]{report['game']}[/bold]: ALE vs JAX, policy {st['policy']}, "
                  f"{st['episodes']} episodes, seed {st['seed']}, frameskip {st['frameskip']}, "
                  f"sticky {st['sticky']}, max {st['max_frames']} frames")
    console.print(compare_report.mods_line(report))
    t = Table(title="Episodes (v5 protocol)")
    for c in ("", "ALE mean ± std", "JAX mean ± std", "Welch p", "Mann-Whitney p"):
        t.add_column(c)
    for r in table_rows["dist"]:
        t.add_row(*r)
    console.print(t)
    t = Table(title=f"Events (precision {fmt(report['events']['precision'])}, "
                    f"recall {fmt(report['events']['recall'])})")
    for c in ("", "ALE", "JAX"):
        t.add_column(c)
    for r in table_rows["events"]:
        t.add_row(*r)
    console.print(t)
    t = Table(title="Matched runs (same actions, sticky off)")
    for c in ("signal", "agreement", "first divergence", "max |diff|", "tolerance"):
        t.add_column(c)
    for r in table_rows["signals"]:
        style = "green" if r[1] == "1" else "yellow"
        t.add_row(*r, style=style)
    console.print(t)
    for p in paths:
        console.print(f"wrote {p}")


def _register_audit(app) -> None:
    import typer

    @app.command("audit")
    def audit_command(
        game: str = typer.Argument(..., help="catalog game: pong, freeway, frostbite, ..."),
        llm: str = typer.Option("offline", "--llm", help="offline | anthropic | openai: who reads "
                                "each rule against the game's source (offline: the rule tags only)"),
        model: Optional[str] = typer.Option(None, "--model", help="model id for --llm"),
        out: Path = typer.Option(DEFAULT_OUT, "--out", help="folder for <game>.json and <game>.md"),
        specs: Path = typer.Option(Path(artefacts.SPEC.folder), "--specs",
                                   help="folder of <game>.yaml specs"),
        against: Optional[str] = typer.Option(
            None, "--against", help="report to compare with: a file, or a git ref whose "
            "<out>/<game>.json is read (default: the report now in --out)"),
        faults: bool = typer.Option(True, "--faults/--no-faults", help="run the seeded faults"),
        events: bool = typer.Option(True, "--events/--no-events", help="matched rollouts on both "
                                    "backends for behavioural precision"),
        faults_dir: Path = typer.Option(DEFAULT_FAULTS_DIR, "--faults-dir",
                                        help="folder of <game>.py seeded-fault sets"),
        docs: Optional[str] = typer.Option(None, "--docs", help="documents corpus to check the "
                                           "spec's spans against (default: $JAXTARI_ALIGN_DOCS)"),
        quick: bool = typer.Option(False, "--quick", help="a pull request's audit: a smaller "
                                   "exploration budget (fewer walks, shorter, less deep play)"),
        explore: bool = typer.Option(True, "--explore/--no-explore", help="play the game from "
                                     "every start on both backends, compared frame by frame"),
        mutants: Optional[str] = typer.Option(
            None, "--mutants", help="mutation testing: N (source mutants sampled; every Constants "
            f"mutant runs, under one compile), all, or none (default {DEFAULT_MUTANTS}, "
            f"{QUICK_MUTANTS} with --quick)"),
        batched_mutants: Optional[str] = typer.Option(
            None, "--batched-mutants", help="batched Constants mutants drawn (they share one "
            "compile, but each plays every walk no probe kills it on): N or all (default all, "
            f"{QUICK_BATCHED} with --quick)"),
        mutants_seed: int = cli_checks.seed_option(help="seed of the mutant sample"),
        mods: list[str] = typer.Option(
            [], "--mods", help="audit the game modified by these mods (comma separated or "
            "repeated) into <out>/<game>+<mod>.json/.md: the probes of the rules they do not "
            "change, on ALE too where every mod has an ALE counterpart (else JAX-only)"),
        replace: bool = typer.Option(
            False, "--replace", help="overwrite a report in --out that holds more than this run "
            "would (seeded faults, mutants, exploration, matched rollouts, LLM verdicts); without "
            "it such a run is refused before any work"),
    ) -> None:
        """Probe every reviewed rule on ALE and on JAX in lockstep, explore from every start,
        trace rules to the code, measure precision, seed faults, mutation-test the audit; write
        <out>/<game>.json and <game>.md."""
        from rich.console import Console

        from alignment import atomic
        from alignment.audit import core, report
        from alignment.audit import mutants as mutation
        from alignment.audit.faults import FaultSetError
        from alignment.docs.corpus import CorpusError
        from alignment.llm import PROVIDERS, LLMError

        err = Console(stderr=True)

        def fail(msg: str) -> None:
            err.print(f"error: {msg}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(1)

        if llm not in PROVIDERS:
            fail(f"unknown --llm {llm!r}; use one of: {', '.join(PROVIDERS)}")
        if model is not None and llm == "offline":
            fail(f"--model {model!r} names a model for --llm anthropic or openai; the offline "
                 "auditor has none: add --llm, or leave --model out")
        try:
            mods = cli_checks.mod_list(mods)
            if faults and faults_dir != DEFAULT_FAULTS_DIR:
                cli_checks.input_dir(faults_dir, "--faults-dir")
        except cli_checks.InputError as exc:
            fail(str(exc))
        try:
            sample = mutation.parse_option(
                mutants if mutants is not None else QUICK_MUTANTS if quick else DEFAULT_MUTANTS)
        except mutation.MutationError as exc:
            fail(str(exc))
        try:
            batched = mutation.parse_batched(
                batched_mutants if batched_mutants is not None
                else str(mutation.QUICK_BATCHED) if quick else "all")
        except mutation.MutationError as exc:
            fail(str(exc))
        if sample is None and batched_mutants is not None:
            fail("--batched-mutants with --mutants none: no mutant runs; drop one of them")
        if sample is not None:
            sample = dataclasses.replace(sample, seed=mutants_seed, batched=batched)
        if mods:
            if mutants is not None or batched_mutants is not None:
                fail("--mutants or --batched-mutants with --mods: mutation testing judges the "
                     "original game's audit (audit without --mods); drop them")
            _audit_modified(game, mods, llm=llm, model=model, out=out, specs=specs,
                            against=against, events=events, docs=docs,
                            explore="none" if not explore else "quick" if quick else "full",
                            fail=fail, err=err, replace=replace)
            return
        explore_as = "none" if not explore else "quick" if quick else "full"
        try:
            core.check_out_dir(out)
            canon = _canonical(game)
            atomic.check_targets(out, (f"{canon}.json", f"{canon}.md"), what="audit")
            fault_count = _fault_count(canon, faults_dir) if faults else 0
            if not replace:  # a committed audit is never replaced by one that ran less
                _check_not_weaker(out, canon, faults=fault_count, sample=sample,
                                  explore=explore_as, events=events, llm=llm)
            previous, ref = report.load_reference(canon, out, against)
            with err.status(f"audit {canon}") as status:
                result = core.run_audit(
                    canon, llm=llm, model=model, out_dir=out, specs_dir=specs, faults=faults,
                    faults_dir=faults_dir, docs=docs, events=events, explore=explore_as,
                    mutants=sample,
                    progress=lambda label: status.update(f"audit {canon}: {label}"))
            paths = report.write(result, out, previous=previous, ref=ref)
        except (core.AuditError, CorpusError, LLMError, atomic.OutputLocationError,
                FaultSetError, cli_checks.InputError) as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write the audit to {str(out)!r}: {exc}")
        _print_audit(Console(), result, paths, previous is not None)
        s = result.summary()
        if s["failing_on_jax"] or s["probe_errors"] or s["spec_gaps"]:
            raise typer.Exit(1)


def _audit_modified(game: str, mods: list[str], *, llm, model, out: Path, specs: Path, against,
                    events: bool, docs, explore: str, fail, err, replace: bool = False) -> None:
    """``audit GAME --mods ...``: the modified game's audit (:mod:`alignment.audit.modded`)."""
    import typer
    from rich.console import Console

    from alignment import atomic
    from alignment.audit import core, modded, report
    from alignment.docs.corpus import CorpusError
    from alignment.llm import LLMError

    try:
        core.check_out_dir(out)
        canon = _canonical(game)
        name = modded.report_name(modded.mod_sides(canon, mods))
        atomic.check_targets(out, (f"{name}.json", f"{name}.md"), what="audit")
        if not replace:
            _check_not_weaker(out, name, faults=0, sample=None, explore=explore, events=events,
                              llm=llm)
        previous, ref = report.load_reference(name, out, against)
        with err.status(f"audit {name}") as status:
            result = modded.run_mod_audit(
                canon, mods, llm=llm, model=model, out_dir=out, specs_dir=specs, docs=docs,
                events=events, explore=explore,
                progress=lambda label: status.update(f"audit {name}: {label}"))
        paths = report.write(result, out, previous=previous, ref=ref)
    except (core.AuditError, CorpusError, LLMError, atomic.OutputLocationError,
            cli_checks.InputError) as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write the audit to {str(out)!r}: {exc}")
    console = Console()
    _print_audit(console, result, paths, previous is not None)
    m = result.modified
    console.print(f"modified game: {m['ran']}; rules the mods change (not probed): "
                  f"{', '.join(m['rules_changed']) or 'none'}; matched rollouts parted "
                  f"{m['rollout_divergences']} time(s)", soft_wrap=True, markup=False)
    s = result.summary()
    if (s["failing_on_jax"] or s["probe_errors"] or s["spec_gaps"]
            or m["unexplained_divergences"]):
        raise typer.Exit(1)


def _fault_count(canon: str, faults_dir: Path) -> int:
    """How many seeded faults the audit will run: a --faults-dir given without the game's fault
    set is an error (a mistyped folder would audit with no faults, and say nothing)."""
    from alignment.audit.faults import faults_file, load_faults

    found = load_faults(canon, faults_dir)
    if found is None and Path(faults_dir) != DEFAULT_FAULTS_DIR:
        raise cli_checks.InputError(
            f"--faults-dir {str(faults_dir)!r} holds no fault set of {canon} "
            f"({faults_file(canon, faults_dir).name}); give the folder that holds it, or "
            "--no-faults")
    return len(found or [])


def audit_measures(data: dict) -> dict:
    """What an audit report holds, measure by measure (more is stronger; see
    :func:`alignment.cli_checks.check_not_weaker`)."""
    from alignment.audit.mutants import batched_drawn

    mutation = data.get("mutation") or None
    size = ((mutation or {}).get("sample") or {}).get("size", 0) if mutation else 0
    # what it ran: a run that draws at least that many (or all) holds as much
    drawn, _ = batched_drawn((mutation or {}).get("sample") or {}) if mutation else (None, None)
    rollouts = (data.get("behaviour") or {}).get("rollouts") if isinstance(
        data.get("behaviour"), dict) else None
    return {
        "seeded faults": len(data.get("faults") or []),
        "mutation testing (source mutants sampled)": float("inf") if mutation and size is None
        else (size if mutation else None),
        "batched Constants mutants run": drawn,
        "exploration budget": (data.get("exploration") or {}).get("budget") if isinstance(
            data.get("exploration"), dict) else None,
        "matched rollouts": bool(rollouts),
        "LLM verdicts": (data.get("llm") or {}).get("provider", "offline") not in (None, "offline")
        if isinstance(data.get("llm"), dict) else False,
    }


def _run_measures(*, faults: int, sample, explore: str, events: bool, llm: str) -> dict:
    from alignment.audit.explore import FULL, QUICK

    budget = {"full": FULL, "quick": QUICK}.get(explore)
    return {
        "seeded faults": faults,
        "mutation testing (source mutants sampled)": None if sample is None
        else float("inf") if sample.size is None else sample.size,
        "batched Constants mutants run": None if sample is None
        else float("inf") if sample.batched is None else sample.batched,
        "exploration budget": None if budget is None else budget.to_json(),
        "matched rollouts": bool(events),
        "LLM verdicts": llm != "offline",
    }


def _check_not_weaker(out: Path, name: str, **run) -> None:
    """Refuse a run whose audit would replace ``out/<name>.json`` with one that ran less."""
    cli_checks.check_artefact_not_weaker(artefacts.AUDIT, out, audit_measures,
                                         _run_measures(**run), what="audit", game=name)


def _canonical(game: str) -> str:
    from alignment import catalog
    from alignment.audit.core import AuditError

    try:
        return catalog.canonical(game)
    except catalog.UnknownCatalogGame as exc:
        raise AuditError(str(exc)) from None


def _print_audit(console, result, paths, compared: bool) -> None:
    from rich.markup import escape
    from rich.table import Table

    s = result.summary()

    def pct(x):
        return "-" if x is None else f"{100 * x:.1f}%"

    t = Table(title=f"audit of {result.report_name}")
    for c in ("coverage", "recall", "precision", "seeded faults", "mutation score",
              "probes failing on ALE"):
        t.add_column(c)
    t.add_row(f"{pct(s['coverage'])} ({s['probed_rules']}/{s['reviewed_rules']})",
              pct(s["recall"]), pct(s["precision"]),
              f"{s['seeded_faults_detected']}/{s['seeded_faults']}",
              f"{pct(s['mutation_score'])} ({s['mutants_killed']} killed, {s['mutants_survived']} "
              f"survived, {s['mutants_equivalent']} equivalent)", str(s["probes_failing_on_ale"]))
    console.print(t)
    for r in result.rules:
        if r.outcome in ("fail", "probe-error", "wrong-probe"):
            console.print(f"[red]{r.outcome}[/red] {r.id}: {escape(r.detail)}", soft_wrap=True)
    ex = result.exploration
    if ex:
        console.print(f"exploration: {ex['walks']} walks, {ex['frames']:,} frames compared, "
                      f"{len(ex['divergences'])} divergences, {ex['spec_gaps']} spec gaps")
        for d in ex["divergences"]:
            if not d["rules"]:
                console.print(f"[red]spec gap[/red] frame {d['frame']} ({escape(d['where'])}): "
                              f"{d['signal']} ALE {escape(str(d['ale']))}, JAX "
                              f"{escape(str(d['jax']))}", soft_wrap=True)
    for p in paths:
        console.print(f"wrote {p}")
