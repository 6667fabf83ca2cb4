"""Seeded faults: the audit audits itself.

A fault is a mod (an ``InternalMod`` or ``PostStepMod``) that breaks exactly one rule of a game, and
names that rule. Fault sets live with the tests, not in the game's public mod registry: a file
``<faults_dir>/<game>.py`` defines ``FAULTS``, a list of :class:`Fault`. The audit loads that file by
path (it is the project's own test code, never a spec's or a model's), runs every ALE-validated probe
on the JAX game built with each fault, and counts the fault detected when the rule it breaks is
flagged (its probe, which held on the real game, fails). A fault the audit misses is a bug in the
audit; rules flagged besides the broken one are reported as collateral.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import sys
from pathlib import Path
from typing import Any, Optional

from alignment import artefacts

DEFAULT_FAULTS_DIR = Path(artefacts.FAULTS.folder)


@dataclasses.dataclass(frozen=True)
class Fault:
    mod: Any  # jaxtari.mods.InternalMod | PostStepMod
    breaks: str  # the rule id it breaks
    description: str = ""

    @property
    def name(self) -> str:
        return self.mod.name


class FaultSetError(ValueError):
    """A fault file that cannot be used (does not load, lacks FAULTS, names no rule...)."""


# A fault file only defines mods; loading one takes well under a second once jaxtari is imported.
LOAD_SECONDS = 60


@contextlib.contextmanager
def _time_limit(seconds: int, message: str):
    """Raise FaultSetError(message) if the block runs past ``seconds`` (main thread only: SIGALRM
    is delivered there; elsewhere the block runs unbounded)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        raise FaultSetError(message)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def faults_file(game: str, faults_dir: Path = DEFAULT_FAULTS_DIR) -> Path:
    return Path(faults_dir) / f"{game}.py"


def load_faults(game: str, faults_dir: Path = DEFAULT_FAULTS_DIR) -> Optional[list[Fault]]:
    """The faults of ``game`` from ``<faults_dir>/<game>.py``; None when there is no such file."""
    path = faults_file(game, faults_dir)
    if not path.is_file():
        return None
    name = f"_jaxtari_align_faults_{game}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        with _time_limit(LOAD_SECONDS, f"the fault set {path} did not finish loading within "
                                       f"{LOAD_SECONDS} s (a loop at import?); fix the file"):
            spec.loader.exec_module(module)
    except FaultSetError:
        raise
    except (Exception, SystemExit) as exc:
        raise FaultSetError(f"the fault set {path} failed to load: {type(exc).__name__}: {exc}") from None
    faults = getattr(module, "FAULTS", None)
    if not isinstance(faults, (list, tuple)) or not all(isinstance(f, Fault) for f in faults):
        raise FaultSetError(f"{path} must define FAULTS, a list of alignment.audit.faults.Fault")
    for i, f in enumerate(faults):
        if not isinstance(getattr(f.mod, "name", None), str) or not isinstance(f.breaks, str) \
                or not f.breaks:
            raise FaultSetError(f"{path}: FAULTS[{i}] needs a mod with a name (a jaxtari mod) and "
                                f"the id of the rule it breaks, got mod={f.mod!r}, "
                                f"breaks={f.breaks!r}")
    names = [f.name for f in faults]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise FaultSetError(f"{path}: fault name(s) used twice: {', '.join(dupes)}")
    return list(faults)


@dataclasses.dataclass
class FaultResult:
    fault: str
    breaks: str
    description: str
    flagged: list[str]  # rules whose probe held on the real game and fails with the fault
    error: Optional[str] = None  # the faulty game did not build or run
    skipped: list[str] = dataclasses.field(default_factory=list)  # probes not run on this fault
    in_prefix: list[str] = dataclasses.field(default_factory=list)  # flagged ones that left ALE
    # in their save point's prefix (the save point broke, not necessarily their rule)
    explore_rules: list[str] = dataclasses.field(default_factory=list)  # attributed by exploration
    explore_first: Optional[dict] = None  # exploration's earliest divergence
    explore_divergences: int = 0
    save_points: dict = dataclasses.field(default_factory=dict)  # name -> prefix divergence/None
    # the matched rollouts (alignment.audit.events.fault_events) on the faulty game: None when not run
    events: Optional[dict] = None

    @property
    def event_rules(self) -> list[str]:
        return list((self.events or {}).get("rules") or [])

    @property
    def event_divergences(self) -> int:
        return len((self.events or {}).get("divergences") or [])

    @property
    def detected(self) -> bool:
        """Its rule was flagged: by the rule's probe, or by exploration or the matched rollouts
        attributing a divergence to it."""
        return (self.breaks in self.flagged or self.breaks in self.explore_rules
                or self.breaks in self.event_rules)

    @property
    def caught(self) -> bool:
        """Anything noticed the fault: a probe failed, exploration or a matched rollout diverged."""
        return bool(self.flagged) or self.explore_divergences > 0 or self.event_divergences > 0

    @property
    def collateral(self) -> list[str]:
        return [r for r in self.flagged if r != self.breaks]

    def to_json(self) -> dict:
        return {"fault": self.fault, "breaks": self.breaks, "description": self.description,
                "detected": self.detected, "caught": self.caught, "flagged": self.flagged,
                "collateral": self.collateral, "in_prefix": self.in_prefix,
                "explore_rules": self.explore_rules, "explore_first": self.explore_first,
                "explore_divergences": self.explore_divergences,
                "save_points_broken": sorted(k for k, v in self.save_points.items() if v),
                "events": self.events, "error": self.error, "skipped": self.skipped}
