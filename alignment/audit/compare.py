"""Play the same policy on the real emulator and on the JAX game (``jaxtari-align compare GAME``).

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
agent actions. :func:`run_compare` returns the report as data and never prints;
:mod:`alignment.audit.compare_report` writes it (JSON + markdown) and :mod:`alignment.audit.command`
is the command.
"""

from __future__ import annotations

import datetime as _dt
import math
import time
from typing import Callable, Optional, Sequence

import numpy as np

from alignment import artefacts, stats
from alignment.audit.episodes import ale_episode, expand_to_frames, jax_episodes
from alignment.backends import REWARD, Backend, BackendError, JaxBackend, make_backend
from alignment.catalog import GameEntry, entry as catalog_entry
from alignment.provenance import EMULATOR_STACK, versions
from alignment.reference.policy import episode_actions
from jaxtari.protocol import V5

SCHEMA = artefacts.COMPARE.schema


class CompareError(RuntimeError):
    """A comparison that cannot run (reported as a message, exit code 1)."""


def load_jax_backend(e: GameEntry, mods=()) -> JaxBackend:
    """The JAX backend of a catalog entry (its actions and signals checked against the catalog)."""
    try:
        return make_backend("jax", e.name, mods=mods)
    except BackendError as exc:
        raise CompareError(f"cannot compare {e.name}: {exc}. The ALE side works on its own "
                           f"(alignment.backends.make_backend('ale', {e.name!r})).") from None


def _until_game_over(traces: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    over = np.nonzero(traces["terminated"])[0]
    n = int(over[0]) + 1 if len(over) else len(traces["terminated"])
    return {k: v[:n] for k, v in traces.items() if k != REWARD}


def matched_run(backend: Backend, seed: int, frame_actions: np.ndarray) -> dict[str, np.ndarray]:
    """Every signal after every frame from reset (sticky off), until the first game-over frame."""
    backend.reset(seed)
    return _until_game_over(backend.run(frame_actions))


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


def mods_on_sides(e: GameEntry, mods: Sequence[str]) -> dict:
    """Which mods run where: ``names`` (registered names), ``ale`` (True when every one has an
    ALE counterpart, so ALE plays the modified game too; else ALE plays the original) and
    ``jax_only`` ({mod: why it has no counterpart})."""
    from jaxtari.mod_registry import resolve
    from jaxtari.mods import ModError

    try:
        names = [m.name for m in resolve(e.jax_game or e.name, list(mods))]
    except ModError as exc:
        raise CompareError(str(exc)) from None
    jax_only = {m: e.jax_only_mods.get(m, "no ALE counterpart in the game's ground truth")
                for m in names if m not in e.ale_mods}
    return {"names": names, "ale": not jax_only, "jax_only": jax_only}


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
    frameskip: int = V5.frameskip,
    sticky: float = V5.repeat_action_probability,
    advance: Optional[Callable[[str, int], None]] = None,
    mods: Sequence[str] = (),
) -> dict:
    """Run both comparisons and return the report (a JSON-able dict, docs/compare-schema.md).

    ``advance(label, n)`` is called as work completes (n units; the total is
    ``2 * episodes + 1``): for a progress bar. ``mods``: the JAX game is modified; ALE is too when
    every mod has an ALE counterpart (RAM writes), else ALE plays the original game and the report
    says so (``mods``).
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
    mod_info = mods_on_sides(e, mods)
    jax_side = load_jax_backend(e, mod_info["names"])
    ale_mods = mod_info["names"] if mod_info["ale"] else []
    ale_side = make_backend("ale", e.name, mods=ale_mods)
    writes = ale_side.ram_writes
    seeds = [seed * 1000 + i for i in range(episodes)]
    t0 = time.perf_counter()

    # ---- v5 episodes -------------------------------------------------------------------------
    ale_eps = []
    for i in range(episodes):
        ale_eps.append(ale_episode(e, actions[i], seed=seeds[i], frameskip=frameskip, sticky=sticky,
                                   max_frames=max_frames, writes=writes))
        advance(f"ALE episode {i + 1}/{episodes}", 1)
    try:
        jax_eps = jax_episodes(jax_side, seeds, actions, frameskip=frameskip, sticky=sticky,
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
        a = matched_run(ale_side, 0, frame_actions)
        try:
            j = matched_run(jax_side, seeds[i], frame_actions)
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
        "versions": versions(EMULATOR_STACK),
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
        "mods": mod_info,
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
