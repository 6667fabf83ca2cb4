"""The robustness stage's core: agents trained on the original game, evaluated zero-shot on its
mods, on the JAX game and (where a mod has an ALE counterpart) on the real emulator.

:func:`run_robustness` returns a :class:`RobustnessResult` (data; it never prints or writes:
:mod:`alignment.robustness.report` writes it). Per mod and side: the performance change (PC, see
:mod:`alignment.robustness.pc`) per seed, its IQM with a 95% interval, and where both sides ran,
the JAX-vs-ALE verdict.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from alignment import artefacts
from alignment.learning import checkpoints as ckpts
from alignment.learning.config import budget_config
from alignment.robustness import agents as ag
from alignment.robustness import evaluate as ev
from alignment.robustness import pc as pcm
from alignment.robustness.schema import ORIGINAL
from jaxtari.protocol import V5

SCHEMA = artefacts.ROBUSTNESS.schema
SIDES = ("jax", "ale")
MAX_SEEDS = 1_000  # agents evaluated (each a trained network)
MAX_EPISODES = 10_000  # episodes per agent and variant


class RobustnessInputError(ValueError):
    """Bad input to the robustness stage; the message names it and the fix."""


@dataclasses.dataclass
class RobustnessResult:
    game: str
    obs: str
    agents: dict  # source, steps per seed, seeds, trained here or read
    episodes: int
    random_episodes: int
    max_steps: int
    mods: dict  # mod -> description, ALE status (ran / JAX-only and why), counterpart verdict
    sides: dict  # side -> returns per variant (agents, random), truncations, wall time
    pc: dict  # mod -> side -> per-seed PC (None where undefined)
    statistics: dict  # mod -> side -> {iqm, mean, median: {value, low, high}}
    comparison: dict  # mod -> the JAX-vs-ALE verdict (mods that ran on both sides)
    notes: list
    code_hash: str
    versions: dict
    wall_seconds: float
    command: str = ""


def resolve_mods(game: str, mods: Sequence[str] | None) -> list[str]:
    """Registered mod names (all of the game's when ``mods`` is None), or an error listing them."""
    from jaxtari.mod_registry import registered_mods, resolve
    from jaxtari.mods import ModError

    if mods is None:
        return sorted(registered_mods(game))
    try:
        return [m.name for m in resolve(game, list(mods))]
    except ModError as exc:
        raise RobustnessInputError(str(exc)) from None


def ale_status(game: str, mod: str) -> dict:
    """Whether a mod can run on ALE: its counterpart (RAM writes and measured verdict) or why not."""
    from alignment import catalog

    e = catalog.entry(game)
    cp = e.ale_mods.get(mod)
    if cp is not None:
        return {"counterpart": cp.to_dict(), "jax_only": None}
    why = e.jax_only_mods.get(mod, "no ALE counterpart (RAM writes) in the game's ground truth")
    return {"counterpart": None, "jax_only": why}


def _check_ale_sees(canon: str, backends: Sequence[str], obs: str | None) -> None:
    """Refuse object agents on ALE for a game whose object features ALE's RAM does not decode yet
    (pixel agents see ALE's screen)."""
    if "ale" in backends and obs == "objects":
        from alignment.reference.features import supported_games

        if canon not in supported_games():
            raise RobustnessInputError(
                f"{canon}: no RAM decoding of its object features for the ALE side yet, so its "
                f"object agents cannot play the real game (games with one: "
                f"{', '.join(supported_games())}); use --backends jax, or pixel agents "
                f"(--agents stress/policies/{canon}-pixels.npz)")


def validate(game: str, mods, backends: Sequence[str], seeds: int, episodes: int,
             max_steps: int, obs: str | None = "objects") -> tuple[str, list[str], tuple[str, ...]]:
    """The canonical game, its mods and the backends, or a :class:`RobustnessInputError` naming
    what is wrong. ``obs``: what the agents see; pixel agents play ALE from its screen, object
    agents need the game's RAM decoding of their features."""
    from alignment import catalog

    try:
        canon = catalog.canonical(game)
    except catalog.UnknownGameError:
        raise RobustnessInputError(
            f"unknown game {game!r}; choices: {', '.join(catalog.games())}") from None
    names = resolve_mods(canon, mods)
    if not names:
        raise RobustnessInputError(f"{canon} has no mods to evaluate on")
    backends = tuple(dict.fromkeys(backends))
    bad = [b for b in backends if b not in SIDES]
    if bad or not backends:
        raise RobustnessInputError(f"unknown backend(s) {', '.join(bad) or '(none)'}; choices: "
                                   f"{', '.join(SIDES)} (one or both, comma separated)")
    if backends == ("ale",):
        jax_only = [m for m in names if ale_status(canon, m)["counterpart"] is None]
        if jax_only:
            raise RobustnessInputError(
                f"{canon}: {', '.join(jax_only)} ha{'s' if len(jax_only) == 1 else 've'} no ALE "
                f"counterpart and runs JAX-only; add jax to --backends or leave "
                f"{'it' if len(jax_only) == 1 else 'them'} out")
    _check_ale_sees(canon, backends, obs)
    for what, v, low, high in (("--seeds", seeds, 1, MAX_SEEDS),
                               ("--episodes", episodes, 1, MAX_EPISODES),
                               ("--max-steps", max_steps, 1, V5.max_agent_steps)):
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise RobustnessInputError(f"{what} must be a whole number from {low} to {high:,}, "
                                       f"got {v!r}" + (" (the v5 episode cap: no episode has more "
                                                       "agent steps)" if what == "--max-steps" else ""))
    return canon, names, backends


def report_measures(data: dict) -> dict:
    """What a robustness report holds, measure by measure (more is stronger; see
    :func:`alignment.cli_checks.check_not_weaker`)."""
    from alignment.cli_checks import Same

    agents = data.get("agents") if isinstance(data.get("agents"), dict) else {}
    return {
        "agents' observations": Same(data["obs"]) if data.get("obs") else None,
        "mods the agents trained on": Same(sorted(agents.get("trained_mods") or [])),
        "agents (seeds)": len(agents.get("seeds") or []),
        "training steps per seed": agents.get("steps_per_seed"),
        "episodes per agent": data.get("episodes"),
        "agent steps per episode": data.get("max_steps"),
        "backends": sorted(data.get("sides") or {}),
        "mods": sorted(data.get("mods") or {}),
    }


def run_measures(game: str, names: Sequence[str], backends: Sequence[str], seeds: int,
                 episodes: int, max_steps: int, budget, agents_dir: Path | None) -> dict:
    """:func:`report_measures` of the report a run with these options would write (before it
    runs: the agents' steps, observations and mods from the budget, the policy file or the
    --agents folder's name)."""
    from alignment.cli_checks import Same

    obs, mods = "objects", []
    if agents_dir is None:
        steps = budget_config(budget, obs).total_timesteps
    elif Path(agents_dir).is_file():
        try:
            agents = ag.from_policy(Path(agents_dir), game)
        except ag.AgentsError as exc:
            raise RobustnessInputError(str(exc)) from None
        steps, obs, mods = agents.steps, agents.obs, list(agents.mods)
    else:
        m = ag.FOLDER.match(Path(agents_dir).name)
        steps = int(m["steps"]) if m else None
        if m:
            obs, mods = m["obs"], [x for x in m["mods"].split("+") if x]
    return {"agents' observations": Same(obs), "mods the agents trained on": Same(sorted(mods)),
            "agents (seeds)": seeds, "training steps per seed": steps,
            "episodes per agent": episodes, "agent steps per episode": max_steps,
            "backends": sorted(backends), "mods": sorted(names)}


def agents_obs(agents_dir) -> str | None:
    """What the agents ``--agents`` names see, read before any work (a policy file's metadata, a
    checkpoint folder's name; no agents: the objects agents a budget trains); None when that
    cannot be read (loading them says why)."""
    if agents_dir is None:
        return "objects"
    if Path(agents_dir).is_file():
        from alignment.learning import policy as pol

        try:
            return pol.read_meta(Path(agents_dir)).get("obs")
        except (OSError, ValueError):
            return None
    m = ag.FOLDER.match(Path(agents_dir).name)
    return m["obs"] if m else None


def check_not_busy(game: str, budget, train_dir: Path) -> None:
    """Refuse, before any work, to train into checkpoints another run is training into now (its
    message names this command's option, --train-dir)."""
    from alignment import atomic

    root = ckpts.checkpoint_root(Path(train_dir), game, budget_config(budget, "objects"))
    if not root.parent.is_dir():
        return
    try:
        with atomic.exclusive(root.parent / f"{root.name}.lock",
                              f"another run is training the agents into {root} now ({{holder}}); "
                              "wait for it to finish, or give another --train-dir"):
            pass
    except (atomic.Busy, atomic.OutputLocationError) as exc:
        raise RobustnessInputError(str(exc)) from None


def run_robustness(game: str, *, mods: Sequence[str] | None = None, agents_dir: Path | None = None,
                   budget: str | int = "cpu", seeds: int = 5, episodes: int = 10,
                   random_episodes: int | None = None, backends: Sequence[str] = SIDES,
                   max_steps: int = V5.max_agent_steps, train_dir: Path = Path(artefacts.STRESS.folder),
                   seed: int = 0,
                   command: str = "", on_progress: Callable | None = None,
                   say: Callable[[str], None] | None = None,
                   workers: int | None = None) -> RobustnessResult:
    """Evaluate agents trained on ``game`` (``agents_dir``: a stress checkpoint folder; None:
    those of ``budget`` in ``train_dir``, trained there first when missing) on the original and
    on each mod, on each backend, with random-policy baselines; PC per seed and its statistics.
    ``on_progress``: the training's progress (as the stress stage's); ``say``: a line as each
    evaluation phase starts and ends, and the emulator's progress within one. ``workers``: the
    processes stepping ALE's emulators (None: one per core; 1: this process)."""
    from alignment import catalog
    from alignment.provenance import LEARNING_STACK, versions

    canon, names, backends = validate(game, mods, backends, seeds, episodes, max_steps,
                                      agents_obs(agents_dir))
    t_all = time.perf_counter()
    notes: list[str] = []
    try:
        if agents_dir is not None:
            given = Path(agents_dir)
            agents = (ag.from_policy(given, canon) if given.is_file() else ag.load(given, canon))
            if len(agents.seeds) < seeds:
                notes.append(f"{agents.source} holds {len(agents.seeds)} seeds; all are evaluated")
            agents, trained = agents.first(seeds), False  # --seeds asks for at most that many
        else:
            agents, trained = ag.find_or_train(canon, budget, seeds, Path(train_dir),
                                               on_progress=on_progress)
    except ag.AgentsError as exc:
        raise RobustnessInputError(str(exc)) from None
    _check_ale_sees(canon, backends, agents.obs)  # what --agents said before loading, confirmed
    k = len(agents.seeds)
    random_episodes = random_episodes or max(episodes * k, 10)
    entry = catalog.entry(canon)
    mod_info = {}
    for m in names:
        status = ale_status(canon, m)
        from jaxtari.mod_registry import registered_mods

        mod_info[m] = {"description": registered_mods(canon)[m].description,
                       "ale": "ale" in backends and status["counterpart"] is not None,
                       **status}
    sides: dict[str, dict] = {}
    variants_jax = {ORIGINAL: (), **{m: (m,) for m in names}}
    apply_fn = agents.apply_fn()
    say = say or (lambda line: None)
    if "jax" in backends:
        say(f"JAX: {k} agents x {episodes} episodes on {len(variants_jax)} variant(s), one "
            f"compiled run")
        a = ev.jax_returns(canon, variants_jax, apply_fn, agents.params, agents=k,
                           episodes=episodes, seed=seed, max_steps=max_steps, obs=agents.obs)
        say(f"JAX: agents done ({a.seconds:.0f} s); random policy, {random_episodes} episodes")
        r = ev.jax_returns(canon, variants_jax, None, None, agents=1, episodes=random_episodes,
                           seed=seed + 1, max_steps=max_steps)
        sides["jax"] = _side(a, r)
    ale_mods = [m for m in names if mod_info[m]["ale"]]
    if "ale" in backends:
        variants_ale = {ORIGINAL: (), **{m: entry.ale_mods[m].writes for m in ale_mods}}
        say(f"ALE: {k} agents x {episodes} episodes on {len(variants_ale)} variant(s)")
        a = ev.ale_returns(canon, variants_ale, apply_fn, agents.params, agents=k,
                           episodes=episodes, seed=seed, max_steps=max_steps, obs=agents.obs,
                           say=say, workers=workers)
        say(f"ALE: random policy, {random_episodes} episodes")
        r = ev.ale_returns(canon, variants_ale, None, None, agents=1, episodes=random_episodes,
                           seed=seed + 1, max_steps=max_steps, say=say, workers=workers)
        sides["ale"] = _side(a, r)
    pc, stats, comparison = {}, {}, {}
    for m in names:
        pc[m] = {side: v for side, d in sides.items()
                 if (v := pcm.side_pc(d["agents"], d["random"], m)) is not None}
        stats[m] = pcm.aggregate(pc[m])
        if set(pc[m]) >= {"jax", "ale"}:
            comparison[m] = pcm.compare_sides(pc[m]["jax"], pc[m]["ale"])
    for side, d in sides.items():
        base = pcm.gain_over_random(d["agents"], d["random"])
        if np.any(base == 0):
            notes.append(f"{side}: {int(np.sum(base == 0))} seed(s) score exactly as random on the "
                         f"original game; their PC is undefined (left out)")
        for v, n in d["truncated"].items():
            if n:
                notes.append(f"{side}: {n} episode(s) of {v} reached {max_steps} agent steps "
                             f"before the game ended; their return so far is counted")
    return RobustnessResult(
        canon, agents.obs,
        {"source": agents.source, "steps_per_seed": agents.steps, "seeds": agents.seeds,
         "trained_here": trained, "trained_on": ag.TRAINED_ON,
         **({"trained_mods": list(agents.mods)} if agents.mods else {})},
        episodes, random_episodes, max_steps, mod_info,
        sides,
        {m: {s: pcm.nan_to_none(v) for s, v in p.items()} for m, p in pc.items()},
        stats, comparison, notes, catalog.code_hash(canon), versions(LEARNING_STACK),
        time.perf_counter() - t_all, command)


def _side(agents: ev.Returns, random: ev.Returns) -> dict:
    return {
        "agents": {v: r.tolist() for v, r in agents.returns.items()},  # (K, E) per variant
        "random": {v: r[0].tolist() for v, r in random.returns.items()},
        "random_mean": {v: pcm.random_mean(r) for v, r in random.returns.items()},
        "truncated": {v: agents.truncated[v] + random.truncated[v] for v in agents.truncated},
        "wall_seconds": {"agents": agents.seconds, "random": random.seconds},
    }
