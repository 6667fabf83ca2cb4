"""What the gate re-derives from an artefact's own rows beyond its figures (:mod:`.figures`): that an
audit is the audit of this game against its reviewed spec, that its mutant outcomes and spec gaps
agree with its rows, that a stress report's per-seed final returns are its curves' last values, and
that every number a robustness report aggregates is the aggregate of its per-episode returns.

Every function returns data: the problems, in words, each naming the file and the fix.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Optional, Sequence

from alignment import artefacts

# A recorded statistic within this much of the recomputed one is the same (JSON keeps floats
# exactly; this absorbs summation order only).
REL_TOLERANCE = 1e-9


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if not (_number(a) and _number(b)):
        return False
    return abs(float(a) - float(b)) <= REL_TOLERANCE * max(1.0, abs(float(b)))


# --------------------------------------------------------------------------------------------------
# The spec an audit must have been made against


def reviewed_rules(spec_doc: Any) -> Optional[dict[str, Optional[dict]]]:
    """The reviewed rules of a parsed ``specs/<game>.yaml``: id -> its probe (None: none); None
    when the document has no list of rules."""
    rules = spec_doc.get("rules") if isinstance(spec_doc, dict) else None
    if not isinstance(rules, list):
        return None
    return {str(r.get("id")): r.get("probe") if isinstance(r.get("probe"), dict) else None
            for r in rules if isinstance(r, dict) and r.get("status") == "reviewed"}


def declared_mod_rules(game: str, mods: Sequence[str]) -> Optional[set[str]]:
    """The spec rules the registered mods say they change (None: a mod the game does not have)."""
    from jaxtari.mod_registry import registered_mods

    available = registered_mods(game)
    if any(m not in available for m in mods):
        return None
    return {r for m in mods for r in available[m].rules}


def audit_identity(doc: dict, rel: str, game: str, spec: Optional[dict],
                   mods: Sequence[str] = ()) -> list[str]:
    """An audit is of ``game`` (modified by ``mods``), against ``specs/<game>.yaml``, with one row
    per reviewed rule of that spec (a modified game's audit: less the rules its mods change and
    those it says it could not reach or judge)."""
    problems = []
    spec_rel = artefacts.SPEC.rel(game=game)
    redo = (f"re-run `jaxtari-align audit {game}" + (f" --mods {','.join(mods)}" if mods else "")
            + "`")
    if doc.get("game") != game:
        problems.append(f"{rel} says it audits {doc.get('game')!r}, not {game}: an audit of "
                        f"another game cannot stand for this one; {redo}")
    said = (doc.get("spec") or {}).get("path") if isinstance(doc.get("spec"), dict) else None
    if said != spec_rel:
        problems.append(f"{rel} was made against spec {said!r}, not {spec_rel}; {redo}")
    if spec is None:
        problems.append(f"{spec_rel} is missing or holds no rules: {rel} cannot be checked "
                        "against the reviewed spec")
        return problems
    rows = [r for r in doc.get("rules") or [] if isinstance(r, dict)]
    ids = [str(r.get("id")) for r in rows]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        problems.append(f"{rel} has more than one row for rule(s) {', '.join(twice)}: one row a "
                        "rule (a repeated passing row inflates recall)")
    unknown = sorted(set(ids) - set(spec))
    if unknown:
        problems.append(f"{rel} has rows for rule(s) {spec_rel} does not have as reviewed: "
                        f"{', '.join(unknown[:10])}; {redo}")
    expected = set(spec)
    if mods:
        modified = doc.get("modified") if isinstance(doc.get("modified"), dict) else {}
        changed = set(modified.get("rules_changed") or [])
        declared = declared_mod_rules(game, mods)
        if declared is not None and changed != declared:
            problems.append(f"{rel} leaves out rules_changed {sorted(changed)}, but the mods "
                            f"declare they change {sorted(declared)} (jaxtari/games/{game}/mods.py)")
        unreached = {r for s in (modified.get("starts_not_reached") or {}).values()
                     if isinstance(s, dict) for r in s.get("rules") or []}
        expected -= changed | unreached | set(modified.get("screen_rules_not_judged") or [])
    missing = sorted(expected - set(ids))
    if missing:
        problems.append(f"{rel} has no row for reviewed rule(s) of {spec_rel}: "
                        f"{', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''} (a rule "
                        f"dropped from the audit is not measured); {redo}")
    return problems


def fault_rows(doc: dict, rel: str) -> list[str]:
    names = [str(f.get("fault")) for f in doc.get("faults") or [] if isinstance(f, dict)]
    twice = sorted({n for n in names if names.count(n) > 1})
    return [f"{rel} lists seeded fault(s) {', '.join(twice)} more than once"] if twice else []


# --------------------------------------------------------------------------------------------------
# Mutants and spec gaps


def _killer_known(killer: str, passing: set[str], starts: set[str], rollouts: set[str]) -> bool:
    if killer.startswith("events:"):
        return killer[len("events:"):] in rollouts
    if killer.startswith("explore:"):
        where = killer[len("explore:"):]
        start = where.rpartition("/")[0] if "/" in where else where
        return start in starts or where == "deep play"
    return killer in passing


def mutant_rows(doc: dict, rel: str) -> list[str]:
    """Each mutant's outcome agrees with its row: a killed one names what killed it, a probe that
    holds on both backends (a rule of this audit that passes), an exploration start or a matched
    rollout of this audit; a survived or equivalent one names nothing; the summary counts are the rows'."""
    mutation = doc.get("mutation")
    if not isinstance(mutation, dict) or not isinstance(mutation.get("mutants"), list):
        return []
    rows = [m for m in mutation["mutants"] if isinstance(m, dict)]
    passing = {str(r.get("id")) for r in doc.get("rules") or []
               if isinstance(r, dict) and r.get("outcome") == "pass"}
    starts = {str(s.get("name")) for s in (doc.get("exploration") or {}).get("starts") or []
              if isinstance(s, dict)}
    behaviour = doc.get("behaviour") if isinstance(doc.get("behaviour"), dict) else {}
    rollouts = {f"{r.get('policy')} rollout {r.get('episode')}"
                for r in behaviour.get("rollouts") or [] if isinstance(r, dict)}
    problems = []
    ids = [str(m.get("id")) for m in rows]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        problems.append(f"{rel}: mutant(s) {', '.join(twice[:5])} listed more than once")
    for m in rows:
        killers = m.get("killed_by")
        if not isinstance(killers, list) or not all(isinstance(k, str) for k in killers):
            problems.append(f"{rel}: mutant {m.get('id')} has no list of what killed it")
            continue
        if m.get("status") == "killed":
            unknown = [k for k in killers if not _killer_known(k, passing, starts, rollouts)]
            if not killers:
                problems.append(f"{rel}: mutant {m.get('id')} is marked killed but names nothing "
                                "that killed it (a survivor relabelled?)")
            elif unknown:
                problems.append(f"{rel}: mutant {m.get('id')} is marked killed by "
                                f"{', '.join(unknown)}, which is no passing probe or exploration "
                                "start of this audit")
        elif killers:
            problems.append(f"{rel}: mutant {m.get('id')} is marked {m.get('status')} but names "
                            f"what killed it ({', '.join(killers)})")
    summary = mutation.get("summary")
    if isinstance(summary, dict):
        for status in ("killed", "survived", "equivalent"):
            count = sum(m.get("status") == status for m in rows)
            if summary.get(status) is not None and summary.get(status) != count:
                problems.append(f"{rel}: mutation.summary.{status} says {summary.get(status)!r}, "
                                f"its rows give {count}")
    return problems


def mutant_sample(doc: dict, rel: str, game: str) -> list[str]:
    """The audit ran at least the quick audit's draw of batched Constants mutants (all of them
    when the game has no more than that): an audit made with ``--batched-mutants 1`` scores a
    mutation score over almost nothing. Its recorded counts must be its rows' (the batched draw
    and the sampled rest each give one row or one stillborn entry)."""
    from alignment.audit.mutants import QUICK_BATCHED, batched_drawn

    mutation = doc.get("mutation")
    if not isinstance(mutation, dict) or not isinstance(mutation.get("mutants"), list):
        return []
    sample = mutation.get("sample") if isinstance(mutation.get("sample"), dict) else {}
    drawn, population = batched_drawn(sample)
    redo = f"re-run `jaxtari-align audit {game} --quick` (without --batched-mutants) and commit it"
    if drawn is None or population is None:
        return [f"{rel}: mutation.sample records no count of batched Constants mutants "
                f"(batched.count, batched.population): {redo}"]
    if drawn > population:
        return [f"{rel}: mutation.sample says {drawn} batched Constants mutants ran of "
                f"{population}: {redo}"]
    need = min(QUICK_BATCHED, population)
    problems = []
    if drawn < need:
        problems.append(f"{rel} ran {drawn} of {population} batched Constants mutants, fewer than "
                        f"the quick audit's {need}: its mutation score rests on too few mutants; "
                        f"{redo}")
    sampled = sample.get("sampled")
    stillborn = mutation.get("stillborn") if isinstance(mutation.get("stillborn"), list) else []
    if _number(sampled) and len(mutation["mutants"]) + len(stillborn) != drawn + sampled:
        problems.append(f"{rel}: mutation.sample says {drawn} batched and {sampled} sampled "
                        f"mutants ran, its rows and stillborn list hold "
                        f"{len(mutation['mutants']) + len(stillborn)}: {redo}")
    return problems


def mutant_draw(doc: dict, rel: str, game: str, pop: Sequence) -> list[str]:
    """The audit ran the mutants its recorded seed and sizes draw from the current code's
    population (``pop``: :func:`alignment.audit.mutants.population`, static): its rows and
    stillborn entries are exactly that draw. A mutant swapped for a friendlier one, a sample drawn
    and then trimmed of its survivors, or a population recorded smaller than the code's, fails.
    Only for an audit of the current code (another code's population is another). The traced
    fields are the audit's record (finding them needs a compile per field group): each must be a
    Constants field with batched mutants."""
    from alignment.audit.mutants import expected_draw

    mutation = doc.get("mutation")
    if not isinstance(mutation, dict) or not isinstance(mutation.get("mutants"), list):
        return []
    sample = mutation.get("sample") if isinstance(mutation.get("sample"), dict) else {}
    batched = sample.get("batched") if isinstance(sample.get("batched"), dict) else {}
    redo = f"re-run `jaxtari-align audit {game} --quick` and commit it"
    traced = batched.get("traced")
    if not isinstance(traced, list) or not all(isinstance(t, str) for t in traced):
        return [f"{rel}: mutation.sample.batched records no list of traced Constants fields, so "
                f"its draw of mutants cannot be checked: {redo}"]
    seed = sample.get("seed")
    sizes = (sample.get("size"), batched.get("size"))
    if not (_whole(seed) and all(v is None or _whole(v) for v in sizes)):
        return [f"{rel}: mutation.sample's seed {seed!r} and sizes {sizes!r} are not whole "
                f"numbers (a size may be null: all): {redo}"]
    fields = {m.field for m in pop if m.batched}
    unknown = sorted(set(traced) - fields)
    if unknown:
        return [f"{rel}: mutation.sample.batched.traced names {', '.join(unknown[:5])}, no "
                f"Constants field of the game with mutants: {redo}"]
    drawn_batched, drawn_rest, sizes_now = expected_draw(pop, traced, sample)
    problems = []
    if batched.get("population") != sizes_now["batched"]:
        problems.append(f"{rel}: mutation.sample.batched.population says "
                        f"{batched.get('population')!r}, the code's traced fields have "
                        f"{sizes_now['batched']} Constants mutants: {redo}")
    expected = {m.id for m in drawn_batched + drawn_rest}
    stillborn = mutation.get("stillborn") if isinstance(mutation.get("stillborn"), list) else []
    ran = {str(m.get("id")) for m in mutation["mutants"] if isinstance(m, dict)}
    ran |= {str(m.get("id")) for m in stillborn if isinstance(m, dict)}
    missing, extra = sorted(expected - ran), sorted(ran - expected)
    if missing or extra:
        said = []
        if missing:
            said.append(f"{len(missing)} drawn mutant(s) have no row ({', '.join(missing[:3])}"
                        f"{', ...' if len(missing) > 3 else ''})")
        if extra:
            said.append(f"{len(extra)} row(s) are no mutant of the draw ({', '.join(extra[:3])}"
                        f"{', ...' if len(extra) > 3 else ''})")
        problems.append(f"{rel}: the mutants recorded are not those seed {seed} draws from the "
                        f"code's population: {'; '.join(said)}: {redo}")
    return problems


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def spec_gaps(doc: dict, rel: str) -> list[str]:
    """Exploration divergences no rule explains (as the audits of modified games are judged)."""
    ex = doc.get("exploration") if isinstance(doc.get("exploration"), dict) else {}
    gaps = [d for d in ex.get("divergences") or [] if isinstance(d, dict) and not d.get("rules")]
    out = []
    if gaps:
        out.append(f"{rel}: {len(gaps)} exploration divergence(s) no rule explains (spec gaps), "
                   f"the first at frame {gaps[0].get('frame')} from {gaps[0].get('start')!r}")
    said = (doc.get("summary") or {}).get("spec_gaps") if isinstance(doc.get("summary"), dict) \
        else None
    if said is not None and said != len(gaps):
        out.append(f"{rel}: summary.spec_gaps says {said!r}, its exploration rows give {len(gaps)}")
    return out


# --------------------------------------------------------------------------------------------------
# Stress: the per-seed final returns are the curves' last values


def _last_finite(curve: Sequence) -> Optional[float]:
    for v in reversed(curve):
        if v is not None:
            return v
    return None


def stress_rows(doc: dict, rel: str) -> list[str]:
    """Per backend: one curve, one episodes row and one final return per seed, each curve one
    value per checkpoint, a checkpoint with episodes has a finite return and one without has
    none, and each final return is its curve's last value (the stage's definition)."""
    problems = []
    seeds = doc.get("seeds")
    backends = doc.get("backends") if isinstance(doc.get("backends"), dict) else {}
    if not isinstance(seeds, list) or not seeds:
        return [f"{rel} lists no seeds"]
    if len(set(map(str, seeds))) != len(seeds):
        problems.append(f"{rel} lists a seed more than once: {seeds}")
    steps_seen = {}
    for name, b in sorted(backends.items()):
        if not isinstance(b, dict):
            problems.append(f"{rel}: backends.{name} is not a table")
            continue
        steps, curves, episodes, final = (b.get(k) for k in ("steps", "curves", "episodes",
                                                             "final"))
        if not all(isinstance(x, list) for x in (steps, curves, episodes, final)):
            problems.append(f"{rel}: backends.{name} lacks steps, curves, episodes or final")
            continue
        steps_seen[name] = steps
        if not (len(curves) == len(episodes) == len(final) == len(seeds)):
            problems.append(f"{rel}: backends.{name} holds {len(curves)} curves, {len(episodes)} "
                            f"episode rows and {len(final)} final returns for {len(seeds)} seeds")
            continue
        for i, (curve, eps, fin) in enumerate(zip(curves, episodes, final)):
            where = f"{rel}: backends.{name} seed {seeds[i]}"
            if not isinstance(curve, list) or not isinstance(eps, list) or \
                    len(curve) != len(steps) or len(eps) != len(steps):
                problems.append(f"{where}: a curve and its episode counts have one value per "
                                f"checkpoint ({len(steps)})")
                continue
            if any(v is not None and not _number(v) for v in curve) or \
                    any(not isinstance(e, int) or isinstance(e, bool) or e < 0 for e in eps):
                problems.append(f"{where}: its curve holds a value that is not a finite number "
                                "or null, or its episode counts are not whole numbers")
                continue
            parted = [k for k, (v, e) in enumerate(zip(curve, eps)) if (v is None) != (e == 0)]
            if parted:
                problems.append(f"{where}: checkpoint {parted[0]} has "
                                f"{eps[parted[0]]} episode(s) and return {curve[parted[0]]!r} "
                                "(a return exists exactly where an episode finished)")
            last = _last_finite(curve)
            if not _close(fin, last):
                problems.append(f"{where}: final return {fin!r} is not its curve's last value "
                                f"{last!r} (a final return is the curve's, never edited apart)")
    if len({tuple(map(str, s)) for s in steps_seen.values()}) > 1:
        problems.append(f"{rel}: the backends' checkpoints differ ({', '.join(steps_seen)})")
    return problems


def stress_verdict_fields(doc: dict, rel: str, derived: dict) -> list[str]:
    """The recorded verdict's margin, gain, random return, seeds needed and detail are the
    recomputed verdict's (the label is checked by :func:`alignment.gate.figures.stress_verdict`)."""
    said = doc.get("verdict") if isinstance(doc.get("verdict"), dict) else {}
    out = []
    for key in ("margin", "gain", "random_return", "more_seeds"):
        if key in derived or key in said:
            a, b = said.get(key), derived.get(key)
            if not (_close(a, b) or a == b):
                out.append(f"{rel}: verdict.{key} says {a!r}, the per-seed returns give {b!r}")
    if "detail" in said and said.get("detail") != derived.get("detail"):
        out.append(f"{rel}: verdict.detail is not what the per-seed returns give ({derived.get('detail')!r})")
    return out


# --------------------------------------------------------------------------------------------------
# Robustness: every aggregate from the per-episode returns


def _finite_rows(rows: Any) -> bool:
    return isinstance(rows, list) and all(
        isinstance(r, list) and all(_number(v) for v in r) for r in rows)


def robustness_rows(doc: dict, rel: str) -> list[str]:
    """Returns are finite numbers (never NaN: the schema says null where a value does not exist),
    each seed's row holds ``episodes`` returns and the random policy's ``random_episodes``, the
    seeds are the agents' seeds, the recorded random means are the returns' means, and every IQM,
    mean and median (value and interval) and every JAX-vs-ALE comparison (label, margin, detail,
    seeds needed, test, paired difference) is the one the returns give."""
    import numpy as np

    from alignment.robustness import pc as pcm

    problems = []
    sides = doc.get("sides") if isinstance(doc.get("sides"), dict) else {}
    seeds = (doc.get("agents") or {}).get("seeds") if isinstance(doc.get("agents"), dict) else None
    episodes, random_episodes = doc.get("episodes"), doc.get("random_episodes")
    for side, d in sorted(sides.items()):
        if not isinstance(d, dict):
            continue
        for variant, rows in sorted((d.get("agents") or {}).items()):
            where = f"{rel}: sides.{side}.agents.{variant}"
            if not _finite_rows(rows):
                problems.append(f"{where} holds a return that is not a finite number (NaN, "
                                "infinity or null: a report never holds NaN)")
                continue
            if isinstance(seeds, list) and len(rows) != len(seeds):
                problems.append(f"{where} holds {len(rows)} seeds' rows; the agents are "
                                f"{len(seeds)} seeds")
            if any(len(r) != episodes for r in rows):
                problems.append(f"{where}: a seed's row does not hold `episodes` = {episodes!r} "
                                "returns")
        for variant, values in sorted((d.get("random") or {}).items()):
            where = f"{rel}: sides.{side}.random.{variant}"
            if not _finite_rows([values]):
                problems.append(f"{where} holds a return that is not a finite number")
                continue
            if len(values) != random_episodes:
                problems.append(f"{where} holds {len(values)} returns, not `random_episodes` = "
                                f"{random_episodes!r}")
            said = (d.get("random_mean") or {}).get(variant)
            if values and not _close(said, pcm.random_mean(values)):
                problems.append(f"{rel}: sides.{side}.random_mean.{variant} says {said!r}, its "
                                f"returns give {pcm.random_mean(values)!r}")
    if problems:
        return problems
    stats = doc.get("statistics") if isinstance(doc.get("statistics"), dict) else {}
    comparison = doc.get("comparison") if isinstance(doc.get("comparison"), dict) else {}
    for mod in sorted(doc.get("mods") or {}):
        pcs = {}
        for side, d in sides.items():
            v = pcm.side_pc(d.get("agents") or {}, d.get("random") or {}, mod)
            if v is not None:
                pcs[side] = v
        derived = pcm.aggregate(pcs)
        recorded = stats.get(mod) or {}
        if set(recorded) != set(derived):
            problems.append(f"{rel}: statistics.{mod} has sides {sorted(recorded)}, the returns "
                            f"give {sorted(derived)}")
        for side in sorted(set(recorded) & set(derived)):
            for agg, interval in derived[side].items():
                for part, value in interval.items():
                    said = ((recorded[side] or {}).get(agg) or {}).get(part)
                    if not _close(said, value):
                        problems.append(f"{rel}: statistics.{mod}.{side}.{agg}.{part} says "
                                        f"{said!r}, the per-episode returns give {value!r}")
        if {"jax", "ale"} <= pcs.keys():
            c = pcm.compare_sides(pcs["jax"], pcs["ale"])
            said = comparison.get(mod) or {}
            for key in ("margin", "detail", "more_seeds", "paired_mean_difference"):
                a, b = said.get(key), c.get(key)
                if not (a == b or _close(a, b)):
                    problems.append(f"{rel}: comparison.{mod}.{key} says {a!r}, the returns give "
                                    f"{b!r}")
            if not _same_test(said.get("test"), c.get("test")):
                problems.append(f"{rel}: comparison.{mod}.test is not the test the returns give")
    return problems


def _same_test(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return set(a) == set(b) and all(_same_test(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same_test(x, y) for x, y in zip(a, b))
    return a == b or _close(a, b)


def nan_free(value: Any, path: str = "") -> Iterable[str]:
    """Paths of the non-finite floats in a parsed JSON value (a reader that refuses NaN at parse
    time makes this empty; kept for values that came another way)."""
    if isinstance(value, float) and not math.isfinite(value):
        yield path or "(top)"
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from nan_free(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nan_free(v, f"{path}[{i}]")
