"""Finding a stage's core module, and saying plainly when it is not on this branch yet."""

from __future__ import annotations

import importlib
from types import ModuleType

from alignment.pipeline.configuration import Configuration

# Where each stage is being built, for the "not built yet" message.
STAGE_ISSUES = {"spec": 14, "audit": 15, "audit_report": 15, "playtest": 16, "stress": 17}


class StageNotBuilt(Exception):
    """The stage's core module does not exist on this branch."""


def load(stage: str, cfg: Configuration) -> ModuleType:
    """Import the core of ``stage`` now (lazily: a run imports only what it reaches)."""
    name = cfg.module(stage)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        # Only the stage's own module missing means "not built"; a missing dependency inside it
        # is a real error and propagates.
        if err.name and (name == err.name or name.startswith(err.name + ".")):
            issue = STAGE_ISSUES.get(stage)
            where = f" (issue {issue})" if issue else ""
            raise StageNotBuilt(f"{name} is not built yet{where}") from None
        raise


def not_built(err: StageNotBuilt) -> dict:
    return {"status": "not built yet", "detail": str(err)}
