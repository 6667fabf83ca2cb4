"""``python -m alignment.stress``: the stage-4 commands alone, for a machine that has the learning
stack (JAX, Flax, Optax, ale-py, gymnasium, typer, rich, matplotlib) but not the whole pipeline's
packages — an accelerator host, typically (see docs/accelerator.md)."""

from __future__ import annotations

import typer

from alignment.stress.command import register

app = typer.Typer(add_completion=False, no_args_is_help=True)
register(app)

if __name__ == "__main__":
    app()
