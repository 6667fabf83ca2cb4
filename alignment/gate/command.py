"""``jaxtari-align gate [GAME...]``: the fidelity gate as a command (a table, markdown, exit status);
``--touched`` lists the games a change touches; ``--verify-artefacts DIR`` compares the committed
artefacts with the ones CI re-made into DIR."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from alignment import artefacts, atomic, cli_checks, gate
from alignment.gate import report, verify

SUMMARY_ENV = "GITHUB_STEP_SUMMARY"
DEFAULT_MARKDOWN = "fidelity-gate.md"


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _games_with_code() -> list[str]:
    import jaxtari

    return sorted(jaxtari.list_games())


def _games_in(root: Path, known: list[str]) -> list[str]:
    """The games whose JAX package is in the repository the gate judges (``root``), which need
    not be the one jaxtari is installed from."""
    games_dir = root / "jaxtari" / "games"
    return [g for g in known if (games_dir / g).is_dir() or (games_dir / f"{g}.py").is_file()]


def _canonical(game: str) -> str:
    """A catalog game in any spelling (``Pong``, ``ALE/Pong-v5``) as its name; anything else as
    given (the unknown-game check names it)."""
    from alignment import catalog

    try:
        return catalog.canonical(game)
    except catalog.UnknownGameError:
        return game


def _head(root: Path) -> Optional[str]:
    out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True)
    return out.stdout.strip()[:12] if out.returncode == 0 else None


# What CODEOWNERS protects (.github/CODEOWNERS): the gate lists each one a change edits.
PROTECTED = ("alignment/gate/", ".github/", "fidelity.toml", "CODEOWNERS")


def protected_changes(base: str, root: Path) -> list[str]:
    """The protected files a change edits against ``base`` (merge base to HEAD and the work tree)."""
    sha = gate.resolve_ref(base, root)
    out = subprocess.run(["git", "diff", "--name-only", sha, "--"], cwd=root, capture_output=True,
                         text=True)
    paths = out.stdout.splitlines() if out.returncode == 0 else []
    return sorted(p for p in paths if any(p == g.rstrip("/") or (g.endswith("/") and
                                                                  p.startswith(g))
                                          for g in PROTECTED))


def removed_games(base: str, root: Path, judged: list[str]) -> list[str]:
    """Games the base judged (a reviewed spec there) that this tree's gate no longer does."""
    then = gate.Artefacts(root, ref=base)
    had = {Path(p).stem for p in then.list(artefacts.SPEC.folder, "*.yaml")}
    return [f"{game}: judged at {base} (specs/{game}.yaml), gone from this change's gate: a game "
            f"leaves the gate only by an owner's decision" for game in sorted(had - set(judged))]


def _declarations(root: Path):
    from alignment.gate import declarations

    def read(sha: Optional[str]) -> dict:
        if sha is None:
            return declarations.current(root)
        return declarations.at_commit(sha, str(root.resolve()))
    return read


def _rekill(root: Path):
    from alignment.gate import rekill

    return lambda game, mutant: rekill.status(game, mutant, root)


def _verify(console: Console, regenerated: Path, root: Path) -> list[str]:
    problems, games = verify.verify_audits(regenerated, root)
    stress_problems, reports = verify.verify_stress(root, out=regenerated)
    console.print(f"verified audits of {', '.join(games) or 'no game'} and "
                  f"{len(reports)} stress report(s) against what the code produces")
    return problems + stress_problems


def _start_traces(games: list[str], root: Path, say):
    """Each game's step traced in the background (:class:`alignment.gate.closure.Traces`) while
    the artefacts are judged: the processes run on the other cores."""
    from alignment.gate import closure

    def traced(game: str, error) -> None:
        say(f"gate: {game}: step traced" if error is None else
            f"gate: {game}: tracing its step failed (the table lists why)")

    traces = closure.Traces(closure.jax_games(games), root, on_traced=traced)
    say(f"gate: tracing each game's step in the background (a fresh interpreter per game; "
        f"{len(games)} game(s), {traces.workers} at a time)")
    return traces


def _judge_all(games: list[str], traces, say, evaluate) -> list:
    """Each game's verdict (``evaluate(game)``), then its trace's problems added (``traces``:
    :class:`alignment.gate.closure.Traces`, or None with ``--no-trace``). A phase that fails
    says which game it was at before the error propagates."""
    verdicts = []
    for game in games:
        say(f"gate: {game}: judging its artefacts")
        try:
            verdicts.append(evaluate(game))
        except Exception:
            say(f"gate: {game}: judging its artefacts failed (the error follows)")
            raise
    if traces is not None:
        waiting = [g for g in games if not traces.done(g)]
        if waiting:
            say(f"gate: waiting for the trace of {', '.join(waiting)}")
        for v in verdicts:
            v.failures += traces.problems(v.game)
    return verdicts


def register(app: typer.Typer) -> None:
    @app.command("gate")
    def gate_command(
        games: Optional[list[str]] = typer.Argument(
            None, help="games to check (default: every game jaxtari has, or with a spec in specs/ or thresholds)"),
        config: Path = typer.Option(Path(artefacts.GATE_CONFIG), "--config", help="thresholds (TOML)"),
        base: Optional[str] = typer.Option(
            None, "--base", help="git ref to compare with: a figure that dropped, a verdict that "
                                 "got worse or a threshold lowered fails"),
        markdown: Optional[Path] = typer.Option(
            None, "--markdown", help=f"write the markdown here (default: ${SUMMARY_ENV} when set, "
                                     f"else {DEFAULT_MARKDOWN})"),
        replay: bool = typer.Option(True, "--replay/--no-replay",
                                    help="replay the recorded playtest sessions on both backends, "
                                         "stale stress reports' fingerprints, and the mutants that "
                                         "survived the base's audit and are recorded killed now"),
        touched: bool = typer.Option(False, "--touched",
                                     help="only print the games the change against --base touches"),
        verify_dir: Optional[Path] = typer.Option(
            None, "--verify-artefacts", help="folder CI re-made the audits into (DIR/audits/): a "
                                             "committed artefact that differs fails"),
        trace: bool = typer.Option(True, "--trace/--no-trace",
                                   help="trace each game's step in a fresh interpreter: a module "
                                        "it imports that its code hash does not cover fails"),
    ) -> None:
        """Re-derive the committed audits, playtest sessions and stress reports and check them
        against fidelity.toml (and against --base)."""
        root = Path(".")
        known = _games_with_code()
        summary = os.environ.get(SUMMARY_ENV)
        try:  # every input and output checked before any game is evaluated
            if verify_dir is not None:
                cli_checks.input_dir(verify_dir, "--verify-artefacts")
            if markdown is not None or not summary:
                atomic.check_writable(markdown or Path(DEFAULT_MARKDOWN), what="--markdown")
            if summary:
                atomic.check_writable(summary, what=f"${SUMMARY_ENV}")
        except (cli_checks.InputError, atomic.OutputLocationError) as err:
            _fail(str(err))
        try:
            if base is not None:
                gate.resolve_ref(base, root)
            if touched:
                if base is None:
                    _fail("--touched needs --base REF (the branch the change goes into)")
                typer.echo(" ".join(gate.touched_games(base, known, root)))
                return
            cfg = gate.load_config(config, known)
            base_cfg = (gate.Artefacts(root, ref=base).config(config.as_posix())
                        if base is not None else None)
        except gate.GateConfigError as err:
            _fail(str(err))
        chosen = [_canonical(g) for g in games] if games else gate.default_games(root, cfg, _games_in(root, known))
        unknown = sorted(set(chosen) - set(known))
        if unknown:
            _fail(f"unknown game(s) {', '.join(unknown)}; games: {', '.join(known)}")
        # progress on stderr, a log file included: a minute's work before the table
        progress = Console(stderr=True)
        say = lambda line: progress.print(escape(line), highlight=False, soft_wrap=True)
        traces = _start_traces(chosen, root, say) if trace else None
        try:
            verdicts = _judge_all(chosen, traces, say, lambda g: gate.evaluate(
                g, cfg.for_game(g), root=root, base=base,
                replay=gate.replay_sessions if replay else None,
                fingerprint=gate.core.current_fingerprint if replay else None,
                transfer=gate.core.current_transfer_replays if replay else None,
                config=cfg, base_config=base_cfg,
                declarations=_declarations(root) if base else None,
                rekill=_rekill(root) if replay else None))
        finally:
            if traces is not None:
                traces.close()

        for v in verdicts:
            if not trace:
                v.notes.append("its step was not traced against its code hash (--no-trace)")
        # CI logs are not terminals: without a width rich squeezes the table into 80 columns
        console = Console(width=None if sys.stdout.isatty() else 132)
        artefact_problems = _verify(console, verify_dir, root) if verify_dir is not None else []
        from alignment.gate import docs

        artefact_problems += docs.problems(
            root, gate.Artefacts(root, ref=base) if base else None, base)
        if base is not None and not games:
            artefact_problems += removed_games(base, root, chosen)

        table = Table(title="fidelity gate" + (f" (against {base})" if base else ""),
                      title_justify="left")
        for col in report.TABLE_HEADER:
            table.add_column(col)
        for row in report.table_rows(verdicts):
            table.add_row(*row[:-1], row[-1] if row[-1] == "pass" else f"[red]{row[-1]}[/red]")
        console.print(table)
        for v in verdicts:
            for reason in v.failures:
                console.print(f"[red]{v.game}[/red]: {escape(reason)}", soft_wrap=True)
        for problem in artefact_problems:
            console.print(f"artefacts: {problem}", soft_wrap=True, markup=False)

        options = {"base": base, "commit": _head(root), "artefact_problems": artefact_problems,
                   "protected": protected_changes(base, root) if base else []}
        text = report.markdown(verdicts, **options)
        if summary:
            with open(summary, "a", encoding="utf-8") as f:  # the step summary is appended to
                f.write(text)
        if markdown is not None or not summary:
            path = report.write(verdicts, markdown or Path(DEFAULT_MARKDOWN), **options)
            console.print(f"markdown: {path}")
        ok = all(v.passed for v in verdicts) and not artefact_problems
        raise typer.Exit(0 if ok else 1)
