"""The ``jaxtari-align`` command line: one typer app; each stage registers its own commands.

The Ctrl-C handler is installed first, before typer, JAX or any stage is imported: a SIGINT in the
first seconds used to arrive while imports ran, where Python raised KeyboardInterrupt inside JAX's
garbage-collector callback, which swallowed it, and the command went on to rewrite its reports and
exit 0. The handler never raises (nothing can swallow it): it ends the process with status 130.
"""

from __future__ import annotations

import os
import signal
import sys

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


def _install_handler() -> None:
    import threading

    if threading.current_thread() is threading.main_thread():  # signal() works only there
        signal.signal(signal.SIGINT, _interrupted)


# As the program (`jaxtari-align` or `python -m alignment.cli`), at once; a process importing the
# app (tests, other tools) keeps its own Ctrl-C until main() runs.
if __name__ == "__main__" or os.path.basename(sys.argv[0] or "") == "jaxtari-align":
    _install_handler()

import importlib  # noqa: E402

import typer  # noqa: E402

app = typer.Typer(
    name="jaxtari-align",
    help="Prove that JAX Atari games play like the real emulator (ALE).",
    no_args_is_help=True,
    add_completion=False,
)

# Each module exposes register(app) adding its commands.
from alignment.stages import OTHER_COMMANDS, STAGES  # noqa: E402

# Each module exposes register(app) adding its commands (the stage contract, alignment/stages.py).
COMMAND_MODULES = (*(s.command for s in STAGES.values()), *OTHER_COMMANDS)

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    _install_handler()
    app()


if __name__ == "__main__":
    main()
