"""``jaxtari-align spec GAME``: extract a game's rule spec from its documents into specs/<game>.yaml.

The offline extractor is the default (deterministic, no keys, no network beyond fetching the pages
when no ``--docs`` corpus is given). ``--llm anthropic|openai`` hands the documents to
:func:`alignment.spec.llm_extract.extract`, whose rules are accepted only where their spans are real.
An existing spec's reviewed and rejected rules are kept unless ``--force``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

import typer
from rich.console import Console
from rich.table import Table
from pydantic import ValidationError

from alignment import gamenames
from alignment.docs.cache import default_cache_dir
from alignment.docs.corpus import CorpusError, load_documents
from alignment.docs.document import Document
from alignment.docs.fetch import FetchError
from alignment.docs.text import DocumentError
from alignment.spec import offline
from alignment.spec.schema import (
    GameSpec,
    Rule,
    UnsupportedClaim,
    json_schema_text,
    span_problem,
)
from alignment.spec.store import SpecFileError, load_spec, merge, spec_path, write_spec

PROVIDERS = ("offline", "anthropic", "openai")


class SpecCommandError(RuntimeError):
    """A failure to report as a message (exit code 1), never as a traceback."""


class _no_error(Exception):
    """Stands in for an extractor error class that does not exist (catches nothing)."""


def _llm_rules(game: str, documents: Sequence[Document], provider: str, model: Optional[str],
               ) -> tuple[list[Rule], list[UnsupportedClaim]]:
    """Rules from an LLM, keeping only those whose spans are real (the rest become unsupported)."""
    try:
        from alignment.spec import llm_extract
    except ImportError as err:  # the LLM extractor is a separate module
        raise SpecCommandError(f"the LLM extractor is not available ({err}); use --llm offline") from None
    cache_dir = default_cache_dir() / "llm"
    llm_error = getattr(llm_extract, "LLMError", None) or _no_error
    try:
        rules, unsupported = llm_extract.extract(game, list(documents), provider, model, cache_dir)
    except llm_error as err:
        raise SpecCommandError(f"the {provider} extractor failed: {err}") from None
    by_id = {d.id: d for d in documents}
    accepted: list[Rule] = []
    unsupported = list(unsupported)
    for rule in rules:
        problem = span_problem(rule.source, by_id) if rule.source is not None else (
            "cites no source span" if rule.origin == "document" else None)
        if problem:
            unsupported.append(UnsupportedClaim(statement=rule.statement, reason=problem,
                                                document=rule.source.document if rule.source else None))
        else:
            accepted.append(rule)
    return accepted, unsupported


def build_spec(game: str, documents: Sequence[Document], *, llm: str = "offline",
               model: Optional[str] = None) -> GameSpec:
    """A fresh spec of ``game`` from ``documents`` with the chosen extractor."""
    if llm == "offline":
        return offline.extract(game, documents)
    rules, unsupported = _llm_rules(game, documents, llm, model)
    skeleton = offline.skeleton(game, documents)
    data = skeleton.model_dump()
    data.update(rules=[r.model_dump() for r in rules],
                unsupported=[u.model_dump() for u in unsupported],
                extractor=f"{llm}:{model}" if model else llm)
    try:
        return GameSpec.model_validate(data, context={"documents": {d.id: d for d in documents}})
    except ValidationError as err:
        raise SpecCommandError(f"the {llm} extractor produced an invalid spec: {err}") from None


def _summary(console: Console, spec: GameSpec, path: Path, *, kept: int, added: int,
             skipped: int, discarded: int, missing: list[str]) -> None:
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


def run_spec(game: str, *, llm: str = "offline", model: Optional[str] = None,
             docs: Optional[str] = None, out: str = "specs", force: bool = False,
             console: Optional[Console] = None) -> Path:
    console = console or Console()
    if llm not in PROVIDERS:
        raise SpecCommandError(f"--llm must be one of {', '.join(PROVIDERS)}, not {llm!r}")
    try:
        slug = gamenames.resolve(game)
        loaded = load_documents(slug, docs_dir=docs)
    except (gamenames.UnknownGameError, CorpusError, DocumentError, FetchError) as err:
        raise SpecCommandError(str(err)) from None
    if not loaded.documents:
        raise SpecCommandError(
            f"no documents found for {slug}:\n  - " + "\n  - ".join(loaded.missing)
        )
    try:
        fresh = build_spec(slug, loaded.documents, llm=llm, model=model)
    except DocumentError as err:
        raise SpecCommandError(str(err)) from None
    path = spec_path(out, slug)
    existing = None
    if path.exists():
        try:
            existing = load_spec(path)
        except SpecFileError as err:
            if not force:
                raise SpecCommandError(f"{err}\n(or pass --force to overwrite it)") from None
    result = merge(fresh, existing, force=force, documents=loaded.by_id())
    write_spec(result.spec, path)
    _summary(console, result.spec, path, kept=len(result.kept), added=len(result.added),
             skipped=len(result.skipped), discarded=result.discarded_reviews,
             missing=loaded.missing)
    return path


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
        out: str = typer.Option("specs", "--out", help="directory of the spec files"),
        force: bool = typer.Option(False, "--force", help="discard reviewed rules and overwrite"),
        schema: bool = typer.Option(False, "--schema", help="print the spec JSON schema and exit"),
    ) -> None:
        """Extract the rule spec of GAME from its Farama page and AtariAge manual."""
        if schema:
            typer.echo(json_schema_text(), nl=False)
            return
        if not game:
            typer.echo("error: give a GAME (e.g. `jaxtari-align spec frostbite`), or --schema", err=True)
            raise typer.Exit(2)
        try:
            run_spec(game, llm=llm, model=model, docs=docs, out=out, force=force)
        except SpecCommandError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(1) from None
