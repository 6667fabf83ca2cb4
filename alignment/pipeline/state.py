"""The pipeline's state: what one run of ``jaxtari-align run GAME`` knows after each node.

Values are plain JSON data (strings, numbers, lists, dicts) so that every checkpoint in the SQLite
store reads back exactly, whatever version of a stage wrote it. Each stage node writes one entry,
``StageOutcome``-shaped: a ``status`` word and what the stage returned.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, Optional, TypedDict

# A stage's status word: the run's report and `jaxtari-align runs` show these as they are.
StageStatus = Literal[
    "done",            # the stage ran and its results are in the entry
    "failed",          # the stage ran and its results say the game is not faithful here
    "skipped",         # not asked for (e.g. stress without a budget)
    "not playtested",  # no recorded playtest session for the game
    "reused",          # spec: the committed spec was used as it is
    "waiting",         # review: rules still wait for a person's answer
]

def merge_decisions(old: Optional[dict], new: Optional[dict]) -> dict:
    """Later review answers overrule earlier ones for the same rule; others are kept."""
    return {**(old or {}), **(new or {})}


STAGES: tuple[str, ...] = ("spec", "review", "audit", "playtest", "stress", "report")


class StageOutcome(TypedDict, total=False):
    status: StageStatus
    detail: str
    # anything else the stage reports (paths, summaries, verdicts) sits beside these keys


class PipelineState(TypedDict, total=False):
    game: str
    run_id: str
    settings: dict[str, Any]           # the Configuration the run was started with (for --resume)
    stage: str                         # the last node that finished
    spec_path: Optional[str]
    spec: StageOutcome                 # + added/changed/kept rule ids
    review: StageOutcome               # + rounds, the rules still pending
    audit: StageOutcome                # + path, summary (audits/<game>.json), ale_failures
    playtest: StageOutcome             # + sessions: [{path, passed, frames, failure}]
    stress: StageOutcome               # + path, verdict
    report: StageOutcome               # + path of the run report
    decisions: Annotated[dict[str, str], merge_decisions]
    acknowledged: Annotated[list[str], operator.add]   # ALE-failing rules a person kept as they are
    errors: Annotated[list[str], operator.add]
