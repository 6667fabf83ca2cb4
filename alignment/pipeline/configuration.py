"""How a pipeline run is set up: where artefacts live, which documents and extractor, which budget.

The graph's context (LangGraph's ``context_schema``: nodes read it as ``runtime.context``). It is not
checkpointed, so the command line records it in the run's state and ``--resume`` continues with the
same settings.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Optional

from alignment import artefacts
from alignment.stages import STAGES

# The modules of each stage the graph runs: its core and its report writer (the stage contract,
# alignment/stages.py). A test may point a stage at another module with the same functions (the toy
# game's stages); the default is the project's own.
DEFAULT_STAGE_MODULES: dict[str, str] = {
    "spec": STAGES["spec"].core, "spec_report": STAGES["spec"].report,
    "audit": STAGES["audit"].core, "audit_report": STAGES["audit"].report,
    "playtest": STAGES["playtest"].core,  # replays only: its results go into the run's report
    "stress": STAGES["stress"].core, "stress_report": STAGES["stress"].report,
}

PLAYTEST_MISSING = ("mark", "interrupt")
# The audit's exploration budget (alignment.audit.explore): "quick" is a pull request's audit, what
# `run` makes unless asked for the full one (`run --full`).
AUDIT_BUDGETS = ("quick", "full")


def audit_command(game: str, budget: str) -> str:
    """The command line of a run of ``game`` that makes its audit at ``budget``."""
    return f"jaxtari-align run {game}" + (" --full" if budget == "full" else "")


@dataclasses.dataclass(frozen=True)
class Configuration:
    specs_dir: str = artefacts.SPEC.folder
    audits_dir: str = artefacts.AUDIT.folder
    playtest_dir: str = artefacts.PLAYTEST_SESSION.folder
    stress_dir: str = artefacts.STRESS.folder
    reports_dir: str = artefacts.RUN_REPORTS
    # Spec: a committed spec is reused as it is unless `extract`; extraction reads `docs`
    # (an offline corpus; None: $JAXTARI_ALIGN_DOCS), and fetches the pages only when `online`.
    extract: bool = False
    docs: Optional[str] = None
    online: bool = False
    llm: str = "offline"
    model: Optional[str] = None
    faults: bool = True
    audit_budget: str = "quick"
    # A game without a recorded session: "mark" it not playtested, or "interrupt" the run for one.
    playtest_missing: str = "mark"
    # Stress runs only when a budget is asked for (smoke, cpu, paper or a step count).
    stress_budget: Optional[str] = None
    stress_obs: str = "objects"
    stress_seeds: int = 5
    # A stress report in stress_dir that holds more than the run (or other hyperparameters) is
    # replaced only when asked.
    stress_replace: bool = False
    stage_modules: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: dict(DEFAULT_STAGE_MODULES))

    def __post_init__(self) -> None:
        from alignment.llm import PROVIDERS

        # checked here, when a run is configured, not by the audit after the spec stage has run
        if self.llm not in PROVIDERS:
            raise ValueError(f"unknown --llm {self.llm!r}; use one of: {', '.join(PROVIDERS)}")
        if self.playtest_missing not in PLAYTEST_MISSING:
            raise ValueError(f"playtest_missing must be one of {', '.join(PLAYTEST_MISSING)}, "
                             f"not {self.playtest_missing!r}")
        if self.audit_budget not in AUDIT_BUDGETS:
            raise ValueError(f"audit_budget must be one of {', '.join(AUDIT_BUDGETS)}, "
                             f"not {self.audit_budget!r}")
        unknown = sorted(set(self.stage_modules) - set(DEFAULT_STAGE_MODULES))
        if unknown:
            raise ValueError(f"unknown stage(s) {', '.join(unknown)} in stage_modules; "
                             f"stages: {', '.join(DEFAULT_STAGE_MODULES)}")

    def module(self, stage: str) -> str:
        return {**DEFAULT_STAGE_MODULES, **self.stage_modules}[stage]

    def as_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["stage_modules"] = dict(self.stage_modules)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Configuration":
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})
