"""One validation layer for the command line: numbers, seeds and output locations.

Every command takes its bounded numbers through these options and checks its output location
before any work, so bad input ends in a usage message and exit status 2 (click's convention for a
bad parameter) before an emulator starts or a compile begins — never a traceback after minutes.
"""

from __future__ import annotations

from pathlib import Path

import typer

from alignment import atomic

# Seeds go to numpy and ALE, which take 32-bit unsigned seeds.
SEED_MAX = 2**32 - 1
# The ALE v5 episode cap (108,000 frames = 30 minutes at 60 Hz): no episode is longer.
MAX_EPISODE_FRAMES = 108_000
MAX_EPISODES = 10_000


def seed_option(default: int = 0, help: str = "seed") -> int:
    return typer.Option(default, min=0, max=SEED_MAX, help=f"{help} (0..{SEED_MAX})")


def frames_option(default: int, help: str, *, flag: str | None = None) -> int:
    names = (flag,) if flag else ()
    return typer.Option(default, *names, min=1, max=MAX_EPISODE_FRAMES,
                        help=f"{help} (1..{MAX_EPISODE_FRAMES:,}, the v5 episode cap)")


MAX_FPS = 1000.0


def finite_fps(value: float) -> float:
    """A frame rate: a finite number from 0 (as fast as it goes) to MAX_FPS."""
    import math

    if not math.isfinite(value) or not 0 <= value <= MAX_FPS:
        raise bad_parameter("--fps", f"{value} is not a frame rate: give a number from 0 (as fast "
                                     f"as it goes) to {MAX_FPS:g}")
    return value


def bad_parameter(option: str, message: str) -> typer.BadParameter:
    """A usage error naming the option (exit status 2, before any work)."""
    return typer.BadParameter(message, param_hint=f"'{option}'")


def output_dir(path: Path | str, option: str = "--out") -> Path:
    """``path`` as a folder files can be written into, or a usage error naming the option."""
    try:
        return atomic.check_writable_dir(path, what=f"{option} folder")
    except atomic.OutputLocationError as err:
        raise bad_parameter(option, str(err)) from None
