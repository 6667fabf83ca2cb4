"""Weakening against the base, item by item: what a change takes away from the evidence a game's
verdict rests on. Each item has a key that names it exactly; it fails the gate unless the change
gives a new or rewritten reason for that key in ``fidelity.toml``::

    [overrides.pong]
    "spec.rule:scoring.point-for" = "the rule was split in two (scoring.point-for-left/-right)"

and the gate's comment lists every item with its reason, for the reviewer. The kinds of key:

- ``fidelity:<threshold>``: a threshold lowered or a switch turned off;
- ``spec.rule:<id>``, ``spec.probe:<id>``, ``spec.expectation:<id>``: a reviewed rule removed,
  its probe removed, or an expectation of its probe removed or changed;
- ``audit.fault:<name>``: a seeded fault the audit no longer runs;
- ``audit.budget:<key>``: a smaller exploration budget; ``audit.mutation:sample``: a smaller or
  other mutant sample, or none;
- ``artefact:<path>``: an audit of a modified game, a stress or a robustness report deleted;
- ``mod-audit.side:<game+mods>/<backend>``, ``mod-audit.rule:<game+mods>/<id>``,
  ``mod-audit.audit.budget:<key>``: an audit of a modified game that no longer plays a side,
  has fewer rule rows, or explores less;
- ``stress.verdict:<obs>``, ``stress.budget:<obs>``, ``stress.seeds:<obs>``,
  ``stress.side:<obs>/<backend>``, ``stress.random:<obs>``: a worse verdict, fewer steps, fewer or
  other seeds, a backend dropped, fewer random-policy episodes;
- ``robustness.mod:<mod>``, ``robustness.side:<side>[/<mod>]``, ``robustness.seeds``,
  ``robustness.episodes``, ``robustness.random_episodes``, ``robustness.max_steps``,
  ``robustness.budget``;
- ``plugin.known_end:<name>``, ``plugin.tolerance:<signal>``, ``plugin.signal:<signal>``,
  ``plugin.counterpart:<mod>``, ``plugin.exact:<mod>``: a new excuse in the game's plug-in, a
  widened tolerance, a signal no longer compared, a mod no longer played on ALE, a counterpart
  no longer marked exact;
- ``mutant.applied:<id>``: the change makes the game a mutant the base's audit could not kill.

Every function returns data: a list of :class:`Weakening`.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import re
from typing import Any, Callable, Optional, Sequence


@dataclasses.dataclass(frozen=True)
class Weakening:
    key: str   # the exact item: what a reason in fidelity.toml names
    what: str  # the item in words, with the base


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _expectations(probe: Optional[dict]) -> list[str]:
    import json

    found = (probe or {}).get("expectations") or []
    return [json.dumps(e, sort_keys=True) for e in found if isinstance(e, dict)]


def spec_items(then: Optional[dict], now: Optional[dict], base: str) -> list[Weakening]:
    """Reviewed rules (id -> probe or None) removed, their probes removed, or an expectation of a
    probe removed or changed (a weaker check: ``score == 10`` made ``score >= 0``)."""
    if not then:
        return []
    now = now or {}
    out = []
    for rid, probe in sorted(then.items()):
        if rid not in now:
            out.append(Weakening(f"spec.rule:{rid}", f"reviewed rule {rid} removed from the spec "
                                                     f"against {base}"))
        elif probe is not None and now[rid] is None:
            out.append(Weakening(f"spec.probe:{rid}", f"the probe of rule {rid} removed against "
                                                      f"{base}"))
        elif probe is not None:
            gone = [e for e in _expectations(probe) if e not in _expectations(now[rid])]
            if gone:
                out.append(Weakening(f"spec.expectation:{rid}",
                                     f"the probe of rule {rid} no longer expects "
                                     f"{'; '.join(gone)} against {base}"))
    return out


def _budget_smaller(then: Any, now: Any) -> bool:
    if _num(then) and _num(now):
        return now < then
    if isinstance(then, list) and isinstance(now, list):
        return not set(map(str, then)) <= set(map(str, now))
    return then is not None and now is None


def audit_items(then: dict, now: dict, base: str) -> list[Weakening]:
    """Seeded faults dropped, a smaller exploration budget, a smaller mutant sample."""
    out = []
    names = lambda d: {str(f.get("fault")) for f in d.get("faults") or [] if isinstance(f, dict)}
    for name in sorted(names(then) - names(now)):
        out.append(Weakening(f"audit.fault:{name}", f"seeded fault {name} no longer run by the "
                                                     f"audit against {base}"))
    b_then = (then.get("exploration") or {}).get("budget") or {}
    b_now = (now.get("exploration") or {}).get("budget") or {}
    if isinstance(b_then, dict):
        for key in sorted(b_then):
            if _budget_smaller(b_then[key], (b_now or {}).get(key) if isinstance(b_now, dict)
                               else None):
                out.append(Weakening(f"audit.budget:{key}",
                                     f"exploration budget {key} {b_then[key]!r} -> "
                                     f"{(b_now or {}).get(key)!r} against {base}"))
    s_then = ((then.get("mutation") or {}).get("sample") or {}) if isinstance(
        then.get("mutation"), dict) else {}
    s_now = ((now.get("mutation") or {}).get("sample") or {}) if isinstance(
        now.get("mutation"), dict) else {}
    if s_then:
        size_then, size_now = s_then.get("size"), s_now.get("size") if s_now else None
        if (not s_now or s_now.get("seed") != s_then.get("seed")
                or (size_then is None and size_now is not None)
                or (_num(size_then) and _num(size_now) and size_now < size_then)):
            out.append(Weakening("audit.mutation:sample",
                                 f"the mutant sample shrank or was drawn otherwise against {base} "
                                 f"(seed {s_then.get('seed')!r}, size {size_then!r} -> "
                                 + (f"seed {s_now.get('seed')!r}, size {size_now!r})" if s_now
                                    else "no mutants)")))
        else:
            from alignment.audit.mutants import batched_drawn

            # fewer batched Constants mutants drawn, where the game has more to draw (a game whose
            # Constants lost fields runs fewer by drawing all: no weakening)
            (d_then, p_then), (d_now, p_now) = batched_drawn(s_then), batched_drawn(s_now)
            if (_num(d_then) and _num(d_now) and _num(p_now) and d_now < d_then
                    and d_now < p_now):
                out.append(Weakening("audit.mutation:sample",
                                     f"fewer batched Constants mutants drawn against {base} "
                                     f"({d_then} of {p_then} -> {d_now} of {p_now})"))
    return out


def mod_audit_items(name: str, then: dict, now: dict, base: str) -> list[Weakening]:
    """An audit of a modified game that no longer plays a side, leaves more rules out, or
    explores less."""
    def modified(d):
        return d.get("modified") if isinstance(d.get("modified"), dict) else {}

    out = []
    for side in sorted(set(modified(then).get("backends") or [])
                       - set(modified(now).get("backends") or [])):
        out.append(Weakening(f"mod-audit.side:{name}/{side}", f"audits/{name}.json no longer runs "
                                                              f"on {side} against {base}"))
    ids = lambda d: {str(r.get("id")) for r in d.get("rules") or [] if isinstance(r, dict)}
    for rid in sorted(ids(then) - ids(now)):
        out.append(Weakening(f"mod-audit.rule:{name}/{rid}", f"audits/{name}.json no longer has "
                                                              f"a row for rule {rid} against "
                                                              f"{base}"))
    out += [Weakening(f"mod-audit.{w.key}", f"audits/{name}.json: {w.what}")
            for w in audit_items(then, now, base) if w.key.startswith("audit.budget:")]
    return out


def stress_items(obs: str, then: dict, now: Optional[dict], rel: str, base: str,
                 worse: bool) -> list[Weakening]:
    """A stress report removed, its verdict worse (``worse``), its budget, seeds, backends or
    random-policy episodes fewer."""
    if now is None:
        return [Weakening(f"artefact:{rel}", f"{rel} deleted against {base}")]
    out = []
    a, b = then["steps"], now["steps"]
    budget = "" if a == b else (f" (budget {a:,} -> {b:,} steps per seed)" if _num(a) and _num(b)
                                else " (budget changed)")
    if worse:
        out.append(Weakening(f"stress.verdict:{obs}", f"stress ({obs}) got worse against {base}: "
                             f"{then['label']} -> {now['label']}{budget}"))
    if _num(a) and _num(b) and b < a:
        out.append(Weakening(f"stress.budget:{obs}", f"stress ({obs}): the training budget shrank "
                                                     f"against {base}{budget}"))
    s_then = [str(s) for s in then["doc"].get("seeds") or []]
    s_now = [str(s) for s in now["doc"].get("seeds") or []]
    lost = [s for s in s_then if s not in s_now]
    if lost or len(s_now) < len(s_then):
        out.append(Weakening(f"stress.seeds:{obs}", f"stress ({obs}): seeds {len(s_then)} -> "
                                                    f"{len(s_now)} against {base}"
                             + (f" (dropped: {', '.join(lost[:10])})" if lost else "")))
    for side in sorted(set(then["doc"].get("backends") or {}) - set(now["doc"].get("backends")
                                                                    or {})):
        out.append(Weakening(f"stress.side:{obs}/{side}", f"stress ({obs}): backend {side} "
                                                          f"dropped against {base}"))
    rp = lambda d: len(((d.get("statistics") or {}).get("random_policy") or {}).get("returns")
                       or [])
    if rp(now["doc"]) < rp(then["doc"]):
        out.append(Weakening(f"stress.random:{obs}", f"stress ({obs}): random-policy episodes "
                                                     f"{rp(then['doc'])} -> {rp(now['doc'])} "
                                                     f"against {base}"))
    return out


def robustness_items(then: Optional[dict], now: Optional[dict], rel: str,
                     base: str) -> list[Weakening]:
    if then is None:
        return []
    if now is None:
        return [Weakening(f"artefact:{rel}", f"{rel} deleted against {base}")]
    out = []
    for mod in sorted(set(then.get("mods") or {}) - set(now.get("mods") or {})):
        out.append(Weakening(f"robustness.mod:{mod}", f"robustness: mod {mod} no longer "
                                                      f"evaluated against {base}"))
    for side in sorted(set(then.get("sides") or {}) - set(now.get("sides") or {})):
        out.append(Weakening(f"robustness.side:{side}", f"robustness: side {side} dropped "
                                                        f"against {base}"))
    for mod, info in sorted((then.get("mods") or {}).items()):
        mine = (now.get("mods") or {}).get(mod)
        if isinstance(info, dict) and isinstance(mine, dict) and info.get("ale") and \
                not mine.get("ale") and "ale" in (now.get("sides") or {}):
            out.append(Weakening(f"robustness.side:ale/{mod}", f"robustness: {mod} no longer "
                                                               f"played on ALE against {base}"))
    seeds = lambda d: [str(s) for s in (d.get("agents") or {}).get("seeds") or []]
    if len(seeds(now)) < len(seeds(then)) or set(seeds(then)) - set(seeds(now)):
        out.append(Weakening("robustness.seeds", f"robustness: agents' seeds {len(seeds(then))} "
                                                 f"-> {len(seeds(now))} against {base}"))
    for key in ("episodes", "random_episodes", "max_steps"):
        a, b = then.get(key), now.get(key)
        if _num(a) and _num(b) and b < a:
            out.append(Weakening(f"robustness.{key}", f"robustness: {key} {a} -> {b} against "
                                                      f"{base}"))
    a = (then.get("agents") or {}).get("steps_per_seed")
    b = (now.get("agents") or {}).get("steps_per_seed")
    if _num(a) and _num(b) and b < a:
        out.append(Weakening("robustness.budget", f"robustness: agents trained {a:,} -> {b:,} "
                                                  f"steps per seed against {base}"))
    return out


def plugin_items(then: Optional[dict], now: Optional[dict], base: str) -> list[Weakening]:
    """New known ends, widened tolerances, signals no longer compared, counterparts removed."""
    if not then or not now:
        return []
    out = []
    for name in sorted(set(now.get("known_ends") or []) - set(then.get("known_ends") or [])):
        out.append(Weakening(f"plugin.known_end:{name}", f"plug-in: new known end {name!r} (an "
                                                         f"episode end excused from the "
                                                         f"comparison) against {base}"))
    sig_then, sig_now = then.get("signals") or {}, now.get("signals") or {}
    for name, tol in sorted(sig_then.items()):
        if name not in sig_now:
            out.append(Weakening(f"plugin.signal:{name}", f"plug-in: signal {name} no longer "
                                                          f"compared against {base}"))
        elif sig_now[name] > tol:
            out.append(Weakening(f"plugin.tolerance:{name}", f"plug-in: signal {name}'s "
                                                             f"tolerance widened {tol:g} -> "
                                                             f"{sig_now[name]:g} against {base}"))
    for mod, exact in sorted((then.get("exact") or {}).items()):
        if exact is True and (now.get("exact") or {}).get(mod, True) is not True:
            out.append(Weakening(f"plugin.exact:{mod}", f"plug-in: {mod}'s ALE counterpart no "
                                                        f"longer marked exact (its modified games "
                                                        f"may then part) against {base}"))
    for mod in sorted(set(then.get("counterparts") or []) - set(now.get("counterparts") or [])):
        out.append(Weakening(f"plugin.counterpart:{mod}", f"plug-in: {mod}'s ALE counterpart "
                                                          f"removed (the mod is no longer played "
                                                          f"on ALE) against {base}"))
    return out


# ---- a change that makes the game one of the base audit's surviving mutants ---------------------

_TARGET = re.compile(r"^(?P<owner>\S+)\.(?P<field>\w+)(?P<path>(\[\d+\])*) (?P<old>.+) -> "
                     r"(?P<new>.+)$")


def _leaf(value: Any, path: str) -> Any:
    for i in re.findall(r"\[(\d+)\]", path):
        value = value[int(i)]
    return value


def applied_constant_mutants(base_audit: dict, constants: Optional[Callable[[str], Any]],
                             base: str) -> list[Weakening]:
    """Surviving Constants mutants of the base's audit (``field old -> new``) whose new value is
    the field's value now: the change is a mutant the audit could not kill, so it cannot be judged
    by the audit at all. ``constants(field)``: the current value (raises KeyError if none)."""
    if constants is None:
        return []
    mutation = base_audit.get("mutation") if isinstance(base_audit.get("mutation"), dict) else {}
    out = []
    for m in mutation.get("mutants") or []:
        if not isinstance(m, dict) or m.get("status") != "survived" or \
                m.get("kind") not in ("constant", "table", "colour"):
            continue
        found = _TARGET.match(str(m.get("target")))
        if not found:
            continue
        try:
            old, new = ast.literal_eval(found["old"]), ast.literal_eval(found["new"])
            value = _leaf(constants(found["field"]), found["path"] or "")
        except (ValueError, SyntaxError, KeyError, IndexError, TypeError):
            continue
        if value == new and value != old:
            out.append(Weakening(f"mutant.applied:{m.get('id')}",
                                 f"the change makes {found['field']}{found['path'] or ''} "
                                 f"{old!r} -> {new!r}, the mutant {m.get('id')} that survived "
                                 f"{base}'s audit: no probe or exploration there tells it from "
                                 f"the reviewed game (add a probe that kills it, then re-audit)"))
    return out


def applied_source_mutants(base_audit: dict, read_base: Callable[[str], Optional[str]],
                           read_now: Callable[[str], Optional[str]], base: str) -> list[Weakening]:
    """Surviving source mutants (a comparison or an integer literal) of the base's audit that the
    change applies: the function (or module-level statement) holding the mutated node is, in this
    tree, exactly the base's with the mutant's change."""
    from alignment.audit.mutants import _walk

    mutation = base_audit.get("mutation") if isinstance(base_audit.get("mutation"), dict) else {}
    out = []
    for m in mutation.get("mutants") or []:
        if not isinstance(m, dict) or m.get("status") != "survived" or \
                m.get("kind") not in ("comparison", "literal"):
            continue
        parts = str(m.get("id")).split(":")
        if len(parts) < 5:
            continue
        path, index = parts[1], parts[3]
        old_text, new_text = read_base(path), read_now(path)
        if old_text is None or new_text is None or not index.isdigit():
            continue
        try:
            old_tree, now_tree = ast.parse(old_text), ast.parse(new_text)
            mutated = ast.parse(old_text)
            node = _walk(mutated)[int(index)]
        except (SyntaxError, IndexError, ValueError):
            continue
        if m["kind"] == "comparison" and isinstance(node, ast.Compare):
            new_op = {"shift": {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt},
                      "flip": {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt,
                               ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}}.get(parts[4], {}).get(
                type(node.ops[0]))
            if new_op is None:
                continue
            node.ops = [new_op()]
        elif m["kind"] == "literal" and isinstance(node, ast.Constant) and type(node.value) is int:
            node.value = node.value + (1 if parts[4] == "+" else -1)
        else:
            continue
        holder = _holder(mutated, node)
        if holder is None:
            continue
        want = ast.dump(holder[1])
        then_same = [ast.dump(n) for n in _named(old_tree).get(holder[0], [])]
        now_same = [ast.dump(n) for n in _named(now_tree).get(holder[0], [])]
        if want in now_same and want not in then_same:
            out.append(Weakening(f"mutant.applied:{m.get('id')}",
                                 f"the change makes {path} ({holder[0]}) the mutant "
                                 f"{m.get('id')} ({m.get('target')}) that survived {base}'s "
                                 f"audit: no probe or exploration there tells it from the "
                                 f"reviewed game (add a probe that kills it, then re-audit)"))
    return out


def _named(tree: ast.AST) -> dict[str, list[ast.AST]]:
    """Top-level statements and the functions of classes, by a qualified name."""
    out: dict[str, list[ast.AST]] = {}
    for i, stmt in enumerate(tree.body):
        if isinstance(stmt, ast.ClassDef):
            for sub in stmt.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.setdefault(f"{stmt.name}.{sub.name}", []).append(sub)
            out.setdefault(stmt.name, []).append(stmt)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.setdefault(stmt.name, []).append(stmt)
        else:
            out.setdefault(f"<statement {ast.unparse(stmt)[:40]}>", []).append(stmt)
    return out


def _holder(tree: ast.AST, node: ast.AST) -> Optional[tuple[str, ast.AST]]:
    for name, stmts in _named(tree).items():
        for stmt in stmts:
            if isinstance(stmt, ast.ClassDef):
                continue
            if any(n is node for n in ast.walk(stmt)):
                return name, stmt
    for name, stmts in _named(tree).items():
        for stmt in stmts:
            if any(n is node for n in ast.walk(stmt)):
                return name, stmt
    return None


def allowed(items: Sequence[Weakening], reasons: dict[str, str],
            base_reasons: dict[str, str]) -> tuple[list[tuple[Weakening, str]], list[Weakening]]:
    """(items a reason new or rewritten in this change allows, with it; items without one)."""
    ok, missing = [], []
    for w in items:
        reason = reasons.get(w.key)
        if reason is not None and base_reasons.get(w.key) != reason:
            ok.append((w, reason))
        else:
            missing.append(w)
    return ok, missing
