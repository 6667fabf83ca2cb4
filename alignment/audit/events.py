"""Behavioural precision: events the JAX game produces in matched rollouts that ALE never produces.

Matched rollouts are compare's: the same open-loop agent actions on both backends, frameskip 4,
sticky actions off, every catalog signal after every frame (:func:`alignment.audit.compare.matched_run`
on both :mod:`alignment.backends`). From each side's traces the kinds of event it
produced are read - a reward value (``reward +10``), a life lost or won (``lives -1``), a level
change (``level +1``), the episode's end (``episode end``) - and a JAX kind that ALE never produced
in the same rollouts is unjustified behaviour.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

import numpy as np

# (policy, episodes) per audit: a random player and the catalog's scripted one, long enough to lose
# lives and (in Frostbite) finish a level now and then.
ROLLOUTS = (("random", 2), ("scripted", 1))
MAX_FRAMES = 8000
FRAMESKIP = 4


# What an unjustified kind of event costs a user of the JAX game, where that is known.
CONSEQUENCES = {
    "episode end": "the JAX game ends episodes where ALE plays on: an ALE v5 episode runs on to the "
                   "108,000-frame cap instead (up to 27,000 agent steps of a training budget), so a "
                   "like-for-like stress comparison needs the JAX game to play on as ALE does",
}


def _fmt(v: float) -> str:
    v = float(v)
    return f"{int(v):+d}" if v.is_integer() else f"{v:+g}"


def event_kinds(trace: Mapping[str, np.ndarray]) -> Counter:
    """The kinds of event in one side's per-frame signal traces, with how often each happened."""
    out: Counter = Counter()
    for name, label in (("score", "reward"), ("lives", "lives"), ("level", "level")):
        if name not in trace or len(trace[name]) == 0:
            continue
        series = np.concatenate([[_start(name, trace)], np.asarray(trace[name], np.float64)])
        for d in np.diff(series):
            if d != 0:
                out[f"{label} {_fmt(d)}"] += 1
    if "terminated" in trace and np.any(trace["terminated"]):
        out["episode end"] += 1
    return out


def _start(name: str, trace: Mapping[str, np.ndarray]) -> float:
    # the value before the first frame: score starts at 0; lives and level at their first reading
    # (a change on the very first frame after reset is not a game event)
    return 0.0 if name == "score" else float(np.asarray(trace[name])[0])


def compare_events(ale: Counter, jax: Counter) -> dict[str, Any]:
    kinds_ale, kinds_jax = sorted(ale), sorted(jax)
    only_jax = [k for k in kinds_jax if k not in ale]
    only_ale = [k for k in kinds_ale if k not in jax]
    notes = {k: CONSEQUENCES[k] for k in only_jax if k in CONSEQUENCES}
    return {
        "kinds": {"ale": dict(sorted(ale.items())), "jax": dict(sorted(jax.items()))},
        "unjustified": only_jax,
        "consequences": notes,
        "missing_on_jax": only_ale,
        "precision": (len(kinds_jax) - len(only_jax)) / len(kinds_jax) if kinds_jax else None,
        "recall": (len(kinds_ale) - len(only_ale)) / len(kinds_ale) if kinds_ale else None,
    }


def matched_events(game: str, *, seed: int = 0, max_frames: int = MAX_FRAMES) -> dict[str, Any]:
    """Event kinds of both backends over the audit's matched rollouts of a catalog game."""
    from alignment.audit.compare import load_jax_backend, matched_run
    from alignment.audit.episodes import expand_to_frames
    from alignment.backends import make_backend
    from alignment.catalog import entry as catalog_entry
    from alignment.reference.policy import episode_actions

    e = catalog_entry(game)
    jax_side, ale_side = load_jax_backend(e), make_backend("ale", e.name)
    steps = -(-max_frames // FRAMESKIP)
    ale, jax = Counter(), Counter()
    rollouts = []
    for policy, episodes in ROLLOUTS:
        actions = episode_actions(e, policy, seed=seed, episodes=episodes, steps=steps)
        for i in range(episodes):
            frames = expand_to_frames(actions[i], FRAMESKIP, max_frames)
            a = matched_run(ale_side, 0, frames)
            j = matched_run(jax_side, seed * 1000 + i, frames)
            ka, kj = event_kinds(a), event_kinds(j)
            ale.update(ka)
            jax.update(kj)
            rollouts.append({"policy": policy, "episode": i,
                             "frames": {"ale": int(len(a["frame"])), "jax": int(len(j["frame"]))}})
    out = compare_events(ale, jax)
    out["rollouts"] = rollouts
    out["settings"] = {"frameskip": FRAMESKIP, "sticky": 0.0, "max_frames": max_frames, "seed": seed}
    return out
