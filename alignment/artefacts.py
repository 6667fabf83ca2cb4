"""Where every artefact lives and the schema id it carries: one table for the commands (their
default folders), the pipeline's nodes and the gate (which reads them back, at HEAD or at a git
ref). Folders are relative to the repository root; a command's ``--out`` may put a report
elsewhere, under the same file name.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Optional


@dataclasses.dataclass(frozen=True)
class Artefact:
    folder: Optional[str]  # the default folder from the repository root (None: always given)
    file: str  # one file's name in it, formatted with the game (and obs, session)
    schema: Optional[str] = None  # the id its JSON carries ("schema", or "format" for checkpoints)

    def name(self, **fields) -> str:
        return self.file.format(**fields)

    def rel(self, **fields) -> str:
        """The file's path from the repository root, as git and the gate name it."""
        return f"{self.folder}/{self.name(**fields)}"

    def path(self, folder: Optional[Path | str] = None, **fields) -> Path:
        """The file in ``folder`` (default: this artefact's folder)."""
        if folder is None and self.folder is None:
            raise ValueError(f"{self.file} has no default folder: give one")
        return Path(self.folder if folder is None else folder) / self.name(**fields)


# Stage 1: the reviewed rule spec (YAML; its version is the file's schema_version field).
SPEC = Artefact("specs", "{game}.yaml")
# Stage 2: the audit (JSON and its markdown, written as one unit) and the episode comparison.
AUDIT = Artefact("audits", "{game}.json", "jaxtari-align/audit/v1")
AUDIT_MARKDOWN = Artefact("audits", "{game}.md")
# The audit of a game modified by mods ({mods}: registered names joined by "+", in the order
# applied; alignment.audit.modded), the same schema.
MOD_AUDIT = Artefact("audits", "{game}+{mods}.json", "jaxtari-align/audit/v1")
COMPARE = Artefact("compare-reports", "{game}-compare.json", "jaxtari-align/compare/v1")
# Stage 3: recorded playtest sessions (one gzip'd JSON-lines file each) and a replay's report.
PLAYTEST_SESSION = Artefact("playtest", "{game}/{session}.jsonl.gz", "jaxtari-align/playtest/v1")
PLAYTEST_REPLAY = Artefact(None, "replay.json", "jaxtari-align/playtest-replay/v1")  # --report DIR
# Stage 4: the stress report (JSON, markdown, plots) and its resumable checkpoints.
STRESS = Artefact("stress", "{game}-{obs}.json", "jaxtari-align/stress/v1")
STRESS_CHECKPOINT = Artefact("stress/.checkpoints", "{run}/{side}/seed{seed}/interval{interval:05d}.ckpt",
                             "jaxtari-align/stress-checkpoint/v2")  # v1's checksum covered the payload only
# Stage 4 on the real game: agents trained on the JAX game (the committed policy file, one per game
# and observation mode) and their transfer to ALE (JSON, markdown, the distributions' PNG).
POLICY = Artefact("stress/policies", "{game}-{obs}.npz", "jaxtari-align/policy/v1")
TRANSFER = Artefact("stress", "{game}-{obs}-transfer.json", "jaxtari-align/transfer/v1")
# Robustness under mods.
ROBUSTNESS = Artefact("robustness", "{game}.json", "jaxtari-align/robustness/v1")
# What the audit and the gate read besides the reports.
FAULTS = Artefact("faults", "{game}.py")  # seeded-fault sets (part of a game's code hash)
DEEP_PLAY = Artefact("tests/data/deep", "{game}-{tag}.json")  # the deep players' stored actions
GATE_CONFIG = "fidelity.toml"
# A pipeline run's state (LangGraph's SQLite checkpoints) and reports.
RUN_STATE = ".jaxtari-align"
RUN_REPORTS = f"{RUN_STATE}/reports"
# A run's own audit (and its markdown beside it): a run never writes a weaker audit over the
# committed one (alignment.pipeline.committed).
RUN_AUDIT = Artefact(RUN_REPORTS, "{run}/{game}.json", AUDIT.schema)


# The checkout: the folder holding alignment/ (and jaxtari/, specs/, audits/, stress/, ...). Every
# artefact path, every recorded in-repository path and the code hash's file names start here.
REPO_ROOT = Path(__file__).resolve().parents[1]


def repo_relative(path: os.PathLike | str) -> Optional[str]:
    """``path`` from the repository root (posix), or None when it lies outside the checkout."""
    p = Path(path).resolve()
    return (p.relative_to(REPO_ROOT).as_posix() or ".") if p.is_relative_to(REPO_ROOT) else None


def command_line(argv: Optional[list[str]] = None) -> str:
    """The command a report records: ``jaxtari-align`` and its arguments (``sys.argv[1:]`` by
    default), shell-quoted, with a path inside the repository written from its root (the report
    is read on other machines; ``/home/me/clone/stress/policies/x.npz`` means
    ``stress/policies/x.npz`` to anyone running it in a checkout)."""
    import shlex
    import sys

    def local(arg: str) -> str:
        head, eq, value = arg.partition("=") if arg.startswith("--") else ("", "", arg)
        if not value.startswith("/"):
            return arg
        rel = repo_relative(value)
        return arg if rel is None else f"{head}{eq}{rel}"

    args = sys.argv[1:] if argv is None else argv
    return "jaxtari-align " + " ".join(shlex.quote(local(a)) for a in args)
