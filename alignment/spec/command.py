"""``jaxtari-align spec GAME``: extract a game's rule spec from its documents into specs/<game>.yaml.

The work is :func:`alignment.spec.core.build`, stored by :func:`alignment.spec.store.write`; this
module parses the options and prints what it returned.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from alignment.spec.core import SpecError, SpecResult, build
from alignment import artefacts
from alignment.spec import store
from alignment.spec.schema import json_schema_text

def print_summary(console: Console, result: SpecResult) -> None:
    """The spec's rules by category and status, what the run kept, added and discarded."""
    spec, path, missing = result.spec, result.path, result.missing
    kept, added, skipped = len(result.kept), len(result.added), len(result.skipped)
    discarded = result.discarded_reviews
    table = Table(title=f"{spec.title or spec.game} ({spec.env_id}) - {len(spec.rules)} rules",
                  title_justify="left")
    table.add_column("category")
    for status in ("extracted", "reviewed", "rejected"):
        table.add_column(status, justify="right")
    for cat, rules in spec.by_category().items():
        if not rules:
            continue
        counts = [sum(r.status == s for r in rules) for s in ("extracted", "reviewed", "rejected")]
        table.add_row(cat, *[str(c) if c else "-" for c in counts])
    console.print(table)
    console.print(f"actions: {len(spec.actions)} ({', '.join(spec.actions)})")
    console.print(f"modes {spec.flavors.modes}, difficulties {spec.flavors.difficulties}")
    console.print("sources: " + (", ".join(s.id for s in spec.sources) or "none"))
    for line in missing:
        console.print(f"[yellow]missing:[/yellow] {line}")
    if spec.unsupported:
        console.print(f"[yellow]{len(spec.unsupported)} unsupported claim(s)[/yellow] (no rule made):")
        for claim in spec.unsupported:
            console.print(f"  - {claim.statement} [dim]({claim.reason})[/dim]", soft_wrap=True)
    if kept:
        console.print(f"kept {kept} reviewed/rejected rule(s); added {added} new candidate(s); "
                      f"{skipped} candidate(s) already covered by a reviewed rule")
    if discarded:
        console.print(f"[yellow]--force: discarded {discarded} reviewed/rejected rule(s)[/yellow]")
    console.print(f"wrote {path}")


def register(app: typer.Typer) -> None:
    """Add the ``spec`` command to the jaxtari-align app."""

    @app.command("spec")
    def spec_command(
        game: Optional[str] = typer.Argument(
            None, help="game name, any spelling: Frostbite, ms_pacman, MsPacman, ALE/Pong-v5"),
        llm: str = typer.Option("offline", "--llm", help="extractor: offline | anthropic | openai"),
        model: Optional[str] = typer.Option(None, "--model", help="LLM model name (with --llm)"),
        docs: Optional[str] = typer.Option(
            None, "--docs", help="offline documents corpus (default: $JAXTARI_ALIGN_DOCS, else HTTP)"),
        out: str = typer.Option(artefacts.SPEC.folder, "--out", help="directory of the spec files"),
        force: bool = typer.Option(False, "--force", help="discard reviewed rules and overwrite"),
        schema: bool = typer.Option(False, "--schema", help="print the spec JSON schema and exit"),
        timeout: float = typer.Option(
            180.0, "--timeout", min=1.0, max=3600.0,
            help="with --llm: seconds the model may take in all, retries included"),
    ) -> None:
        """Extract the rule spec of GAME from its Farama page and AtariAge manual."""
        if schema:
            typer.echo(json_schema_text(), nl=False)
            return
        if not game:
            typer.echo("error: give a GAME (e.g. `jaxtari-align spec frostbite`), or --schema", err=True)
            raise typer.Exit(2)
        if llm != "offline":
            from alignment.llm import PROVIDERS, default_model

            if llm in PROVIDERS:
                typer.echo(f"calling {llm} ({model or default_model(llm)}) for the rules of {game}: "
                           f"at most {timeout:g} s; a cached answer is used when there is one",
                           err=True)
        try:
            result = build(game, docs=docs, llm=llm, model=model, out_dir=Path(out), force=force,
                           deadline=timeout)
            store.write(result)
        except SpecError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(1) from None
        print_summary(Console(), result)
