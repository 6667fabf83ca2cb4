"""The robustness report: ``<game>.json`` (schema ``jaxtari-align/robustness/v1``, documented in
docs/robustness-schema.md), ``<game>.md`` and ``<game>-pc.png`` (PC per mod with its 95%
interval, JAX beside ALE), written as one unit."""

from __future__ import annotations

import io
import json
from pathlib import Path

from alignment import atomic
from alignment.plain import strict_json
from alignment.robustness.core import ORIGINAL, SCHEMA, RobustnessResult
from jaxtari.protocol import V5

COLOURS = {"ale": "#1f77b4", "jax": "#d62728"}


def to_json(r: RobustnessResult) -> dict:
    return strict_json({
        "schema": SCHEMA,
        "game": r.game,
        "obs": r.obs,
        "code_hash": r.code_hash,
        "versions": r.versions,
        "command": r.command,
        "wall_seconds": r.wall_seconds,
        "agents": r.agents,
        "episodes": r.episodes,
        "random_episodes": r.random_episodes,
        "max_steps": r.max_steps,
        "mods": r.mods,
        "sides": r.sides,
        "pc": r.pc,
        "statistics": r.statistics,
        "comparison": {m: {"label": v["label"], "margin": v["margin"], "detail": v["detail"],
                           "more_seeds": v.get("more_seeds"), "test": v.get("test"),
                           "paired_mean_difference": v.get("paired_mean_difference")}
                       for m, v in r.comparison.items()},
        "notes": r.notes,
    })


def _fmt(x, digits=2):
    return "n/a" if x is None else f"{x:.{digits}f}"


def _cell(stats: dict, side: str) -> str:
    s = stats.get(side, {}).get("iqm")
    return f"{_fmt(s['value'])} [{_fmt(s['low'])}, {_fmt(s['high'])}]" if s else "—"


def to_markdown(data: dict) -> str:
    a = data["agents"]
    lines = [
        f"# Robustness: {data['game']}, {data['obs']} agents",
        "",
        f"{len(a['seeds'])} PPO agents trained on the "
        f"{'game modified by ' + ', '.join(a['trained_mods']) if a.get('trained_mods') else 'original game'}"
        f" ({a['trained_on']} side, "
        f"{a['steps_per_seed']:,} agent steps per seed; {'trained by this run' if a['trained_here'] else 'read from'} "
        f"`{a['source']}`), evaluated zero-shot on each mod: {data['episodes']} episodes per agent "
        f"and variant, {data['random_episodes']} random-policy episodes per variant, ALE v5 protocol "
        f"(frameskip {V5.frameskip}, sticky actions {V5.repeat_action_probability}), at most {data['max_steps']:,} agent steps per episode.",
        "",
        "PC = ((S_mod - R_mod) - (S_org - R_org)) / |S_org - R_org| per seed (S: agent, R: random; "
        "0 keeps the advantage over random, -1 loses it). IQM over seeds with 95% stratified-bootstrap "
        "intervals (rliable).",
        "",
        f"Command: `{data['command'] or 'alignment.robustness.core.run_robustness(...)'}` "
        f"({_fmt(data['wall_seconds'], 0)} s wall)",
        "",
        f"![PC per mod]({data['game']}-pc.png)",
        "",
        "| mod | PC IQM (JAX) | PC IQM (ALE) | JAX vs ALE | ALE counterpart |",
        "|---|---|---|---|---|",
    ]
    for m, info in data["mods"].items():
        stats = data["statistics"].get(m, {})
        cmp = data["comparison"].get(m)
        verdict = f"{cmp['label']} (margin ±{_fmt(cmp['margin'])})" if cmp else "—"
        cp = info["counterpart"]
        if cp is None:
            where = f"JAX-only: {info['jax_only']}"
        else:
            exact = {True: "exact", False: "not exact", None: "not measured"}[cp["exact"]]
            where = f"RAM writes ({exact}{': ' + cp['differs'] if cp['differs'] else ''})"
            if not info["ale"]:
                where += "; not run on ALE here"
        lines.append(f"| `{m}` | {_cell(stats, 'jax')} | {_cell(stats, 'ale')} | {verdict} | {where} |")
    lines += ["", "## Mean returns", "", "| side | variant | agents (per seed) | random |", "|---|---|---|---|"]
    for side, d in data["sides"].items():
        for v, rows in d["agents"].items():
            per_seed = ", ".join(_fmt(sum(r) / len(r), 1) for r in rows)
            rnd = d["random"][v]
            lines.append(f"| {side} | {v} | {per_seed} | {_fmt(sum(rnd) / len(rnd), 2)} |")
    if data["comparison"]:
        lines += ["", "## JAX vs ALE (the stress stage's TOST verdict on PC)", ""]
        for m, c in data["comparison"].items():
            lines.append(f"- `{m}`: **{c['label']}** — {c['detail']}")
    lines += ["", "## Wall time", ""]
    for side, d in data["sides"].items():
        w = d["wall_seconds"]
        lines.append(f"- {side}: agents {_fmt(w['agents'], 1)} s, random {_fmt(w['random'], 1)} s"
                     + (" (one compiled call each, compile included)" if side == "jax" else ""))
    if data["notes"]:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in data["notes"]]
    return "\n".join(lines) + "\n"


def plot(data: dict) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    mods = list(data["mods"])
    fig, ax = plt.subplots(figsize=(max(4.0, 1.4 * len(mods) + 1.5), 3.6))
    width = 0.35
    for j, side in enumerate(("jax", "ale")):
        xs, ys, lo, hi = [], [], [], []
        for i, m in enumerate(mods):
            s = data["statistics"].get(m, {}).get(side, {}).get("iqm")
            if not s or s["value"] is None:
                continue
            xs.append(i + (j - 0.5) * width)
            ys.append(s["value"])
            lo.append(s["value"] - (s["low"] if s["low"] is not None else s["value"]))
            hi.append((s["high"] if s["high"] is not None else s["value"]) - s["value"])
        if xs:
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=4, color=COLOURS[side],
                        label=side.upper())
    ax.axhline(0, color="grey", lw=0.8)
    ax.axhline(-1, color="grey", lw=0.8, ls=":")
    ax.set_xticks(range(len(mods)))
    ax.set_xticklabels(mods, rotation=20, ha="right")
    ax.set_ylabel("PC (IQM, 95% CI)")
    ax.set_title(f"{data['game']}: performance change on each mod")
    ax.legend()
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return buf.getvalue()


def write(result: RobustnessResult, out_dir: Path) -> list[Path]:
    """The three files as one unit (:func:`alignment.atomic.write_files`); returns their paths."""
    data = to_json(result)
    g = result.game
    files = {f"{g}-pc.png": plot(data), f"{g}.md": to_markdown(data),
             f"{g}.json": json.dumps(data, indent=1) + "\n"}
    written = atomic.write_files(Path(out_dir), files)
    return [written[f"{g}.json"], written[f"{g}.md"], written[f"{g}-pc.png"]]
