"""Behavioural precision: events the JAX game produces in matched rollouts that ALE never produces.

Matched rollouts are compare's: the same open-loop agent actions on both backends, frameskip 4,
sticky actions off, every catalog signal after every frame from reset to the first game-over frame
(:func:`rollout_actions`, :func:`until_over`). From each side's traces the kinds of event it
produced are read - a reward value (``reward +10``), a life lost or won (``lives -1``), a level
change (``level +1``), the episode's end (``episode end``) - and a JAX kind that ALE never produced
in the same rollouts is unjustified behaviour.

The rollouts are also the audit's longest play from reset (whole games: every ball or life lost,
the game's end), so they run under every seeded fault too (:func:`fault_events`): the faulty JAX
game's rollouts are compared frame by frame with ALE's (recorded once), and the first divergence of
each is attributed to rules as exploration's are (:func:`alignment.audit.explore.attribute`, from
reset). :func:`lockstep_rollouts` is the one driver of both that and a modified game's rollouts
(:func:`alignment.audit.modded.matched_lockstep`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

import numpy as np

from jaxtari.protocol import V5

from alignment.audit import session

# (policy, episodes) per audit: a random player and the catalog's scripted one, long enough to lose
# lives and (in Frostbite) finish a level now and then.
ROLLOUTS = (("random", 2), ("scripted", 1))
MAX_FRAMES = 8000
FRAMESKIP = V5.frameskip  # the v5 step, with sticky actions off: matched rollouts


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


ROLLOUT_SEED = 0  # the emulator's reset seed in every matched rollout


def rollout_actions(entry, *, seed: int = 0, max_frames: int = MAX_FRAMES) -> list[tuple]:
    """The matched rollouts' per-frame actions (indices into the minimal action set):
    ``[(policy, episode, frames)]`` for each of :data:`ROLLOUTS`."""
    from alignment.audit.episodes import expand_to_frames
    from alignment.reference.policy import episode_actions

    steps = -(-max_frames // FRAMESKIP)
    out = []
    for policy, episodes in ROLLOUTS:
        actions = episode_actions(entry, policy, seed=seed, episodes=episodes, steps=steps)
        out += [(policy, i, expand_to_frames(actions[i], FRAMESKIP, max_frames))
                for i in range(episodes)]
    return out


def until_over(backend, seed: int, frames: np.ndarray,
               lockstep_program: bool = False) -> dict[str, np.ndarray]:
    """Every signal and the reward after every frame from reset, up to the first game-over frame.
    ``frames``: indices into the catalog's minimal action set (whatever set ``backend`` plays).
    ``lockstep_program``: run a JAX backend through the program the lockstep probes and the
    exploration run (``run_screens``, no screen asked), which a faulty game has compiled by then:
    the same frames, without a compile of its own (a fifth of a seeded fault's time)."""
    names = backend.entry.minimal_actions
    if tuple(backend.action_names) != tuple(names):
        frames = backend.action_indices(list(names))[np.asarray(frames, np.int64)]
    backend.reset(seed)
    traces = backend.run_screens(frames, at=())[0] if lockstep_program else backend.run(frames)
    over = np.nonzero(traces["terminated"])[0]
    n = int(over[0]) + 1 if len(over) else len(traces["terminated"])
    return {k: np.asarray(v)[:n] for k, v in traces.items()}


def ale_rollouts(game: str, plan: list[tuple], *, mods=(), max_frames: int = MAX_FRAMES,
                 seed: int = 0) -> list[dict]:
    """The emulator's traces of ``plan`` (``rollout_actions``' rows), played once per game, mods,
    length and seed, and kept (every fault compares with the same recording)."""
    from alignment.backends import make_backend

    kept = session.current().ale_rollouts
    key = (game, tuple(mods), max_frames, seed)
    if key not in kept:
        kept.clear()
        side = make_backend("ale", game, mods=tuple(mods))
        kept[key] = [until_over(side, ROLLOUT_SEED, frames) for _, _, frames in plan]
    return kept[key]


def rollout_divergence(signals: Mapping, ale: dict, jax: dict, where: str, known_ends=()):
    """The first frame where one matched rollout's JAX traces leave ALE's (a
    :class:`~alignment.audit.lockstep.Divergence`), or None; games of different lengths that agree
    up to the shorter one's end part on ``frames``, unless one of the game's ``known_ends`` ended
    the JAX game's episode there."""
    from alignment.audit.lockstep import Recording, first_divergence

    sides = [Recording(0, dict(t), [], [], {}, {}) for t in (ale, jax)]
    return first_divergence(signals, *sides, where, known_ends)


def lockstep_rollouts(game: str, *, jax_mods=(), ale_mods=(), max_frames: int = MAX_FRAMES,
                      full_action_space: bool = False) -> tuple[dict, list]:
    """The matched rollouts on ALE (playing ``ale_mods``' counterparts) and on the JAX game built
    with ``jax_mods``, compared frame by frame: the events' comparison (:func:`compare_events`)
    with each rollout's frames and first divergence as JSON, and the divergences themselves."""
    from alignment.backends import make_backend
    from alignment.catalog import entry as catalog_entry

    e = catalog_entry(game)
    plan = rollout_actions(e, seed=ROLLOUT_SEED, max_frames=max_frames)
    ale_side = ale_rollouts(e.name, plan, mods=ale_mods, max_frames=max_frames)
    jax_side = make_backend("jax", e.name, mods=tuple(jax_mods),
                            full_action_space=full_action_space)
    ale, jax = Counter(), Counter()
    rollouts, found = [], []
    for (policy, i, frames), a in zip(plan, ale_side):
        j = until_over(jax_side, ROLLOUT_SEED, frames, lockstep_program=full_action_space)
        ale.update(event_kinds(a))
        jax.update(event_kinds(j))
        div = rollout_divergence(e.signals, a, j, f"{policy} rollout {i}", e.known_ends)
        found.append((policy, i, div))
        rollouts.append({"policy": policy, "episode": i,
                         "frames": {"ale": int(len(a["terminated"])),
                                    "jax": int(len(j["terminated"]))},
                         "divergence": None if div is None else div.to_json()})
    out = compare_events(ale, jax)
    out["rollouts"] = rollouts
    out["settings"] = {"frameskip": FRAMESKIP, "sticky": 0.0, "max_frames": max_frames,
                       "seed": ROLLOUT_SEED}
    return out, found


def fault_events(game: str, spec, mods, structure=(), *, max_frames: int = MAX_FRAMES) -> dict:
    """The matched rollouts on the JAX game built with ``mods`` (a seeded fault or mutant) against
    the emulator's: per rollout its first divergence, attributed to rules as an exploration walk's
    from reset is (the rules the mods' traced code carries, narrowed to those probing the signal
    that diverged; else the rules probing that signal from reset), and the kinds of event that
    differ. ``rules``: every rule a divergence was attributed to."""
    from alignment.audit import explore

    touched = explore.touched_rules(mods, structure)
    reset = explore.starts(spec, budget=explore.Budget(0, (), 0, 0))[0]
    # the exploration's build of the faulty game (every action): no compile of its own
    result, found = lockstep_rollouts(game, jax_mods=mods, max_frames=max_frames,
                                      full_action_space=True)
    divergences = [{"policy": policy, "episode": i, **div.to_json(),
                    "rules": explore.attribute(div, reset, spec, touched)}
                   for policy, i, div in found if div is not None]
    return {"divergences": divergences,
            "rules": sorted({r for d in divergences for r in d["rules"]}),
            "unjustified": result["unjustified"], "missing_on_jax": result["missing_on_jax"],
            "rollouts": len(found)}


def matched_events(game: str, *, seed: int = 0, max_frames: int = MAX_FRAMES) -> dict[str, Any]:
    """Event kinds of both backends over the audit's matched rollouts of a catalog game."""
    from alignment.audit.compare import load_jax_backend
    from alignment.catalog import entry as catalog_entry

    e = catalog_entry(game)
    jax_side = load_jax_backend(e)
    plan = rollout_actions(e, seed=seed, max_frames=max_frames)
    ale_side = ale_rollouts(e.name, plan, max_frames=max_frames, seed=seed)
    ale, jax = Counter(), Counter()
    rollouts = []
    for (policy, i, frames), a in zip(plan, ale_side):
        j = until_over(jax_side, seed * 1000 + i, frames)
        ale.update(event_kinds(a))
        jax.update(event_kinds(j))
        rollouts.append({"policy": policy, "episode": i,
                         "frames": {"ale": int(len(a["frame"])), "jax": int(len(j["frame"]))}})
    out = compare_events(ale, jax)
    out["rollouts"] = rollouts
    out["settings"] = {"frameskip": FRAMESKIP, "sticky": 0.0, "max_frames": max_frames, "seed": seed}
    return out
