"""``jaxtari-align run GAME``, ``review RUN`` and ``runs``: the pipeline from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from alignment import artefacts, cli_checks
from alignment.pipeline import execute, runs
from alignment.pipeline.configuration import Configuration, audit_command
from alignment.pipeline.progress import ProgressLines
from alignment.pipeline.report import stage_rows
from alignment.pipeline.review import ReviewAnswerError, check_answer
from alignment.stress.config import MAX_SEEDS as MAX_STRESS_SEEDS

_STATE_HELP = f"state directory of runs (default: ${runs.STATE_ENV}, else {runs.DEFAULT_STATE_DIR}/)"


def _fail(message: str, code: int = 1) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def pipeline_games() -> list[str]:
    """Games the pipeline can run: the catalog's (a JAX game with its ground truth)."""
    from alignment import catalog

    return catalog.games()


def resolve_game(name: str) -> str:
    from alignment import catalog

    try:
        return catalog.canonical(name)
    except catalog.UnknownGameError:
        _fail(f"unknown game {name!r}; the pipeline runs: {', '.join(pipeline_games())}", 2)


def _check_stress(game: str, cfg: Configuration) -> None:
    """The stress settings checked before the first stage runs: a bad budget or a committed report
    of another configuration is refused now, not after the audit."""
    from alignment.learning.config import LearnerInputError, budget_config
    from alignment.stress.core import validate
    from alignment.stress.report import check_run

    try:
        _, kinds = validate(game, cfg.stress_obs, ("ale", "jax"), cfg.stress_seeds)
        budget_config(cfg.stress_budget, cfg.stress_obs)
        if not cfg.stress_replace:
            check_run(Path(cfg.stress_dir), game, cfg.stress_obs, cfg.stress_budget,
                      cfg.stress_seeds, kinds)
    except LearnerInputError as err:  # the stage's errors and the budget's
        msg = str(err).replace("pass --out", "pass --stress-out").replace("--replace",
                                                                          "--stress-replace")
        _fail(msg.replace("--seeds", "--stress-seeds").replace("--budget", "--stress"), 2)


def _compiled(saver):
    from alignment.pipeline import graph

    return graph.compile(checkpointer=saver)


def _step_text(s: dict) -> str:
    if s.get("poke"):
        return "poke " + ", ".join(f"{k}={v}" for k, v in s["poke"].items())
    if s.get("frames") is not None:
        return f"{s['action']} x{s['frames']}"
    return f"{s['action']} x{s.get('agent_steps')} agent steps"


def _show_rule(console: Console, rule: dict[str, Any]) -> None:
    console.print(f"[bold]{rule['id']}[/bold] ({rule['why']})")
    console.print(f"  {rule['statement']}", soft_wrap=True)
    span = rule.get("span")
    if span:
        where = f"{span['document']} [{span['start']}:{span['end']}]"
        text = span.get("text")
        console.print(f"  cites {where}" + (f": \"{' '.join(text.split())}\"" if text else ""),
                      soft_wrap=True)
    probe = rule.get("probe")
    if probe:
        steps = ", ".join(_step_text(s) for s in probe["steps"])
        checks = ", ".join(f"{e['signal']} {e['op']}" + (f" {e['value']}" if e.get("value") is not None
                                                          else "") for e in probe["expectations"])
        console.print(f"  probe: from {probe['start']}, {steps}; expect {checks}", soft_wrap=True)
    else:
        console.print("  probe: none")


def _budget_line(game: str, budget: str) -> str:
    """Which audit the run makes and the command for the other one."""
    from alignment.audit.command import DEFAULT_MUTANTS

    if budget == "full":
        return ("audit: the full one (every start played longer, the whole deep recording, "
                f"{DEFAULT_MUTANTS} sampled mutants); the quick one is "
                f"`{audit_command(game, 'quick')}`")
    return ("audit: the quick one, a pull request's exploration budget (fewer and shorter walks, "
            "less deep play) without mutation testing; the full audit is "
            f"`{audit_command(game, 'full')}`")


def _show_audit(console: Console, audit: dict) -> None:
    """Where the run's audit is, its verdicts against the committed audit's, and what became of
    the committed one."""
    against = audit.get("committed") or {}
    console.print(f"audit: wrote {' and '.join(audit.get('files') or [audit['path']])}"
                  + (f"; {against['said']}" if against.get("said") else ""),
                  soft_wrap=True, markup=False, highlight=False)
    for line in against.get("differences") or ():
        console.print(f"  differs: {line}", soft_wrap=True, markup=False, highlight=False)
    if against.get("not_compared"):
        console.print(f"  not compared: {', '.join(against['not_compared'])}", soft_wrap=True,
                      markup=False, highlight=False)
    if against.get("kept"):
        console.print(f"audit: {against['kept']}", soft_wrap=True, markup=False, highlight=False)


def _show(console: Console, info: runs.RunInfo) -> int:
    table = Table(title=f"run {info.run_id} ({info.game}): {info.status}", title_justify="left")
    for col in ("stage", "status", "detail"):
        table.add_column(col)
    for stage, status, detail in stage_rows(info.values):
        table.add_row(stage, status, detail)
    console.print(table)
    for err in info.values.get("errors") or ():
        console.print(f"[yellow]note:[/yellow] {err}", soft_wrap=True)
    if info.waiting and info.waiting.get("kind") == "review":
        console.print(f"{len(info.waiting['rules'])} rule(s) of {info.waiting['spec_path']} "
                      "wait for review:")
        for rule in info.waiting["rules"]:
            _show_rule(console, rule)
        console.print(f"answer with `jaxtari-align review {info.run_id}` (or --accept/--reject "
                      f"RULE), then `jaxtari-align run {info.game} --resume {info.run_id}`")
        return 0
    if info.waiting:
        console.print(f"no recorded playtest of {info.game}: record one with "
                      f"`{info.waiting['command']}`, then `jaxtari-align run {info.game} "
                      f"--resume {info.run_id}`")
        return 0
    if info.status.startswith(("failed", "stopped")):
        console.print(f"resume with `jaxtari-align run {info.game} --resume {info.run_id}` "
                      f"(traceback, if any: logs/{info.run_id}.log in the state directory)")
        return 1
    audit = info.values.get("audit") or {}
    if audit.get("budget"):
        console.print(_budget_line(info.game, audit["budget"]), soft_wrap=True, markup=False)
    if audit.get("path"):
        _show_audit(console, audit)
    report = (info.values.get("report") or {}).get("path")
    if report:
        console.print(f"report: {report}", soft_wrap=True, markup=False, highlight=False)
    failed = [s for s, status, _ in stage_rows(info.values) if status == "failed"]
    return 1 if failed else 0


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run_command(
        game: str = typer.Argument(..., help="game to run the pipeline on, e.g. frostbite"),
        resume: Optional[str] = typer.Option(None, "--resume", help="continue the run with this id"),
        extract: bool = typer.Option(False, "--extract",
                                     help="re-extract the spec from documents (default: reuse the "
                                          "committed specs/GAME.yaml when there is one)"),
        docs: Optional[str] = typer.Option(None, "--docs", help="offline documents corpus"),
        online: bool = typer.Option(False, "--online",
                                    help="fetch the documents over HTTP when a spec is extracted"),
        llm: str = typer.Option("offline", "--llm", help="offline | anthropic | openai"),
        model: Optional[str] = typer.Option(None, "--model", help="LLM model name (with --llm)"),
        faults: bool = typer.Option(True, "--faults/--no-faults", help="audit seeded faults"),
        quick: bool = typer.Option(
            True, "--quick/--full",
            help="the audit's exploration budget: --quick (default) is a pull request's audit, "
                 "minutes; --full plays every start longer and from the whole deep recording"),
        playtest_missing: str = typer.Option(
            "mark", "--playtest-missing", help="no recorded session: mark | interrupt"),
        stress: Optional[str] = typer.Option(
            None, "--stress", help="stress budget (smoke, cpu, paper or steps); default: skipped"),
        stress_obs: str = typer.Option("objects", "--stress-obs", help="objects | pixels"),
        stress_seeds: int = cli_checks.count_option(5, "--stress-seeds", "seeds per backend",
                                                    high=MAX_STRESS_SEEDS),
        stress_out: Path = typer.Option(Path(artefacts.STRESS.folder), "--stress-out",
                                        help="stress report and checkpoint folder"),
        stress_replace: bool = typer.Option(
            False, "--stress-replace",
            help="overwrite a stress report in --stress-out that holds more than this run would "
                 "(budget, seeds, backends) or was trained with other hyperparameters"),
        state: Optional[str] = typer.Option(None, "--state-dir", help=_STATE_HELP),
    ) -> None:
        """Run the pipeline on GAME: spec -> review -> audit -> playtest replay -> stress -> report."""
        console = Console()
        # a resumed run names its own game (checked below); a new one must be a game we have
        slug = game.strip().lower() if resume else resolve_game(game)
        root = runs.state_dir(state)
        try:
            cfg = Configuration(extract=extract, docs=docs, online=online, llm=llm, model=model,
                                faults=faults, audit_budget="quick" if quick else "full",
                                playtest_missing=playtest_missing, stress_budget=stress,
                                stress_obs=stress_obs, stress_seeds=stress_seeds,
                                stress_dir=str(stress_out), stress_replace=stress_replace,
                                reports_dir=str(root / "reports"))
        except ValueError as err:
            _fail(str(err), 2)

        cli_checks.output_dir(root, "--state-dir")
        if stress and not resume:
            cli_checks.output_dir(stress_out, "--stress-out")
            _check_stress(slug, cfg)
        if not resume:
            console.print(_budget_line(slug, cfg.audit_budget), soft_wrap=True, markup=False)
        try:
            with runs.open_store(root) as saver, console.status("running spec") as spinner:
                def progress(node: str, update: dict, upcoming: tuple[str, ...]) -> None:
                    outcome = update.get(node) or {}
                    if outcome.get("status"):
                        console.print(f"{node}: {outcome['status']}"
                                      + (f" - {outcome['detail']}" if outcome.get("detail") else ""),
                                      soft_wrap=True, markup=False)
                    if upcoming:
                        spinner.update(f"running {', '.join(upcoming)}")

                lines = ProgressLines(lambda text: console.print(text, soft_wrap=True, markup=False,
                                                                 highlight=False))

                def step(stage: str, label: str) -> None:
                    if console.is_terminal:  # the spinner shows it; a file gets a line now and then
                        spinner.update(f"running {stage}: {label}")
                    else:
                        lines(stage, label)

                compiled = _compiled(saver)
                run_id = resume or runs.new_run_id(slug)
                with runs.run_lock(root, run_id):
                    if resume:
                        info = runs.find_run(compiled, saver, resume)
                        if info.game != slug and info.game != resolve_game(game):
                            _fail(f"run {resume} is a run of {info.game}, not {slug}; resume it "
                                  f"with `jaxtari-align run {info.game} --resume {resume}`", 2)
                        made = Configuration.from_dict(info.values.get("settings") or {})
                        if not quick and made.audit_budget != "full":
                            _fail(f"run {resume} makes the {made.audit_budget} audit, and a run "
                                  "keeps its settings: the full audit is a new run, "
                                  f"`{audit_command(info.game, 'full')}`", 2)
                        spinner.update(f"running {', '.join(info.next) or 'nothing: done'}")
                        info = execute.resume(compiled, info, root, progress, step)
                    else:
                        info = execute.start(compiled, slug, cfg, root, run_id=run_id,
                                             on_stage=progress, on_progress=step)
        except (runs.RunStoreError, runs.UnknownRunError, runs.RunBusyError,
                execute.NeedsAnswer) as err:
            _fail(str(err))
        raise typer.Exit(_show(console, info))

    @app.command("review")
    def review_command(
        run_id: str = typer.Argument(..., help="the run waiting for review"),
        accept: list[str] = typer.Option([], "--accept", help="accept this rule (repeatable)"),
        reject: list[str] = typer.Option([], "--reject", help="reject this rule (repeatable)"),
        state: Optional[str] = typer.Option(None, "--state-dir", help=_STATE_HELP),
    ) -> None:
        """Answer a run's review: accept or reject each new or changed rule (then `run --resume`)."""
        console = Console()
        root = runs.state_dir(state)
        try:
            with runs.open_store(root) as saver:
                info = runs.find_run(_compiled(saver), saver, run_id)
        except (runs.RunStoreError, runs.UnknownRunError) as err:
            _fail(str(err))
        if not info.waiting or info.waiting.get("kind") != "review":
            _fail(f"run {run_id} does not wait for review (status: {info.status})")
        rules = info.waiting["rules"]
        ids = [r["id"] for r in rules]
        if accept or reject:
            answer = {"accept": list(accept), "reject": list(reject)}
        else:
            answer = {"accept": [], "reject": []}
            console.print(f"{len(rules)} rule(s) of {info.waiting['spec_path']} wait for review. "
                          "To edit one, change the spec file, then accept it.")
            for rule in rules:
                _show_rule(console, rule)
                try:
                    choice = typer.prompt("  accept, reject or skip? [a/r/s]", default="s")
                except (EOFError, typer.Abort):
                    _fail("no answer read; answer with --accept RULE / --reject RULE")
                choice = choice.strip().lower()[:1]
                if choice in ("a", "r"):
                    answer["accept" if choice == "a" else "reject"].append(rule["id"])
        try:
            check_answer(answer, ids)
        except ReviewAnswerError as err:
            _fail(str(err), 2)
        path = runs.save_answer(root, run_id, answer)
        console.print(f"{len(answer['accept'])} accepted, {len(answer['reject'])} rejected, "
                      f"{len(ids) - len(answer['accept']) - len(answer['reject'])} left for later "
                      f"(saved in {path}); continue with "
                      f"`jaxtari-align run {info.game} --resume {run_id}`")

    @app.command("runs")
    def runs_command(
        state: Optional[str] = typer.Option(None, "--state-dir", help=_STATE_HELP),
    ) -> None:
        """List pipeline runs with their game, the stage reached and their status."""
        root = runs.state_dir(state)
        if not runs.db_path(root).exists():
            typer.echo(f"no runs yet (no {runs.db_path(root)})")
            return
        try:
            with runs.open_store(root) as saver:
                compiled = _compiled(saver)
                infos = [runs.run_info(compiled, r) for r in runs.run_ids(saver)]
        except runs.RunStoreError as err:
            _fail(str(err))
        table = Table(title=f"runs in {root}", title_justify="left")
        for col in ("run", "game", "stage reached", "status"):
            table.add_column(col)
        for info in infos:
            table.add_row(info.run_id, info.game, info.stage, info.status)
        Console().print(table)
