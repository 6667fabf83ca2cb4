"""The stage contract, declared once.

Every stage is a package ``alignment/<stage>/`` in three parts:

- ``core`` does the work and returns a result (data). It never prints and never writes a report;
  a stage may keep working state it resumes from (the stress stage's checkpoints).
- a report writer whose ``write(result, ...)`` writes the report as one unit
  (:func:`alignment.atomic.write_files`: every file new or every file old).
- ``command`` whose ``register(app)`` adds the stage's commands to ``jaxtari-align``.

The command line (:mod:`alignment.cli`) and the pipeline's nodes
(:mod:`alignment.pipeline.configuration`) take the modules from here; tests/test_stage_contract.py
checks every stage keeps the contract.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Stage:
    core: str
    report: str
    command: str


STAGES: dict[str, Stage] = {
    # the spec's "report" is the spec file itself
    "spec": Stage("alignment.spec.core", "alignment.spec.store", "alignment.spec.command"),
    "audit": Stage("alignment.audit.core", "alignment.audit.report", "alignment.audit.command"),
    "playtest": Stage("alignment.playtest.core", "alignment.playtest.report",
                      "alignment.playtest.command"),
    "stress": Stage("alignment.stress.core", "alignment.stress.report", "alignment.stress.command"),
    "robustness": Stage("alignment.robustness.core", "alignment.robustness.report",
                        "alignment.robustness.command"),
    "gate": Stage("alignment.gate.core", "alignment.gate.report", "alignment.gate.command"),
}

# Commands that are no stage of their own: the pipeline runs the stages in order; the porting tools;
# the docs' tables generated from the artefacts.
OTHER_COMMANDS = ("alignment.pipeline.command", "alignment.porting.command", "alignment.doc_tables")
