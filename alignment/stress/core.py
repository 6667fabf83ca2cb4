"""Stage 4 core: train PPO on each backend, then compare the learning curves.

:func:`run_stress` returns a :class:`StressResult` (data; it never prints). It trains ``seeds``
runs per backend interval by interval, checkpointing every seed after each interval under
``out_dir/.checkpoints/`` so a killed run resumes where it stopped (at most one interval lost). The
checkpoints are its working state; the report is the caller's to write
(:func:`alignment.stress.report.write`), after checking with
:func:`alignment.stress.report.check_replace` that it may replace what is there.

The learning curve of a run is the mean unclipped return of the episodes (whole games, not lives)
that finished within each evaluation interval, plotted against agent steps; its final return is the
value of its last interval that finished an episode.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from pathlib import Path
from typing import Callable, Iterator, Sequence

import jax
import numpy as np

from alignment import artefacts
from alignment.catalog import code_hash
from alignment.learning import checkpoints as ckpts
from alignment.learning import statistics as st
from alignment.learning.config import OBS_MODES, PPOConfig, budget_config, protocol_suffix
from alignment.provenance import LEARNING_STACK, versions
from alignment.stress.config import BACKENDS, MAX_SEEDS, StressInputError

SCHEMA = artefacts.STRESS.schema
REFERENCE = "ale"  # the margin and the verdict take ALE as the reference


@dataclasses.dataclass
class BackendRuns:
    steps: list[int]  # agent steps per seed at the end of each interval
    curves: np.ndarray  # (seeds, intervals) mean return per interval, NaN where none finished
    episodes: np.ndarray  # (seeds, intervals) episodes finished per interval
    final: np.ndarray  # (seeds,)
    wall_seconds: float
    trained_steps: int  # agent steps trained in this invocation (all seeds)

    @property
    def steps_per_second(self) -> float | None:
        """All seeds' agent steps over the training's recorded wall time. Not this invocation's
        rate: a run resumed across calls trains one interval in its last call, compile included."""
        if not self.steps or self.wall_seconds <= 0:
            return None
        return self.steps[-1] * len(self.final) / self.wall_seconds


@dataclasses.dataclass
class StressResult:
    game: str
    obs: str
    budget: str
    config: PPOConfig
    seeds: list[int]
    runs: dict[str, BackendRuns]
    statistics: dict
    verdict: dict
    notes: list[str]
    code_hash: str
    versions: dict
    command: str = ""
    # written as top-level keys: "fingerprint" (alignment.stress.fingerprint of the code trained
    # on) and "revalidated" (later code shown by the fingerprint to leave every signal unchanged)
    extra: dict = dataclasses.field(default_factory=dict)
    mods: tuple = ()  # registered mod names: the same PPO on both modified games

    @property
    def name(self) -> str:
        return report_name(self.game, self.mods, self.obs, self.config.protocol)


def report_name(game: str, mods: Sequence[str], obs: str, protocol: str = "v5") -> str:
    """A stress report's name (its files' stem): ``<game>[+<mod>...]-<obs>[-<protocol>]``."""
    return "+".join([game, *mods]) + f"-{obs}{protocol_suffix(protocol)}"


def validate_protocol(protocol: str, backends: Sequence[str], mods: Sequence[str]) -> None:
    """A protocol other than v5 trains the JAX game alone, unmodified (the ALE learner and the
    mods' counterparts are v5's), or a :class:`StressInputError` saying so."""
    if protocol != "v5" and (tuple(backends) != ("jax",) or mods):
        raise StressInputError(f"the {protocol} protocol trains the JAX game alone, unmodified: "
                               "use --backends jax and no --mods")


def validate(game: str, obs: str, backends: Sequence[str], seeds: int) -> tuple[str, tuple]:
    """The canonical game and the backends, or a :class:`StressInputError` naming the choices."""
    from alignment import catalog

    try:
        canon = catalog.canonical(game)
    except catalog.UnknownGameError:
        raise StressInputError(f"unknown game {game!r}; choices: {', '.join(catalog.games())}") from None
    if obs not in OBS_MODES:
        raise StressInputError(f"unknown observation mode {obs!r}; choices: {', '.join(OBS_MODES)}")
    backends = tuple(dict.fromkeys(backends))
    bad = [b for b in backends if b not in BACKENDS]
    if bad or not backends:
        raise StressInputError(f"unknown backend(s) {', '.join(bad) or '(none)'}; choices: "
                               f"{', '.join(BACKENDS)} (one or both, comma separated)")
    if not isinstance(seeds, int) or isinstance(seeds, bool) or not 1 <= seeds <= MAX_SEEDS:
        raise StressInputError(f"--seeds must be a whole number from 1 to {MAX_SEEDS} (the bound "
                               f"on seeds per backend), got {seeds!r}")
    if "ale" in backends and obs == "objects":
        from alignment.reference.features import supported_games

        if canon not in supported_games():
            raise StressInputError(
                f"{canon}: no RAM decoding of its object features for the ALE side yet; games "
                f"with one: {', '.join(supported_games())} (or --backends jax)")
    return canon, backends


def validate_mods(canon: str, mods: Sequence[str], obs: str, backends: Sequence[str]) -> tuple:
    """The registered names of ``mods``, or a :class:`StressInputError`: an unknown mod (the
    game's mods listed), a mod without an ALE counterpart asked on ALE (it runs JAX-only), or
    pixels on ALE (ale-py's vector env cannot write RAM after every frame)."""
    from alignment import catalog
    from jaxtari.mod_registry import resolve
    from jaxtari.mods import ModError

    wanted = [m for item in mods for m in str(item).replace(",", " ").split()]
    if not wanted:
        return ()
    try:
        names = tuple(m.name for m in resolve(canon, wanted))
    except ModError as exc:
        raise StressInputError(str(exc)) from None
    if "ale" not in backends:
        return names
    entry = catalog.entry(canon)
    missing = {n: entry.jax_only_mods.get(n, "no ALE counterpart") for n in names
               if n not in entry.ale_mods}
    if missing:
        why = "; ".join(f"{k}: {v}" for k, v in missing.items())
        raise StressInputError(
            f"mods {', '.join(missing)} have no ALE counterpart, so the same PPO cannot train on "
            f"the modified real game: they run JAX-only (--backends jax, no verdict) ({why})")
    if obs == "pixels":
        raise StressInputError("--mods with --obs pixels on ALE: its pixel vector env cannot "
                               "write the mods' RAM after every frame; use --obs objects")
    from alignment.signals import RamWriteConflict, merge_ram_writes

    try:
        merge_ram_writes(canon, {n: entry.ale_mods[n] for n in names})
    except RamWriteConflict as exc:
        raise StressInputError(str(exc)) from None
    return names


def _interval_updates(config: PPOConfig, k: int) -> int:
    return min(config.updates_per_eval, config.num_updates - k * config.updates_per_eval)


class TrainingPaused(Exception):
    """Training stopped at its time limit after a checkpoint: the same call again resumes it."""

    def __init__(self, backend: str, steps_done: int, steps_total: int, root: Path):
        self.backend, self.steps_done, self.steps_total, self.root = (backend, steps_done,
                                                                      steps_total, root)
        super().__init__(f"{backend}: stopped at its time limit after {steps_done:,} of "
                         f"{steps_total:,} agent steps (all seeds), checkpointed under {root}; run "
                         "the same command again to resume")


def _train_backend(side, config: PPOConfig, seeds: list[int], root: Path,
                   on_progress: Callable | None, notes: list[str], deadline: float | None = None,
                   checkpoint_every: float = 0.0) -> BackendRuns:
    """Train every seed to the end of the budget, resuming each from its newest good checkpoint.

    ``checkpoint_every`` (seconds): checkpoint after an interval only when this long has passed
    since the last one (0: after every interval), and always after the last interval. On an
    accelerator an interval takes well under a second while a pixel checkpoint moves ~20 MB per
    seed to the host. ``deadline`` (``time.monotonic()``): past it, checkpoint and raise
    :class:`TrainingPaused`."""
    loaded = {}
    for s in seeds:
        ck, corrupt = ckpts.latest(root, side.name, s)
        notes.extend(corrupt)
        loaded[s] = ck
    groups: dict[int, list[int]] = {}
    for s in seeds:
        groups.setdefault(loaded[s].interval if loaded[s] else 0, []).append(s)
    history = {s: list(loaded[s].history) if loaded[s] else [] for s in seeds}
    walls = {s: loaded[s].wall_seconds if loaded[s] else 0.0 for s in seeds}
    trained_steps = 0
    progress = (lambda n: on_progress(side.name, n)) if on_progress else None
    if on_progress:
        resumed = sum(min(len(history[s]) * config.updates_per_eval, config.num_updates)
                      for s in seeds) * config.batch_size
        on_progress(side.name, resumed)
    for start in sorted(groups):
        group = groups[start]
        runner, ctx = side.init(group)
        if start > 0:
            per_seed = [loaded[s].leaves for s in group]
            stacked = [np.stack(xs) for xs in zip(*per_seed)]
            runner = ckpts.fill(runner, stacked)
            for i, s in enumerate(group):
                side.restore_env(ctx, i, loaded[s].env_blob)
        last_save = time.monotonic()
        for k in range(start, config.num_evals):
            n = _interval_updates(config, k)
            t0 = time.perf_counter()
            runner, stats = side.chunk(runner, ctx, n, progress)
            dt = time.perf_counter() - t0
            trained_steps += n * config.batch_size * len(group)
            for i, s in enumerate(group):
                eps = float(stats["episodes"][i].sum())
                ret = float(stats["return_sum"][i].sum()) / eps if eps else None
                history[s].append({
                    "interval": k, "steps": (k * config.updates_per_eval + n) * config.batch_size,
                    "return": ret, "episodes": int(eps),
                    "losses": [float(x) for x in np.asarray(stats["losses"][i]).mean(axis=0)],
                })
                walls[s] += dt
            now = time.monotonic()
            late = deadline is not None and now >= deadline and k + 1 < config.num_evals
            if late or k + 1 == config.num_evals or now - last_save >= checkpoint_every:
                leaves = ckpts.leaves_of(runner)
                for i, s in enumerate(group):
                    ckpts.save(root, side.name, s, ckpts.Checkpoint(
                        k + 1, [x[i] for x in leaves], history[s], side.env_blob(ctx, i),
                        walls[s]))
                last_save = time.monotonic()
            if late:
                done = sum(min(len(history[s]) * config.updates_per_eval, config.num_updates)
                           for s in seeds) * config.batch_size
                raise TrainingPaused(side.name, done, config.num_updates * config.batch_size
                                     * len(seeds), root)
    steps = [row["steps"] for row in history[seeds[0]]]
    curves = np.array([[np.nan if r["return"] is None else r["return"] for r in history[s]]
                       for s in seeds], np.float64)
    episodes = np.array([[r["episodes"] for r in history[s]] for s in seeds], np.int64)
    final = np.array([_final(c) for c in curves])
    return BackendRuns(steps, curves, episodes, final, max(walls.values()), trained_steps)


def _final(curve: np.ndarray) -> float:
    ok = np.flatnonzero(np.isfinite(curve))
    return float(curve[ok[-1]]) if ok.size else float("nan")


def compare(runs: dict[str, BackendRuns], random_policy: dict | None = None
            ) -> tuple[dict, dict, list[str]]:
    """Statistics over the backends' curves, the verdict, and notes on what limits them.
    ``random_policy``: the random policy's return on ALE (:mod:`alignment.stress.random_policy`),
    which the margin is measured from."""
    notes = []
    names = list(runs)
    steps = runs[names[0]].steps
    finals = {k: r.final[np.isfinite(r.final)] for k, r in runs.items()}
    finals = {k: v for k, v in finals.items() if v.size}
    stats = {
        "curve_iqm": st.curve_intervals({k: r.curves for k, r in runs.items()}),
        "final": st.final_intervals(finals) if finals else {},
    }
    if set(names) >= {"ale", "jax"}:
        x, y = runs["jax"].final, runs["ale"].final
        fx, fy = x[np.isfinite(x)], y[np.isfinite(y)]
        stats["probability_of_improvement"] = (
            {"jax_over_ale": st.probability_of_improvement(fx, fy),
             "ale_over_jax": st.probability_of_improvement(fy, fx)}
            if fx.size and fy.size else None)
        stats["auc"] = st.auc_comparison(steps, {k: r.curves for k, r in runs.items()}, "jax", "ale")
        verdict = st.verdict(x, y, None if random_policy is None else random_policy["mean"])
    else:
        verdict = st.one_side_verdict(names[0])
    if random_policy is not None:
        stats["random_policy"] = random_policy
    return stats, verdict, notes


def run_stress(game: str, *, obs: str = "objects", budget: str | int | PPOConfig = "smoke",
               seeds: int = 5, backends: Sequence[str] = ("ale", "jax"),
               out_dir: Path = Path(artefacts.STRESS.folder),
               on_progress: Callable[[str, int], None] | None = None, resume: bool = True,
               command: str = "", seeds_by: str = "auto",
               random_episodes: int | None = None, mods: Sequence[str] = (),
               max_seconds: float | None = None, checkpoint_every: float = 0.0,
               protocol: str = "v5") -> StressResult:
    """Train ``seeds`` PPO runs on each backend with identical hyperparameters and compare them.

    ``on_progress(backend, agent_steps)`` is called with steps as they are trained (and once per
    backend with the steps restored from checkpoints). ``resume=False`` discards this budget's
    checkpoints first. ``seeds_by`` (auto, map, vmap): how the JAX side runs its seeds together
    (see :class:`alignment.stress.sides.JaxSide`; auto: lax.map on the CPU, vmap elsewhere).
    With both backends the result carries the behaviour fingerprint of what the learners saw
    (``extra["fingerprint"]``, see :mod:`alignment.stress.fingerprint`), which the gate replays.
    ``random_episodes``: games the random policy plays on ALE for the margin's floor (default
    :data:`alignment.stress.random_policy.EPISODES`). ``mods``: train on the modified game, on ALE
    with every mod's RAM-write counterpart (:func:`validate_mods` refuses what cannot run); the
    report is ``<game>+<mod>...-<obs>``. ``max_seconds``: stop (checkpointed) once training has
    run this long and raise :class:`TrainingPaused` (commands with a wall-clock limit resume by
    calling again); ``checkpoint_every``: see :func:`_train_backend`. ``protocol``: the env the
    JAX side trains in (:data:`alignment.learning.config.PROTOCOLS`; envpool: JAX side only, the
    report and checkpoints named ``<game>-<obs>-envpool``)."""
    canon, backends = validate(game, obs, backends, seeds)
    mods = validate_mods(canon, mods, obs, backends)
    validate_protocol(protocol, backends, mods)
    from alignment.stress.sides import seeds_by_choice

    seeds_by = seeds_by_choice(seeds_by)
    if isinstance(budget, PPOConfig):  # a whole config (tests, experiments): used as given
        config, budget = dataclasses.replace(budget, obs=obs), budget.total_timesteps
    else:
        config = budget_config(budget, obs, protocol)
    out_dir = Path(out_dir)
    root = ckpts.checkpoint_root(out_dir, canon, config, mods)
    _check_writable(out_dir)
    from alignment.stress.sides import make_side

    notes: list[str] = []
    seed_list = list(range(seeds))
    runs = {}
    deadline = None if max_seconds is None else time.monotonic() + float(max_seconds)
    with _training_lock(root):
        if not resume and root.exists():
            import shutil

            shutil.rmtree(root)
        for kind in backends:
            side = make_side(kind, canon, config, seeds_by, mods)
            runs[kind] = _train_backend(side, config, seed_list, root, on_progress, notes,
                                        deadline, checkpoint_every)
    reference = None
    if set(backends) >= {"ale", "jax"}:
        from alignment.stress.ale_rollout import ram_writes
        from alignment.stress.random_policy import EPISODES, random_policy

        reference = random_policy(canon, episodes=random_episodes or EPISODES,
                                  writes=ram_writes(canon, mods))
    stats, verdict, more = compare(runs, reference)
    notes.extend(more)
    if obs == "pixels":
        from alignment.stress.pixels import pixel_gap

        stats["pixel_gap"] = pixel_gap(canon)
        if "ale" in backends:
            notes.append("ALE pixels come from ale-py's AtariVectorEnv, which cannot save its "
                         "emulators: a resumed ALE pixel run starts new games at the checkpoint")
    result = StressResult(canon, obs, str(budget), config, seed_list, runs, stats, verdict, notes,
                          code_hash(canon), versions(LEARNING_STACK), command, mods=tuple(mods))
    if mods:
        from alignment import catalog

        result.code_hash = catalog.mod_code_hash(canon, mods)
        result.notes.append(f"trained on {canon} modified by {', '.join(mods)}: the JAX mods, and "
                            "on ALE their RAM-write counterparts applied after reset and every frame")
    elif config.protocol != "v5":
        # the drop-in module the learners trained through is outside the game's code hash
        # (catalog.DROP_IN_MODULES): its own files' hashes say which code this was
        from alignment import catalog

        result.extra["protocol_source"] = catalog.drop_in_hashes()
        result.notes.append(f"trained in the {config.protocol} protocol (the EnvPool drop-in, as "
                            "CleanRL's EnvPool scripts make their env): an experiment against the "
                            "anchor's protocol, not a stage-4 verdict")
    elif "jax" in backends:
        # what the JAX learners saw: a later change to the game leaves the report (and the agents
        # its transfer reads) valid only if this rollout replays unchanged (the gate replays it)
        from alignment.stress.fingerprint import fingerprint

        result.extra["fingerprint"] = {**fingerprint(canon, obs), "code_hash": result.code_hash}
    return result


@contextlib.contextmanager
def _training_lock(root: Path) -> Iterator[None]:
    """One process at a time trains into a budget's checkpoints: two runs resuming the same
    checkpoints would each train every seed and overwrite the other's intervals."""
    from alignment import atomic

    with contextlib.ExitStack() as held:
        try:
            held.enter_context(atomic.exclusive(
                root.parent / f"{root.name}.lock",
                f"another run is training into {root} now ({{holder}}); wait for it to finish, "
                "or give another --out"))
        except (atomic.Busy, atomic.OutputLocationError) as exc:
            raise StressInputError(str(exc)) from None
        yield


def _check_writable(out_dir: Path) -> None:
    from alignment import atomic

    try:
        atomic.check_writable_dir(out_dir, what="the output folder")
    except atomic.OutputLocationError as exc:
        raise StressInputError(f"{exc} (--out)") from None
