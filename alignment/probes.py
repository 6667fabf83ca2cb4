"""Run a spec's probes on the real emulator and on the JAX game.

A probe (``alignment.spec.schema.Probe``) is data: a seed, a start, ``{action, frames}`` steps and
expectations over catalog signals. Nothing in it is executed: actions are looked up by name, signals
by name in ``alignment.catalog``, operators in a fixed table. A probe runs on ALE first — a probe that
ALE fails is a wrong probe or a wrong rule — and then on the JAX game, with the same frames (one
emulator frame per step, sticky actions off, the full 18-action set so any ALE action name works).

Starts: ``reset``, or a named save point of the game (``SAVE_POINTS``): a fixed list of steps from
reset, itself data, so that both backends reach the same situation the same way.

``jaxtari-align probe GAME`` runs every probe of ``specs/<game>.yaml`` on both backends.
"""

from __future__ import annotations

import dataclasses
import operator
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from alignment import catalog
from alignment.spec.schema import ALE_ACTION_NAMES, GameSpec, Probe, ProbeStep

BACKENDS = ("ale", "jax")

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


def run_on_ale(game: str, probe: Probe) -> ProbeResult:
    from alignment.reference import AleGame

    canon = catalog.canonical(game)
    prefix, steps = _probe_start_and_steps(canon, probe)
    ale = AleGame(canon, seed=probe.seed, full_action_space=True)
    ale.reset()
    for s in prefix:
        for _ in range(s.frames):
            ale.act(ALE_ACTION_NAMES.index(s.action))
    start = ale.signals()
    for s in steps:
        for _ in range(s.frames):
            ale.act(ALE_ACTION_NAMES.index(s.action))
    return _check(canon, "ale", probe, start, ale.signals())


# The scan runs a whole number of chunks of this many frames (the last one masked), so every probe
# of a game shares one compiled function: a fault audit builds a game per fault mod, and compiling
# once per probe length cost Frostbite ~1.5 s a probe (measured here).
SCAN_CHUNK = 512

_RUNNERS: dict[tuple, tuple] = {}


def _jax_runner(game: str, mods: Sequence = ()):
    """The JAX game with the full action set (index = ALE id), its jitted reset, and a runner.

    ``run(state, frame_actions)`` plays the frames through one compiled masked scan per chunk.
    Cached per (game, mods); mods are keyed by name (fault and registered mod names are unique).
    """
    key = (game, tuple(m if isinstance(m, str) else m.name for m in mods))
    if key in _RUNNERS:
        return _RUNNERS[key]
    import jax
    import jax.numpy as jnp

    import jaxtari

    g = jaxtari.make(game, list(mods), full_action_space=True)

    @jax.jit
    def chunk(state, actions, n):
        def body(s, xs):
            i, a = xs
            _, new, _, _, _ = g.step(s, a)
            return jax.tree.map(lambda b, o: jnp.where(i < n, b, o), new, s), None

        return jax.lax.scan(body, state, (jnp.arange(SCAN_CHUNK), actions))[0]

    def run(state, frame_actions):
        frame_actions = np.asarray(frame_actions, np.int32)
        for at in range(0, len(frame_actions), SCAN_CHUNK):
            part = frame_actions[at:at + SCAN_CHUNK]
            padded = np.zeros(SCAN_CHUNK, np.int32)
            padded[:len(part)] = part
            state = chunk(state, padded, np.int32(len(part)))
        return state

    _RUNNERS[key] = (g, jax.jit(g.reset), run)
    return _RUNNERS[key]


def _frames_of(steps: Sequence[ProbeStep]) -> np.ndarray:
    return np.concatenate([np.full(s.frames, ALE_ACTION_NAMES.index(s.action), np.int32)
                           for s in steps]) if steps else np.zeros(0, np.int32)


def run_on_jax(game: str, probe: Probe, mods: Sequence = ()) -> ProbeResult:
    """The probe on the JAX game, built with ``mods`` (names or mod objects; a fault audit's)."""
    import jax

    canon = catalog.canonical(game)
    entry = catalog.entry(canon)
    ok, why = entry.jax_available()
    if not ok:
        raise ProbeError(why)
    prefix, steps = _probe_start_and_steps(canon, probe)
    g, reset, run = _jax_runner(entry.jax_game, tuple(mods))
    _, state = reset(jax.random.key(probe.seed))
    if prefix:
        state = run(state, _frames_of(prefix))
    start = entry.jax_signals(g, state)
    state = run(state, _frames_of(steps))
    return _check(canon, "jax", probe, start, entry.jax_signals(g, state))


def run_probe(game: str, probe: Probe, backend: str, mods: Sequence = ()) -> ProbeResult:
    """The probe on one backend; ``mods`` apply to the JAX game only (ALE is the reference)."""
    if backend == "ale":
        return run_on_ale(game, probe)
    if backend == "jax":
        return run_on_jax(game, probe, mods)
    raise ProbeError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")


def run_spec(spec: GameSpec, backends: Iterable[str] = BACKENDS, *, reviewed_only: bool = True):
    """(rule id, {backend: ProbeResult}) for every probed rule of a spec."""
    out = []
    for rule in spec.rules:
        if rule.probe is None or (reviewed_only and rule.status != "reviewed"):
            continue
        out.append((rule.id, {b: run_probe(spec.game, rule.probe, b) for b in backends}))
    return out


# ---- command line ----------------------------------------------------------------------------


def register(app) -> None:
    import typer

    @app.command("probe")
    def probe_command(
        game: str = typer.Argument(..., help="game name, e.g. Frostbite"),
        specs: Path = typer.Option(Path("specs"), "--specs", help="folder of <game>.yaml specs"),
        backend: list[str] = typer.Option(list(BACKENDS), "--backend", help="ale and/or jax"),
    ) -> None:
        """Run every reviewed probe of specs/<game>.yaml on ALE and on the JAX game."""
        from rich.console import Console
        from rich.table import Table

        from alignment.spec.store import load_spec

        console = Console()
        try:
            canon = catalog.canonical(game)
            path = specs / f"{canon}.yaml"
            if not path.exists():
                raise ProbeError(f"no spec at {path}; write one with `jaxtari-align spec {game}`")
            for b in backend:
                if b not in BACKENDS:
                    raise ProbeError(f"unknown backend {b!r}; backends: {', '.join(BACKENDS)}")
            results = run_spec(load_spec(path), backend)
        except (ProbeError, catalog.UnknownCatalogGame, ValueError) as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(1)
        table = Table(title=f"{canon}: probes of {path}")
        table.add_column("rule")
        for b in backend:
            table.add_column(b)
        failed = 0
        for rule_id, by_backend in results:
            cells = []
            for b in backend:
                r = by_backend[b]
                failed += not r.passed
                cells.append("[green]pass[/green]" if r.passed else f"[red]{r.summary()}[/red]")
            table.add_row(rule_id, *cells)
        console.print(table)
        if not results:
            console.print("no reviewed rule of this spec has a probe")
        if failed:
            raise typer.Exit(1)
