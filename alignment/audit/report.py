"""The audit report: ``<out>/<game>.json`` (schema: docs/audit-schema.md) and ``<out>/<game>.md``.

The markdown is what a reviewer reads in a pull request: one table of the headline numbers, then
what is wrong (failures first), what changed since the reference report, and every rule.
Both files are written atomically, so a failed run leaves the previous report whole.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Optional

from alignment import artefacts, atomic, cli_checks
from alignment.audit.core import OUTCOMES, AuditError, AuditResult
from alignment.audit.explore import SCREEN_EVERY

MARK = {"pass": "pass", "fail": "**FAIL**", "wrong-probe": "**wrong probe**",
        "probe-error": "**probe error**", "unprobed": "unprobed"}


# ---- the reference report (--against) --------------------------------------------------------



def _edge_note(bud: dict) -> str:
    if "edges" not in bud.get("policies", ()):
        return ""
    return (f"; the edge walk {bud.get('edge_frames')} frames a direction, from the starts of kind "
            f"{', '.join(bud.get('edge_starts') or [])}")

def load_reference(game: str, out_dir: Path, ref: Optional[str]) -> tuple[Optional[dict], str]:
    """The report to compare with, and how it is named: ``ref`` is a file, or a git ref whose
    committed ``audits/<game>.json`` is read (whatever ``out_dir`` is: CI writes the re-made report
    elsewhere and compares it with the base's committed one), named with the commit it resolved to;
    None reads the report now in ``out_dir`` (the committed one unless it was changed). (None, why)
    when there is none."""
    if ref is None:
        path = Path(out_dir) / f"{game}.json"
        if path.parent.is_dir():
            atomic.recover(path.parent)  # a write killed after its commit point is finished first
        if not path.is_file():
            return None, f"no earlier report at {path}"
        try:
            data = _parse(path.read_text("utf-8"), str(path))
            _check_rows(data, str(path))
            return data, str(path)
        except (AuditError, OSError, UnicodeDecodeError) as exc:  # no usable earlier report: no diff
            return None, f"the earlier report {path} is unusable ({exc})"
    if ref.startswith("-"):
        # git would read it as an option (--output=FILE writes a file): never a ref or a file here
        raise AuditError(f"--against {ref!r}: a ref or file name cannot start with '-'; give a "
                         f"branch, tag, commit or a path such as ./{ref}")
    if Path(ref).is_file():
        try:
            text = Path(ref).read_text("utf-8")
        except UnicodeDecodeError:
            raise AuditError(f"--against {ref!r} is not text (a binary file?): give an audit "
                             "report (.json) or a git ref") from None
        except OSError as exc:
            raise AuditError(f"--against {ref!r} cannot be read ({exc.strerror or exc})") from None
        return _parse(text, ref), ref
    rel = artefacts.AUDIT.rel(game=game)
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        raise AuditError(f"--against {ref!r}: not a file, and git cannot read it here ({exc})") from None
    try:
        sha = cli_checks.git_commit(ref, "--against", top)
    except cli_checks.InputError:
        raise AuditError(f"--against {ref!r}: neither a file nor a git ref (fetch the base "
                         f"branch first, e.g. git fetch origin main)") from None
    shown = subprocess.run(["git", "cat-file", "blob", f"{sha}:{rel}"], cwd=top,
                           capture_output=True)
    if shown.returncode != 0:
        raise AuditError(f"--against {ref!r}: commit {sha[:12]} holds no {rel} (the game was not "
                         f"audited there); audit without --against")
    try:
        text = shown.stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise AuditError(f"--against {ref!r}: {rel} at commit {sha[:12]} is not text, so not an "
                         "audit report") from None
    return _parse(text, f"{ref}:{rel}"), f"{ref}:{rel} at commit {sha[:12]}"


def _check_rows(data: dict, where: str) -> None:
    """The fields "changed since" reads, checked so a damaged earlier report is reported as
    unusable instead of failing the audit after its work."""
    rows = data.get("rules", [])
    if not isinstance(rows, list) or not all(
            isinstance(r, dict) and isinstance(r.get("id"), str) and isinstance(r.get("outcome"), str)
            for r in rows):
        raise AuditError(f"{where}: its rules are not a list of rows with an id and an outcome")
    if not isinstance(data.get("summary", {}), dict):
        raise AuditError(f"{where}: its summary is not a table")


def _parse(text: str, where: str) -> dict:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise AuditError(f"--against: {where} is not an audit report ({exc})") from None
    if not isinstance(data, dict) or data.get("schema") != artefacts.AUDIT.schema:
        raise AuditError(f"--against: {where} is not a {artefacts.AUDIT.schema} report")
    return data


def changes(previous: dict, current: dict, ref: str) -> dict:
    """Rules whose outcome changed (pass->fail is a regression), new and dropped rules."""
    before = {r["id"]: r["outcome"] for r in previous.get("rules", [])}
    after = {r["id"]: r["outcome"] for r in current["rules"]}
    changed = [{"rule": rid, "before": before[rid], "after": out}
               for rid, out in after.items() if rid in before and before[rid] != out]
    keys = ("coverage", "recall", "precision", "fault_detection", "probes_failing_on_ale")
    return {
        "ref": ref,
        "code_hash_before": previous.get("code_hash"),
        "code_hash_now": current.get("code_hash"),
        "regressions": [c["rule"] for c in changed if c["before"] == "pass"],
        "fixed": [c["rule"] for c in changed if c["after"] == "pass"],
        "changed": changed,
        "new_rules": [rid for rid in after if rid not in before],
        "dropped_rules": [rid for rid in before if rid not in after],
        "summary_before": {k: previous.get("summary", {}).get(k) for k in keys},
    }


# ---- markdown --------------------------------------------------------------------------------


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(head: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def render_markdown(report: dict) -> str:
    s = report["summary"]
    g = report["game"]
    versions = ", ".join(f"{k} {v}" for k, v in report["versions"].items())
    faults = ("-" if s["seeded_faults"] == 0
              else f"{s['seeded_faults_detected']}/{s['seeded_faults']} ({_pct(s['fault_detection'])})")
    mod = report.get("modified")
    if mod:
        lines = [f"# Audit of {g} modified by {', '.join(mod['mods'])}: the modified JAX game "
                 "against its reviewed spec and the modified ALE game", ""]
    else:
        lines = [f"# Audit of {g}: the JAX game against its reviewed spec and ALE", ""]
    lines += _table(
        ["coverage", "recall", "precision", "seeded faults detected", "probes failing on ALE",
         "code hash", "versions"],
        [[f"{_pct(s['coverage'])} ({s['probed_rules']}/{s['reviewed_rules']})",
          f"{_pct(s['recall'])} ({s['probed_rules'] - s['failing_on_jax']}/{s['probed_rules']})",
          _pct(s["precision"]), faults, s["probes_failing_on_ale"], f"`{report['code_hash'][:12]}`",
          versions]])
    lines += ["", f"Spec `{report['spec']['path']}`, spans {report['spec']['spans']}. "
              f"Created {report['created']}; LLM auditor: {report['llm']['provider']}.", ""]
    if mod:
        lines += _modified_section(mod, report)
    written = [r["id"] for r in report["rules"] if (r.get("start") or "").startswith("RAM-written")]
    if written:
        lines += [f"{len(written)} probe(s) start from a RAM-written state (pokes: the same "
                  "quantities written into ALE's RAM and the JAX state), not from a played start: "
                  + ", ".join(f"`{i}`" for i in written) + ".", ""]

    rules = report["rules"]
    bad = [r for r in rules if r["outcome"] in ("fail", "probe-error", "wrong-probe")]
    lines += ["## Failures", ""]
    problems = []
    for r in sorted(bad, key=lambda r: OUTCOMES.index(r["outcome"])):
        problems.append(f"- {MARK[r['outcome']]} `{r['id']}`: {r['detail']}")
    b = report.get("behaviour")
    if b and b["unjustified"]:
        problems.append("- **behaviour only the JAX game shows** (never on ALE in the same matched "
                        f"rollouts): {', '.join(b['unjustified'])}")
        for kind, why in (b.get("consequences") or {}).items():
            problems.append(f"  - {kind}: {why}")
    ex = report.get("exploration")
    for d in (ex or {}).get("divergences", []):
        if not d["rules"]:
            problems.append(f"- **spec gap** (exploration, no rule to attribute it to): frame "
                            f"{d['frame']} ({d['where']}): {d['signal']} ALE {d['ale']}, "
                            f"JAX {d['jax']}")
    missed = [f for f in report.get("faults") or [] if not f["detected"]]
    for f in missed:
        why = f["error"] or f"flagged {', '.join(f['flagged']) or 'nothing'}"
        problems.append(f"- **seeded fault missed** `{f['fault']}` (breaks `{f['breaks']}`): {why}")
    for r in rules:
        v = r.get("llm") or {}
        if v.get("rejected"):
            problems.append(f"- **LLM verdict rejected** `{r['id']}`: {v['rejected']}")
        elif v.get("disagrees_with_probe"):
            problems.append(f"- **LLM disagrees** `{r['id']}`: {v['disagrees_with_probe']}")
    for t in report["traceability"]["unknown_tags"]:
        problems.append(f"- **tag** `rule: {t['tag']}` at {t['at']} {t['problem']}")
    gaps = [r for r in rules if r["outcome"] == "unprobed" and not r["no_probe_reason"]]
    if gaps:
        ids = ", ".join(f"`{r['id']}`" for r in gaps)
        problems.append(f"- **unprobed without a reason**: {ids}")
    lines += problems or ["None."]
    lines.append("")

    if report.get("changed_since"):
        c = report["changed_since"]
        lines += [f"## Changed since {c['ref']}", ""]
        before, now = c.get("code_hash_before"), c.get("code_hash_now")
        if before and now and before != now:
            lines += [f"The game's code hash changed: `{before[:12]}` -> `{now[:12]}`.", ""]
        elif before and now:
            lines += [f"The game's code hash is unchanged (`{now[:12]}`).", ""]
        rows = [[f"`{x['rule']}`", x["before"], x["after"]] for x in c["changed"]]
        rows += [[f"`{rid}`", "(new rule)", next(r["outcome"] for r in rules if r["id"] == rid)]
                 for rid in c["new_rules"]]
        rows += [[f"`{rid}`", "(rule dropped)", "-"] for rid in c["dropped_rules"]]
        if rows:
            lines += _table(["rule", "before", "now"], rows)
        else:
            lines.append("No rule changed outcome; no rule added or dropped.")
        if c["regressions"]:
            lines += ["", f"**Regressions (pass -> not pass): {', '.join(c['regressions'])}**"]
        lines.append("")

    lines += ["## Rules", ""]
    rows = []
    for r in sorted(rules, key=lambda r: (OUTCOMES.index(r["outcome"]), r["id"])):
        ale = "-" if r["ale"] is None else ("pass" if r["ale"]["passed"] else "fail")
        jax = "-" if r["jax"] is None else ("pass" if r["jax"]["passed"] else "fail")
        code = ", ".join(r["trace"][:3]) + (" ..." if len(r["trace"]) > 3 else "") or "(no tag)"
        note = r["detail"] if r["outcome"] != "pass" else ""
        if (r.get("start") or "").startswith("RAM-written"):
            note = "; ".join(x for x in (r["start"], note) if x)
        row = [f"`{r['id']}`", MARK[r["outcome"]], ale, jax, code, note]
        if r.get("llm"):
            row.insert(5, r["llm"].get("verdict", "-"))
        rows.append(row)
    head = ["rule", "outcome", "ALE", "JAX", "code"]
    head += ["LLM verdict"] if any(r.get("llm") for r in rules) else []
    lines += _table(head + ["note"], rows)
    lines.append("")

    st = report["structure"]
    unjust = [i for i in st if not i["justified"]]
    measured = [i for i in st if not i["rules"] and i["measured"]]
    lines += ["## Precision", "",
              f"Structural: {len(st) - len(unjust)} of {len(st)} mechanics and constants justified "
              f"({sum(bool(i['rules']) for i in st)} by a rule, {len(measured)} measured on ALE with "
              "no document rule).", ""]
    if unjust:
        lines += ["Unjustified (no rule tag, no measurement):", ""]
        lines += _table(["kind", "name", "at"], [[i["kind"], f"`{i['name']}`", i["at"]] for i in unjust])
        lines.append("")
    if measured:
        lines += ["<details><summary>Measured on ALE, no document rule</summary>", ""]
        lines += _table(["kind", "name", "measurement"],
                        [[i["kind"], f"`{i['name']}`", i["measured"]] for i in measured])
        lines += ["", "</details>", ""]
    if b:
        kinds = sorted(set(b["kinds"]["ale"]) | set(b["kinds"]["jax"]))
        st = b.get("settings")
        how = (f" ({len(b['rollouts'])} rollouts of up to {st['max_frames']} frames, frameskip "
               f"{st['frameskip']}, sticky off)" if st else "")
        lines += [f"Behavioural, event kinds in matched rollouts{how}: precision "
                  f"{_pct(b['precision'])}, recall {_pct(b['recall'])}.", ""]
        lines += _table(["event", "ALE", "JAX"],
                        [[k, b["kinds"]["ale"].get(k, 0), b["kinds"]["jax"].get(k, 0)] for k in kinds])
        lines.append("")

    if ex:
        bud = ex["budget"]
        kinds: dict = {}
        for st_ in ex["starts"]:
            kinds[st_["kind"]] = kinds.get(st_["kind"], 0) + 1
        lines += ["## Exploration", "",
                  f"{ex['walks']} walks ({', '.join(bud['policies'])}; {bud['walk_frames']} frames "
                  f"each{_edge_note(bud)}) from {len(ex['starts'])} starts ("
                  + ", ".join(f"{n} {k}" for k, n in kinds.items())
                  + f"), {ex['frames']:,} frames compared with ALE frame by frame (signals and "
                  f"reward every frame, the screen every {SCREEN_EVERY}th) in {ex['seconds']} s: "
                  f"{len(ex['divergences'])} divergences, {ex['spec_gaps']} spec gaps.", ""]
        for name, n in (ex.get("known_ends") or {}).items():
            declared = ("declared in its plug-in: the JAX game ends the episode there and ALE "
                        "does not")
            lines += [f"{n} walks reached the game's known end *{name}* ({declared}); their "
                      f"comparison stops on that frame.", ""] if n else \
                     [f"No walk reached the game's known end *{name}* ({declared}); nothing was "
                      f"excused by it in this audit.", ""]
        if ex.get("players"):
            lines += _table(["player", "walks", "frames", "divergences"],
                            [[p, r["walks"], f"{r['frames']:,}", r["divergences"]]
                             for p, r in ex["players"].items()])
            lines.append("")
        if ex.get("plans"):
            lines += [f"The planner chose {bud.get('planner_frames')} frames from every start of "
                      f"kind {', '.join(bud.get('planner_starts') or [])} by searching the JAX game; "
                      "its walks were replayed on both:", ""]
            lines += _table(["from", "frames", "reward (JAX search)", "levels", "lives lost",
                             "frames simulated"],
                            [[p["start"], p["frames"], p["reward"], p["levels"], p["lives_lost"],
                              f"{p['search_frames']:,}"] for p in ex["plans"]])
            lines.append("")
        if ex.get("goals"):
            goals = ex["goals"]
            lines += [f"Goals declared in the game's plug-in (what a strong player reaches), judged "
                      f"on the emulator's side of every walk and every start's own steps: "
                      f"{sum(g['reached'] for g in goals)} of {len(goals)} reached, "
                      f"{sum(g['by_planner'] for g in goals)} by the planner.", ""]
            lines += _table(["goal", "reached", "by the planner", "walks", "first reached by"],
                            [[g["goal"], "yes" if g["reached"] else "**no**",
                              "yes" if g["by_planner"] else "no", g["walks"],
                              "; ".join(g["first"]) or "-"] for g in goals])
            lines.append("")
        if ex["divergences"]:
            lines += _table(["start", "walk", "frame", "signal", "ALE", "JAX", "attributed to"],
                            [[d["start"], d["policy"] or "(reaching it)", d["frame"], d["signal"],
                              d["ale"], d["jax"], ", ".join(f"`{r}`" for r in d["rules"])
                              or "**none: spec gap**"] for d in ex["divergences"][:30]])
            lines.append("")

    if report.get("faults") is not None:
        lines += ["## Seeded faults", ""]
        rolled = any(f.get("events") is not None for f in report["faults"])
        lines += _table(["fault", "breaks", "detected", "caught", "also flagged",
                         "exploration", *(["matched rollouts"] if rolled else []),
                         "what it does"],
                        [[f"`{f['fault']}`", f"`{f['breaks']}`", "yes" if f["detected"] else "**NO**",
                          "yes" if f.get("caught", f["detected"]) else "**NO**",
                          ", ".join(f["collateral"]) or "-", _explored(f),
                          *([_rolled(f.get("events"))] if rolled else []),
                          f["error"] or f["description"]]
                         for f in report["faults"]])
        lines += ["", "Under each fault every probe that holds on the real game runs again in "
                  "lockstep with ALE (save-point prefixes included, so a broken save point is "
                  "named), and the exploration runs again on the faulty game"
                  + (", and so do the matched rollouts (whole games from reset, compared frame "
                     "by frame)" if rolled else "")
                  + ". *Detected*: the rule it breaks was flagged (its probe failed, or an "
                  "exploration or rollout divergence was attributed to it); *caught*: anything "
                  "noticed it.", ""]
        lines.append("")
    elif report.get("faults_note"):
        lines += ["## Seeded faults", "", report["faults_note"], ""]

    lines += _mutation_section(report)

    unprobed = [r for r in rules if r["outcome"] == "unprobed"]
    if unprobed:
        lines += ["## Rules without a probe", ""]
        lines += [f"- `{r['id']}`: {r['no_probe_reason'] or 'no reason given (a coverage gap)'}"
                  for r in unprobed]
        lines.append("")
    if report["traceability"]["untraced_rules"]:
        lines += ["## Rules no code tag cites", "",
                  ", ".join(f"`{x}`" for x in report["traceability"]["untraced_rules"]), ""]
    return "\n".join(lines)


def _modified_section(mod: dict, report: dict) -> list[str]:
    """What a modified game's audit ran where, and how the two modified games compared."""
    lines = ["## Modified game", "",
             f"Mods {', '.join(f'`{m}`' for m in mod['mods'])}, run on {mod['ran']}. "
             f"Comparison: {mod['comparison']}.", ""]
    rows = []
    for name in mod["mods"]:
        c = mod["counterparts"].get(name)
        if c is None:
            rows.append([f"`{name}`", "none (JAX-only)", "-", mod["jax_only"].get(name, "")])
            continue
        writes = "; ".join(_write(w) for w in c["writes"])
        exact = {True: "exact", False: "**not exact**", None: "not measured"}[c["exact"]]
        rows.append([f"`{name}`", writes, exact,
                     c["differs"] if c["exact"] is False else c["measured"]])
    lines += _table(["mod", "ALE counterpart (RAM writes)", "exact", "measured / what differs"],
                    rows)
    changed = ", ".join(f"`{r}`" for r in mod["rules_changed"]) or "none"
    lines += ["", f"Rules the mods change (not probed here): {changed}. Exploration: "
              f"{mod['explore']}; matched rollouts: {mod['events']}.", ""]
    screens = mod.get("screen_rules_not_judged") or []
    if screens:
        lines += ["Not probed either (the counterparts are not exact, so ALE's screen is not the "
                  "modified JAX game's reference): rules whose probes compare the screen: "
                  + ", ".join(f"`{r}`" for r in screens) + ".", ""]
    unreached = mod.get("starts_not_reached") or {}
    if unreached:
        lines += ["Not probed either: rules whose probes start from a save point the modified "
                  "game does not reach as the spec says (its route was found on the original "
                  "game):", ""]
        lines += _table(["save point", "rules", "on the modified game"],
                        [[f"`{k}`", ", ".join(f"`{r}`" for r in u["rules"]),
                          f"{u['backend']}: {'; '.join(u['failures'])}"]
                         for k, u in unreached.items()])
        lines.append("")
    b = report.get("behaviour") or {}
    rollouts = b.get("rollouts") or []
    if rollouts:
        lines += _table(["rollout", "frames ALE", "frames JAX", "first divergence"],
                        [[f"{r['policy']} {r['episode']}", r["frames"]["ale"], r["frames"]["jax"],
                          _parted(r.get("divergence"), mod)] for r in rollouts])
        lines.append("")
    return lines


def _write(w: dict) -> str:
    cond = "" if not w.get("if_ram") else f" while RAM {w['if_ram'][0]} = {w['if_ram'][1]}"
    if w.get("mask") is not None:  # a masked write: only these bits
        return f"RAM {w['address']} bits {w['mask']:#04x} := {w['value']:#04x} ({w['when']}{cond})"
    return f"RAM {w['address']} := {w['value']} ({w['when']}{cond})"


def _parted(d: Optional[dict], mod: dict) -> str:
    if not d:
        return "none"
    what = f"frame {d['frame']}: {d['signal']} ALE {d['ale']}, JAX {d['jax']}"
    if mod.get("counterparts_exact"):
        return f"**{what}** (the counterparts are exact: a finding)"
    return f"{what} (a counterpart is not exact: its known difference)"


def _explored(f: dict) -> str:
    first = f.get("explore_first")
    if not first:
        return "-"
    rules = ", ".join(f.get("explore_rules") or []) or "no rule"
    broken = f.get("save_points_broken") or []
    at = f"; save points off ALE: {', '.join(broken)}" if broken else ""
    return (f"{f['explore_divergences']} divergences, first at frame {first['frame']} "
            f"({first['signal']}; {first['where']}) -> {rules}{at}")


def _rolled(ev: Optional[dict]) -> str:
    if not ev:
        return "-"
    ds = ev.get("divergences") or []
    if not ds:
        return f"0 of {ev.get('rollouts', '?')} diverge"
    first = min(ds, key=lambda d: d["frame"])
    kinds = [f"JAX only: {', '.join(ev['unjustified'])}"] if ev.get("unjustified") else []
    kinds += [f"ALE only: {', '.join(ev['missing_on_jax'])}"] if ev.get("missing_on_jax") else []
    return (f"{len(ds)} of {ev.get('rollouts', '?')} diverge, first at frame {first['frame']} "
            f"({first['signal']}; {first['where']}) -> {', '.join(ev.get('rules') or []) or 'no rule'}"
            + (f"; events {'; '.join(kinds)}" if kinds else ""))


def _mutation_section(report: dict) -> list[str]:
    from alignment.audit.mutants import batched_drawn, score, summary

    m = report.get("mutation")
    if not m:
        note = report.get("mutation_note")
        return ["## Mutation testing", "", note, ""] if note else []
    rows = m["mutants"]
    c = summary(rows)
    smp = m["sample"]
    lines = ["## Mutation testing", "",
             f"Mutation score **{_pct(score(rows))}** (killed {c['killed']} / (killed {c['killed']} + "
             f"survived {c['survived']})), beside recall {_pct(report['summary']['recall'])}; "
             f"{c['equivalent']} equivalent mutants excluded, {len(m.get('stillborn') or [])} "
             f"stillborn (do not build or run) not scored. {m.get('seconds', '?')} s.", ""]
    lines += _table(["kind", "killed", "survived", "equivalent"],
                    [[k, v["killed"], v["survived"], v["equivalent"]]
                     for k, v in c["by_kind"].items()])
    drawn, of = batched_drawn(smp)
    size = smp["batched"].get("size")
    batched = (f"all {drawn} batched Constants mutants" if size is None
               else f"batched size {size}: {drawn} of {of} batched Constants mutants")
    lines += ["", f"Sample: seed {smp['seed']}, size {smp['size'] if smp['size'] is not None else 'all'} "
              f"of {smp['sampled_from']} mutants that each need a compile; {batched} "
              f"({smp['batched']['traced_fields']} "
              f"traced fields, one compile); population {smp['population']} "
              f"({', '.join(f'{k} {v}' for k, v in smp['population_by_kind'].items())}). "
              f"{smp['how'][0].upper()}{smp['how'][1:]}.", "",
              f"Equivalent: {smp['equivalence']}.", ""]
    survivors = [r for r in rows if r["status"] == "survived"]
    if survivors:
        lines += ["### Survivors", ""]
        lines += _table(["mutant", "where", "nearest rule", "what no probe saw"],
                        [[f"`{r['target']}`", f"`{r['at']}`", f"`{r['nearest_rule']}`"
                          if r["nearest_rule"] else "-", r["detail"]] for r in survivors])
        lines.append("")
    return lines


def to_json(result: AuditResult, previous: Optional[dict] = None, ref: str = "") -> dict:
    data = result.to_json()
    if previous is not None:
        data["changed_since"] = changes(previous, data, ref)
    return data


def write(result: AuditResult, out_dir: Path = Path(artefacts.AUDIT.folder), *,
          previous: Optional[dict] = None, ref: str = "") -> list[Path]:
    """Write ``<out_dir>/<game>.json`` and ``.md`` as one unit (both new or both old, even when
    killed between them); ``previous`` adds "changed since"."""
    data = to_json(result, previous, ref)
    name = result.report_name
    paths = atomic.write_files(out_dir, {f"{name}.json": json.dumps(data, indent=1) + "\n",
                                         f"{name}.md": render_markdown(data) + "\n"})
    return list(paths.values())
