"""``jaxtari-align robustness GAME``: agents trained on the original, zero-shot on each mod, on
both backends; the paper's performance change (PC) and the JAX-vs-ALE verdict per mod."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import List, Optional

import typer

from alignment import artefacts
from alignment.stress.config import BUDGETS


def robustness(
    game: str = typer.Argument(..., help="game name, e.g. freeway or pong"),
    mods: Optional[List[str]] = typer.Option(None, "--mods",
                                             help="mods to evaluate on (comma separated or "
                                                  "repeated: --mods a,b or --mods a --mods b); "
                                                  "default: all of the game's"),
    agents: Optional[Path] = typer.Option(None, "--agents",
                                          help="a stress checkpoint folder "
                                               "(<out>/.checkpoints/<game>-objects-<steps>); "
                                               "default: train at --budget (or reuse that budget's)"),
    seeds: int = typer.Option(5, "--seeds", help="agents (training seeds)"),
    episodes: int = typer.Option(10, "--episodes", help="episodes per agent and variant"),
    budget: str = typer.Option("cpu", "--budget",
                               help=f"training budget when --agents is not given: "
                                    f"{'|'.join(BUDGETS)} or agent steps per seed"),
    backends: str = typer.Option("jax,ale", "--backends", help="comma separated: jax,ale"),
    max_steps: int = typer.Option(27_000, "--max-steps",
                                  help="agent steps per episode at most (27,000: the v5 cap)"),
    train_dir: Path = Path(artefacts.STRESS.folder),
    out: Path = typer.Option(Path(artefacts.ROBUSTNESS.folder), "--out", help="report folder"),
    seed: int = typer.Option(0, "--seed", help="evaluation seed"),
) -> None:
    """Evaluate PPO agents trained on GAME on each of its mods, on the JAX game and, where the
    mod has an ALE counterpart (RAM writes), on the real emulator; random baselines on each.
    Writes OUT/<game>.json, .md and a plot of PC per mod."""
    from rich.console import Console

    from alignment import cli_checks
    from alignment.atomic import OutputLocationError, check_writable_dir
    from alignment.robustness import report
    from alignment.robustness.core import RobustnessInputError, ale_status, run_robustness, validate
    from alignment.stress.config import StressInputError, budget_config

    console = Console(stderr=True)
    kinds = tuple(b.strip() for b in backends.split(",") if b.strip())
    mod_names = [m for item in (mods or []) for m in item.replace(",", " ").split()] or None
    try:
        canon, names, kinds = validate(game, mod_names, kinds, seeds, episodes, max_steps)
        if agents is None:
            budget_config(budget, "objects")
        else:
            cli_checks.input_dir(agents, "--agents")
        check_writable_dir(out)
    except (RobustnessInputError, StressInputError, OutputLocationError,
            cli_checks.InputError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2)
    if "ale" in kinds:
        for m in names:
            why = ale_status(canon, m)["jax_only"]
            if why:
                console.print(f"[yellow]note:[/yellow] {m} has no ALE counterpart ({why}); it runs "
                              f"JAX-only")
    command = "jaxtari-align " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    try:
        result = run_robustness(canon, mods=names, agents_dir=agents, budget=budget, seeds=seeds,
                                episodes=episodes, backends=kinds, max_steps=max_steps,
                                train_dir=train_dir, seed=seed, command=command)
    except (RobustnessInputError, StressInputError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2)
    for note in result.notes:
        console.print(f"[yellow]note:[/yellow] {note}")
    for m in names:
        iqm = {s: result.statistics.get(m, {}).get(s, {}).get("iqm", {}).get("value")
               for s in ("jax", "ale")}
        shown = ", ".join(f"{s} {v:+.2f}" for s, v in iqm.items() if v is not None) or "undefined"
        verdict = result.comparison.get(m, {}).get("label")
        typer.echo(f"{canon} {m}: PC IQM {shown}" + (f"; JAX vs ALE {verdict}" if verdict else ""))
    paths = report.write(result, out)
    typer.echo(f"wrote {paths[0]}, {paths[1].name} and {paths[2].name} "
               f"({result.wall_seconds:.0f} s)")


def register(app: typer.Typer) -> None:
    app.command("robustness")(robustness)
