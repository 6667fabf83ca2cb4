"""Run a spec's probes on the real emulator and on the JAX game.

A probe (``alignment.spec.schema.Probe``) is data: a seed, a start, ``{action, frames}`` steps and
expectations over catalog signals. Nothing in it is executed: actions are looked up by name, signals
by name in ``alignment.catalog``, operators in a fixed table. A probe runs on ALE first — a probe that
ALE fails is a wrong probe or a wrong rule — and then on the JAX game, with the same frames (one
emulator frame per step, sticky actions off, the full 18-action set so any ALE action name works),
both driven through :mod:`alignment.backends`.

Starts: ``reset``, or a named save point of the game (``SAVE_POINTS``): a fixed list of steps from
reset, itself data, so that both backends reach the same situation the same way.

This module returns data and never prints; ``jaxtari-align probe GAME`` (in
:mod:`alignment.audit.command`) runs every probe of ``specs/<game>.yaml`` on both backends.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, Iterable, Sequence

import numpy as np

from alignment.backends import BACKENDS, BackendError, make_backend
from alignment.spec.schema import GameSpec, Probe, ProbeStep

# Save points: named starts reached from reset by fixed steps (frame counts measured on ALE 0.12.1).
SAVE_POINTS: dict[str, dict[str, tuple[tuple[str, int], ...]]] = {
    "frostbite": {
        # Bailey has jumped from the shore onto the top floe row and landed (score 10, 1 block).
        "on-first-row": (("NOOP", 120), ("DOWN", 8), ("NOOP", 60)),
    },
    "pong": {
        # The first serve is in play (it comes 59 frames after reset).
        "first-serve": (("NOOP", 70),),
    },
}


class ProbeError(ValueError):
    """A probe that cannot be run as written (unknown save point, unknown signal, ...)."""


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


def holds(op: str, start: Any, end: Any, value: Any = None) -> bool:
    """Whether an expectation holds: value ops test the end value, change ops compare with start.

    Vector signals (e.g. ``floe_x``) hold when the comparison holds for every element.
    """
    start, end = np.asarray(start), np.asarray(end)
    if op in _COMPARE:
        return bool(np.all(_COMPARE[op](end, value)))
    change = {
        "increases": lambda: end > start,
        "decreases": lambda: end < start,
        "changes": lambda: end != start,
        "unchanged": lambda: end == start,
        "increases_by": lambda: end - start == value,
        "decreases_by": lambda: start - end == value,
    }
    if op not in change:
        raise ProbeError(f"unknown expectation operator {op!r}")
    result = change[op]()
    return bool(np.any(result)) if op == "changes" else bool(np.all(result))


@dataclasses.dataclass
class ProbeResult:
    game: str
    backend: str
    passed: bool
    failures: list[str]
    start: dict[str, Any]
    end: dict[str, Any]

    def summary(self) -> str:
        return "pass" if self.passed else "; ".join(self.failures)


def probe_steps(game: str, probe: Probe) -> list[ProbeStep]:
    """The full list of steps from reset: the save point's, then the probe's own."""
    if probe.start == "reset":
        return list(probe.steps)
    points = SAVE_POINTS.get(game, {})
    if probe.start not in points:
        known = ", ".join(["reset", *sorted(points)])
        raise ProbeError(f"{game}: unknown probe start {probe.start!r}; starts for this game: {known}")
    return [ProbeStep(action=a, frames=f) for a, f in points[probe.start]] + list(probe.steps)


def _check(game: str, backend: str, probe: Probe, start: dict, end: dict) -> ProbeResult:
    failures = []
    for exp in probe.expectations:
        if exp.signal not in end:
            raise ProbeError(
                f"{game}: probe expects unknown signal {exp.signal!r}; signals: {', '.join(sorted(end))}"
            )
        a, b = start[exp.signal], end[exp.signal]
        if not holds(exp.op, a, b, exp.value):
            failures.append(f"{exp.describe()} (start {_fmt(a)}, end {_fmt(b)})")
    return ProbeResult(game, backend, not failures, failures, start, end)


def _fmt(v) -> str:
    v = np.asarray(v)
    return str(v.item()) if v.ndim == 0 else str(v.tolist())


def _probe_start_and_steps(game: str, probe: Probe):
    """Split the save point's steps (run before the start snapshot) from the probe's own steps."""
    all_steps = probe_steps(game, probe)
    n_prefix = len(all_steps) - len(probe.steps)
    return all_steps[:n_prefix], all_steps[n_prefix:]


def _run(backend: str, game: str, probe: Probe, mods: Sequence = ()) -> ProbeResult:
    try:
        b = make_backend(backend, game, mods=mods, full_action_space=True)
    except BackendError as exc:
        raise ProbeError(str(exc)) from None
    prefix, steps = _probe_start_and_steps(b.game, probe)
    b.reset(probe.seed)
    for s in prefix:
        b.act(s.action, s.frames)
    start = b.signals()
    for s in steps:
        b.act(s.action, s.frames)
    return _check(b.game, backend, probe, start, b.signals())


def run_on_ale(game: str, probe: Probe) -> ProbeResult:
    return _run("ale", game, probe)


def run_on_jax(game: str, probe: Probe, mods: Sequence = ()) -> ProbeResult:
    """The probe on the JAX game, built with ``mods`` (names or mod objects; a fault audit's)."""
    return _run("jax", game, probe, mods)


def run_probe(game: str, probe: Probe, backend: str, mods: Sequence = ()) -> ProbeResult:
    """The probe on one backend; ``mods`` apply to the JAX game only (ALE is the reference)."""
    if backend not in BACKENDS:
        raise ProbeError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    return _run(backend, game, probe, mods if backend == "jax" else ())


def run_probes(spec: GameSpec, backends: Iterable[str] = BACKENDS, *, reviewed_only: bool = True):
    """(rule id, {backend: ProbeResult}) for every probed rule of a spec."""
    out = []
    for rule in spec.rules:
        if rule.probe is None or (reviewed_only and rule.status != "reviewed"):
            continue
        out.append((rule.id, {b: _result_or_error(spec.game, rule.id, rule.probe, b) for b in backends}))
    return out


def _result_or_error(game: str, rule_id: str, probe: Probe, backend: str) -> ProbeResult:
    """A probe that cannot run (unknown signal, start, action) fails its own row, not the table."""
    try:
        return run_probe(game, probe, backend)
    except ProbeError as exc:
        return ProbeResult(game, backend, False, [f"rule {rule_id}: cannot run its probe: {exc}"], {}, {})
