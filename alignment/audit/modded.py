"""The audit of a modified game (``jaxtari-align audit GAME --mods NAME...``): returns data.

A mod changes some of a game's rules on purpose and declares which (``rules`` on
:class:`jaxtari.mods.InternalMod`/``PostStepMod``). The rest of the spec still describes the
modified game, so its audit

- runs the probes of every reviewed rule the mods do not change (the changed ones are listed, not
  probed), except those starting from a save point the modified game no longer reaches as the spec
  says (its route was found on the original game; listed with what it reached instead);
- where every mod has an ALE counterpart (RAM writes, :class:`alignment.signals.AleCounterpart`)
  plays the same modification on the emulator: the probes on both backends, the exploration from
  every start and the matched rollouts compare the two modified games frame by frame. With every
  counterpart measured exact the probes run in lockstep and a divergence is a finding, judged like
  the original game's (attributed to the rules watching its signal, else a spec gap). With a
  counterpart that is not exact the two modified games are known to part (its ``differs`` says
  where): the probes are judged by their expectations on each side, and a divergence is attributed
  to the rules the mods change, reported beside the counterpart's known difference, never a spec
  gap;
- otherwise runs JAX-only: each probe's expectations on the modified JAX game; no exploration and
  no matched rollouts (they need the real game).

Seeded faults and mutants judge the original game's audit (``audits/<game>.json``) and are not
re-run here. The report is ``<out>/<game>+<mod>....json``/``.md`` with its own code hash
(:func:`alignment.catalog.mod_code_hash`) and a ``modified`` section saying which mods ran where.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from alignment import catalog
from alignment.audit import session
from alignment.audit.core import AuditError, AuditResult, Subject, audit


@dataclasses.dataclass(frozen=True)
class ModSides:
    """Which mods run where, and what a modified game's audit can compare."""

    game: str
    names: tuple[str, ...]  # registered names, in the order applied
    rules: tuple[str, ...]  # the rules the mods declare they change (sorted)
    counterparts: dict  # name -> AleCounterpart.to_dict() (mods with one)
    jax_only: dict  # name -> why it has no ALE counterpart

    @property
    def on_ale(self) -> bool:
        """Whether ALE plays the modified game (every mod has a counterpart)."""
        return not self.jax_only

    @property
    def exact(self) -> bool:
        """Whether every counterpart is measured exact (the two modified games are one game)."""
        return self.on_ale and all(c["exact"] is True for c in self.counterparts.values())

    def to_json(self) -> dict:
        ran = ("both backends: ALE plays every mod's counterpart (RAM writes)" if self.on_ale
               else "JAX only: " + "; ".join(f"{k} has no ALE counterpart ({why})"
                                             for k, why in self.jax_only.items()))
        return {"mods": list(self.names), "rules_changed": list(self.rules),
                "backends": ["ale", "jax"] if self.on_ale else ["jax"], "ran": ran,
                "counterparts": self.counterparts, "jax_only": self.jax_only,
                "counterparts_exact": self.exact,
                "comparison": self.comparison()}

    def comparison(self) -> str:
        if not self.on_ale:
            return ("none: the probes' expectations judged on the modified JAX game alone; no "
                    "exploration or matched rollouts (they need the real game)")
        if self.exact:
            return ("lockstep: probes, exploration and matched rollouts compare the two modified "
                    "games frame by frame; a divergence is a finding")
        return ("the counterparts are not exact: probes judged by their expectations on each "
                "side; exploration and matched rollouts still compare frame by frame, and a "
                "divergence is attributed to the rules the mods change (the counterparts' known "
                "difference), not counted as a spec gap")


def mod_sides(game: str, mods: Sequence[str]) -> ModSides:
    """The registered mods (AuditError listing the game's mods for an unknown one) and their sides."""
    from jaxtari.mod_registry import resolve
    from jaxtari.mods import ModError

    canon = catalog.canonical(game)
    e = catalog.entry(canon)
    wanted = [m for item in mods for m in str(item).replace(",", " ").split()]
    if not wanted:
        raise AuditError("--mods names no mod")
    try:
        resolved = resolve(e.jax_game or canon, wanted)
    except ModError as exc:
        raise AuditError(str(exc)) from None
    names = tuple(m.name for m in resolved)
    if len(set(names)) != len(names):
        raise AuditError(f"--mods names a mod twice: {', '.join(names)}")
    counterparts = {n: e.ale_mods[n].to_dict() for n in names if n in e.ale_mods}
    jax_only = {n: e.jax_only_mods.get(n, "no ALE counterpart in the game's ground truth")
                for n in names if n not in e.ale_mods}
    if not jax_only:
        from alignment.signals import RamWriteConflict, merge_ram_writes

        try:
            merge_ram_writes(canon, {n: e.ale_mods[n] for n in names})
        except RamWriteConflict as exc:
            raise AuditError(str(exc)) from None
    rules = tuple(sorted({r for m in resolved for r in m.rules}))
    return ModSides(canon, names, rules, counterparts, jax_only)


def report_name(sides: ModSides) -> str:
    return catalog.modified_name(sides.game, sides.names)


def matched_lockstep(sides: ModSides, *, max_frames: Optional[int] = None) -> dict[str, Any]:
    """The audit's matched rollouts (:data:`alignment.audit.events.ROLLOUTS`) on the two modified
    games: event kinds of each side (behavioural precision) and, per rollout, the first frame where
    the JAX game leaves ALE's (every catalog signal within its tolerance and the reward)."""
    from alignment.audit.events import MAX_FRAMES, lockstep_rollouts

    out, _ = lockstep_rollouts(sides.game, jax_mods=sides.names, ale_mods=sides.names,
                               max_frames=max_frames or MAX_FRAMES)
    out["settings"].update({"mods": list(sides.names), "lockstep": True})
    return out


def run_mod_audit(game: str, mods: Sequence[str], *, llm: str = "offline",
                  model: Optional[str] = None, out_dir: Path = Path("audits"),
                  specs_dir: Path = Path("specs"), docs=None, events: bool = True,
                  explore: str = "full", llm_cache=None,
                  progress: Optional[Callable[[str], None]] = None) -> AuditResult:
    """Audit the catalog game ``game`` modified by ``mods`` (see the module docstring); writes
    nothing (:func:`alignment.audit.report.write` does). One audit session
    (:mod:`alignment.audit.session`) serves the save points' check and the audit."""
    with session.opened():
        return _run_mod_audit(game, mods, llm=llm, model=model, out_dir=out_dir,
                              specs_dir=specs_dir, docs=docs, events=events, explore=explore,
                              llm_cache=llm_cache, progress=progress)


def _run_mod_audit(game: str, mods: Sequence[str], *, llm: str, model: Optional[str],
                   out_dir: Path, specs_dir: Path, docs, events: bool, explore: str, llm_cache,
                   progress: Optional[Callable[[str], None]]) -> AuditResult:
    from alignment.audit import core, probes
    from alignment.audit.compare import versions
    from alignment.audit.explore import explore as explore_game
    from alignment.audit.source import game_source_files, shared_source_files

    canon, e, budget = core.audited_game(game, explore)
    sides = mod_sides(canon, mods)
    core.check_out_dir(out_dir)
    documents, spans = core._documents(canon, docs)
    spec = core._load_spec(canon, specs_dir, documents)
    known = {r.id for r in spec.rules}
    unknown = [r for r in sides.rules if r not in known]
    if unknown:
        raise AuditError(f"mods {', '.join(sides.names)} declare they change rules "
                         f"{', '.join(unknown)}, which {specs_dir}/{canon}.yaml lacks: fix the "
                         "mod's `rules` (tests/test_mod_rules.py checks them)")

    import jaxtari

    game_cls = jaxtari.game_class(e.jax_game)
    names = sides.names
    ale_mods = names if sides.on_ale else ()
    say = progress or (lambda label: None)
    say("save points on the modified game")
    unreached = starts_not_reached(spec, sides, skip=set(sides.rules))
    left_out = set(sides.rules) | {r for u in unreached.values() for r in u["rules"]}
    # a screen compared with ALE's needs the two modified games to be one game
    screen_rules = [] if sides.exact else sorted(
        r.id for r in spec.rules if r.status == "reviewed" and r.probe is not None
        and r.id not in left_out and any(x.op == "matches_ale" for x in r.probe.expectations))
    left_out |= set(screen_rules)

    def run_probe(probe, backend, _mods):
        if backend == "ale":
            return probes.run_probe(canon, probe, "ale", spec=spec, ale_mods=ale_mods)
        return probes.run_probe(canon, probe, "jax", names, spec=spec, lockstep=sides.exact,
                                ale_mods=ale_mods)

    budget = budget if sides.on_ale else None
    touched = set() if sides.exact else set(sides.rules)

    def explore_modified(_mods, structure):
        found = explore_game(spec, mods=names, ale_mods=names, budget=budget, structure=structure,
                             progress=progress, touched=touched)
        if sides.exact:  # a rule the mods change is not probed here: it cannot explain a divergence
            for w in found.walks:
                w.rules = [r for r in w.rules if r not in sides.rules]
            for st in found.starts:
                st["rules"] = [r for r in st["rules"] if r not in sides.rules]
        return found

    subject = Subject(
        game=canon, spec=spec, game_cls=game_cls,
        source_files=game_source_files(e.jax_game) + shared_source_files(),
        run_probe=run_probe, signals=list(e.signals) + list(probes.EXTRA_SIGNALS),
        code_hash=catalog.mod_code_hash(canon, names), versions=versions(),
        events=(lambda: matched_lockstep(sides)) if events and sides.on_ale else None,
        faults=None,
        faults_note=(f"seeded faults judge the original game's audit (audits/{canon}.json); not "
                     "re-run on a modified game"),
        spec_path=str(Path(specs_dir) / f"{canon}.yaml"), spans=spans,
        explore=explore_modified if budget is not None else None,
        left_out=frozenset(left_out), ale_probes=sides.on_ale,
    )
    result = audit(subject, llm=llm, model=model, llm_cache=llm_cache, faults=False,
                   mutants=None, progress=progress)
    result.faults_note = subject.faults_note
    result.mutation_note = (f"mutation testing judges the original game's audit "
                            f"(audits/{canon}.json); not re-run on a modified game")
    result.name = report_name(sides)
    for row in result.rules:
        if row.outcome == "wrong-probe":  # it holds on the original game (the game's own audit)
            row.detail = (f"the probe fails on the modified ALE game, though it holds on the "
                          f"original (audits/{canon}.json): the mods change what it looks at "
                          f"without declaring this rule in their `rules` "
                          f"({'; '.join(row.ale['failures'])})")
    modified = sides.to_json()
    modified["explore"] = (f"{explore}" if budget is not None else
                           "not run (JAX-only)" if not sides.on_ale else "not run (--no-explore)")
    modified["events"] = ("matched rollouts in lockstep" if result.behaviour is not None else
                          "not run (JAX-only)" if not sides.on_ale else "not run (--no-events)")
    parted = [r["divergence"] for r in (result.behaviour or {}).get("rollouts", [])
              if r.get("divergence")]
    modified["rollout_divergences"] = len(parted)
    # with exact counterparts the two modified games are one game: parting is a finding
    modified["unexplained_divergences"] = len(parted) if sides.exact else 0
    modified["starts_not_reached"] = unreached
    modified["screen_rules_not_judged"] = screen_rules
    result.modified = modified
    return result


def starts_not_reached(spec, sides: ModSides, skip: set) -> dict[str, dict]:
    """Save points that probes of rules not in ``skip`` start from and that the modified game does
    not reach as they say (their ``reaches``; a route found on the original game may pass through
    what a mod changes: Frostbite's level-2 start comes after the degree bonus keep_warm enlarges).
    Judged on the modified ALE game where it runs (the ground truth), else on the modified JAX game.
    {save point: {"failures": [...], "backend": ..., "rules": [rule ids starting there]}}."""
    from alignment.audit import probes

    by_start: dict[str, list[str]] = {}
    for r in spec.rules:
        if (r.status == "reviewed" and r.probe is not None and r.id not in skip
                and r.probe.start in spec.save_points):
            by_start.setdefault(r.probe.start, []).append(r.id)
    backend = "ale" if sides.on_ale else "jax"
    out = {}
    for name, rules in sorted(by_start.items()):
        try:
            res = probes.check_save_point(spec, name, backend, mods=sides.names,
                                          ale_mods=sides.names if sides.on_ale else ())
        except ValueError:  # ProbeError: the rows' own probe errors say what cannot run
            continue
        if not res.passed:
            out[name] = {"failures": list(res.failures), "backend": backend,
                         "rules": sorted(rules)}
    return out


__all__ = ["ModSides", "matched_lockstep", "mod_sides", "report_name", "run_mod_audit"]
