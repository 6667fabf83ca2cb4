"""``jaxtari-align compare GAME``: play the same policy on the real emulator and on the JAX game.

Two comparisons, one report (schema: docs/compare-schema.md):

1. **v5 episodes** — ``--episodes N`` episodes per backend under the ALE v5 protocol (``--frameskip``,
   ``--sticky``), each side with its own sticky-action randomness, capped at ``--max-frames`` emulator
   frames. Episode return and length are compared as distributions (mean, std, Welch's t-test and
   the Mann-Whitney U test); the reward values each side produced give behavioural precision (JAX
   reward kinds also seen on ALE / JAX kinds) and recall (ALE kinds also seen on JAX / ALE kinds);
   life losses and level changes are counted.
2. **matched runs** — the same episodes' actions with sticky actions off, frame by frame: for every
   catalog signal, the fraction of frames where both sides agree within the signal's tolerance and
   the first frame where they do not.

Policies are open-loop (see :mod:`alignment.reference.policy`), so both backends play the very same
agent actions. The terminal gets rich tables; ``--out DIR`` gets ``<game>-compare.json`` and ``.md``.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import platform
import time
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from alignment import atomic
from alignment import stats
from alignment.catalog import GameEntry, UnknownCatalogGame, entry as catalog_entry
from alignment.reference.ale import AleError
from alignment.reference.policy import POLICIES, PolicyError, episode_actions
from alignment.reference.rollout import JaxRunner, ale_episode, ale_frames, expand_to_frames

SCHEMA = "jaxtari-align/compare/v1"


class CompareError(RuntimeError):
    """A comparison that cannot run (reported as a message, exit code 1)."""


def _versions() -> dict:
    import ale_py
    import jax

    import jaxtari

    return {"ale_py": ale_py.__version__, "jax": jax.__version__, "jaxtari": jaxtari.__version__,
            "numpy": np.__version__, "python": platform.python_version()}


def load_jax_game(e: GameEntry):
    """The JAX game of a catalog entry, checked against the catalog (actions, signals)."""
    ok, why = e.jax_available()
    if not ok:
        raise CompareError(f"cannot compare {e.name}: {why}. The ALE side works on its own "
                           f"(alignment.reference.AleGame({e.name!r})).")
    import jax

    import jaxtari

    try:
        game = jaxtari.make(e.jax_game)
    except Exception as exc:
        raise CompareError(f"the JAX game {e.jax_game!r} could not be built: "
                           f"{type(exc).__name__}: {exc}") from None
    if tuple(game.action_names) != tuple(e.minimal_actions):
        raise CompareError(
            f"{e.name}: the JAX game's actions ({', '.join(game.action_names)}) differ from the "
            f"catalog's minimal action set ({', '.join(e.minimal_actions)})")
    try:
        state = jax.eval_shape(lambda k: game.reset(k)[1], jax.random.key(0))
        shapes = jax.eval_shape(
            lambda s: {k: jax.numpy.asarray(sig.jax(game, s)) for k, sig in e.signals.items()}, state)
    except KeyError as exc:
        raise CompareError(f"{e.name}: the JAX game's signals(state) lacks the catalog signal {exc}; "
                           f"catalog signals: {', '.join(e.signals)}") from None
    except Exception as exc:
        raise CompareError(f"{e.name}: reading the catalog signals from the JAX state failed: "
                           f"{type(exc).__name__}: {exc}") from None
    for k, sig in e.signals.items():
        if tuple(shapes[k].shape) != tuple(sig.shape):
            raise CompareError(f"{e.name}: JAX signal {k!r} has shape {tuple(shapes[k].shape)}, "
                               f"the catalog says {tuple(sig.shape)}")
    return game


def _episode_json(ep) -> dict:
    return {
        "return": _num(ep.episode_return),
        "steps": ep.steps,
        "frames": ep.frames,
        "terminated": ep.terminated,
        "truncated": ep.truncated,
        "life_losses": ep.life_losses,
        "level_changes": ep.level_changes,
        "reward_values": ep.reward_values(),
    }


def _num(x):
    x = float(x)
    return int(x) if x.is_integer() else x


def run_compare(
    game: str,
    *,
    policy: str = "random",
    episodes: int = 5,
    seed: int = 0,
    policy_file: Optional[str] = None,
    max_frames: int = 10_000,
    frameskip: int = 4,
    sticky: float = 0.25,
    advance: Optional[Callable[[str, int], None]] = None,
) -> dict:
    """Run both comparisons and return the report (a JSON-able dict, docs/compare-schema.md).

    ``advance(label, n)`` is called as work completes (n units; the total is
    ``2 * episodes + 1``): for a progress bar.
    """
    if episodes < 1:
        raise CompareError(f"--episodes must be >= 1, got {episodes}")
    if max_frames < 1:
        raise CompareError(f"--max-frames must be >= 1, got {max_frames}")
    if frameskip < 1:
        raise CompareError(f"--frameskip must be >= 1, got {frameskip}")
    if not 0.0 <= sticky <= 1.0:
        raise CompareError(f"--sticky must be within [0, 1], got {sticky}")
    advance = advance or (lambda label, n: None)
    e = catalog_entry(game)
    steps = math.ceil(max_frames / frameskip)
    actions = episode_actions(e, policy, seed=seed, episodes=episodes, steps=steps,
                              policy_file=policy_file)
    jgame = load_jax_game(e)
    runner = JaxRunner(e, jgame)
    seeds = [seed * 1000 + i for i in range(episodes)]
    t0 = time.perf_counter()

    # ---- v5 episodes -------------------------------------------------------------------------
    ale_eps = []
    for i in range(episodes):
        ale_eps.append(ale_episode(e, actions[i], seed=seeds[i], frameskip=frameskip, sticky=sticky,
                                   max_frames=max_frames))
        advance(f"ALE episode {i + 1}/{episodes}", 1)
    try:
        jax_eps = runner.episodes(seeds, actions, frameskip=frameskip, sticky=sticky,
                                  max_frames=max_frames)
    except Exception as exc:
        raise CompareError(f"the JAX game failed during the v5 episodes: {type(exc).__name__}: {exc}") \
            from None
    advance(f"JAX episodes ({episodes})", 1)

    returns = {"ale": [ep.episode_return for ep in ale_eps], "jax": [ep.episode_return for ep in jax_eps]}
    lengths = {"ale": [ep.frames for ep in ale_eps], "jax": [ep.frames for ep in jax_eps]}
    kinds = {side: sorted({v for ep in eps for v in ep.reward_values()})
             for side, eps in (("ale", ale_eps), ("jax", jax_eps))}
    pr = stats.precision_recall(kinds["ale"], kinds["jax"])

    # ---- matched runs (sticky off) -------------------------------------------------------------
    matched_eps = []
    for i in range(episodes):
        frame_actions = expand_to_frames(actions[i], frameskip, max_frames)
        a = ale_frames(e, frame_actions)
        try:
            j = runner.frames(seeds[i], frame_actions)
        except Exception as exc:
            raise CompareError(f"the JAX game failed during a matched run: {type(exc).__name__}: "
                               f"{exc}") from None
        per_signal = {k: stats.agreement(a[k], j[k], s.tolerance) for k, s in e.signals.items()}
        matched_eps.append({
            "episode": i,
            "frames": {"ale": int(len(a["frame"])), "jax": int(len(j["frame"]))},
            "signals": per_signal,
        })
        advance(f"matched run {i + 1}/{episodes}", 1)
    matched_signals = {}
    for k, s in e.signals.items():
        rows = [m["signals"][k] for m in matched_eps]
        frames = sum(r["frames"] for r in rows)
        agree = (sum(r["agreement"] * r["frames"] for r in rows if r["agreement"] is not None) / frames
                 if frames else None)
        firsts = [r["first_divergence"] for r in rows if r["first_divergence"] is not None]
        diffs = [r["max_abs_diff"] for r in rows if r["max_abs_diff"] is not None]
        matched_signals[k] = {
            "agreement": agree,
            "first_divergence": min(firsts) if firsts else None,
            "episodes_diverged": len(firsts),
            "max_abs_diff": max(diffs) if diffs else None,
            "tolerance": s.tolerance,
            "unit": s.unit,
        }

    return {
        "schema": SCHEMA,
        "game": e.name,
        "ale_id": e.ale_id,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "versions": _versions(),
        "settings": {
            "policy": policy,
            "policy_file": str(policy_file) if policy_file else None,
            "episodes": episodes,
            "seed": seed,
            "max_frames": max_frames,
            "frameskip": frameskip,
            "sticky": sticky,
            "episode_seeds": seeds,
            "actions": list(e.minimal_actions),
        },
        "episodes": {"ale": [_episode_json(ep) for ep in ale_eps],
                     "jax": [_episode_json(ep) for ep in jax_eps]},
        "summary": {
            "return": {"ale": stats.summary(returns["ale"]), "jax": stats.summary(returns["jax"]),
                       **stats.two_sample(returns["ale"], returns["jax"])},
            "length_frames": {"ale": stats.summary(lengths["ale"]), "jax": stats.summary(lengths["jax"]),
                              **stats.two_sample(lengths["ale"], lengths["jax"])},
        },
        "events": {
            "reward_values": kinds,
            "precision": pr["precision"],
            "recall": pr["recall"],
            "only_ale": pr["only_ale"],
            "only_jax": pr["only_jax"],
            "life_losses": {"ale": sum(ep.life_losses for ep in ale_eps),
                            "jax": sum(ep.life_losses for ep in jax_eps)},
            "level_changes": {"ale": sum(ep.level_changes for ep in ale_eps),
                              "jax": sum(ep.level_changes for ep in jax_eps)},
        },
        "matched": {"sticky": 0.0, "frameskip": frameskip, "signals": matched_signals,
                    "episodes": matched_eps},
        "elapsed_s": round(time.perf_counter() - t0, 3),
    }


# ---- presenting ---------------------------------------------------------------------------------
def _fmt(x, digits=3) -> str:
    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int) or float(x).is_integer():
        return str(int(x))
    return f"{x:.{digits}g}" if abs(x) < 1000 else f"{x:.1f}"


def _rows(report: dict) -> dict[str, list[list[str]]]:
    s, ev, m = report["summary"], report["events"], report["matched"]
    dist = []
    for name in ("return", "length_frames"):
        d = s[name]
        dist.append([name, f"{_fmt(d['ale']['mean'])} ± {_fmt(d['ale']['std'])}",
                     f"{_fmt(d['jax']['mean'])} ± {_fmt(d['jax']['std'])}",
                     _fmt(d["welch_t"]["p_value"]), _fmt(d["mann_whitney_u"]["p_value"])])
    events = [
        ["reward values", ", ".join(map(str, ev["reward_values"]["ale"])) or "-",
         ", ".join(map(str, ev["reward_values"]["jax"])) or "-"],
        ["life losses", str(ev["life_losses"]["ale"]), str(ev["life_losses"]["jax"])],
        ["level changes", str(ev["level_changes"]["ale"]), str(ev["level_changes"]["jax"])],
    ]
    sig = [[k, _fmt(v["agreement"]), _fmt(v["first_divergence"]), _fmt(v["max_abs_diff"]),
            f"{_fmt(v['tolerance'])} {v['unit']}"] for k, v in m["signals"].items()]
    return {"dist": dist, "events": events, "signals": sig}


def render_markdown(report: dict) -> str:
    st, ev = report["settings"], report["events"]
    rows = _rows(report)

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
        "## Episodes (v5 protocol)",
        "",
        table(["", "ALE mean ± std", "JAX mean ± std", "Welch p", "Mann-Whitney p"], rows["dist"]),
        "",
        "## Events",
        "",
        table(["", "ALE", "JAX"], rows["events"]),
        "",
        f"Behavioural precision {_fmt(ev['precision'])}, recall {_fmt(ev['recall'])} "
        f"(reward values only on ALE: {ev['only_ale'] or 'none'}; only on JAX: {ev['only_jax'] or 'none'}).",
        "",
        f"## Matched runs (same actions, sticky off, frameskip {report['matched']['frameskip']})",
        "",
        table(["signal", "agreement", "first divergence (frame)", "max |diff|", "tolerance"],
              rows["signals"]),
        "",
    ])


def print_report(console, report: dict, paths: list[Path]) -> None:
    from rich.table import Table

    rows = _rows(report)
    st = report["settings"]
    console.print(f"[bold]{report['game']}[/bold]: ALE vs JAX, policy {st['policy']}, "
                  f"{st['episodes']} episodes, seed {st['seed']}, frameskip {st['frameskip']}, "
                  f"sticky {st['sticky']}, max {st['max_frames']} frames")
    t = Table(title="Episodes (v5 protocol)")
    for c in ("", "ALE mean ± std", "JAX mean ± std", "Welch p", "Mann-Whitney p"):
        t.add_column(c)
    for r in rows["dist"]:
        t.add_row(*r)
    console.print(t)
    t = Table(title=f"Events (precision {_fmt(report['events']['precision'])}, "
                    f"recall {_fmt(report['events']['recall'])})")
    for c in ("", "ALE", "JAX"):
        t.add_column(c)
    for r in rows["events"]:
        t.add_row(*r)
    console.print(t)
    t = Table(title="Matched runs (same actions, sticky off)")
    for c in ("signal", "agreement", "first divergence", "max |diff|", "tolerance"):
        t.add_column(c)
    for r in rows["signals"]:
        style = "green" if r[1] == "1" else "yellow"
        t.add_row(*r, style=style)
    console.print(t)
    for p in paths:
        console.print(f"wrote {p}")


def write_report(report: dict, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    j = out / f"{report['game']}-compare.json"
    md = out / f"{report['game']}-compare.md"
    atomic.write_text(j, json.dumps(report, indent=2) + "\n")
    atomic.write_text(md, render_markdown(report))
    return [j, md]


# ---- the command ----------------------------------------------------------------------------------
def register(app) -> None:
    import typer

    @app.command("compare")
    def compare(
        game: str = typer.Argument(..., help="catalog game: pong, freeway, frostbite, ..."),
        policy: str = typer.Option("random", help="random | scripted | file"),
        episodes: int = typer.Option(5, min=1, help="episodes per backend"),
        seed: int = typer.Option(0, help="seed of the policy and the sticky actions"),
        policy_file: Optional[Path] = typer.Option(
            None, help='with --policy file: JSON ["NOOP", "UP", ...] or {"actions": [...], '
                       '"repeat": k}, or names separated by spaces'),
        max_frames: int = typer.Option(10_000, min=1, help="emulator frames per episode at most"),
        out: Path = typer.Option(Path("compare-reports"), help="folder for <game>-compare.json/.md"),
        frameskip: int = typer.Option(4, min=1, help="frames per agent step (ALE v5: 4)"),
        sticky: float = typer.Option(0.25, min=0.0, max=1.0,
                                     help="sticky-action probability of the v5 episodes (ALE v5: 0.25)"),
    ) -> None:
        """Play the same policy on ALE and on the JAX game; compare episodes, events and signals."""
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        err = Console(stderr=True)
        if policy not in POLICIES:
            err.print(f"error: unknown policy {policy!r}; policies: {', '.join(POLICIES)}",
                      markup=False, soft_wrap=True)
            raise typer.Exit(1)
        try:
            with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/"
                          "{task.total}"), TimeElapsedColumn(), console=err, transient=True) as bar:
                task = bar.add_task(f"compare {game}", total=2 * episodes + 1)
                report = run_compare(
                    game, policy=policy, episodes=episodes, seed=seed,
                    policy_file=str(policy_file) if policy_file else None, max_frames=max_frames,
                    frameskip=frameskip, sticky=sticky,
                    advance=lambda label, n: bar.update(task, advance=n, description=label),
                )
            paths = write_report(report, out)
        except (UnknownCatalogGame, PolicyError, CompareError, AleError) as exc:
            err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(1)
        except OSError as exc:
            err.print(f"error: cannot write the report to {str(out)!r}: {exc}", markup=False,
                      soft_wrap=True)
            raise typer.Exit(1)
        print_report(Console(), report, paths)
