"""Find probe save points on the real emulator: a search whose output is data.

A save point (``save_points:`` in ``specs/<game>.yaml``) is a named list of ``{action, frames}`` steps
from reset that reaches a situation a probe starts from (the igloo complete, Bailey at the door, a
serve the computer misses, ...). Finding such a list by hand is slow; here a beam search over ALE's
``cloneState``/``restoreState`` finds it: from the start, every beam node is extended by each macro
(an action held a few frames), children that lost a life are dropped, the best ``beam`` children by
the target's objective are kept (one per distinct situation), until a child meets the goal. The steps
of that child, run-length merged, plus the signal values it reaches, are the save point.

The search is deterministic (ALE with sticky actions off, a fixed macro order, stable sorting), so
running it again writes the same steps; the tests re-run a short one and replay every stored save
point on both backends. The targets are code, each game's in its ground-truth package
(``alignment/reference/games/<game>/savepoints.py``, the entry's ``save_point_targets``); the spec
only ever holds the search's output, and nothing in a spec is executed.

    jaxtari-align savepoint frostbite igloo-complete            # print the YAML
    jaxtari-align savepoint frostbite igloo-complete --write    # store it in the spec

(``python -m alignment.audit.savepoints`` runs the same command: the stored save points' notes name
it.)
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Optional, Sequence

from alignment import artefacts, catalog
from alignment.plain import plain
from alignment.plugin import SavePointTarget, Signals
from alignment.spec.schema import ALE_ACTION_NAMES, Expectation, GameSpec, ProbeStep, SavePoint
from alignment.spec.store import SpecFileError, load_spec, write_spec, yaml_text


class SearchError(RuntimeError):
    """The search ran out of depth (or every branch lost a life) before reaching the goal."""


# ---- the search --------------------------------------------------------------------------------
@dataclasses.dataclass
class _Node:
    snapshot: object
    steps: list[tuple[str, int]]
    signals: Signals
    value: float


def _play(ale, steps: Sequence[tuple[str, int]]) -> None:
    for action, frames in steps:
        a = ALE_ACTION_NAMES.index(action)
        for _ in range(frames):
            ale.act(a)


def _replay(ale, steps: Sequence[ProbeStep]) -> None:
    """A save point's stored steps: actions, and pokes of the game's registry (RAM writes)."""
    pokes = ale.entry.pokes
    for s in steps:
        if s.is_poke:
            for name, value in s.poke.items():
                if name not in pokes:
                    raise SearchError(f"{ale.entry.name}: unknown poke {name!r}; quantities: "
                                      f"{', '.join(sorted(pokes)) or 'none'}")
                problem = pokes[name].when_problem(ale.frame)
                if problem:
                    raise SearchError(f"{ale.entry.name}: {problem}")
                ale.poke(pokes[name], pokes[name].check(value))
        else:
            _play(ale, [(s.action, s.frames)])


def _merge(steps: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for a, n in steps:
        if out and out[-1][0] == a:
            out[-1] = (a, out[-1][1] + n)
        else:
            out.append((a, n))
    return out


def _reached(ale, target: SavePointTarget, origin: Signals, now: Signals) -> bool:
    """Whether ``now`` (the emulator's state) meets the goal, after the target's settle steps; the
    lookahead is played to judge it and undone."""
    if target.settle:
        _play(ale, target.settle)
        now = ale.signals()
        if not target.keep(origin, now):
            return False
    here = ale.clone()
    after = []
    for action, frames in target.lookahead:
        for _ in range(frames):
            ale.act(ALE_ACTION_NAMES.index(action))
            after.append(ale.signals())
    ale.restore(here)
    return bool(target.goal(now, after))


def search(game: str, target: SavePointTarget, start_steps: Sequence[ProbeStep] = (),
           progress: Optional[Callable[[int, float], None]] = None) -> list[tuple[str, int]]:
    """The steps (after ``start_steps``) that reach ``target``'s goal on ALE, run-length merged."""
    from alignment.reference import AleGame

    ale = AleGame(game, mode=target.mode, full_action_space=True)
    _replay(ale, start_steps)
    _play(ale, target.prefix)
    origin = ale.signals()
    beam = [_Node(ale.clone(), list(target.prefix), origin, target.objective(origin))]
    for depth in range(target.max_depth):
        children: list[_Node] = []
        for node in beam:
            for macro in target.macros:
                ale.restore(node.snapshot)
                _play(ale, macro)
                s = ale.signals()
                if s["terminated"] or not target.keep(origin, s):
                    continue
                steps = node.steps + list(macro)
                snapshot = ale.clone()
                if _reached(ale, target, origin, s):
                    return _merge(steps + list(target.settle))
                children.append(_Node(snapshot, steps, s, target.objective(s)))
        if not children:
            raise SearchError(f"{game}: every branch lost a life at depth {depth}")
        children.sort(key=lambda n: -n.value)  # stable: ties keep macro order
        beam, seen = [], set()
        for child in children:
            key = target.situation(child.signals)
            if key not in seen:
                seen.add(key)
                beam.append(child)
            if len(beam) == target.beam:
                break
        if progress is not None:
            progress(depth, beam[0].value)
    raise SearchError(f"{game}: goal not reached in {target.max_depth} macros "
                      f"(best objective {beam[0].value:.1f})")


def find(spec: GameSpec, name: str, progress=None) -> SavePoint:
    """Search for the save point ``name`` of ``spec.game`` and describe it as data."""
    from alignment.reference import AleGame

    game = catalog.canonical(spec.game)
    targets = catalog.entry(game).save_point_targets
    if name not in targets:
        raise SearchError(f"{game}: no search target {name!r}; targets: "
                          f"{', '.join(sorted(targets)) or 'none'}")
    target = targets[name]
    _, before = spec.save_point_steps(target.start) if target.start != "reset" else (None, [])
    steps = search(game, target, before, progress)
    ale = AleGame(game, mode=target.mode, full_action_space=True)
    _replay(ale, before)
    _play(ale, steps)
    end = ale.signals()
    reaches = [Expectation(signal=k, op="==", value=plain(end[k])) for k in target.reaches]
    return SavePoint(
        start=target.start, mode=target.mode,
        steps=[ProbeStep(action=a, frames=n) for a, n in steps], reaches=reaches,
        note=f"{target.note} Found on ALE by `python -m alignment.audit.savepoints {game} {name}` "
             f"(beam search over clone/restore, {sum(n for _, n in steps)} frames).",
    )


# ---- the command (``jaxtari-align savepoint``, registered by alignment.audit.command) ------------
def savepoint_command(
    game: str,
    name: str,
    specs: Path = Path(artefacts.SPEC.folder),
    write: bool = False,
) -> None:
    """Find a probe save point on ALE (beam search over clone/restore): print its YAML, or with
    --write store it in SPECS/<game>.yaml. NAME is one of the game's search targets."""
    import typer

    try:
        canon = catalog.canonical(game)
        path = specs / f"{canon}.yaml"
        spec = load_spec(path)
        point = find(spec, name)
    except (SearchError, SpecFileError, catalog.UnknownCatalogGame) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    if write:
        data = spec.model_dump(mode="json", exclude_none=True)
        data["save_points"][name] = point.model_dump(mode="json", exclude_none=True)
        write_spec(GameSpec.model_validate(data), path)
        typer.echo(f"wrote save point {name!r} ({point.frames} frames) to {path}")
    else:
        typer.echo(yaml_text({name: point.model_dump(mode="json", exclude_none=True)}), nl=False)


if __name__ == "__main__":  # the command the stored save points' notes name
    import typer

    typer.run(savepoint_command)
