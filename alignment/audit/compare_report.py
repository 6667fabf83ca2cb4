"""The compare report as files: ``<game>-compare.json`` and ``<game>-compare.md``, written atomically.

:func:`rows` are the report's tables as text cells, shared by the markdown here and the terminal tables
of :mod:`alignment.audit.command`.
"""

from __future__ import annotations

import json
from pathlib import Path

from alignment import atomic


def fmt(x, digits=3) -> str:
    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int) or float(x).is_integer():
        return str(int(x))
    return f"{x:.{digits}g}" if abs(x) < 1000 else f"{x:.1f}"


def rows(report: dict) -> dict[str, list[list[str]]]:
    s, ev, m = report["summary"], report["events"], report["matched"]
    dist = []
    for name in ("return", "length_frames"):
        d = s[name]
        dist.append([name, f"{fmt(d['ale']['mean'])} ± {fmt(d['ale']['std'])}",
                     f"{fmt(d['jax']['mean'])} ± {fmt(d['jax']['std'])}",
                     fmt(d["welch_t"]["p_value"]), fmt(d["mann_whitney_u"]["p_value"])])
    events = [
        ["reward values", ", ".join(map(str, ev["reward_values"]["ale"])) or "-",
         ", ".join(map(str, ev["reward_values"]["jax"])) or "-"],
        ["life losses", str(ev["life_losses"]["ale"]), str(ev["life_losses"]["jax"])],
        ["level changes", str(ev["level_changes"]["ale"]), str(ev["level_changes"]["jax"])],
    ]
    sig = [[k, fmt(v["agreement"]), fmt(v["first_divergence"]), fmt(v["max_abs_diff"]),
            f"{fmt(v['tolerance'])} {v['unit']}"] for k, v in m["signals"].items()]
    return {"dist": dist, "events": events, "signals": sig}


def mods_line(report: dict) -> str:
    """Which game each side played: the original, or the mods (and on ALE only where every mod
    has an ALE counterpart)."""
    m = report.get("mods") or {"names": []}
    if not m["names"]:
        return "Mods: none (the original game on both sides)."
    names = ", ".join(m["names"])
    if m["ale"]:
        return f"Mods: {names}, on both sides (ALE through their RAM-write counterparts)."
    why = "; ".join(f"{k}: {v}" for k, v in m["jax_only"].items())
    return (f"Mods: {names} on JAX only; ALE plays the original game (no ALE counterpart: "
            f"{why}).")


def render_markdown(report: dict) -> str:
    st, ev = report["settings"], report["events"]
    table_rows = rows(report)

    def table(head, body):
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in body]
        return "\n".join(lines)

    return "\n".join([
        f"# {report['game']}: ALE ({report['ale_id']}) vs JAX",
        "",
        f"Policy `{st['policy']}`{' (' + st['policy_file'] + ')' if st['policy_file'] else ''}, "
        f"{st['episodes']} episodes, seed {st['seed']}, frameskip {st['frameskip']}, sticky "
        f"{st['sticky']}, at most {st['max_frames']} frames per episode. Created {report['created']}; "
        + ", ".join(f"{k} {v}" for k, v in report["versions"].items()) + ".",
        "",
        mods_line(report),
        "",
        "## Episodes (v5 protocol)",
        "",
        table(["", "ALE mean ± std", "JAX mean ± std", "Welch p", "Mann-Whitney p"],
              table_rows["dist"]),
        "",
        "## Events",
        "",
        table(["", "ALE", "JAX"], table_rows["events"]),
        "",
        f"Behavioural precision {fmt(ev['precision'])}, recall {fmt(ev['recall'])} "
        f"(reward values only on ALE: {ev['only_ale'] or 'none'}; only on JAX: {ev['only_jax'] or 'none'}).",
        "",
        f"## Matched runs (same actions, sticky off, frameskip {report['matched']['frameskip']})",
        "",
        table(["signal", "agreement", "first divergence (frame)", "max |diff|", "tolerance"],
              table_rows["signals"]),
        "",
    ])


def write_report(report: dict, out: Path) -> list[Path]:
    paths = atomic.write_files(out, {f"{report['game']}-compare.json": json.dumps(report, indent=2) + "\n",
                                     f"{report['game']}-compare.md": render_markdown(report)})
    return list(paths.values())
