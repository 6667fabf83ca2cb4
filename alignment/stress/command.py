"""``jaxtari-align stress GAME``: train PPO on ALE and on the JAX game, compare, write the report."""

from __future__ import annotations

from pathlib import Path

import typer

from alignment import artefacts, atomic, cli_checks
from alignment.learning.config import BUDGETS, OBS_MODES, LearnerInputError
from alignment.stress.anchors import ANCHOR_EPISODES
from alignment.stress.config import MAX_SEEDS, StressInputError
from jaxtari.protocol import V5


def _progress_bar(total_per_backend: dict[str, int]):
    """A rich progress display: one bar per backend, with agent steps per second."""
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    progress = Progress(
        TextColumn("{task.description:>4}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} steps/s"), TimeElapsedColumn(), TimeRemainingColumn(),
    )
    tasks = {b: progress.add_task(b, total=n, rate="-", start=False) for b, n in total_per_backend.items()}
    seen: dict[str, int] = {}

    def on_progress(backend: str, steps: int) -> None:
        task = tasks[backend]
        if backend not in seen:
            # the first call reports steps restored from checkpoints: not counted in the rate
            seen[backend] = steps
            progress.start_task(task)
            progress.update(task, completed=steps)
            return
        progress.advance(task, steps)
        t = progress.tasks[task]
        done = t.completed - seen[backend]
        elapsed = t.elapsed or 0.0
        progress.update(task, rate=f"{done / elapsed:,.0f}" if elapsed > 0 else "-")

    return progress, on_progress


EXIT_PAUSED = 75  # EX_TEMPFAIL: stopped at --max-minutes, resumable
MAX_MINUTES = 60.0 * 24 * 366  # a year: a bound on --max-minutes that inf or 1e300 are not


def _checkpoint_every(seconds: float | None) -> float:
    if seconds is not None:
        return float(seconds)
    import jax

    return 0.0 if jax.default_backend() == "cpu" else 60.0


def stress(
    game: str = typer.Argument(..., help="game name, e.g. freeway or pong"),
    obs: str = typer.Option("objects", "--obs", help=f"observations: {'|'.join(OBS_MODES)}"),
    budget: str = typer.Option("smoke", "--budget",
                               help=f"{'|'.join(BUDGETS)} or agent steps per seed"),
    seeds: int = cli_checks.count_option(5, "--seeds", "seeds per backend", high=MAX_SEEDS),
    backends: str = typer.Option("ale,jax", "--backends", help="comma separated: ale,jax"),
    out: Path = typer.Option(Path(artefacts.STRESS.folder), "--out",
                             help="report and checkpoint folder"),
    replace: bool = typer.Option(False, "--replace",
                                 help="overwrite a report in --out (and an --export-policy file) "
                                      "that holds more than this run would (budget, seeds, "
                                      "backends) or was trained with other hyperparameters; "
                                      "without it such a run is refused"),
    fresh: bool = typer.Option(False, "--fresh", help="discard checkpoints of this budget first"),
    seeds_by: str = typer.Option("auto", "--seeds-by",
                                 help="JAX side: auto|map|vmap (auto: lax.map on the CPU, "
                                      "bit-identical to one seed alone; vmap on an accelerator)"),
    max_minutes: float = typer.Option(None, "--max-minutes", min=0.1, max=MAX_MINUTES,
                                      help="stop, checkpointed, after this many minutes of "
                                           "training (exit code 75); the same command resumes"),
    checkpoint_every: float = typer.Option(None, "--checkpoint-every", min=0.0, max=60.0 * MAX_MINUTES,
                                           help="seconds between checkpoints (default: every "
                                                "interval on the CPU, 60 s on an accelerator)"),
    export_policy: Path = typer.Option(None, "--export-policy",
                                       help="write the JAX side's trained agents (every seed) "
                                            "to this policy file (.npz) when training ends"),
    mods: list[str] = typer.Option([], "--mods",
                                   help="train on the modified game (comma separated or repeated): "
                                        "on ALE with every mod's RAM-write counterpart; a mod "
                                        "without one runs JAX-only (--backends jax)"),
    protocol: str = typer.Option("v5", "--protocol",
                                 help="the env the JAX side trains in: v5 (ALE v5: sticky 0.25) "
                                      "or envpool (CleanRL's EnvPool env: sticky off, no-op "
                                      "starts, fire reset; pixels, --backends jax; the report "
                                      "and checkpoints named <game>-pixels-envpool)"),
) -> None:
    """Train PPO with identical hyperparameters on each backend and compare the learning curves
    (IQM with bootstrap bands, probability of improvement, AUC, an equivalence verdict).
    Resumes from checkpoints under OUT/.checkpoints when killed."""
    from rich.console import Console

    from alignment.stress import report
    from alignment.learning.config import budget_config
    from alignment.stress.core import (TrainingPaused, report_name, run_stress, validate,
                                       validate_mods, validate_protocol)
    from alignment.stress.sides import seeds_by_choice

    console = Console(stderr=True)
    cli_checks.output_dir(out, "--out")  # a usage error naming the fix, before any work
    try:  # --mods '' is an error on every stage (cli_checks.mod_list), never "the original game"
        mods = cli_checks.mod_list(mods)
    except cli_checks.InputError as exc:
        raise cli_checks.usage("--mods", exc) from None
    kinds = tuple(b.strip() for b in backends.split(",") if b.strip())
    try:
        canon, kinds = validate(game, obs, kinds, seeds)
        mods = list(validate_mods(canon, mods, obs, kinds))
        config = budget_config(budget, obs, protocol)
        validate_protocol(protocol, kinds, mods)
        seeds_by_choice(seeds_by)
        if export_policy is not None and "jax" not in kinds:
            raise StressInputError("--export-policy writes the JAX side's agents: add jax to "
                                   "--backends")
        if export_policy is not None and not replace:  # nor a committed policy by a weaker one
            _check_policy_not_weaker(export_policy, canon, obs, config.total_timesteps, seeds,
                                     mods, protocol)
        if not replace:  # a committed report is never replaced by one that trained less
            report.check_replace(out, report_name(canon, mods, obs, protocol), config,
                                 range(seeds), kinds)
    except LearnerInputError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2)
    progress, on_progress = _progress_bar({b: config.num_updates * config.batch_size * seeds
                                           for b in kinds})
    command = artefacts.command_line()
    try:
        with progress:
            result = run_stress(game, obs=obs, budget=budget, seeds=seeds, backends=kinds,
                                out_dir=out, on_progress=on_progress, resume=not fresh,
                                command=command, seeds_by=seeds_by, mods=mods,
                                max_seconds=None if max_minutes is None else 60.0 * max_minutes,
                                checkpoint_every=_checkpoint_every(checkpoint_every),
                                protocol=protocol)
    except LearnerInputError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2)
    except TrainingPaused as paused:
        console.print(f"[yellow]paused:[/yellow] {paused}")
        raise typer.Exit(EXIT_PAUSED)
    report.write(result, out)
    if export_policy is not None:
        from alignment.stress.export import export_policy as export

        path = export(canon, config, seeds, out, export_policy, mods)
        typer.echo(f"wrote the JAX side's agents ({seeds} seeds) to {path}")
    for note in result.notes:
        console.print(f"[yellow]note:[/yellow] {note}")
    v = result.verdict
    typer.echo(f"{result.name}: {v['label']} — {v['detail']}")
    typer.echo(f"wrote {out / (result.name + '.json')}, .md and plots")


def _check_policy_not_weaker(dest: Path, game: str, obs: str, steps: int, seeds: int,
                             mods, protocol: str = "v5") -> None:
    """Refuse, before any training, a run whose exported agents would replace a policy file that
    holds more (seeds, steps) or agents of another game, observation mode or mods."""
    from alignment import atomic
    from alignment.learning import policy as pol

    try:
        atomic.check_writable(dest, what="--export-policy file")
        cli_checks.check_report_not_weaker(
            dest, artefacts.POLICY.schema, pol.measures,
            pol.measures({"seeds": list(range(seeds)), "steps": steps, "game": game, "obs": obs,
                          "mods": list(mods), "config": {"protocol": protocol}}),
            what="policy file", option="--export-policy",
            read=pol.read_meta)
    except (cli_checks.InputError, atomic.OutputLocationError) as exc:
        raise StressInputError(str(exc)) from None


def stress_remake(
    reports: list[Path] = typer.Argument(..., help="stress JSON reports, e.g. stress/pong-objects.json"),
) -> None:
    """Re-make stress reports (JSON, markdown, plots) from their per-seed returns with the current
    statistics: no retraining. A report without the random policy's return gets it measured on
    ALE (the margin is a share of the gain over it)."""
    from alignment import atomic
    from alignment.stress import report
    from alignment.stress.remake import RemakeError, remake

    try:  # every report readable and its folder writable before the first is re-made
        for path in reports:
            cli_checks.input_file(path, "REPORT")
            atomic.check_writable_dir(path.parent, what="the report's folder")
    except (cli_checks.InputError, atomic.OutputLocationError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    for path in reports:
        try:
            result = remake(path)
        except RemakeError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2)
        written = report.write(result, path.parent)
        v = result.verdict
        typer.echo(f"{path}: {v['label']} — {v['detail']}")
        typer.echo("wrote " + ", ".join(str(p) for p in written.values()))


def _progress(side: str, agent_seed: int, eps) -> None:
    """One agent's games on one side, as the transfer commands report them while they play."""
    import numpy as np

    typer.echo(f"{side}: agent {agent_seed}: {len(eps.returns)} games, mean return "
               f"{np.mean(eps.returns):.2f}", err=True)


def transfer(
    game: str = typer.Argument(..., help="game name, e.g. pong"),
    policy: Path = typer.Option(None, "--policy",
                                help="policy file (default: stress/policies/<game>-<obs>.npz)"),
    obs: str = typer.Option("pixels", "--obs", help=f"observations: {'|'.join(OBS_MODES)}"),
    episodes: int = typer.Option(100, "--episodes", min=2, max=100_000,
                                 help="whole games per agent and side"),
    seed: int = typer.Option(0, "--seed", min=0, max=2**31 - 1 - 100_000,
                             help="evaluation seed (episode k plays with seed + k)"),
    agents: str = typer.Option("", "--agents",
                               help="comma separated training seeds of the file to play "
                                    "(default: all)"),
    out: Path = typer.Option(Path(artefacts.TRANSFER.folder), "--out", help="report folder"),
    max_frames: int = typer.Option(V5.max_num_frames_per_episode, "--max-frames", min=4,
                                   max=V5.max_num_frames_per_episode,
                                   help="emulator frames per game (ALE v5: "
                                        f"{V5.max_num_frames_per_episode:,})"),
    anchor_episodes: int = typer.Option(ANCHOR_EPISODES, "--anchor-episodes", min=0, max=100_000,
                                        help="whole games per agent on ALE under the published "
                                             "anchor's protocol (0: none)"),
    replace: bool = typer.Option(False, "--replace",
                                 help="overwrite a report in --out that holds more than this run "
                                      "would (agents, games, frames per game, anchor games, the "
                                      "policy's training steps); without it such a run is refused"),
) -> None:
    """Agents trained on the JAX game play ALE and the JAX game under the v5 protocol; the two
    return distributions are compared (TOST at 10% of the gain over random, a bootstrap interval
    of the difference, where a matched episode first parts in the game's signals and in the
    agent's observation); then the agents play ALE under the published anchor's protocol."""
    from alignment.learning import policy as pol
    from alignment.stress import transfer_report
    from alignment.stress.core import validate
    from alignment.stress.transfer import anchor_for, evaluate

    cli_checks.output_dir(out, "--out")
    try:
        canon, _ = validate(game, obs, ("jax",), 1)
        path = policy or artefacts.POLICY.path(game=canon, obs=obs)
        p = pol.load(path, canon, obs)
        idx = None
        if agents.strip():
            try:
                wanted = [int(a) for a in agents.replace(" ", "").split(",") if a]
            except ValueError:
                raise pol.PolicyError(f"--agents {agents!r}: give training seeds as whole "
                                      f"numbers, comma separated (e.g. 0,1,2)") from None
            if not wanted:
                raise pol.PolicyError(f"--agents {agents!r} names no agent: leave it out for all "
                                      f"of {path}'s ({p.seeds}), or name training seeds")
            twice = sorted({a for a in wanted if wanted.count(a) > 1})
            if twice:
                raise pol.PolicyError(f"--agents {agents!r} names seed(s) {twice} more than once: "
                                      "each agent plays its games once")
            missing = [a for a in wanted if a not in p.seeds]
            if missing:
                raise pol.PolicyError(f"{path} has agents of seeds {p.seeds}, not {missing}")
            idx = [p.seeds.index(a) for a in wanted]
        if not replace:  # a committed transfer is never replaced by one that played less
            played = p.seeds if idx is None else [p.seeds[i] for i in idx]
            anchored = anchor_episodes if anchor_for(canon, obs) is not None and anchor_episodes \
                else None
            cli_checks.check_artefact_not_weaker(
                artefacts.TRANSFER, out, transfer_report.measures,
                transfer_report.run_measures(p, played, episodes, max_frames, anchored),
                what="transfer report", game=canon, obs=obs)
    except (StressInputError, pol.PolicyError, cli_checks.InputError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)

    command = artefacts.command_line()
    result = evaluate(p, episodes=episodes, seed=seed, agents=idx, max_frames=max_frames,
                      on_progress=_progress, command=command, anchor_episodes=anchor_episodes)
    result.policy_file, result.policy_sha256 = pol.describe_file(path)
    written = transfer_report.write(result, out)
    v = result.verdict
    typer.echo(f"{canon}-{obs} transfer: {v['label']} — {v['detail']}")
    typer.echo("wrote " + ", ".join(str(p) for p in written.values()))


def transfer_anchor(
    game: str = typer.Argument(..., help="game name, e.g. pong"),
    obs: str = typer.Option("pixels", "--obs", help=f"observations: {'|'.join(OBS_MODES)}"),
    episodes: int = typer.Option(ANCHOR_EPISODES, "--episodes", min=1, max=100_000,
                                 help="whole games per agent on ALE"),
    out: Path = typer.Option(Path(artefacts.TRANSFER.folder), "--out", help="report folder"),
    replace: bool = typer.Option(False, "--replace",
                                 help="make again an anchor section that played more games per "
                                      "agent than --episodes; without it such a run is refused"),
) -> None:
    """Add (or make again) the anchor-protocol section of a committed transfer report: its agents
    play ALE under the published anchor's sticky setting, with the report's evaluation seed and
    agents; everything else in the report is kept as it is."""
    import json

    from alignment.learning import policy as pol
    from alignment.stress import transfer_report
    from alignment.stress.core import validate
    from alignment.stress.transfer import anchor_protocol
    from alignment.stress.transfer_check import report_policy

    cli_checks.output_dir(out, "--out")
    try:
        canon, _ = validate(game, obs, ("jax",), 1)
        path = out / artefacts.TRANSFER.name(game=canon, obs=obs)
        if not path.is_file():
            raise pol.PolicyError(f"no transfer report at {path}: run `jaxtari-align transfer "
                                  f"{canon} --obs {obs}` first")
        try:
            result = transfer_report.from_json(json.loads(path.read_text()))
        except ValueError as exc:
            raise pol.PolicyError(f"{path} cannot be read as a transfer report ({exc})") from None
        try:  # recorded from the repository root
            ppath = report_policy(artefacts.REPO_ROOT, result.policy_file, result.policy_sha256)
        except pol.PolicyError as exc:
            raise pol.PolicyError(f"{path}: {exc}: re-run `jaxtari-align transfer {canon} --obs "
                                  f"{obs}`") from None
        p = pol.load(ppath, canon, obs)
        idx = [p.seeds.index(s) for s in result.seeds]
        if not replace:  # the section is the one thing replaced: it must not shrink
            section = {transfer_report.ANCHOR_GAMES: transfer_report.measures(
                transfer_report.to_json(result))[transfer_report.ANCHOR_GAMES]}
            cli_checks.check_not_weaker(
                path, section, {transfer_report.ANCHOR_GAMES: episodes}, what="anchor section",
                fix=f"give --episodes {section[transfer_report.ANCHOR_GAMES]} or more, or "
                    f"--replace to make it again with fewer")
    except (StressInputError, pol.PolicyError, cli_checks.InputError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)

    result.anchor_eval = anchor_protocol(p, episodes=episodes, seed=result.eval_seed, agents=idx,
                                         max_frames=result.max_frames, on_progress=_progress)
    if result.anchor_eval is None:
        typer.echo(f"error: {canon} has no published anchor (stress/anchors/): nothing to "
                   f"evaluate against", err=True)
        raise typer.Exit(2)
    written = transfer_report.write(result, out)
    e = result.anchor_eval
    typer.echo(f"{canon}-{obs} under the anchor's protocol: mean {e['mean']:.2f}, bar "
               f"{e['bar']:.2f} ({'meets' if e['meets'] else 'below'})")
    typer.echo("wrote " + ", ".join(str(p) for p in written.values()))


def transfer_matched(
    game: str = typer.Argument(..., help="game name, e.g. pong"),
    obs: str = typer.Option("pixels", "--obs", help=f"observations: {'|'.join(OBS_MODES)}"),
    out: Path = typer.Option(Path(artefacts.TRANSFER.folder), "--out", help="report folder"),
    play: bool = typer.Option(False, "--play", help="play the matched games again: the report's "
                              "best agent (its committed policy) plays whole games on ALE with "
                              "sticky actions off, and those actions are replayed"),
) -> None:
    """Make again the matched episodes of a committed transfer report from the actions it
    recorded (``--play``: from new games of its agent): every signal, the reward and the agent's
    observation compared on every frame; everything else in the report is kept as it is (minutes,
    where the whole report takes hours)."""
    import json

    from alignment.learning import policy as policies
    from alignment.stress import transfer_report
    from alignment.stress.core import validate
    from alignment.stress.transfer import divergence, matched_games, rematch
    from alignment.stress.transfer_check import report_policy

    cli_checks.output_dir(out, "--out")
    try:
        canon, _ = validate(game, obs, ("jax",), 1)
        path = out / artefacts.TRANSFER.name(game=canon, obs=obs)
        if not path.is_file():
            raise StressInputError(f"no transfer report at {path}: run `jaxtari-align transfer "
                                   f"{canon} --obs {obs}` first")
        try:
            result = transfer_report.from_json(json.loads(path.read_text()))
        except ValueError as exc:
            raise StressInputError(f"{path} cannot be read as a transfer report ({exc})") from None
        if not result.matched:
            raise StressInputError(f"{path} has no matched episodes: make it again with "
                                   f"`jaxtari-align transfer {canon} --obs {obs}`")
        if play:
            try:  # recorded from the repository root
                pfile = report_policy(artefacts.REPO_ROOT, result.policy_file,
                                      result.policy_sha256)
            except policies.PolicyError as exc:
                raise StressInputError(f"{path}: {exc}: make the report again with "
                                       f"`jaxtari-align transfer {canon} --obs {obs}`") from None
            pol = policies.load(pfile, canon, obs)
            first = result.matched[0]
            if first["agent_seed"] not in pol.seeds:
                raise StressInputError(f"{pfile} has no agent of seed {first['agent_seed']}, the "
                                       f"one {path} matched")
            result.matched = matched_games(pol, pol.seeds.index(first["agent_seed"]),
                                           len(result.matched), seed=result.eval_seed,
                                           max_frames=result.max_frames)
        else:
            result.matched = rematch(result)
    except (StressInputError, cli_checks.InputError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    written = transfer_report.write(result, out)
    for m in result.matched:
        typer.echo(f"agent {m['agent_seed']}, episode {m['episode']}: {divergence(m)}")
    typer.echo("wrote " + ", ".join(str(p) for p in written.values()))


def checkpoint_pack(
    checkpoints: Path = typer.Argument(..., help="a run's checkpoint folder, e.g. "
                                       "/tmp/stage4/.checkpoints/asteroids-pixels-10000000"),
    dest: Path = typer.Argument(..., help="folder for the pieces (one sub-folder a seed)"),
    piece_mib: float = typer.Option(15.0, "--piece-mib", min=0.001, max=1024.0,
                                    help="largest piece, MiB (the device returns files of at "
                                         "most 16 MiB)"),
) -> None:
    """Cut each seed's newest good checkpoint of an unfinished `stress` run into pieces small
    enough to leave the machine (and to travel back, a seed a call): `checkpoint-unpack` joins
    them where the run resumes."""
    from alignment.stress.carry import CarryError, pack

    try:
        carried, notes = pack(checkpoints, dest, piece_bytes=int(piece_mib * 2**20))
    except (CarryError, atomic.OutputLocationError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    for c in carried:
        typer.echo(f"{c.run} {c.backend} seed {c.seed}: interval {c.interval} in {c.pieces} "
                   f"piece(s) under {c.path.parent}")


def checkpoint_unpack(
    src: Path = typer.Argument(..., help="folder holding pieces that checkpoint-pack wrote"),
    out: Path = typer.Argument(..., help="the stress run's --out folder, e.g. /tmp/stage4"),
) -> None:
    """Join carried checkpoint pieces under OUT/.checkpoints/, each joined file checked against
    its own checksum; the same `stress` command then resumes the run from them."""
    from alignment.stress.carry import CarryError, unpack

    try:
        joined = unpack(src, out)
    except (CarryError, atomic.OutputLocationError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    for c in joined:
        typer.echo(f"{c.run} {c.backend} seed {c.seed}: interval {c.interval} -> {c.path}")


def register(app: typer.Typer) -> None:
    app.command("checkpoint-pack")(checkpoint_pack)
    app.command("checkpoint-unpack")(checkpoint_unpack)
    app.command("stress")(stress)
    app.command("transfer")(transfer)
    app.command("transfer-anchor")(transfer_anchor)
    app.command("transfer-matched")(transfer_matched)
    app.command("stress-remake")(stress_remake)
