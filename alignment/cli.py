"""The ``jaxtari-align`` command line: one typer app; each stage registers its own commands."""

from __future__ import annotations

import importlib
import os
import signal
import sys

import typer

app = typer.Typer(
    name="jaxtari-align",
    help="Prove that JAX Atari games play like the real emulator (ALE).",
    no_args_is_help=True,
    add_completion=False,
)

# Each module exposes register(app) adding its commands.
COMMAND_MODULES = (
    "alignment.spec.command",
    "alignment.audit.command",
    "alignment.pipeline.command",
    "alignment.gate_command",
    "alignment.playtest.command",
    "alignment.stress.command",
)

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


INTERRUPTED_EXIT = 130  # 128 + SIGINT, what a shell reports for Ctrl-C


def _interrupted(signum, frame) -> None:
    # Files are written whole or not at all (alignment.atomic); a write in flight leaves only its
    # temporary file, removed here. os._exit skips interpreter teardown: unwinding while XLA's
    # compiler threads still ran is where Ctrl-C during a JAX compile crashed.
    from alignment import atomic

    atomic.discard_in_flight()
    sys.stdout.flush()
    sys.stderr.write("\ninterrupted; nothing half-written\n")
    sys.stderr.flush()
    os._exit(INTERRUPTED_EXIT)


def main() -> None:
    signal.signal(signal.SIGINT, _interrupted)
    app()


if __name__ == "__main__":
    main()
