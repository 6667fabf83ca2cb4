"""CLI: ``jaxtari-align ramtrace ROM``: the RAM activity of an ALE rollout (:mod:`.ramtrace`)."""

from __future__ import annotations

from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from alignment import cli_checks
from alignment.porting.ramtrace import RAM_SIZE


def register(app: typer.Typer) -> None:
    @app.command("ramtrace")
    def ramtrace_command(
        rom: str = typer.Argument(..., help="an ale-py ROM slug, e.g. seaquest (any ROM ale-py "
                                            "ships, not only the catalog's games)"),
        script: Optional[str] = typer.Option(None, help="actions to play, NAME:FRAMES,...; "
                                                        "random play when omitted"),
        frames: Optional[int] = cli_checks.count_option(
            None, "--frames", "frames to play (the script repeats; default 1,000)",
            high=cli_checks.MAX_EPISODE_FRAMES, why="the v5 episode cap"),
        seed: int = cli_checks.seed_option(help="seed of the random policy"),
        hold: int = cli_checks.count_option(1, "--hold", "random play: hold each action 1..HOLD "
                                            "frames", high=cli_checks.MAX_EPISODE_FRAMES),
        mode: Optional[int] = typer.Option(None, help="ALE game mode"),
        events: Optional[int] = cli_checks.count_option(
            None, "--events", "list the frames RAM byte EVENTS changed on instead", low=0,
            high=RAM_SIZE - 1),
        rows: int = cli_checks.count_option(40, "--rows", "bytes shown in the activity table",
                                            high=RAM_SIZE),
        write: Optional[list[str]] = typer.Option(
            None, "--write", help="ADDR=VALUE, a RAM write applied after reset and every frame "
                                  "(repeatable): show which bytes, rewards and game over it "
                                  "changed against the same actions without it"),
    ) -> None:
        """Play a ROM on ALE (sticky actions off, one frame per action) and show which RAM bytes
        changed: how often, their range, the first frame (or every change of one byte)."""
        from alignment.porting import ramtrace as rt

        console = Console()
        try:
            steps = rt.parse_script(script) if script is not None else None
            if steps is None and frames is None:
                frames = 1000
            if hold < 1:
                raise rt.TraceError(f"--hold must be at least 1, got {hold}")
            if write:
                from alignment.porting import writes as rw

                eff = rw.write_effect(rom, steps, [rw.parse_write(w) for w in write],
                                      frames=frames, seed=seed, mode=mode, hold=(1, hold))
                console.print(f"{rom}: {eff.frames} frames with and without {', '.join(write)}; "
                              f"reward first differs: {eff.reward_first}; game over: "
                              f"{eff.over_first}", highlight=False)
                for a, f in sorted(eff.differing.items(), key=lambda x: (x[1], x[0])):
                    note = "" if a in eff.written else "  (not written)"
                    console.print(f"ram[{a}] differs from snapshot {f}{note}", highlight=False)
                return
            trace = rt.record(rom, steps, frames=frames, seed=seed, mode=mode, hold=(1, hold))
            if events is not None:
                found = rt.events(trace, events)
                console.print(f"ram[{events}]: {len(found)} changes in {trace.frames} frames",
                              highlight=False)
                for e in found:
                    console.print(f"frame {e.frame:>6}  {e.action:<14} {e.old:>3} -> {e.new:>3}",
                                  highlight=False)
            else:
                console.print(escape(rt.activity_table(trace, rows)), highlight=False)
        except rt.TraceError as exc:
            console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
            raise typer.Exit(1)
