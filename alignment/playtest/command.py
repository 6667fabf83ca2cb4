"""CLI: ``jaxtari-align play GAME`` and ``jaxtari-align playtest replay|list|show|export|script``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape

from alignment import artefacts, catalog, cli_checks

ROOT = Path(artefacts.PLAYTEST_SESSION.folder)
NO_MODS = "none"  # replay --mods none: replay without the recorded mods


class PlaytestCommandError(RuntimeError):
    """Reported as a message with exit code 1, never a traceback."""


def _fail(console, exc) -> None:
    console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
    raise typer.Exit(1)


def _bad_input_errors() -> tuple:
    from jaxtari.mods import ModError

    from alignment.playtest.session import SessionError
    from alignment.playtest.window import PlayError
    from alignment.reference.ale import AleError

    return (PlaytestCommandError, PlayError, SessionError, ModError, AleError,
            catalog.UnknownCatalogGame, ValueError, OSError)


def _check_game(game: str) -> str:
    canon = catalog.canonical(game)
    ok, why = catalog.entry(canon).jax_available()
    if not ok:
        raise PlaytestCommandError(f"cannot play {canon}: {why}")
    return canon


def _play(game, seed, mode, mods, scale, fps, root, hook=None, player=None, max_ticks=None):
    from alignment.playtest.window import PlayWindow

    window = PlayWindow(_check_game(game), seed=seed, mode=mode, mods=mods, scale=scale, fps=fps,
                        root=root, player=player)
    return window.run(hook=hook, max_ticks=max_ticks)


def _session_paths(files: List[Path], game: Optional[str], root: Path) -> list[Path]:
    from alignment.playtest.core import sessions_for

    if files and game:
        raise PlaytestCommandError("give session files or --game, not both")
    if game:
        paths = sessions_for(game, root)
        return paths
    if not files:
        raise PlaytestCommandError("name session files (playtest/<game>/<id>.jsonl.gz) or --game GAME")
    missing = [str(f) for f in files if not Path(f).exists()]
    if missing:
        raise PlaytestCommandError(f"no such session file: {', '.join(missing)}")
    try:  # a folder or an unreadable file, before any session is replayed
        return [cli_checks.input_file(f, "session file") for f in files]
    except cli_checks.InputError as exc:
        raise PlaytestCommandError(str(exc)) from None


def register(app) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()

    @app.command("play")
    def play_command(
        game: str = typer.Argument(..., help="game name, e.g. pong"),
        seed: int = cli_checks.seed_option(help="seed of both sides (episode k uses seed + k)"),
        mode: Optional[int] = typer.Option(None, "--mode", help="game mode (ALE's numbering)"),
        mods: List[str] = typer.Option([], "--mods", help="a mod name; repeat for several"),
        scale: int = typer.Option(2, "--scale", min=1, max=8, help="pixels per Atari pixel"),
        fps: float = typer.Option(60.0, "--fps", callback=cli_checks.finite_fps,
                                  help="frames per second (0: as fast as it goes)"),
        root: Path = typer.Option(ROOT, "--out", help="sessions go to OUT/<game>/<id>.jsonl.gz"),
    ) -> None:
        """Play ALE and the JAX game side by side with one controller; the session is recorded.

        Arrows/WASD move, space fires; P pause, '.' step, Tab slow motion, B bug, G looks right,
        N note (type, Enter), Q quit."""
        root = cli_checks.output_dir(root)
        try:
            mods = cli_checks.mod_list(mods)
        except cli_checks.InputError as exc:
            raise cli_checks.usage("--mods", exc) from None
        try:
            result = _play(game, seed, mode, mods, scale, fps, root)
        except _bad_input_errors() as exc:
            _fail(console, exc)
        first = "none" if result.first_divergence is None else f"frame {result.first_divergence}"
        console.print(f"saved {result.path}: {result.ticks} frames, {result.episodes} episodes, "
                      f"{len(result.marks)} marks, first divergence {first}, {result.fps:.0f} fps")

    pt = typer.Typer(help="Recorded play sessions: replay them as a regression check, list, show, "
                          "export.", no_args_is_help=True)
    app.add_typer(pt, name="playtest")

    @pt.command("replay")
    def replay_command(
        files: List[Path] = typer.Argument(None, help="session files"),
        game: Optional[str] = typer.Option(None, "--game", help="replay every session of a game"),
        root: Path = typer.Option(ROOT, "--root", help="where --game looks for sessions"),
        jax_mods: Optional[List[str]] = typer.Option(
            None, "--jax-mod", help="replace the recorded mods of the JAX side (repeatable)"),
        mods: Optional[List[str]] = typer.Option(
            None, "--mods", help="replace the recorded mods on both sides (ALE where a mod has an "
                                 f"ALE counterpart; comma separated or repeated; {NO_MODS}: none)"),
        report: Optional[Path] = typer.Option(None, "--report", help="also write DIR/replay.{json,md}"),
    ) -> None:
        """Re-run each session's actions on both backends and check every recorded signal, frame by
        frame. Exit status 1 when any session fails."""
        from alignment.playtest import report as report_mod
        from alignment.playtest.core import replay

        try:
            paths = _session_paths(files or [], game, root)
            if report is not None and report.exists() and not report.is_dir():
                raise PlaytestCommandError(f"--report {report} is a file; give a folder")
            if not paths:
                # Whether a game must be playtested is the gate's call (fidelity.toml), not this one's.
                canon = catalog.canonical(game)
                console.print(f"no sessions for {canon} under {root / canon}: nothing to replay "
                              f"(record one with `jaxtari-align play {canon}`)", soft_wrap=True)
                return
            both = (None if mods is None else [] if mods == [NO_MODS] else cli_checks.mod_list(
                mods, without=f"--mods {NO_MODS} replays without the recorded mods; leave it "
                              "out to keep them"))
            results = replay(paths, jax_mods=jax_mods, mods=both)
        except _bad_input_errors() as exc:
            _fail(console, exc)
        table = Table(title="playtest replay")
        for col in ("session", "game", "frames", "result", "seconds"):
            table.add_column(col, overflow="fold")
        for r in results:
            colour = "green" if r.passed else "red"
            table.add_row(escape(str(r.path)), escape(r.game or "?"), f"{r.frames}/{r.recorded_frames}",
                          f"[{colour}]{report_mod.status(r)}[/{colour}]", f"{r.seconds:.1f}")
        console.print(table)
        for r in results:
            text = report_mod.detail(r)
            if text:
                console.print(escape(f"{r.path}: {text}"), highlight=False, soft_wrap=True)
            if r.code_changed or len(r.differences) > 1:
                for d in r.differences:
                    console.print(escape(f"  {d.describe()} ({d.frames_differing} frames)"),
                                  highlight=False, soft_wrap=True)
        if report is not None:
            for p in report_mod.write(results, report):
                console.print(f"wrote {p}")
        if not all(r.passed for r in results):
            raise typer.Exit(1)

    @pt.command("list")
    def list_command(
        game: Optional[str] = typer.Option(None, "--game", help="only this game's sessions"),
        root: Path = typer.Option(ROOT, "--root", help="the sessions folder"),
    ) -> None:
        """The recorded sessions with their marks."""
        from alignment.playtest.report import session_summary
        from alignment.playtest.session import list_sessions, read_session

        try:
            paths = list_sessions(root, catalog.canonical(game) if game else None)
        except _bad_input_errors() as exc:
            _fail(console, exc)
        if not paths:
            console.print(f"no sessions under {root}")
            return
        for p in paths:
            try:
                s = session_summary(read_session(p))
            except _bad_input_errors() as exc:  # one damaged file never hides the others
                console.print(f"{escape(str(p))}: [red]damaged, unreadable:[/red] "
                              f"{escape(str(exc))}", highlight=False, soft_wrap=True)
                continue
            fd = s["first_divergence"]
            first = "none" if fd is None else f"frame {fd['tick']} ({', '.join(fd['signals'])})"
            state = ""
            if s["read_problem"]:
                state = f" [red]damaged, read up to: {escape(s['read_problem'])}[/red]"
            elif not s["finished"]:
                state = " [yellow]unfinished (no end record: the recording was cut off)[/yellow]"
            console.print(f"{escape(str(p))}: {escape(str(s['player'].get('kind', '?')))} player, "
                          f"{s['frames']} frames, first divergence {escape(first)}{state}",
                          highlight=False, soft_wrap=True)
            for m in s["marks"]:
                console.print(escape(f"    frame {m['tick']}: {m['kind']} {m['text']}".rstrip()),
                              highlight=False, soft_wrap=True)

    @pt.command("show")
    def show_command(
        file: Path = typer.Argument(..., help="a session file"),
        as_json: bool = typer.Option(False, "--json", help="print the summary as JSON"),
    ) -> None:
        """One session's header, marks and divergences between ALE and JAX."""
        from alignment.playtest.report import session_summary
        from alignment.playtest.session import read_session

        try:
            s = session_summary(read_session(file))
        except _bad_input_errors() as exc:
            _fail(console, exc)
        if as_json:
            sys.stdout.write(json.dumps(s, indent=2) + "\n")
            return
        console.print(escape(f"{s['path']}: {s['game']}, seed {s['seed']}, mode {s['mode']}, mods "
                             f"{s['mods'] or 'none'}, played by {s['player']}, started "
                             f"{s['started']}, {s['frames']} frames in {s['episodes']} episodes, "
                             f"ended: {s['ended']}"), highlight=False)
        if s["read_problem"]:
            console.print(f"[red]unreadable part:[/red] {escape(s['read_problem'])}", highlight=False)
        for m in s["marks"]:
            console.print(escape(f"mark at frame {m['tick']}: {m['kind']} {m['text']}"),
                          highlight=False)
        fd = s["first_divergence"]
        if fd is None:
            console.print("ALE and JAX agreed on every signal of every frame")
        else:
            console.print(f"first divergence at frame {fd['tick']}: " + ", ".join(
                f"{k} ALE {fd['ale'][k]} JAX {fd['jax'][k]}" for k in fd["signals"]),
                highlight=False)
            for k, n in sorted(s["frames_diverged_by_signal"].items()):
                console.print(f"  {k}: differs on {n} frames", highlight=False)

    @pt.command("export")
    def export_command(
        file: Path = typer.Argument(..., help="a session file"),
        video: Optional[Path] = typer.Option(None, "--video", help="out.mp4 or out.gif"),
        minari_dir: Optional[Path] = typer.Option(None, "--minari", help="folder for Minari datasets"),
        scale: int = typer.Option(1, "--scale", min=1, max=8,
                                  help="pixels per Atari pixel in the video (1..8)"),
        fps: int = typer.Option(60, "--fps", min=1, max=240, help="video frames per second (1..240)"),
        every: int = typer.Option(1, "--every", min=1, max=3600,
                                  help="keep one frame in EVERY (smaller videos)"),
    ) -> None:
        """The session as a side-by-side video with marks as captions, and/or as Minari datasets
        of the ALE and the JAX trajectories."""
        from alignment.playtest import export

        if video is None and minari_dir is None:
            _fail(console, "give --video out.mp4|out.gif and/or --minari DIR")
        try:
            from alignment.playtest.session import read_session

            problem = read_session(file).problem
            if problem is not None:
                console.print(f"[yellow]note:[/yellow] {escape(str(problem))}; only the frames "
                              "before it are exported", highlight=False, soft_wrap=True)
            if video is not None:
                n = export.write_video(file, video, scale=scale, fps=fps, every=every)
                console.print(f"wrote {video}: {n} frames")
            if minari_dir is not None:
                for ds in export.write_minari(file, minari_dir):
                    console.print(f"wrote Minari dataset {ds}")
        except _bad_input_errors() + (export.ExportError,) as exc:
            _fail(console, exc)

    @pt.command("script")
    def script_command(
        game: str = typer.Argument(
            ..., help="a game whose ground truth has a scripted player (reference/games/<game>/players.py)"),
        frames: int = cli_checks.frames_option(10_800, "frames to play (10,800 = 3 minutes)"),
        seed: int = cli_checks.seed_option(),
        root: Path = typer.Option(ROOT, "--out", help="sessions go to OUT/<game>/<id>.jsonl.gz"),
        fps: float = typer.Option(0.0, "--fps", callback=cli_checks.finite_fps,
                                  help="0: as fast as it goes (0..1000)"),
    ) -> None:
        """Record a session played by the game's scripted player through the real window and its
        event queue (headless with SDL_VIDEODRIVER=dummy); labelled scripted in the header."""
        from alignment.playtest.scripted import player_for

        root = cli_checks.output_dir(root)
        try:
            canon = _check_game(game)
            player = player_for(canon, frames)
            result = _play(canon, seed, None, (), 1, fps, root, hook=player, player=player.identity)
        except _bad_input_errors() as exc:
            _fail(console, exc)
        console.print(f"saved {result.path}: {result.ticks} frames, {result.episodes} episodes, "
                      f"{len(result.marks)} marks, {result.fps:.0f} fps")
