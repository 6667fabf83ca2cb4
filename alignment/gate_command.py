"""``jaxtari-align gate [GAME...]``: the fidelity gate as a command (a table, markdown, exit status)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from alignment import atomic, gate

SUMMARY_ENV = "GITHUB_STEP_SUMMARY"
DEFAULT_MARKDOWN = "fidelity-gate.md"


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _games_with_code() -> list[str]:
    import jaxtari

    return sorted(jaxtari.list_games())


def register(app: typer.Typer) -> None:
    @app.command("gate")
    def gate_command(
        games: Optional[list[str]] = typer.Argument(
            None, help="games to check (default: every game with a spec in specs/ or thresholds)"),
        config: Path = typer.Option(Path("fidelity.toml"), "--config", help="thresholds (TOML)"),
        base: Optional[str] = typer.Option(
            None, "--base", help="git ref to compare with: a figure that dropped fails"),
        markdown: Optional[Path] = typer.Option(
            None, "--markdown", help=f"write the markdown here (default: ${SUMMARY_ENV} when set, "
                                     f"else {DEFAULT_MARKDOWN})"),
        replay: bool = typer.Option(True, "--replay/--no-replay",
                                    help="replay the recorded playtest sessions on both backends"),
        touched: bool = typer.Option(False, "--touched",
                                     help="only print the games the change against --base touches"),
    ) -> None:
        """Check committed audits, playtest sessions and stress reports against fidelity.toml."""
        root = Path(".")
        try:
            if base is not None:
                gate.check_ref(base, root)
            if touched:
                if base is None:
                    _fail("--touched needs --base REF (the branch the change goes into)")
                typer.echo(" ".join(gate.touched_games(base, _games_with_code(), root)))
                return
            cfg = gate.load_config(config)
        except gate.GateConfigError as err:
            _fail(str(err))
        chosen = list(games or gate.default_games(root, cfg))
        unknown = sorted(set(chosen) - set(_games_with_code()))
        if unknown:
            _fail(f"unknown game(s) {', '.join(unknown)}; games: {', '.join(_games_with_code())}")
        verdicts = [gate.evaluate(g, cfg.for_game(g), root=root, base=base,
                                  replay=gate.replay_sessions if replay else None) for g in chosen]

        table = Table(title="fidelity gate" + (f" (against {base})" if base else ""),
                      title_justify="left")
        for col in gate.TABLE_HEADER:
            table.add_column(col)
        for row in gate.table_rows(verdicts):
            table.add_row(*row[:-1], row[-1] if row[-1] == "pass" else f"[red]{row[-1]}[/red]")
        # CI logs are not terminals: without a width rich squeezes the table into 80 columns
        console = Console(width=None if sys.stdout.isatty() else 132)
        console.print(table)
        for v in verdicts:
            for reason in v.failures:
                console.print(f"[red]{v.game}[/red]: {reason}", soft_wrap=True)

        text = gate.markdown(verdicts, base=base)
        summary = os.environ.get(SUMMARY_ENV)
        if summary:
            with open(summary, "a", encoding="utf-8") as f:  # the step summary is appended to
                f.write(text)
        if markdown is not None or not summary:
            path = atomic.write_text(markdown or Path(DEFAULT_MARKDOWN), text)
            console.print(f"markdown: {path}")
        raise typer.Exit(0 if all(v.passed for v in verdicts) else 1)
