"""``jaxtari-align audit GAME``: audit a JAX game against its reviewed spec on the real emulator."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

DEFAULT_OUT = Path("audits")


def register(app) -> None:
    import typer

    @app.command("audit")
    def audit_command(
        game: str = typer.Argument(..., help="catalog game: pong, freeway, frostbite, ..."),
        llm: str = typer.Option("offline", "--llm", help="offline | anthropic | openai: who reads "
                                "each rule against the game's source (offline: the rule tags only)"),
        model: Optional[str] = typer.Option(None, "--model", help="model id for --llm"),
        out: Path = typer.Option(DEFAULT_OUT, "--out", help="folder for <game>.json and <game>.md"),
        specs: Path = typer.Option(Path("specs"), "--specs", help="folder of <game>.yaml specs"),
        against: Optional[str] = typer.Option(
            None, "--against", help="report to compare with: a file, or a git ref whose "
            "<out>/<game>.json is read (default: the report now in --out)"),
        faults: bool = typer.Option(True, "--faults/--no-faults", help="run the seeded faults"),
        faults_dir: Path = typer.Option(Path("tests/faults"), "--faults-dir",
                                        help="folder of <game>.py seeded-fault sets"),
        docs: Optional[str] = typer.Option(None, "--docs", help="documents corpus to check the "
                                           "spec's spans against (default: $JAXTARI_ALIGN_DOCS)"),
    ) -> None:
        """Probe every reviewed rule on ALE and on JAX, trace it to the code, measure precision,
        seed faults; write <out>/<game>.json and <game>.md."""
        from rich.console import Console

        from alignment.audit import core, report
        from alignment.docs.corpus import CorpusError
        from alignment.llm import PROVIDERS, LLMError

        err = Console(stderr=True)

        def fail(msg: str) -> None:
            err.print(f"error: {msg}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(1)

        if llm not in PROVIDERS:
            fail(f"unknown --llm {llm!r}; use one of: {', '.join(PROVIDERS)}")
        try:
            core.check_out_dir(out)
            canon = _canonical(game)
            previous, ref = report.load_reference(canon, out, against)
            with err.status(f"audit {canon}") as status:
                result = core.run_audit(
                    canon, llm=llm, model=model, out_dir=out, specs_dir=specs, faults=faults,
                    faults_dir=faults_dir, docs=docs,
                    progress=lambda label: status.update(f"audit {canon}: {label}"))
            paths = report.write(result, out, previous=previous, ref=ref)
        except (core.AuditError, CorpusError, LLMError) as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write the audit to {str(out)!r}: {exc}")
        _print(Console(), result, paths, previous is not None)
        s = result.summary()
        if s["failing_on_jax"] or s["probe_errors"]:
            raise typer.Exit(1)


def _canonical(game: str) -> str:
    from alignment import catalog
    from alignment.audit.core import AuditError

    try:
        return catalog.canonical(game)
    except catalog.UnknownCatalogGame as exc:
        raise AuditError(str(exc)) from None


def _print(console, result, paths, compared: bool) -> None:
    from rich.table import Table

    s = result.summary()

    def pct(x):
        return "-" if x is None else f"{100 * x:.1f}%"

    t = Table(title=f"audit of {result.game}")
    for c in ("coverage", "recall", "precision", "seeded faults", "probes failing on ALE"):
        t.add_column(c)
    t.add_row(f"{pct(s['coverage'])} ({s['probed_rules']}/{s['reviewed_rules']})",
              pct(s["recall"]), pct(s["precision"]),
              f"{s['seeded_faults_detected']}/{s['seeded_faults']}", str(s["probes_failing_on_ale"]))
    console.print(t)
    for r in result.rules:
        if r.outcome in ("fail", "probe-error", "wrong-probe"):
            console.print(f"[red]{r.outcome}[/red] {r.id}: {r.detail}", soft_wrap=True)
    for p in paths:
        console.print(f"wrote {p}")
