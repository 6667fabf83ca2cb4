"""A mutant an audit records as killed, killed again: the gate's check of a mutant that survived the
base's audit and is killed in this change's.

A relabelled row (``survived`` -> ``killed`` with a plausible ``killed_by``) agrees with every
figure the rows give; only running the mutant tells. Running every mutant is the audit's job
(minutes to an hour); the mutants whose status improved against the base are few (the committed
audits hold two survivors in all), so the gate runs just those: the mutant is rebuilt from the
current code by its id (:func:`alignment.audit.mutants.population`) and played against the spec's
probes, then the exploration's walks and the matched rollouts, in lockstep with ALE, exactly as the
audit's mutation stage does (:func:`alignment.audit.mutants.mutation_test` with ``only``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional


def status(game: str, mutant_id: str, root: Path = Path(".")) -> Optional[str]:
    """``killed``, ``survived`` or ``equivalent`` for the mutant ``mutant_id`` of the current code
    of ``game``; None when no mutant of the current code has that id (the code moved: the audit's
    re-make in CI judges it) or it does not build."""
    import jaxtari
    from alignment import artefacts, catalog
    from alignment.audit import mutant_runs as runs
    from alignment.audit import mutants as mm
    from alignment.audit import trace as tracing
    from alignment.spec.store import load_spec

    entry = catalog.entry(game)
    jax_game = entry.jax_game or game
    game_cls = jaxtari.game_class(jax_game)
    files = catalog.game_source_files(jax_game)
    found = [m for m in mm.population(game_cls, files) if m.id == mutant_id]
    if not found:
        return None
    spec = load_spec(Path(root) / artefacts.SPEC.rel(game=game))
    kill, notes = mm.probe_scripts(spec, game)
    tags = tracing.read_tags(files)
    walks = mm.explore_scripts(spec, game) + mm.rollout_scripts(game)
    result = mm.mutation_test(
        game, game_cls, files, mm.Sample(None), kill, explore=walks, deep=mm.deep_steps(game),
        reference=lambda s: runs.run_ale(game, s), signals=entry.signals, pokes=entry.pokes,
        tags=tags, reviewed={r.id for r in spec.rules if r.status == "reviewed"}, notes=notes,
        only=found)
    return result.rows[0].status if result.rows else None
