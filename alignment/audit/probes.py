"""Run a spec's probes on the real emulator and on the JAX game.

A probe (``alignment.spec.schema.Probe``) is data: a seed, a start, steps and expectations over
catalog signals. Nothing in it is executed: actions are looked up by name, signals by name in
``alignment.catalog``, operators in a fixed table. A probe runs on ALE first — a probe that ALE fails
is a wrong probe or a wrong rule — and then on the JAX game, the same way:

- the frame protocol (the default): one emulator frame per frame, sticky actions off, the full
  18-action set so any ALE action name works; the start is ``reset`` or a save point of the spec
  (steps from reset, themselves data, so both backends reach the same situation the same way);
  a step may be a poke (``{poke: {score: 4990}}``): quantities of the game's registry
  (``GameEntry.pokes``) set on both backends through ``Backend.poke``, in order with the actions -
  a RAM-written start for what no played save point reaches;
- ``protocol: v5``: gymnasium's ``ALE/<Game>-v5`` (frameskip 4, sticky actions 0.25, its own seeded
  randomness) against ``jaxtari.wrappers.AtariWrapper`` with the same settings; the steps count agent
  steps, and an expectation with a ``rate`` must hold on that share of the probe's seeds.

Beyond the catalog signals a probe may name ``action_set`` (the backend's minimal action set, in
index order) and, with ``matches_ale``, the ``screen`` (210x160 RGB): the JAX frame must equal ALE's
screen pixel for pixel at the end of the probe. The 84x84 grey raster is not compared: the JAX game
draws it directly from pre-scaled sprites, which is not ALE's screen resized pixel for pixel.

The frame protocol drives both sides through :mod:`alignment.backends`; ``mods`` apply to the JAX
game only (a fault audit's; ALE stays the reference). This module returns data and never prints;
``jaxtari-align probe GAME`` (in :mod:`alignment.audit.command`) runs every probe of a spec.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from alignment import catalog
from alignment.audit.lockstep import (
    SCREEN, Divergence, Recording, Screens, first_divergence, play, screen_difference,
)
from alignment.audit import session
from alignment.backends import BACKENDS, BackendError, make_backend, mods_key
from alignment.plain import to_python
from alignment.signals import apply_ram_writes
from alignment.spec.schema import (
    ALE_ACTION_NAMES, RASTERS, STATIC_SIGNALS, GameSpec, Probe, ProbeStep,
)

# Names a probe may use beyond the catalog's signals (see the module docstring).
EXTRA_SIGNALS: tuple[str, ...] = STATIC_SIGNALS + RASTERS
CHUNK = 64  # v5 probes pad their agent steps to a multiple of this (masked): one compile per game
V5_SEEDS = 256  # v5 probes run their seeds in batches of this size on the JAX side (one compile)
# frame-protocol probes compare the screen every this many frames (and the last); odd, as the
# exploration's stride (explore.SCREEN_EVERY says why)
SCREEN_EVERY = 3


NOT_JUDGED_SCREEN = ("not judged: the JAX run is not in lockstep with an ALE run of the same game "
                     "(a modified game without exact ALE counterparts)")


class ProbeError(ValueError):
    """A probe that cannot be run as written (unknown save point, unknown signal, ...)."""


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


def holds(op: str, start: Any, end: Any, value: Any = None) -> bool:
    """Whether an expectation holds: value ops test the end value, change ops compare with start.

    Vector signals (e.g. ``floe_x``) hold when the comparison holds for every element; a list value
    (``action_set``) is compared as a whole.
    """
    if isinstance(value, list):
        if op not in ("==", "!="):
            raise ProbeError(f"a list is compared with == or != only, not {op!r}")
        same = len(end) == len(value) and all(a == b for a, b in zip(end, value))
        return same == (op == "==")
    start, end = np.asarray(start), np.asarray(end)
    if op in _COMPARE:
        return bool(np.all(_COMPARE[op](end, value)))
    change = {
        "increases": lambda: end > start,
        "decreases": lambda: end < start,
        "changes": lambda: end != start,
        "unchanged": lambda: end == start,
        "increases_by": lambda: end - start == value,
        "decreases_by": lambda: start - end == value,
    }
    if op not in change:
        raise ProbeError(f"unknown expectation operator {op!r}")
    result = change[op]()
    return bool(np.any(result)) if op == "changes" else bool(np.all(result))


@dataclasses.dataclass
class ProbeResult:
    """A probe's outcome on one backend; ``start``/``end`` are the first seed's signals."""

    game: str
    backend: str
    passed: bool
    failures: list[str]
    start: dict[str, Any]
    end: dict[str, Any]
    seeds: int = 1
    screen: Optional[np.ndarray] = dataclasses.field(default=None, repr=False)
    divergence: Optional[Divergence] = None  # the first frame the JAX run left ALE's (lockstep)

    def summary(self) -> str:
        return "pass" if self.passed else "; ".join(self.failures)


# ---- starts ----------------------------------------------------------------------------------


def probe_plan(spec: Optional[GameSpec], game: str, probe: Probe):
    """(mode, steps before the start snapshot, the probe's own steps)."""
    if probe.start == "reset":
        return probe.mode, [], list(probe.steps)
    if spec is None:
        raise ProbeError(f"{game}: probe starts from save point {probe.start!r}; give the spec "
                         "that lists its save points")
    try:
        mode, prefix = spec.save_point_steps(probe.start)
    except KeyError as exc:
        raise ProbeError(str(exc.args[0])) from None
    return (probe.mode if probe.mode is not None else mode), prefix, list(probe.steps)


def poke_problems(spec: GameSpec) -> list[str]:
    """Every poke of a spec's probes and save points that its game's registry does not take: an
    unknown name (with the names known), a value out of range (with the range), a reset-only
    quantity poked after frames have run. Empty when all are fine."""
    try:
        pokes = catalog.entry(spec.game).pokes
    except catalog.UnknownCatalogGame as exc:
        return [str(exc)]
    known = ", ".join(sorted(pokes)) or "none"
    problems = []

    def check(where: str, steps: Sequence[ProbeStep], played: int) -> None:
        for i, step in enumerate(steps, 1):
            if not step.is_poke:
                played += step.frames or 4 * (step.agent_steps or 0)
                continue
            for name, value in step.poke.items():
                poke = pokes.get(name)
                if poke is None:
                    problems.append(f"{where}, step {i} ({step.describe()}): unknown poke {name!r}; "
                                    f"quantities a probe can set on {spec.game}: {known}")
                    continue
                try:
                    poke.check(value)
                except ValueError as exc:
                    problems.append(f"{where}, step {i}: {exc}")
                when = poke.when_problem(played)
                if when:
                    problems.append(f"{where}, step {i}: {when}")

    for name, point in spec.save_points.items():
        _, before = spec.save_point_steps(point.start)
        check(f"save point {name}", point.steps, sum(s.frames or 0 for s in before))
    for rule in spec.rules:
        if rule.probe is not None and rule.probe.protocol != "v5":
            try:
                _, before = spec.save_point_steps(rule.probe.start)
            except KeyError:
                continue  # an unknown start is reported by the schema and the runner
            check(f"rule {rule.id}: probe", rule.probe.steps, sum(s.frames or 0 for s in before))
    return problems


# ---- checking --------------------------------------------------------------------------------


def _fmt(v) -> str:
    if isinstance(v, (list, tuple)):
        return str(list(v))
    v = np.asarray(v)
    return str(v.item()) if v.ndim == 0 else str(v.tolist())


def _known(game: str, exp, end: dict) -> None:
    if exp.op != "matches_ale" and exp.signal not in end:
        raise ProbeError(
            f"{game}: probe expects unknown signal {exp.signal!r}; signals: {', '.join(sorted(end))}"
        )


def _check(game: str, backend: str, probe: Probe, runs: list[tuple[dict, dict]],
           screen_diff: Optional[str] = None, screen=None) -> ProbeResult:
    """Judge the expectations over one run per seed (``runs``: (start, end) signal dicts)."""
    failures = []
    for exp in probe.expectations:
        if exp.op == "matches_ale":
            if screen_diff:
                failures.append(f"screen matches ale ({screen_diff})")
            continue
        _known(game, exp, runs[0][1])
        results = [holds(exp.op, s[exp.signal], e[exp.signal], exp.value) for s, e in runs]
        if exp.rate is None:
            if not all(results):
                bad = results.index(False)
                s, e = runs[bad]
                where = f"seed {probe.seed + bad}, " if len(runs) > 1 else ""
                failures.append(f"{exp.describe()} ({where}start {_fmt(s[exp.signal])}, "
                                f"end {_fmt(e[exp.signal])})")
        else:
            share = sum(results) / len(results)
            if not exp.rate[0] <= share <= exp.rate[1]:
                failures.append(f"{exp.describe()} (held on {share:.1%} of {len(results)} seeds)")
    start, end = runs[0]
    return ProbeResult(game, backend, not failures, failures, start, end, len(runs), screen)


def _wants_screen(probe: Probe) -> bool:
    return any(e.op == "matches_ale" for e in probe.expectations)


# ---- ALE -------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _ale_action_set(canon: str) -> tuple[str, ...]:
    from alignment.reference import AleGame

    return AleGame(canon).action_names


def _backend(kind: str, canon: str, mode: Optional[int], mods: Sequence = ()):
    try:
        if kind == "ale":
            return _ale_backend(canon, mode, tuple(mods))
        return make_backend("jax", canon, mods=mods, mode=mode, full_action_space=True)
    except BackendError as exc:
        raise ProbeError(str(exc)) from None


def _ale_backend(canon: str, mode: Optional[int], mods: tuple = ()):
    # one emulator per game, mode and mods (ALE counterparts: RAM writes), reset per probe
    # (AuditSession.ale_emulators)
    return session.kept(session.current().ale_emulators, (canon, mode, tuple(mods)),
                        lambda: make_backend("ale", canon, mods=mods, mode=mode,
                                             full_action_space=True),
                        session.EMULATORS_KEPT)


def _lockstep_key(canon: str, mode, seed: int, start: str, steps: Sequence[ProbeStep],
                  ale_mods: Sequence[str] = ()) -> tuple:
    return (canon, mode, int(seed), start, tuple(s.describe() for s in steps), tuple(ale_mods))


def _probe_screens(probe: Probe) -> Screens:
    return Screens(every=SCREEN_EVERY, all_frames=_wants_screen(probe))


def _ale_prefix(canon: str, mode, seed: int, start: str, prefix: Sequence[ProbeStep],
                ale_mods: Sequence[str] = ()):
    # played once per seed and mode (a snapshot): the emulator is the same under every fault
    kept = session.current().ale_prefixes
    key = _lockstep_key(canon, mode, seed, start, prefix, ale_mods)
    if key not in kept:
        b = _backend("ale", canon, mode, ale_mods)
        b.reset(seed)
        rec = _play(b, prefix, f"save point {start}")
        kept[key] = (b.clone(), rec)
    return kept[key]


def ale_recordings(canon: str, probe: Probe, spec: Optional[GameSpec], seed: int,
                   ale_mods: Sequence[str] = ()):
    """(prefix Recording, probe Recording) of one seed on the emulator, played once and kept;
    ``ale_mods``: registered mod names whose ALE counterparts the emulator plays."""
    mode, prefix, steps = probe_plan(spec, canon, probe)
    snap, pre = _ale_prefix(canon, mode, seed, probe.start, prefix, ale_mods)
    key = (_lockstep_key(canon, mode, seed, probe.start, prefix, ale_mods),
           tuple(s.describe() for s in steps), _wants_screen(probe))
    kept = session.current().ale_probe_runs
    if key not in kept:
        b = _backend("ale", canon, mode, ale_mods)
        b.restore(snap)
        kept[key] = _play(b, steps, "probe", _probe_screens(probe))
    return pre, kept[key]


def _jax_lockstep(canon: str, probe: Probe, spec: Optional[GameSpec], seed: int, mods: Sequence,
                  ale_mods: Sequence[str] = ()):
    """(probe Recording on JAX, the first divergence from ALE in the prefix or the probe or None)."""
    mode, prefix, steps = probe_plan(spec, canon, probe)
    ale_pre, ale_run = ale_recordings(canon, probe, spec, seed, ale_mods)
    entry = catalog.entry(canon)
    signals, ends = entry.signals, entry.known_ends
    b = _backend("jax", canon, mode, mods)
    kept = session.current().jax_prefixes
    key = (b.cache_key, _lockstep_key(canon, mode, seed, probe.start, prefix, ale_mods))
    if key not in kept:
        for k in [k for k in kept if k[0] != b.cache_key]:
            del kept[k]  # another fault's prefixes: never asked for again
        b.reset(seed)
        rec = _play(b, prefix, f"save point {probe.start}")
        where = f"in the prefix, save point {probe.start}"
        kept[key] = (b.clone(), first_divergence(signals, ale_pre, rec, where, ends))
    snap, div = kept[key]
    b.restore(snap)
    rec = _play(b, steps, "probe", _probe_screens(probe))
    if div is None:
        div = first_divergence(signals, ale_run, rec, "in the probe's steps", ends)
    return rec, div


def _jax_alone(canon: str, probe: Probe, spec: Optional[GameSpec], seed: int, mods: Sequence):
    """The probe's Recording on the JAX game alone (no ALE run to compare with: a probe judged by
    its expectations, e.g. a modified game's)."""
    mode, prefix, steps = probe_plan(spec, canon, probe)
    b = _backend("jax", canon, mode, mods)
    b.reset(seed)
    _play(b, prefix, f"save point {probe.start}")
    return _play(b, steps, "probe", _probe_screens(probe))


def _play(b, steps: Sequence[ProbeStep], where: str,
          screens: Optional[Screens] = None) -> Recording:
    """Actions and pokes in order, every frame recorded; a poke or action the backend refuses
    names its step."""
    screens = screens or Screens(every=SCREEN_EVERY)
    for i, s in enumerate(steps, 1):  # check the actions first: a refusal names its step
        if not s.is_poke:
            try:
                b.action_index(s.action)
            except BackendError as exc:
                raise ProbeError(f"{where} step {i} ({s.describe()}): {exc}") from None
    try:
        return play(b, steps, screens, keep=b.kind == "ale")
    except BackendError as exc:  # a poke refused: the message names its step
        raise ProbeError(f"{where} {exc}") from None


def _gym_env(canon: str):
    """gymnasium's ALE v5 environment of the game (v5 defaults: frameskip 4, sticky 0.25, the
    108,000-frame cap), RAM observations, the full action set (index = ALE id); kept
    (AuditSession.gym_envs)."""
    def make():
        import ale_py
        import gymnasium

        gymnasium.register_envs(ale_py)
        return gymnasium.make(catalog.entry(canon).ale_id, obs_type="ram", full_action_space=True)

    return session.kept(session.current().gym_envs, canon, make, session.GYM_ENVS_KEPT)


def _ale_v5(canon: str, probe: Probe, ale_mods: Sequence[str] = ()) -> list[tuple[dict, dict]]:
    """(start, end) signals of each of the probe's episodes on gymnasium's ALE v5 environment.

    The first reset is seeded with ``probe.seed``; the next episodes continue the environment's own
    random stream (reseeding gymnasium's ALE reloads the ROM, which would cost most of the run).
    With ``ale_mods`` the environment's emulator is driven one frame at a time, as its own step
    does (the same sticky actions, drawn inside ALE), so the mods' RAM writes follow every frame."""
    entry = catalog.entry(canon)
    env = _gym_env(canon)
    ale = env.unwrapped.ale
    writes = _ram_writes(canon, ale_mods)
    frameskip = int(env.unwrapped._frameskip)
    runs = []
    for episode in range(probe.seeds or 1):
        env.reset(seed=probe.seed if episode == 0 else None)
        if writes:
            apply_ram_writes(writes, "reset", ale.getRAM(), ale.setRAM)
        score, over = 0.0, False

        def signals() -> dict:
            out = {"score": int(score), "lives": int(ale.lives()), "terminated": bool(ale.game_over()),
                   "frame": int(ale.getEpisodeFrameNumber())}
            out.update(entry.ale_signals(np.asarray(ale.getRAM(), np.uint8)))
            return out

        start = signals()
        for s in probe.steps:
            a = ALE_ACTION_NAMES.index(s.action)
            for _ in range(s.agent_steps):
                if over:  # the episode is over: nothing advances (as in the JAX wrapper)
                    break
                if writes:
                    r, over = _modded_agent_step(ale, env, a, frameskip, writes)
                else:
                    _, r, terminated, truncated, _ = env.step(a)
                    over = terminated or truncated
                score += float(r)
        runs.append((start, signals()))
    return runs


def _ram_writes(canon: str, ale_mods: Sequence[str]) -> tuple:
    """The merged RAM writes of ``ale_mods`` (their counterparts), as the ALE backend applies them."""
    if not ale_mods:
        return ()
    try:
        return _ale_backend(canon, None, tuple(ale_mods)).ram_writes
    except BackendError as exc:
        raise ProbeError(str(exc)) from None


def _modded_agent_step(ale, env, action: int, frameskip: int, writes) -> tuple[float, bool]:
    """One v5 agent step (``frameskip`` frames) on gymnasium's emulator with RAM writes after every
    frame: what ``AtariEnv.step`` does frame by frame (the sticky draw is ALE's own, per frame)."""
    reward = 0.0
    ids = env.unwrapped._action_set
    for _ in range(frameskip):
        reward += ale.act(ids[action], 1.0)
        apply_ram_writes(writes, "frame", ale.getRAM(), ale.setRAM)
    return reward, bool(ale.game_over(with_truncation=False) or ale.game_truncated())


def run_on_ale(game: str, probe: Probe, spec: Optional[GameSpec] = None,
               mods: Sequence[str] = ()) -> ProbeResult:
    """The probe on the emulator; ``spec`` gives the save points a probe may start from; ``mods``
    (registered names) play the modified game, every mod's ALE counterpart written into RAM."""
    canon = _canonical(game)
    static = {"action_set": list(_ale_action_set(canon))}
    runs, screen = [], None
    if probe.protocol == "v5":
        runs = _ale_v5(canon, probe, mods)
    else:
        for seed in probe.seed_list:
            rec = ale_recordings(canon, probe, spec, seed, mods)[1]
            runs.append((rec.start, rec.end))
            screen = rec.screen(len(rec.screens) - 1) if rec.screens else None
    runs = [({**start, **static}, {**end, **static}) for start, end in runs]
    # ALE is the reference of matches_ale: its own screen matches it by definition.
    return _check(canon, "ale", probe, runs, screen=screen)


# ---- JAX -------------------------------------------------------------------------------------


def _jax_game(name: str, mods: Sequence = ()):
    """The JAX game with the full action set (index = ALE id) and ``mods``."""
    import jaxtari

    try:
        return jaxtari.make(name, list(mods), full_action_space=True)
    except Exception as exc:  # an unknown or ill-formed mod: say which
        raise ProbeError(f"{name}: cannot build the JAX game with mods {list(mods)}: {exc}") from None


def _v5_episodes(canon: str, game_of):
    """The v5 runner's function of ``(x, seeds, actions, active)``, its game ``game_of(x)``."""
    import jax
    import jax.numpy as jnp

    from jaxtari.wrappers import AtariWrapper

    signals = catalog.entry(canon).signals

    def episodes(x, seeds, actions, active):
        g = game_of(x)
        env = AtariWrapper(g, autoreset=False)

        def read(state):
            return {k: sig.jax(g, state) for k, sig in signals.items()}

        def one(seed):
            _, state = env.reset(jax.random.key(seed))

            def body(st, xs):
                a, on = xs
                new = env.step(st, a)[1]
                return jax.tree_util.tree_map(lambda n, o: jnp.where(on, n, o), new, st), None

            end = jax.lax.scan(body, state, (actions, active))[0]
            return read(env.game_state(state)), read(env.game_state(end))

        return jax.vmap(one)(seeds)

    return episodes


def _jax_v5_runner(canon: str, game: str, mods: Sequence = ()):
    """AtariWrapper (v5 settings, no auto-reset) over the full-action game; a jitted function that
    runs every seed's episode (vmapped) over the same agent actions and reads the signals of the
    start and end states. Seeds and actions are padded (to V5_SEEDS, and to a multiple of CHUNK
    with the padding masked off), so one compile serves every v5 probe of a game, and under a
    fault switch (:mod:`alignment.fault_switch`) every seeded fault's."""
    import functools

    import jax

    from alignment import fault_switch

    served = fault_switch.serving(canon, mods, None, True)
    if served is not None:
        variant, x = served
        _jax_game(game, mods)  # the fault's own build: its errors, as without the switch
        run = variant.kept(("v5", canon), lambda: _switched_v5(canon, variant, x))
        if run is not None:
            return functools.partial(run, x)
    runners = session.current().v5_runners
    key = (canon, game, mods_key(mods))
    if key not in runners:
        g = _jax_game(game, mods)
        runners[key] = functools.partial(jax.jit(_v5_episodes(canon, lambda x: g)), ())
    return runners[key]


def _switched_v5(canon: str, variant, x):
    """The v5 runner of a fault switch's variant, or None when it does not trace (each fault then
    compiles its own)."""
    import jax

    from alignment import fault_switch

    fn = _v5_episodes(canon, variant.make)
    try:
        jax.eval_shape(fn, x, np.zeros(V5_SEEDS, np.uint32), np.zeros(CHUNK, np.int32),
                       np.zeros(CHUNK, bool))
    except Exception:
        return None
    return fault_switch.Kept(fn)


def _jax_v5(canon: str, jax_name: str, probe: Probe, mods: Sequence = ()) -> list[tuple[dict, dict]]:
    import jax

    episodes = _jax_v5_runner(canon, jax_name, mods)
    actions = np.concatenate([np.full(s.agent_steps, ALE_ACTION_NAMES.index(s.action), np.int32)
                              for s in probe.steps])
    n = len(probe.seed_list)
    seeds = np.asarray(probe.seed_list + [0] * (-n % V5_SEEDS), np.uint32)
    active = np.zeros(len(actions) + (-len(actions) % CHUNK), bool)
    active[:len(actions)] = True
    actions = np.pad(actions, (0, len(active) - len(actions)))
    starts, ends = jax.device_get(episodes(seeds, actions, active))

    def row(batch, i):
        return {k: to_python(v[i]) for k, v in batch.items()}

    return [(row(starts, i), row(ends, i)) for i in range(n)]


def run_on_jax(game: str, probe: Probe, mods: Sequence = (), spec: Optional[GameSpec] = None,
               ale_screen: Optional[np.ndarray] = None, lockstep: bool = True,
               ale_mods: Sequence[str] = ()) -> ProbeResult:
    """The probe on the JAX game, built with ``mods`` (names or mod objects; a fault audit's).

    A frame-protocol probe runs in lockstep with the emulator's run of the same steps (kept, see
    :func:`ale_recordings`), save point prefix included: the first frame where a signal, the
    reward or a sampled screen differs fails it (:class:`~alignment.audit.lockstep.Divergence`),
    whatever the end values; then the expectations are judged on the JAX run as on ALE's. A v5
    probe (its own randomness on each side) is judged by its expectations only. ``ale_screen`` is
    kept for callers of the old end-screen check; the lockstep run compares screens itself.
    ``lockstep=False`` judges the expectations only (a mod that changes the game on purpose, run
    against the rules it does not change: it may leave ALE's run where no rule looks).
    ``ale_mods``: the mods the emulator's reference run plays (their ALE counterparts), so a
    modified JAX game is compared with the same modification of the real game."""
    canon = _canonical(game)
    entry = catalog.entry(canon)
    ok, why = entry.jax_available()
    if not ok:
        raise ProbeError(why)
    static = {"action_set": list(_jax_minimal_actions(entry.jax_game))}
    runs, screen, divergence = [], None, None
    if probe.protocol == "v5":
        runs = _jax_v5(canon, entry.jax_game, probe, mods)
    else:
        for seed in probe.seed_list:
            if lockstep:
                rec, div = _jax_lockstep(canon, probe, spec, seed, mods, ale_mods)
            else:
                rec, div = _jax_alone(canon, probe, spec, seed, mods), None
            runs.append((rec.start, rec.end))
            screen = rec.screen(len(rec.screens) - 1) if rec.screens else None
            if lockstep and div is not None and divergence is None:
                divergence = div if len(probe.seed_list) == 1 else dataclasses.replace(
                    div, where=f"{div.where}, seed {seed}")
    runs = [({**start, **static}, {**end, **static}) for start, end in runs]
    diff = divergence.describe() if divergence is not None and divergence.signal == SCREEN else None
    if not lockstep and _wants_screen(probe):
        # the screen is judged only against an ALE run of the same game in lockstep
        diff = NOT_JUDGED_SCREEN
    result = _check(canon, "jax", probe, runs, screen_diff=diff, screen=screen)
    if divergence is not None:
        result.failures.insert(0, divergence.describe())
        result.passed = False
        result.divergence = divergence
    return result


@functools.lru_cache(maxsize=None)
def _jax_minimal_actions(name: str) -> tuple[str, ...]:
    import jaxtari

    return tuple(jaxtari.make(name).action_names)


def _canonical(game: str) -> str:
    try:
        return catalog.canonical(game)
    except catalog.UnknownCatalogGame as exc:
        raise ProbeError(str(exc)) from None


def run_probe(game: str, probe: Probe, backend: str, mods: Sequence = (),
              spec: Optional[GameSpec] = None, ale_screen: Optional[np.ndarray] = None,
              lockstep: bool = True, ale_mods: Sequence[str] = ()) -> ProbeResult:
    """The probe on one backend; ``mods`` apply to the JAX game, ``ale_mods`` (registered names
    with ALE counterparts) to the emulator, the JAX side's reference (none: the original game);
    ``spec`` gives the save points a probe may start from."""
    if backend == "ale":
        return run_on_ale(game, probe, spec, ale_mods)
    if backend == "jax":
        return run_on_jax(game, probe, mods, spec, ale_screen, lockstep, ale_mods)
    raise ProbeError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")


def run_both(game: str, probe: Probe, spec: Optional[GameSpec] = None,
             backends: Iterable[str] = BACKENDS, mods: Sequence = (),
             lockstep: bool = True, ale_mods: Sequence[str] = ()) -> dict[str, ProbeResult]:
    """The probe on each backend, ALE first (its screen is the JAX side's reference)."""
    out: dict[str, ProbeResult] = {}
    for b in backends:
        ale = out.get("ale")
        out[b] = run_probe(game, probe, b, mods, spec, ale.screen if ale is not None else None,
                           lockstep, ale_mods)
    return out


def run_probes(spec: GameSpec, backends: Iterable[str] = BACKENDS, *, reviewed_only: bool = True,
               mods: Sequence = (), skip_rules: Iterable[str] = (), ale_mods: Sequence[str] = (),
               lockstep: Optional[bool] = None):
    """(rule id, {backend: ProbeResult}) for every probed rule of a spec; ``mods`` modify the JAX
    game, ``ale_mods`` the emulator (their ALE counterparts; none: ALE plays the original),
    ``skip_rules`` (the rules the mods change) are left out. ``lockstep`` (default: without mods)
    fails a JAX run on its first frame off ALE's; otherwise the JAX runs are judged by the
    expectations only (a mod changes the game on purpose, so a JAX run against an ALE reference
    that lacks the mod, or has a counterpart not exact, may leave ALE's where no remaining rule
    looks)."""
    backends = tuple(backends)
    skip = set(skip_rules)
    if lockstep is None:
        lockstep = not mods
    out = []
    for rule in spec.rules:
        if rule.probe is None or (reviewed_only and rule.status != "reviewed") or rule.id in skip:
            continue
        out.append((rule.id, _results_or_error(spec, rule.id, rule.probe, backends, mods,
                                               lockstep=lockstep, ale_mods=ale_mods)))
    return out


def _results_or_error(spec: GameSpec, rule_id: str, probe: Probe, backends: Sequence[str],
                      mods: Sequence = (), lockstep: bool = True,
                      ale_mods: Sequence[str] = ()) -> dict[str, ProbeResult]:
    """A probe that cannot run (unknown signal, start, action) fails its own row, not the table."""
    try:
        return run_both(spec.game, probe, spec, backends, mods, lockstep, ale_mods)
    except ProbeError as exc:
        why = [f"rule {rule_id}: cannot run its probe: {exc}"]
        return {b: ProbeResult(spec.game, b, False, why, {}, {}) for b in backends}


def check_save_point(spec: GameSpec, name: str, backend: str, mods: Sequence = (),
                     ale_mods: Sequence[str] = ()) -> ProbeResult:
    """Whether a save point's steps reach what it says (``reaches``) on ``backend``; ``mods``/
    ``ale_mods``: on the modified JAX / ALE game (judged by ``reaches`` alone)."""
    try:
        mode, steps = spec.save_point_steps(name)
    except KeyError as exc:
        raise ProbeError(str(exc.args[0])) from None
    # the save point's own steps as a probe from reset, judged by what the save point reaches
    as_probe = Probe(mode=mode, steps=steps, expectations=spec.save_points[name].reaches)
    if mods or ale_mods:
        return run_probe(spec.game, as_probe, backend, mods, lockstep=False, ale_mods=ale_mods)
    return run_probe(spec.game, as_probe, backend)


def coverage(spec: GameSpec) -> tuple[int, int]:
    """(reviewed rules with a probe, reviewed rules)."""
    reviewed = [r for r in spec.rules if r.status == "reviewed"]
    return sum(r.probe is not None for r in reviewed), len(reviewed)
