"""``jaxtari-align robustness GAME``: agents trained on the original, zero-shot on each mod, on
both backends; the paper's performance change (PC) and the JAX-vs-ALE verdict per mod."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from alignment import artefacts, cli_checks
from alignment.learning.config import BUDGETS
from alignment.robustness.core import MAX_SEEDS
from alignment.robustness.emulators import EmulatorPoolError
from jaxtari.protocol import V5

MAX_WORKERS = 1_024  # processes stepping emulators: beyond any machine's cores


def robustness(
    game: str = typer.Argument(..., help="game name, e.g. freeway or pong"),
    mods: Optional[List[str]] = typer.Option(None, "--mods",
                                             help="mods to evaluate on (comma separated or "
                                                  "repeated: --mods a,b or --mods a --mods b); "
                                                  "default: all of the game's"),
    agents: Optional[Path] = typer.Option(None, "--agents",
                                          help="a stage-4 policy file (stress/policies/"
                                               "<game>-<obs>.npz) or a stress checkpoint folder "
                                               "(<out>/.checkpoints/<game>[+<mod>...]-<obs>-<steps>, "
                                               "a stress --mods run's too); "
                                               "default: train at --budget (or reuse that budget's)"),
    seeds: int = cli_checks.count_option(5, "--seeds", "agents (training seeds)", high=MAX_SEEDS),
    episodes: int = cli_checks.count_option(10, "--episodes", "episodes per agent and variant",
                                            high=cli_checks.MAX_EPISODES),
    budget: str = typer.Option("cpu", "--budget",
                               help=f"training budget when --agents is not given: "
                                    f"{'|'.join(BUDGETS)} or agent steps per seed"),
    backends: str = typer.Option("jax,ale", "--backends", help="comma separated: jax,ale"),
    max_steps: int = cli_checks.count_option(V5.max_agent_steps, "--max-steps",
                                             "agent steps per episode at most",
                                             high=V5.max_agent_steps, why="the v5 cap"),
    train_dir: Path = typer.Option(Path(artefacts.STRESS.folder), "--train-dir",
                                   help="where agents trained at --budget are kept (their stress "
                                        "checkpoints, resumed and reused); not with --agents"),
    out: Path = typer.Option(Path(artefacts.ROBUSTNESS.folder), "--out", help="report folder"),
    seed: int = cli_checks.seed_option(help="evaluation seed"),
    workers: Optional[int] = cli_checks.count_option(
        None, "--workers", "processes stepping ALE's emulators (default: one per core; 1: this "
                           "process alone); the returns are the same whatever it is",
        high=MAX_WORKERS),
    replace: bool = typer.Option(False, "--replace",
                                 help="overwrite a report in --out that holds more than this run "
                                      "would (seeds, episodes, backends, mods, training budget, "
                                      "steps per episode); without it such a run is refused"),
) -> None:
    """Evaluate PPO agents trained on GAME on each of its mods, on the JAX game and, where the
    mod has an ALE counterpart (RAM writes), on the real emulator; random baselines on each.
    Writes OUT/<game>.json, .md and a plot of PC per mod."""
    from rich.console import Console
    from rich.markup import escape

    from alignment.atomic import OutputLocationError, check_writable_dir
    from alignment.robustness import report
    from alignment.robustness.core import (RobustnessInputError, agents_obs, ale_status,
                                           check_not_busy, run_measures, run_robustness, validate)
    from alignment.learning.config import LearnerInputError, budget_config

    console = Console(stderr=True)
    kinds = tuple(b.strip() for b in backends.split(",") if b.strip())
    try:
        mod_names = None if mods is None else cli_checks.mod_list(
            mods, without="leave it out for all of the game's mods")
        canon, names, kinds = validate(game, mod_names, kinds, seeds, episodes, max_steps,
                                       agents_obs(agents))
        if agents is None:
            budget_config(budget, "objects")
            check_not_busy(canon, budget, train_dir)
        elif not agents.is_file():  # a policy file (.npz) or a stress checkpoint folder
            cli_checks.input_dir(agents, "--agents")
        check_writable_dir(out)
        if not replace:  # a committed report is never replaced by one that measured less
            _check_not_weaker(out, canon, run_measures(canon, names, kinds, seeds, episodes,
                                                       max_steps, budget, agents))
    except (RobustnessInputError, LearnerInputError, OutputLocationError,
            cli_checks.InputError) as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise typer.Exit(2)
    if "ale" in kinds:
        for m in names:
            why = ale_status(canon, m)["jax_only"]
            if why:
                console.print(f"[yellow]note:[/yellow] {m} has no ALE counterpart ({why}); it runs "
                              f"JAX-only")
    command = artefacts.command_line()
    try:
        result = run_robustness(canon, mods=names, agents_dir=agents, budget=budget, seeds=seeds,
                                episodes=episodes, backends=kinds, max_steps=max_steps,
                                train_dir=train_dir, seed=seed, command=command, workers=workers,
                                say=lambda line: console.print(escape(line), highlight=False,
                                                               soft_wrap=True))
    except (RobustnessInputError, LearnerInputError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2)
    except EmulatorPoolError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    for note in result.notes:
        console.print(f"[yellow]note:[/yellow] {note}")
    for m in names:
        iqm = {s: result.statistics.get(m, {}).get(s, {}).get("iqm", {}).get("value")
               for s in ("jax", "ale")}
        shown = ", ".join(f"{s} {v:+.2f}" for s, v in iqm.items() if v is not None) or "undefined"
        verdict = result.comparison.get(m, {}).get("label")
        typer.echo(f"{canon} {m}: PC IQM {shown}" + (f"; JAX vs ALE {verdict}" if verdict else ""))
    try:
        paths = report.write(result, out)
    except OSError as exc:
        console.print(f"[red]error:[/red] cannot write the report to "
                      f"{escape(repr(str(out)))}: {escape(str(exc))}", highlight=False,
                      soft_wrap=True)
        raise typer.Exit(1)
    typer.echo(f"wrote {paths[0]}, {paths[1]} and {paths[2]} ({result.wall_seconds:.0f} s)")


def _check_not_weaker(out: Path, game: str, new: dict) -> None:
    """Refuse a run whose report would replace ``out/<game>.json`` with one that measured less."""
    from alignment.robustness.core import report_measures

    cli_checks.check_artefact_not_weaker(artefacts.ROBUSTNESS, out, report_measures, new,
                                         what="robustness report", game=game)


def register(app: typer.Typer) -> None:
    app.command("robustness")(robustness)
