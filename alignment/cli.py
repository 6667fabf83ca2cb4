"""The ``jaxtari-align`` command line: one typer app; each stage registers its own commands."""

from __future__ import annotations

import importlib

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
)

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
