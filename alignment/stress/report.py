"""The stress report: ``<game>-<obs>.json`` (schema ``jaxtari-align/stress/v1``, documented in
docs/stress-schema.md), ``<game>-<obs>.md`` and two PNG plots (the IQM learning curves with 95%
bootstrap bands, and the final-return intervals), each written atomically."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Sequence

import numpy as np

from alignment import artefacts, atomic
from alignment.plain import strict_json
from alignment.learning.config import PPOConfig
from alignment.stress.config import StressInputError
from alignment.stress.core import SCHEMA, StressResult

COLOURS = {"ale": "#1f77b4", "jax": "#d62728"}


def to_json(result: StressResult) -> dict:
    r = result
    return strict_json({
        "schema": SCHEMA,
        "game": r.game,
        "obs": r.obs,
        "budget": r.budget,
        "code_hash": r.code_hash,
        "versions": r.versions,
        "command": r.command,
        "config": r.config.to_dict(),
        "seeds": r.seeds,
        "backends": {k: {
            "steps": b.steps,
            "curves": b.curves,
            "episodes": b.episodes,
            "final": b.final,
            "wall_seconds": b.wall_seconds,
            "steps_per_second": b.steps_per_second,
        } for k, b in r.runs.items()},
        "statistics": r.statistics,
        "verdict": {"label": r.verdict["label"], "margin": r.verdict.get("margin"),
                    "random_return": r.verdict.get("random_return"), "gain": r.verdict.get("gain"),
                    "detail": r.verdict["detail"], "more_seeds": r.verdict.get("more_seeds"),
                    "test": r.verdict.get("test"), "success": r.verdict.get("success")},
        "notes": r.notes,
        **({"mods": list(r.mods)} if r.mods else {}),
        **r.extra,
    })


def _fmt(x, digits=2):
    return "n/a" if x is None else f"{x:.{digits}f}"


def to_markdown(result: StressResult, data: dict) -> str:
    r = result
    v = data["verdict"]
    lines = [
        f"# Stress: {r.game}, {r.obs} observations",
        "",
        f"**Verdict: {v['label']}** (margin on final return: ±{_fmt(v['margin'])}, a fifth of "
        f"ALE's gain {_fmt(v.get('gain'))} over the random policy's {_fmt(v.get('random_return'))})."
        f" {v['detail']}.",
        "",
        f"PPO with identical hyperparameters on each backend; budget `{r.budget}` = "
        f"{r.config.total_timesteps:,} agent steps per seed ({r.config.num_updates} updates), "
        f"{len(r.seeds)} seeds per backend, evaluated every {r.config.updates_per_eval} updates "
        f"({r.config.updates_per_eval * r.config.batch_size:,} steps) as the mean unclipped return "
        f"of the games finished in that interval.",
        "",
        f"Command: `{r.command or 'alignment.stress.core.run_stress(...)'}`",
        "",
        "![learning curves](" + f"{r.name}-curves.png)",
        "![final return](" + f"{r.name}-final.png)",
        "",
        "## Final return (95% stratified-bootstrap intervals, rliable)",
        "",
        "| backend | IQM | mean | median | per seed | wall time | steps/s |",
        "|---|---|---|---|---|---|---|",
    ]
    final = data["statistics"].get("final", {})
    for k, b in data["backends"].items():
        f = final.get(k, {})
        cell = lambda m: (f"{_fmt(f[m]['value'])} [{_fmt(f[m]['low'])}, {_fmt(f[m]['high'])}]"
                          if m in f else "n/a")
        per_seed = ", ".join(_fmt(x, 1) for x in b["final"])
        lines.append(f"| {k} | {cell('iqm')} | {cell('mean')} | {cell('median')} | {per_seed} | "
                     f"{_fmt(b['wall_seconds'], 0)} s | {_fmt(b['steps_per_second'], 0)} |")
    s = data["statistics"]
    if s.get("probability_of_improvement"):
        p = s["probability_of_improvement"]["jax_over_ale"]
        lines += ["", f"Probability of improvement P(JAX > ALE) = {_fmt(p['value'])} "
                      f"[{_fmt(p['low'])}, {_fmt(p['high'])}] (0.5: neither backend better)."]
    if s.get("auc"):
        a = s["auc"]
        lines += ["", "Area under the curve (mean return over training): "
                      + ", ".join(f"{k} {_fmt(m)}" for k, m in a["mean"].items())
                      + f"; difference JAX - ALE {_fmt(a['diff'])}, Welch p = {_fmt(a['p_value'], 3)}."]
    gap = s.get("pixel_gap")
    if gap:
        lines += ["", f"Pixels: ALE's 84x84 frames (ale-py's resize) and the JAX game's native 84x84 "
                      f"raster differ by a mean of {gap['mean_abs_diff']:.2f} grey levels (of 255) "
                      f"over {gap['frames']} matched frames; "
                      f"{100 * gap['fraction_pixels_differing']:.1f}% of pixels differ at all."]
    t = v.get("test")
    if t:
        lines += ["", f"Equivalence test (TOST, Welch, α = {t['alpha']} per side): difference "
                      f"{_fmt(t['diff'])}, 90% CI [{_fmt(t['ci'][0])}, {_fmt(t['ci'][1])}], "
                      f"p = {_fmt(t['p_value'], 4)}; margin ±{_fmt(t['margin'])} (20% of ALE's "
                      f"mean final return minus the random policy's)."]
    rp = s.get("random_policy")
    if rp:
        lines += ["", f"Random policy on ALE (uniform actions, {rp['episodes']} games, seed "
                      f"{rp['seed']}, sticky {rp['sticky']}): mean return {_fmt(rp['mean'])}."]
    sr = v.get("success")
    if sr:
        lines += ["", f"Bimodal outcomes: a run succeeded when its final return exceeds "
                      f"{_fmt(sr['threshold'])} (the middle of the widest gap between runs); "
                      + ", ".join(f"{k} {sr['successes'][k]}/{sr['runs'][k]}" for k in sr["runs"])
                      + f"; Fisher's exact p = {_fmt(sr['fisher_p'], 3)}; equivalence within "
                      f"±{sr['margin']:.0%}: TOST p = {_fmt(sr['tost_p'], 3)}."]
    lines += ["", "## IQM learning curve", "", "| steps | " + " | ".join(data["backends"]) + " |",
              "|---|" + "---|" * len(data["backends"])]
    iqm = s["curve_iqm"]
    steps = next(iter(data["backends"].values()))["steps"]
    for i, step in enumerate(steps):
        cells = [f"{_fmt(iqm[k]['iqm'][i])} [{_fmt(iqm[k]['low'][i])}, {_fmt(iqm[k]['high'][i])}]"
                 for k in data["backends"]]
        lines.append(f"| {step:,} | " + " | ".join(cells) + " |")
    if r.notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in r.notes]
    lines += ["", f"Code hash {r.code_hash[:16]}…; versions: "
              + ", ".join(f"{k} {x}" for k, x in r.versions.items()), ""]
    return "\n".join(lines)


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return buf.getvalue()


def plots(result: StressResult, data: dict) -> dict[str, bytes]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    iqm = data["statistics"]["curve_iqm"]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for k, b in data["backends"].items():
        steps = np.asarray(b["steps"], float)
        f = lambda xs: np.array([np.nan if x is None else x for x in xs], float)
        c = COLOURS.get(k)
        ax.plot(steps, f(iqm[k]["iqm"]), label=f"{k} (IQM, {len(b['curves'])} seeds)", color=c)
        ax.fill_between(steps, f(iqm[k]["low"]), f(iqm[k]["high"]), alpha=0.25, color=c)
    ax.set_xlabel("agent steps per seed")
    ax.set_ylabel("episodic return")
    ax.set_title(f"{result.game} ({result.obs}): PPO, 95% bootstrap bands")
    ax.legend()
    curves = _png(fig)
    plt.close(fig)

    final = data["statistics"].get("final", {})
    fig, axes = plt.subplots(1, 3, figsize=(8.0, 2.4), sharey=True)
    names = list(final)
    for ax, metric in zip(axes, ("iqm", "mean", "median")):
        for i, k in enumerate(names):
            m = final[k][metric]
            if m["value"] is None:
                continue
            ax.errorbar([m["value"]], [i], xerr=[[m["value"] - m["low"]], [m["high"] - m["value"]]],
                        fmt="o", color=COLOURS.get(k), capsize=4)
        ax.set_title(metric.upper() if metric == "iqm" else metric)
        ax.set_yticks(range(len(names)), names)
        ax.set_xlabel("final return")
    final_png = _png(fig)
    plt.close(fig)
    return {f"{result.name}-curves.png": curves, f"{result.name}-final.png": final_png}


class ReplaceRefused(StressInputError):
    """A run would replace a report that holds more than it (a committed result is never lost)."""


def configuration(config: PPOConfig, seeds: Sequence[int], backends: Sequence[str]) -> dict:
    """What makes two stress runs the same experiment: the PPO config (budget and
    hyperparameters), the seeds and the backend set. Recorded in every report."""
    return json.loads(json.dumps(strict_json({"config": config.to_dict(), "seeds": list(seeds),
                                         "backends": sorted(backends)})))


# Not settings of the experiment: the budget is measured on its own (more is stronger), and how
# often the curve is sampled follows from the budget (alignment.learning.config.budget_config).
_AMOUNTS = ("total_timesteps", "updates_per_eval")


def measures(data: dict) -> dict:
    """What a stress report (or :func:`configuration`) holds, measure by measure: the agent steps
    per seed, the seeds and backends (more is stronger), and every PPO hyperparameter as a setting
    (another value is another experiment; :class:`alignment.cli_checks.Same`)."""
    from alignment.cli_checks import Same

    config = data.get("config") if isinstance(data.get("config"), dict) else {}
    out = {"agent steps per seed": config.get("total_timesteps"),
           "seeds": list(data.get("seeds") or []),
           "backends": sorted(data.get("backends") or ())}
    for key, value in config.items():
        if key not in _AMOUNTS:
            out[f"PPO {key}"] = Same(value)
    return out


def check_replace(out_dir: Path, name: str, config: PPOConfig, seeds: Sequence[int],
                  backends: Sequence[str]) -> None:
    """Refuse, before any training, to replace ``out_dir/<name>.json`` with a run that holds less
    (a smaller budget, fewer seeds or backends) or other hyperparameters: a committed hour-long
    result must not be overwritten by a smoke run (the one rule,
    :func:`alignment.cli_checks.check_artefact_not_weaker`). The caller skips this check when
    asked to replace (``--replace``)."""
    from alignment import cli_checks

    try:
        cli_checks.check_report_not_weaker(
            Path(out_dir) / f"{name}.json", artefacts.STRESS.schema, measures,
            measures(configuration(config, seeds, backends)), what="stress report")
    except cli_checks.ReplaceRefused as exc:
        raise ReplaceRefused(str(exc)) from None


def check_run(out_dir: Path, game: str, obs: str, budget: str | int, seeds: int,
              backends: Sequence[str] = ("ale", "jax")) -> None:
    """:func:`check_replace` for a run as the commands take it (a budget name or steps)."""
    from alignment.learning.config import budget_config

    check_replace(out_dir, f"{game}-{obs}", budget_config(budget, obs), range(seeds), backends)


def write(result: StressResult, out_dir: Path = Path(artefacts.STRESS.folder)) -> dict[str, Path]:
    """Write the JSON, the markdown and the plots; returns the paths by kind."""
    data = to_json(result)
    files: dict[str, bytes | str] = dict(plots(result, data))
    files[f"{result.name}.md"] = to_markdown(result, data)
    files[f"{result.name}.json"] = json.dumps(data, indent=1, allow_nan=False) + "\n"
    # one unit: a run killed while writing leaves the old report whole, never a new JSON beside
    # old plots
    written = atomic.write_files(out_dir, files)
    return {name.rsplit(".", 1)[0].rsplit("-", 1)[-1] if name.endswith(".png")
            else name.rsplit(".", 1)[1]: path for name, path in written.items()}
