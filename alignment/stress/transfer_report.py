"""The transfer report: ``stress/<game>-<obs>-transfer.json`` (schema ``jaxtari-align/transfer/v1``),
its markdown and the PNG of both return distributions, written as one unit."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import numpy as np

from alignment import artefacts, atomic
from alignment.plain import plain
from alignment.stress.anchors import STILL_DIFFERS
from alignment.stress import transfer
from alignment.stress.transfer import TransferResult
from jaxtari.protocol import V5

SCHEMA = artefacts.TRANSFER.schema
COLOURS = {"ale": "#1f77b4", "jax": "#d62728"}


def _anchor_standing(e: dict) -> str:
    """Where the agents stand against the anchor's mean itself: a bar at or below zero (a published
    sd over half the mean) is met by any agent and says nothing about competence."""
    if e["anchor_mean"] <= 0:
        return ""
    share = e["mean"] / e["anchor_mean"]
    if share >= 1:  # the issue's bar for some games is the anchor's mean itself, not mean − 2 sd
        return f"It reaches the anchor's mean itself too ({share:.0%} of it). "
    # a whole percent would round a mean just below the anchor's up to "100%"
    text = f"That is {share:.0%} of the anchor's mean" if share < 0.995 else (
        f"That is {share:.1%} of the anchor's mean, just below it")
    if e["bar"] <= 0:
        text += ("; the anchor's spread puts its bar at or below zero, which any agent reaches, "
                 "so meeting it says nothing about competence")
    return text + ". "


def name(result: TransferResult) -> str:
    return artefacts.TRANSFER.name(game=result.game, obs=result.obs).rsplit(".", 1)[0]


def to_json(r: TransferResult) -> dict:
    data = dataclasses.asdict(r)
    data = {"schema": SCHEMA, **data}
    data["policy"] = data.pop("policy_meta")
    return plain(data, nonfinite_as_none=True)


def from_json(doc: dict) -> TransferResult:
    """The result a committed report was written from (what ``to_json`` wrote, read back)."""
    fields = {f.name for f in dataclasses.fields(TransferResult)}
    data = {k: v for k, v in doc.items() if k in fields}
    data["policy_meta"] = doc.get("policy", {})
    missing = sorted(f.name for f in dataclasses.fields(TransferResult)
                     if f.name not in data and f.default is dataclasses.MISSING
                     and f.default_factory is dataclasses.MISSING)
    if missing:
        raise ValueError(f"not a complete transfer report: {', '.join(missing)} missing")
    return TransferResult(**data)


def _f(x, digits=2) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def to_markdown(r: TransferResult) -> str:
    s, v = r.statistics, r.verdict
    d = s["difference"]
    lines = [
        f"# {r.game} ({r.obs}): agents trained on the JAX game, played on ALE and on the JAX game",
        "",
        f"**Verdict: {v['label']}** — {v['detail']}",
        "",
        f"Agents: {len(r.seeds)} (training seeds {', '.join(map(str, r.seeds))}), "
        f"{r.policy_meta.get('steps', 0):,} agent steps each on the JAX game; "
        f"{r.episodes} whole games per agent and side (ALE v5: frameskip {V5.frameskip}, sticky "
        f"{V5.repeat_action_probability}, {V5.max_num_frames_per_episode:,}-frame cap, no life-loss "
        f"resets), evaluation seed {r.eval_seed}.",
        "",
        "| side | episodes | mean | sd | median | min | max |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for side in ("ale", "jax"):
        x = s[side]
        lines.append(f"| {side} | {x['n']} | {_f(x['mean'])} | {_f(x['sd'])} | {_f(x['median'])} "
                     f"| {_f(x['min'])} | {_f(x['max'])} |")
    lines += [
        "",
        f"Difference of means (JAX − ALE): {_f(d['diff'])}, {d['level']:.0%} bootstrap interval "
        f"[{_f(d['ci'][0])}, {_f(d['ci'][1])}] ({d['resamples']:,} resamples"
        + (f", each agent's games resampled within the agent: the {d['agents']} agents are the "
           f"same on both sides" if "agents" in d else "") + "). Random policy on "
        f"ALE: {_f(r.random_policy['mean'])} over {r.random_policy['episodes']} games; TOST margin "
        f"±{_f(v.get('margin'))}.",
        "",
        "| agent seed | ALE mean | JAX mean |",
        "|---:|---:|---:|",
    ]
    for seed, row in zip(r.seeds, s["per_agent"]):
        lines.append(f"| {seed} | {_f(row['ale']['mean'])} | {_f(row['jax']['mean'])} |")
    if r.anchor:
        a = r.anchor
        lines += ["", f"Anchor: {a['source']}: {_f(a['mean'])} ± {_f(a['sd'])}. Protocol "
                      f"differences: {a['protocol']}."]
    if r.anchor_eval:
        e = r.anchor_eval
        met = "reaches" if e["meets"] else "does not reach"
        lines += ["", "## Under the anchor's protocol", "",
                  f"The same agents on ALE with sticky actions {e['sticky']:g} (the anchor's), "
                  f"{e['episodes']} whole games each from evaluation seed {e['eval_seed']}: mean "
                  f"return {_f(e['mean'])}, which {met} the anchor's mean less {e['sds']:g} sd "
                  f"({_f(e['anchor_mean'])} − {e['sds']:g} × {_f(e['anchor_sd'])} = "
                  f"{_f(e['bar'])}). Per agent: "
                  + ", ".join(f"seed {s_}: {_f(m)}" for s_, m in zip(e["agent_seeds"],
                                                                      e["agent_means"]))
                  + f". {_anchor_standing(e)}What still differs from the anchor: "
                    f"{STILL_DIFFERS[r.obs]}."]
    own = bool(r.matched) and all("actions" in m for m in r.matched)
    lines += ["", ("Matched episodes (the best agent's own whole games on ALE with sticky actions "
                   "off, their actions replayed on both backends" if own else
                   "Matched episodes (the ALE episode's agent actions replayed on both backends, "
                   "sticky actions off") + ", every signal, the reward and the agent's observation "
                  "compared on every frame):", ""]
    for m in r.matched:
        game = (f" (the agent's game: {m['agent_steps']:,} agent steps, return "
                f"{_f(m['agent_return'], 0)})" if "agent_steps" in m else "")
        lines.append(f"- agent {m['agent_seed']}, episode {m['episode']}{game}: {m['frames']:,} "
                     f"frames, {transfer.divergence(m)}")
    lines += ["", "Replays the gate plays again on the CPU (episode alone, fixed seeds):", ""]
    for row in r.replays:
        lines.append(f"- agent {row['agent_seed']}, episode {row['episode']}: ALE "
                     f"{_f(row['ale_alone'], 1)}, JAX {_f(row['jax_alone'], 1)}")
    train = r.policy_meta.get("training", {})
    if train:
        lines += ["", f"Training: {train.get('where', 'n/a')}, "
                      f"{_f(train.get('wall_seconds_per_seed'), 0)} s wall per seed "
                      f"({train.get('seeds_together', 1)} seeds together)."]
    lines += ["", f"Code hash `{r.code_hash}`. Command: `{r.command or 'n/a'}`."]
    for note in r.notes:
        lines.append(f"\nNote: {note}")
    return "\n".join(lines) + "\n"


def plot(r: TransferResult) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    data = {side: np.concatenate([np.asarray(e["returns"], float) for e in r.sides[side]])
            for side in ("ale", "jax")}
    lo = min(v.min() for v in data.values())
    hi = max(v.max() for v in data.values())
    bins = np.linspace(lo, hi if hi > lo else lo + 1, 30)
    for side, values in data.items():
        ax.hist(values, bins=bins, alpha=0.5, color=COLOURS[side],
                label=f"{side} (mean {values.mean():.2f}, n={values.size})")
    ax.axvline(r.random_policy["mean"], color="grey", ls=":", label="random policy (ALE)")
    if r.anchor:
        ax.axvline(r.anchor["mean"], color="black", ls="--", label="CleanRL PPO 10M (EnvPool)")
    ax.set_xlabel("episode return (whole game, unclipped)")
    ax.set_ylabel("episodes")
    ax.set_title(f"{r.game} {r.obs}: {r.verdict['label']}")
    ax.legend(fontsize=8)
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


ANCHOR_GAMES = "games per agent under the anchor's protocol"


def measures(doc: dict) -> dict:
    """What a transfer report holds, measure by measure (more is stronger; see
    :func:`alignment.cli_checks.check_not_weaker`)."""
    policy = doc.get("policy") if isinstance(doc.get("policy"), dict) else {}
    anchor = doc.get("anchor_eval") if isinstance(doc.get("anchor_eval"), dict) else {}
    return {"agents (training seeds)": list(doc.get("seeds") or []),
            "agent steps per seed of the policy": policy.get("steps"),
            "games per agent and side": doc.get("episodes"),
            "emulator frames per game at most": doc.get("max_frames"),
            ANCHOR_GAMES: anchor.get("episodes")}


def run_measures(policy, agents: list[int], episodes: int, max_frames: int,
                 anchor_episodes: int | None) -> dict:
    """:func:`measures` of the report a ``transfer`` run of these options would write (before it
    plays): ``agents`` the training seeds it plays, ``anchor_episodes`` None for a game without
    a published anchor."""
    return {"agents (training seeds)": list(agents),
            "agent steps per seed of the policy": (policy.meta or {}).get("steps"),
            "games per agent and side": episodes,
            "emulator frames per game at most": max_frames,
            ANCHOR_GAMES: anchor_episodes}


def write(r: TransferResult, out_dir: Path = Path(artefacts.TRANSFER.folder)) -> dict[str, Path]:
    stem = name(r)
    data = to_json(r)
    files = {f"{stem}.json": json.dumps(data, indent=1, allow_nan=False) + "\n",
             f"{stem}.md": to_markdown(r), f"{stem}.png": plot(r)}
    return atomic.write_files(Path(out_dir), files)
