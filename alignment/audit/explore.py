"""Exploration: diverse play from every start, compared frame by frame (the audit's wide net).

Probes check what a spec's rules say, at the situations their authors chose. A porting fault
elsewhere (deeper in the game, on a frame no probe looks at, in a path no probe takes) slips past
them, so the audit also plays the game: from reset, from every save point of the spec, from every
RAM-written (poke) start of its probes and from points along the game's recorded deep play (whole
games that reach later levels), it plays several open-loop walks

- ``random-holds``: a random action of the minimal set held 1..12 frames, again and again;
- ``human-holds``: longer holds (8..48 frames), a third of them NOOP, as a person plays;
- ``scripted``: the catalog's scripted policy (``GameEntry.script``), looped;
- ``planner``: actions chosen by a search on the JAX game (:mod:`alignment.audit.planner`) that
  keeps a ball in play, avoids losing lives, climbs levels and seeks signal values not seen yet,
  so it reaches situations the open-loop walks do not (from the starts ``Budget.planner_starts``
  names, ``Budget.planner_frames`` frames each; planned once, then replayed like any walk);

on the emulator and on the JAX game in lockstep (:mod:`alignment.audit.lockstep`: every signal and
reward every frame, the screen every :data:`SCREEN_EVERY` frames and on the last). The emulator's
side is recorded once; the JAX side is re-run under each fault or mutant, cheaply (compiled scans).

A divergence is reported with its first frame and attributed to rules (:func:`attribute`): the
rules whose traced code a mod touches (its Constants fields and mechanics, through the ``# rule:``
tags), narrowed to those whose probes look at the signal that diverged; without a mod (the game
as it is), the rules whose probes look at that signal, narrowed to those probing from the same
start. A divergence no rule can be given is a spec gap: the game differs from ALE where the spec
says nothing, and the audit fails.

Deep play recordings are data (run-length encoded actions, ``<deep_dir>/<game>-*.json``, made by
:mod:`alignment.deepplay` on ALE alone); nothing in them is executed.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np

from alignment import artefacts, catalog
from alignment.audit import session
from alignment.audit.lockstep import (
    SCREEN, Divergence, Recording, Screens, first_divergence, known_end, play,
)
from alignment.backends import BackendError, make_backend

# Odd, so that over a walk the sampled frames meet every phase of the frame counter's low bits (a
# 2600 game animates on them: a stride of 8 saw one frame in 8 of every such animation, always the
# same one, and a picture fault on the other seven went unseen)
SCREEN_EVERY = 7
DEFAULT_DEEP_DIR = Path(artefacts.DEEP_PLAY.folder)
SEED = 0


@dataclasses.dataclass(frozen=True)
class Budget:
    """How much play an exploration spends per game."""

    walk_frames: int  # frames per walk
    policies: tuple[str, ...]
    deep_frames: int  # frames of the deep recording played (0: none)
    deep_branches: int  # starts taken along the deep recording
    seeds: int = 1  # random walks per policy and start
    planner_frames: int = 0  # frames of the planner's walk per start (0: no planner)
    planner_starts: tuple[str, ...] = ("reset",)  # kinds of start the planner plays from
    # kinds of start the edge walk (EDGES: the player held against each edge in turn) plays from
    edge_starts: tuple[str, ...] = ("reset", "deep-poke")
    edge_frames: int = 150  # frames each direction is held on the edge walk
    deep_starts: bool = True  # start from the plug-in's poked deep starts (GameEntry.deep_starts)

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    def policies_from(self, st: "Start") -> tuple[str, ...]:
        """The open-loop policies that walk from ``st`` (none from a recording's very end)."""
        if not st.walks:
            return ()
        return tuple(p for p in self.policies if p != EDGES or st.kind in self.edge_starts)


EDGES = "edges"
POLICIES = ("random-holds", "human-holds", "scripted", EDGES)
PLANNER = "planner"
FULL = Budget(walk_frames=600, policies=POLICIES, deep_frames=30_000, deep_branches=8, seeds=2,
              planner_frames=2400, planner_starts=("reset", "save-point", "deep", "deep-poke"))
# a pull request's: fewer and shorter walks, but where faults hide (issue 50): the whole deep
# recording (its later points: Breakout's shrunk paddle, Seaquest's six divers surfacing), the
# plug-in's poked deep starts (a later level, reserves, a thinned wall) with the planner from them,
# and the edge walk. The planner from reset: Breakout's 1,200 frames keep the ball in play and
# break ~11 bricks where every open-loop walk has lost its five balls.
QUICK = Budget(walk_frames=240, policies=("random-holds", "human-holds", EDGES),
               deep_frames=30_000, deep_branches=4, seeds=1, planner_frames=1200,
               planner_starts=("reset", "deep-poke"))


@dataclasses.dataclass(frozen=True)
class Hold:
    """An action held for some frames: the step form the lockstep player takes."""

    action: str
    frames: int
    poke: Any = None
    is_poke: bool = False

    def describe(self) -> str:
        if self.is_poke:
            return "poke " + ", ".join(f"{k}={v}" for k, v in self.poke.items())
        return f"{self.action} x{self.frames}"


@dataclasses.dataclass
class Start:
    """A situation walks begin from: ``steps`` played after ``parent``'s (or from reset)."""

    name: str
    kind: str  # reset, save-point, poke, deep, deep-poke (a plug-in's DeepStart)
    steps: list
    parent: Optional[str] = None
    mode: Optional[int] = None
    rules: tuple[str, ...] = ()  # rules whose probes start here
    walks: bool = True  # False: only reaching it is compared (the end of a recording)


@dataclasses.dataclass
class WalkResult:
    start: str
    policy: str
    frames: int
    divergence: Optional[Divergence]
    rules: list[str]  # the rules the divergence is attributed to
    known_end: Optional[str] = None  # the game's KnownEnd that ended the comparison, if one did

    def to_json(self) -> dict:
        return {"start": self.start, "policy": self.policy, "frames": self.frames,
                "divergence": None if self.divergence is None else self.divergence.to_json(),
                "rules": self.rules, "known_end": self.known_end}


@dataclasses.dataclass
class Exploration:
    """What one exploration found (on the game as it is, or under one fault or mutant)."""

    budget: Budget
    starts: list[dict]  # name, kind, frame reached, the prefix's divergence (if any)
    walks: list[WalkResult]
    seconds: float
    plans: list[dict] = dataclasses.field(default_factory=list)  # the planner's searches
    declared_ends: tuple[str, ...] = ()  # the names of the game's KnownEnds, reached or not
    goals: list[dict] = dataclasses.field(default_factory=list)  # the plug-in's goals, judged

    @property
    def frames(self) -> int:
        return sum(w.frames for w in self.walks) + sum(s["frames"] for s in self.starts)

    @property
    def divergences(self) -> list[dict]:
        """The first divergence of each start's prefix and of each walk (prefix ones first)."""
        out = [{"start": s["name"], "policy": None, **s["divergence"], "rules": s["rules"]}
               for s in self.starts if s["divergence"] is not None]
        out += [{"start": w.start, "policy": w.policy, **w.divergence.to_json(), "rules": w.rules}
                for w in self.walks if w.divergence is not None]
        return out

    @property
    def rules(self) -> list[str]:
        return sorted({r for d in self.divergences for r in d["rules"]})

    @property
    def spec_gaps(self) -> list[dict]:
        return [d for d in self.divergences if not d["rules"]]

    def first(self) -> Optional[dict]:
        ds = self.divergences
        return min(ds, key=lambda d: d["frame"]) if ds else None

    def players(self) -> dict[str, dict]:
        """Per player (policy): its walks, the frames they compared and their divergences."""
        out: dict[str, dict] = {}
        for w in self.walks:
            row = out.setdefault(w.policy, {"walks": 0, "frames": 0, "divergences": 0})
            row["walks"] += 1
            row["frames"] += w.frames
            row["divergences"] += w.divergence is not None
        return out

    def known_ends(self) -> dict[str, int]:
        """Per KnownEnd of the game: the walks whose comparison it ended (0 for a declared end no
        walk reached, so a report shows what the plug-in excuses even where nothing was excused)."""
        out: dict[str, int] = {name: 0 for name in self.declared_ends}
        for w in self.walks:
            if w.known_end is not None:
                out[w.known_end] = out.get(w.known_end, 0) + 1
        return out

    def to_json(self) -> dict:
        out = {"budget": self.budget.to_json(), "starts": self.starts,
               "walks": len(self.walks), "frames": self.frames,
               "seconds": round(self.seconds, 1), "players": self.players(),
               "plans": self.plans, "divergences": self.divergences,
               "rules": self.rules, "spec_gaps": len(self.spec_gaps),
               "known_ends": self.known_ends()}
        if self.goals:  # only a game whose plug-in declares goals reports them
            out["goals"] = self.goals
        return out


# ---- starts ----------------------------------------------------------------------------------


def starts(spec, *, deep: Optional[np.ndarray] = None, deep_names: Sequence[str] = (),
           budget: Budget = FULL, poked: Optional[Sequence] = None) -> list[Start]:
    """Reset, every save point, every poke start of a frame-protocol probe, the game plug-in's
    deep starts (``poked``: :class:`~alignment.plugin.DeepStart`; default the catalog entry's of
    ``spec.game``) and points along the deep recording ``deep`` (per-frame action names)."""
    by_start: dict[str, list[str]] = {}
    for r in spec.rules:
        if r.status == "reviewed" and r.probe is not None and r.probe.protocol != "v5":
            by_start.setdefault(r.probe.start, []).append(r.id)
    out = [Start("reset", "reset", [], rules=tuple(by_start.get("reset", ())))]
    for name in spec.save_points:
        mode, steps = spec.save_point_steps(name)
        out.append(Start(f"save point {name}", "save-point", list(steps), mode=mode,
                         rules=tuple(by_start.get(name, ()))))
    seen = set()
    for r in spec.rules:
        p = r.probe
        if r.status != "reviewed" or p is None or p.protocol == "v5":
            continue
        last = max((i for i, s in enumerate(p.steps) if s.is_poke), default=None)
        if last is None:
            continue
        mode, before = spec.save_point_steps(p.start)
        steps = list(before) + list(p.steps[:last + 1])
        key = (p.mode if p.mode is not None else mode, tuple(s.describe() for s in steps))
        if key in seen:
            continue
        seen.add(key)
        out.append(Start(f"poke start of {r.id}", "poke", steps, mode=key[0], rules=(r.id,)))
    if not budget.deep_starts:
        poked = ()
    elif poked is None:
        try:
            poked = catalog.entry(catalog.canonical(spec.game)).deep_starts
        except (KeyError, ValueError):  # a game outside the catalog (a test's toy) has none
            poked = ()
    for d in poked:
        out.append(Start(f"deep start {d.name}", "deep-poke", deep_start_steps(d)))
    if deep is not None and budget.deep_frames and len(deep):
        actions = list(deep[:budget.deep_frames])
        cuts = np.linspace(0, len(actions), budget.deep_branches + 1).astype(int)[1:]
        parent = None
        for i, (a, b) in enumerate(zip(np.r_[0, cuts[:-1]], cuts)):
            name = f"deep play {'+'.join(deep_names) or 'recording'} @{b}"
            # a recording ends where its player stopped (often at game over, or where a port is
            # known to part from ALE): no walks from its very end
            out.append(Start(name, "deep", _holds(actions[a:b]), parent=parent,
                             walks=b < len(deep)))
            parent = name
    return out


def deep_start_steps(d) -> list[Hold]:
    """A :class:`~alignment.plugin.DeepStart`'s steps as the lockstep player's holds and pokes."""
    out = []
    for step in d.steps:
        if isinstance(step, dict):
            out.append(Hold("poke", 0, poke=dict(step), is_poke=True))
        else:
            action, frames = step
            out.append(Hold(str(action), int(frames)))
    return out


def _holds(actions: Sequence[str]) -> list[Hold]:
    out: list[Hold] = []
    for a in actions:
        if out and out[-1].action == a:
            out[-1] = Hold(a, out[-1].frames + 1)
        else:
            out.append(Hold(a, 1))
    return out


def load_deep(game: str, deep_dir: Path = DEFAULT_DEEP_DIR) -> tuple[Optional[np.ndarray], list]:
    """The first deep play recording of ``game`` (per-frame ALE action names), or None."""
    from alignment.deepplay import load_actions

    files = sorted(Path(deep_dir).glob(f"{game}-*.json"))
    if not files:
        return None, []
    doc, actions = load_actions(files[0])
    names = catalog.entry(game).minimal_actions  # deepplay records indices of the minimal set
    return np.asarray([names[int(a)] for a in actions]), [files[0].stem]


# ---- walks -----------------------------------------------------------------------------------


# the edge walk's directions, in order: across and back, down and up, then the diagonals into
# each corner (those the game's minimal action set has)
EDGE_DIRECTIONS = ("LEFT", "RIGHT", "DOWN", "UP", "DOWNLEFT", "UPRIGHT", "UPLEFT", "DOWNRIGHT")


def walk(policy: str, entry, frames: int, seed: int, edge_frames: int = 150) -> list[Hold]:
    """An open-loop walk of ``frames`` frames (seeded: the same on both backends and every run).
    The edge walk (``EDGES``) is its own length: each direction of the game's action set held
    ``edge_frames`` frames, long enough to bring the player against that edge and keep it there."""
    rng = np.random.default_rng(seed)
    names = list(entry.minimal_actions)
    out, n = [], 0
    if policy == EDGES:
        return [Hold(a, edge_frames) for a in EDGE_DIRECTIONS if a in names]
    if policy == "scripted":
        while n < frames:
            for action, steps in entry.script:
                out.append(Hold(action, 4 * int(steps)))
                n += 4 * int(steps)
    else:
        short = policy == "random-holds"
        while n < frames:
            if not short and rng.random() < 1 / 3:
                a = "NOOP"
            else:
                a = names[int(rng.integers(len(names)))]
            k = int(rng.integers(1, 13) if short else rng.integers(8, 49))
            out.append(Hold(a, k))
            n += k
    return _trim(out, frames)


def _trim(holds: list[Hold], frames: int) -> list[Hold]:
    out, n = [], 0
    for h in holds:
        if n >= frames:
            break
        k = min(h.frames, frames - n)
        out.append(Hold(h.action, k))
        n += k
    return out


# ---- the run ---------------------------------------------------------------------------------


class _AleSide:
    """The emulator's recordings of an exploration, made once (kept across faults)."""

    def __init__(self, game: str, plan: list[Start], budget: Budget, mods: Sequence[str] = ()):
        self.game, self.plan, self.budget, self.mods = game, plan, budget, tuple(mods)
        self.snap: dict[str, Any] = {}
        self.prefix: dict[str, Recording] = {}
        self.walks: dict[tuple, Recording] = {}
        self.plans: dict[str, tuple[list[Hold], dict]] = {}  # start -> the planner's walk, stats
        self._backends: dict = {}

    def backend(self, mode):
        if mode not in self._backends:
            self._backends[mode] = make_backend("ale", self.game, mods=self.mods, mode=mode,
                                                full_action_space=True)
        return self._backends[mode]


def planned_walks() -> dict[tuple, dict]:
    """The planner's walks of the explorations this session made, keyed as they are kept: plain
    data another process takes with :func:`adopt_planned_walks`."""
    return {key: dict(side.plans) for key, side in session.current().explore_ale.items()
            if side.plans}


def adopt_planned_walks(walks: dict[tuple, dict]) -> None:
    """Take the planner's walks another process found (alignment.audit.fault_pool hands a worker
    the parent's): an exploration here takes them instead of planning again, which would compile
    the unmodified game in this process."""
    session.current().adopted_walks.update(walks)


def _screens() -> Screens:
    return Screens(every=SCREEN_EVERY)


def explore(spec, *, mods: Sequence = (), budget: Budget = FULL, deep_dir: Path = DEFAULT_DEEP_DIR,
            structure: Sequence = (), progress=None, ale_mods: Sequence[str] = (),
            touched: Optional[set] = None) -> Exploration:
    """Explore ``spec``'s game from every start on ALE and on the JAX game built with ``mods``.

    ``structure``: the audit's :func:`alignment.audit.trace.structure` items (for attributing a
    divergence under a mod to the rules of the code it touches). ``ale_mods``: registered mod names
    whose ALE counterparts (RAM writes) the emulator plays, so a modified game is compared with the
    same modification on ALE (an audit of a modified game). ``touched``: the rules a divergence may
    be attributed to instead of those the mods' traced code gives (a modified-game audit passes the
    rules a not-exact counterpart is known to change)."""
    say = progress or (lambda label: None)
    t0 = time.perf_counter()
    game = catalog.canonical(spec.game)
    entry = catalog.entry(game)
    deep, deep_names = load_deep(game, deep_dir) if budget.deep_frames else (None, [])
    plan = starts(spec, deep=deep, deep_names=deep_names, budget=budget)
    key = (game, budget, tuple(ale_mods),
           tuple((s.name, tuple(h.describe() for h in s.steps)) for s in plan))
    here = session.current()
    if key not in here.explore_ale:
        here.explore_ale.clear()
        here.explore_ale[key] = _AleSide(game, plan, budget, ale_mods)
        here.explore_ale[key].plans.update(here.adopted_walks.get(key, {}))
    ale = here.explore_ale[key]
    if touched is None:
        touched = touched_rules(mods, structure)
    jax_backends: dict = {}
    jax_snap: dict[str, Any] = {}
    start_rows, walks, plans = [], [], []
    played: list[tuple[str, str, Recording]] = []  # (start, player, the emulator's recording)
    for n, st in enumerate(plan, 1):
        say(f"explore {n}/{len(plan)}: {st.name}")
        a = ale.backend(st.mode)
        if st.mode not in jax_backends:
            jax_backends[st.mode] = make_backend("jax", game, mods=mods, mode=st.mode,
                                                 full_action_space=True)
        j = jax_backends[st.mode]
        if st.name not in ale.snap:
            _begin(a, ale.snap, st)
            ale.prefix[st.name] = play(a, st.steps, _screens(), keep=True)
            ale.snap[st.name] = a.clone()
        _begin(j, jax_snap, st)
        rec = play(j, st.steps, _screens())
        jax_snap[st.name] = j.clone()
        div = first_divergence(entry.signals, ale.prefix[st.name], rec, f"reaching {st.name}",
                               entry.known_ends)
        if not any(getattr(h, "is_poke", False) for h in st.steps):
            # a written start's own steps show the writes as changes between frames (a wall
            # thinned reads as bricks broken): its goals count from the walks after them
            played.append((st.name, REACHING, ale.prefix[st.name]))
        start_rows.append({"name": st.name, "kind": st.kind, "frames": rec.frames,
                           "divergence": None if div is None else div.to_json(),
                           "rules": attribute(div, st, spec, touched) if div else []})
        for policy in budget.policies_from(st):
            for s in range(budget.seeds if policy not in ("scripted", EDGES) else 1):
                steps = walk(policy, entry, budget.walk_frames, seed=SEED + 1000 * s + n,
                             edge_frames=budget.edge_frames)
                wkey = (st.name, policy, s)
                if wkey not in ale.walks:
                    a.restore(ale.snap[st.name])
                    ale.walks[wkey] = play(a, steps, _screens(), keep=True)
                j.restore(jax_snap[st.name])
                jrec = play(j, steps, _screens())
                played.append((st.name, policy, ale.walks[wkey]))
                where = f"{policy} walk {s} from {st.name}"
                wdiv = first_divergence(entry.signals, ale.walks[wkey], jrec, where,
                                        entry.known_ends)
                walks.append(WalkResult(st.name, policy, jrec.frames, wdiv,
                                        attribute(wdiv, st, spec, touched) if wdiv else [],
                                        _ended(entry, ale.walks[wkey], jrec)))
        if st.walks and budget.planner_frames and st.kind in budget.planner_starts:
            wkey = (st.name, PLANNER, 0)
            if st.name not in ale.plans:
                say(f"explore {n}/{len(plan)}: {st.name}: planning")
                ale.plans[st.name] = planned_walk(
                    game, plan, st, budget.planner_frames, seed=SEED + n, mods=ale.mods,
                    here=jax_snap if _same(mods, ale.mods) else None)
            steps, info = ale.plans[st.name]
            plans.append({"start": st.name, **info})
            if wkey not in ale.walks:
                a.restore(ale.snap[st.name])
                ale.walks[wkey] = play(a, steps, _screens(), keep=True)
            played.append((st.name, PLANNER, ale.walks[wkey]))
            j.restore(jax_snap[st.name])
            jrec = play(j, steps, _screens())
            wdiv = first_divergence(entry.signals, ale.walks[wkey], jrec,
                                    f"{PLANNER} walk from {st.name}", entry.known_ends)
            walks.append(WalkResult(st.name, PLANNER, jrec.frames, wdiv,
                                    attribute(wdiv, st, spec, touched) if wdiv else [],
                                    _ended(entry, ale.walks[wkey], jrec)))
    return Exploration(budget, start_rows, walks, time.perf_counter() - t0, plans,
                       tuple(end.name for end in entry.known_ends), judge_goals(entry, played))


REACHING = "(reaching it)"  # the player of a start's own steps (a save point's, deep play's)
GOAL_PLAYERS_SHOWN = 4  # the walks named per reached goal


def judge_goals(entry, played: Sequence[tuple[str, str, Recording]]) -> list[dict]:
    """Each of the game's planner goals (its plug-in's) judged on the emulator's recording of
    every walk and every start's own steps: reached or not, by which (player, start), and whether
    the planner's walks reached it."""
    out = []
    for goal in entry.planner_goals:
        by = [(start, player) for start, player, rec in played
              if rec.frames and goal.reached(rec.start, rec.traces)]
        out.append({"goal": goal.name, "note": goal.note, "reached": bool(by),
                    "by_planner": any(p == PLANNER for _, p in by), "walks": len(by),
                    "first": [f"{p} from {s}" for s, p in by[:GOAL_PLAYERS_SHOWN]]})
    return out


def _ended(entry, ale_rec, jax_rec) -> Optional[str]:
    found = known_end(entry.known_ends, ale_rec, jax_rec)
    return None if found is None else found[0].name


def _same(mods: Sequence, ale_mods: Sequence[str]) -> bool:
    from alignment.backends import mods_key

    return mods_key(mods) == mods_key(ale_mods)


def planned_walk(game: str, plan: list[Start], st: Start, frames: int, *, seed: int,
                 mods: Sequence[str] = (), here: Optional[dict] = None) -> tuple[list[Hold], dict]:
    """The planner's walk from ``st`` (one of ``plan``), searched on the JAX game the emulator's
    side plays (the original, or the same registered ``mods``), and what its search saw.
    ``here``: that game's snapshots of the starts when the exploration under way plays it; else
    the start is reached on it afresh."""
    from alignment.audit.planner import plan as search

    backend = make_backend("jax", game, mods=tuple(mods), mode=st.mode, full_action_space=True)
    if here is not None:
        backend.restore(here[st.name])
    else:
        by_name = {s.name: s for s in plan}
        chain = [st]
        while chain[-1].parent is not None:
            chain.append(by_name[chain[-1].parent])
        backend.reset(SEED)
        for s in reversed(chain):
            play(backend, s.steps, Screens(every=10 ** 9))
    found = search(backend, frames, seed=seed)
    return _holds(found.actions), found.to_json()


def _begin(backend, snaps: dict, st: Start) -> None:
    if st.parent is None:
        backend.reset(SEED)
    else:
        backend.restore(snaps[st.parent])


# ---- attribution ------------------------------------------------------------------------------


def touched_rules(mods: Sequence, structure: Sequence) -> set[str]:
    """Rules whose traced code ``mods`` replace: the tags on the Constants fields and mechanics an
    ``InternalMod`` changes (a mod that only post-processes states touches no traced code)."""
    names = set()
    for m in mods:
        names |= set(getattr(m, "constants", {}) or {}) | set(getattr(m, "mechanics", {}) or {})
    return {r for item in structure if item.name in names for r in item.rules}


def signal_rules(spec, signals: Sequence[str]) -> set[str]:
    """Reviewed rules whose probes look at any of ``signals`` (the reward counts as the score; a
    screen as the probes that compare screens, and the rendering rules)."""
    wanted = set(signals)
    if "reward" in wanted:
        wanted.add("score")
    out = set()
    for r in spec.rules:
        if r.status != "reviewed":
            continue
        if SCREEN in wanted and (r.category in ("rendering", "render", "display", "visual")):
            out.add(r.id)
        if r.probe is None:
            continue
        for e in r.probe.expectations:
            if e.signal in wanted or (SCREEN in wanted and e.op == "matches_ale"):
                out.add(r.id)
    return out


def attribute(div: Divergence, start: Start, spec, touched: set[str]) -> list[str]:
    """The rules a divergence is attributed to (empty: a spec gap), see the module docstring."""
    by_signal = signal_rules(spec, [div.signal, *div.others])
    if touched:
        both = touched & by_signal
        return sorted(both or touched)
    here = by_signal & set(start.rules)
    return sorted(here or by_signal)


__all__ = ["Budget", "EDGES", "Exploration", "FULL", "PLANNER", "POLICIES", "QUICK", "Start", "WalkResult",
           "attribute", "deep_start_steps", "explore", "judge_goals", "load_deep", "planned_walk", "signal_rules", "starts",
           "touched_rules", "walk",
           "BackendError"]
