"""Mutants of a game's own code, made mechanically: the audit's self-check.

Hand-written fault sets (:mod:`alignment.audit.faults`) test the audit against faults someone
thought of; mutants test it against every small change of the code. A mutant is the game with one
change, never chosen by hand:

- ``constant``: a field of the game's ``Constants`` dataclass moved to each neighbour (an integer
  +-1, a flag flipped, a float +-1 or, below 2, halved / x1.5);
- ``table`` / ``colour``: one entry of a tuple field (a table, a geometry pair, an RGB colour) +-1;
- ``comparison``: one comparison of the game's source shifted (``<`` <-> ``<=``, ``>`` <-> ``>=``)
  or flipped (``<`` -> ``>=``, ``==`` <-> ``!=``, ...);
- ``literal``: one integer literal of the game's source +-1: thresholds, masks, offsets, module-level
  constants, sprite rows and lookup tables.

Source mutants are made by parsing each source file of the game with :mod:`ast`, changing one node
and loading the changed copy of the game's modules under a fresh package name
(:func:`load_mutant_class`); the project's own game code is all that is executed. Constant mutants
need no new code: the runner (:mod:`alignment.audit.mutant_runs`) passes the fields it can as traced
inputs, so every constant mutant of a game runs under one compile.

Whether a mutant is killed (a probe or an exploration start that holds on ALE fails on it),
survives, or is equivalent (no difference from the unmutated game on any signal, reward or sampled
screen over whole-game lockstep runs) is measured by :func:`run_mutation`.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.abc
import importlib.util
import itertools
import random
import sys
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from alignment.audit.source import display_path

STATUSES = ("killed", "survived", "equivalent")
KINDS = ("constant", "table", "colour", "comparison", "literal")
BATCHED_KINDS = ("constant", "table", "colour")  # Constants fields: one compile for all of them
_COLOUR_WORDS = ("colour", "color", "background", "palette", "hmove_bar", "attract_")

# comparison mutations: shifted (the boundary moves by one) and flipped (the test is negated)
_SHIFT = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
_FLIP = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt, ast.Eq: ast.NotEq,
         ast.NotEq: ast.Eq}
_OP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


class MutationError(ValueError):
    """A mutation run that cannot go ahead as asked (the message names the fix)."""


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One change of a game. ``field``/``value`` for a Constants mutant (``value`` is the whole
    new field value); ``file``/``node`` (the index of the changed node in :func:`_walk` order) and
    ``change`` for a source mutant."""

    id: str
    kind: str
    target: str  # what changed, readable: "pong.PongConstants.serve_delay 63 -> 64"
    at: str  # file:line
    field: Optional[str] = None
    value: Any = None
    file: Optional[str] = None
    node: Optional[int] = None
    change: Optional[tuple] = None  # ("op", new op name) or ("int", new value)
    reads: tuple = ()  # names (attributes and variables) the changed statement reads

    @property
    def batched(self) -> bool:
        return self.kind in BATCHED_KINDS


# ---- Constants fields --------------------------------------------------------------------------


def _neighbours(value) -> list:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value - 1, value + 1]
    if isinstance(value, float):
        return [value - 1.0, value + 1.0] if abs(value) >= 2 else [value * 0.5, value * 1.5]
    return []


def _is_colour(field: str, value) -> bool:
    return (any(w in field for w in _COLOUR_WORDS) and isinstance(value, tuple)
            and len(value) == 3 and all(isinstance(v, int) and 0 <= v <= 255 for v in value))


def _replace_leaf(value, path: tuple[int, ...], new):
    if not path:
        return new
    items = list(value)
    items[path[0]] = _replace_leaf(items[path[0]], path[1:], new)
    return tuple(items)


def _leaves(value, path=()):
    if isinstance(value, tuple):
        for i, v in enumerate(value):
            yield from _leaves(v, path + (i,))
    elif isinstance(value, (bool, int, float)):
        yield path, value


def constant_mutants(game_cls) -> list[Mutant]:
    """Every Constants field moved to its neighbours; every entry of a tuple field +-1 (a colour's
    channels kept in 0..255)."""
    consts = game_cls.Constants()
    file = Path(sys.modules[game_cls.Constants.__module__].__file__)
    lines = _field_lines(game_cls.Constants)
    owner = f"{game_cls.name}.{game_cls.Constants.__name__}"
    out = []
    for f in dataclasses.fields(consts):
        value = getattr(consts, f.name)
        at = f"{display_path(file)}:{lines.get(f.name, 0)}"
        colour = _is_colour(f.name, value)
        for path, leaf in _leaves(value):
            for new in _neighbours(leaf):
                if colour and not 0 <= new <= 255:
                    continue
                kind = "constant" if not path else ("colour" if colour else "table")
                where = "".join(f"[{i}]" for i in path)
                out.append(Mutant(
                    id=f"{kind}:{f.name}{where}{'+' if new > leaf else '-'}",
                    kind=kind, target=f"{owner}.{f.name}{where} {leaf!r} -> {new!r}", at=at,
                    field=f.name, value=_replace_leaf(value, path, new)))
    return out


def _field_lines(consts_cls) -> dict[str, int]:
    import inspect

    src, first = inspect.getsourcelines(consts_cls)
    names = {f.name for f in dataclasses.fields(consts_cls)}
    out = {}
    for i, text in enumerate(src):
        name = text.strip().split(":")[0].strip()
        if name in names and name not in out:
            out[name] = first + i
    return out


# ---- source mutants ----------------------------------------------------------------------------


def _skip_ranges(tree: ast.AST, consts_name: str) -> list[tuple[int, int]]:
    """Line ranges not mutated by source mutants: the Constants class (its fields are constant
    mutants) and docstrings (never run)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == consts_name:
            out.append((node.lineno, node.end_lineno))
    return out


def _walk(tree: ast.AST) -> list[ast.AST]:
    """Nodes in a fixed order (ast.walk is breadth-first and deterministic for one source)."""
    return list(ast.walk(tree))


def _docstring_ids(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def source_mutants(game_cls, files: Sequence[Path]) -> list[Mutant]:
    """One mutant per comparison shift/flip and per integer literal +-1 in ``files`` (outside the
    Constants class, annotations and docstrings; the mods modules are left out)."""
    consts_name = game_cls.Constants.__name__
    out = []
    for path in files:
        path = Path(path)
        if path.name == "mods.py" or path.name.endswith("_mods.py"):
            continue  # the game's registered mods: not played unless a mod is asked for
        tree = ast.parse(path.read_text("utf-8"))
        skip = _skip_ranges(tree, consts_name)
        docs = _docstring_ids(tree)
        annotations = {id(n) for a in ast.walk(tree) if isinstance(a, ast.AnnAssign)
                       for n in ast.walk(a.annotation)}
        shown = display_path(path)
        reads = _statement_reads(tree)
        for index, node in enumerate(_walk(tree)):
            line = getattr(node, "lineno", 0)
            if any(a <= line <= b for a, b in skip) or id(node) in docs or id(node) in annotations:
                continue
            at = f"{shown}:{line}"
            if isinstance(node, ast.Compare) and len(node.ops) == 1:
                op = type(node.ops[0])
                for how, table in (("shift", _SHIFT), ("flip", _FLIP)):
                    if op in table:
                        new = table[op]
                        out.append(Mutant(
                            id=f"comparison:{shown}:{line}:{index}:{how}", kind="comparison",
                            target=(f"{ast.unparse(node)}  ->  {_OP_TEXT[op]} becomes "
                                    f"{_OP_TEXT[new]} ({how})"),
                            at=at, file=str(path), node=index, change=("op", new.__name__),
                            reads=reads.get(id(node), ())))
            elif (isinstance(node, ast.Constant) and type(node.value) is int):
                for new in (node.value - 1, node.value + 1):
                    out.append(Mutant(
                        id=f"literal:{shown}:{line}:{index}:{'+' if new > node.value else '-'}",
                        kind="literal", target=f"literal {node.value} -> {new}", at=at,
                        file=str(path), node=index, change=("int", new),
                        reads=reads.get(id(node), ())))
    return out


def _statement_reads(tree: ast.AST) -> dict[int, tuple]:
    """id(node) -> the attribute and variable names read by the innermost statement holding it."""
    out: dict[int, tuple] = {}
    for stmt in ast.walk(tree):
        if not isinstance(stmt, ast.stmt) or isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            continue
        names = tuple(sorted({n.attr if isinstance(n, ast.Attribute) else n.id
                              for n in ast.walk(stmt) if isinstance(n, (ast.Attribute, ast.Name))}))
        for n in ast.walk(stmt):
            out[id(n)] = names  # inner statements are walked later and win
    return out


def mutated_source(mutant: Mutant) -> str:
    """The mutant's file with its one change, as source text."""
    tree = ast.parse(Path(mutant.file).read_text("utf-8"))
    node = _walk(tree)[mutant.node]
    what, new = mutant.change
    if what == "op":
        node.ops = [getattr(ast, new)()]
    else:
        node.value = new
    return ast.unparse(ast.fix_missing_locations(tree))


# ---- loading a mutated copy of a game's modules -------------------------------------------------

_COUNTER = itertools.count()


class _CopyFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves ``<alias>.<original module>`` from the original's source (one file mutated), with
    every import of the game's own modules rewritten to the copy: a game package imported twice,
    isolated from the real one."""

    def __init__(self, alias: str, sources: dict[str, tuple[str, bool]]):
        self.alias = alias
        self.sources = sources  # original dotted name -> (source, is package)

    def _original(self, fullname: str) -> Optional[str]:
        if fullname == self.alias:
            return ""
        prefix = self.alias + "."
        return fullname[len(prefix):] if fullname.startswith(prefix) else None

    def find_spec(self, fullname, path=None, target=None):
        name = self._original(fullname)
        if name is None:
            return None
        is_pkg = name not in self.sources or self.sources[name][1]
        return importlib.util.spec_from_loader(fullname, self, is_package=is_pkg)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name = self._original(module.__name__)
        if name not in self.sources:  # a parent package of the game's modules: empty
            module.__path__ = []
            return
        source, is_pkg = self.sources[name]
        if is_pkg:
            module.__path__ = []
        tree = _rewrite_imports(ast.parse(source), self.alias, set(self.sources))
        exec(compile(tree, f"<mutant {module.__name__}>", "exec"), module.__dict__)


def _rewrite_imports(tree: ast.AST, alias: str, modules: set[str]) -> ast.AST:
    def ours(name: Optional[str]) -> bool:
        return bool(name) and any(name == m or name.startswith(m + ".") for m in modules)

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and ours(node.module):
            node.module = f"{alias}.{node.module}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if ours(a.name):
                    if a.asname is None:
                        raise MutationError(f"cannot copy `import {a.name}` without `as`")
                    a.name = f"{alias}.{a.name}"
    return ast.fix_missing_locations(tree)


def _module_name(path: Path) -> tuple[str, bool]:
    from alignment.audit.source import REPO_ROOT

    rel = Path(path).resolve().relative_to(REPO_ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def load_mutant_class(game_cls, files: Sequence[Path], mutant: Optional[Mutant] = None):
    """The game class from a fresh copy of the game's modules, ``mutant``'s file changed (None: an
    unchanged copy). The copy stays importable (a game may import its own modules while being
    traced) until :func:`release`."""
    sources = {}
    for path in files:
        name, is_pkg = _module_name(path)
        text = Path(path).read_text("utf-8")
        if mutant is not None and mutant.file and Path(mutant.file).resolve() == Path(path).resolve():
            text = mutated_source(mutant)
        sources[name] = (text, is_pkg)
    alias = f"_jaxtari_mutant_{next(_COUNTER)}"
    finder = _CopyFinder(alias, sources)
    sys.meta_path.insert(0, finder)
    try:
        module = importlib.import_module(f"{alias}.{game_cls.__module__}")
        return getattr(module, game_cls.__name__)
    except BaseException:
        release_alias(alias)
        raise


def release(cls) -> None:
    """Forget the copy of the game's modules that ``cls`` came from (its finder and modules)."""
    release_alias(cls.__module__.split(".")[0])


def release_alias(alias: str) -> None:
    if not alias.startswith("_jaxtari_mutant_"):
        return
    sys.meta_path[:] = [f for f in sys.meta_path
                        if not (isinstance(f, _CopyFinder) and f.alias == alias)]
    for name in [n for n in sys.modules if n == alias or n.startswith(alias + ".")]:
        del sys.modules[name]


# ---- the population and its sample -------------------------------------------------------------


def population(game_cls, files: Sequence[Path]) -> list[Mutant]:
    return constant_mutants(game_cls) + source_mutants(game_cls, files)


# The quick audit's draw of batched Constants mutants. A batched mutant costs no compile, but each
# one no probe kills plays every exploration walk and every equivalence run (about 5-10 s on one
# core for Seaquest and Kangaroo): with every tunable number in Constants, Kangaroo has ~437 and
# Seaquest ~364 of them, and a quick audit running all of them did not finish in 34 minutes.
# 48 keeps a quick audit of those two games within a few minutes of the audit before the move
# (Seaquest ran 20, Pong 121), and still runs all of a game that has 48 or fewer. The full audit
# (no --quick) runs all; the gate refuses a committed audit that ran fewer than this
# (alignment.gate.rederive.mutant_sample).
QUICK_BATCHED = 48
# Of the mutants that need a compile each (source mutants, Constants fields that cannot be traced):
# how many the full audit and the quick one draw (``--mutants``).
DEFAULT_SAMPLED = 24
QUICK_SAMPLED = 8


def _draw(mutants: Sequence[Mutant], size: Optional[int], seed: int) -> list[Mutant]:
    """``size`` of ``mutants`` drawn with ``random.Random(seed)`` over their fixed order, kept in
    that order (None or more than there are: all)."""
    mutants = list(mutants)
    if size is None or size >= len(mutants):
        return mutants
    picked = sorted(random.Random(seed).sample(range(len(mutants)), size))
    return [mutants[i] for i in picked]


def _partition(pop: Sequence[Mutant], traced: Sequence[str]) -> tuple[list[Mutant], list[Mutant]]:
    """(the batched mutants: Constants mutants of the traced fields, all under one compile; the
    rest: source mutants and Constants fields that cannot be traced, a compile each)."""
    traced = set(traced)
    batched = [m for m in pop if m.batched and m.field in traced]
    return batched, [m for m in pop if not (m.batched and m.field in traced)]


def expected_draw(pop: Sequence[Mutant], traced: Sequence[str], sample_info: dict
                  ) -> tuple[list[Mutant], list[Mutant], dict[str, int]]:
    """What :func:`mutation_test` draws from ``pop`` with the fields ``traced`` and the options
    an audit's ``mutation.sample`` records: (batched drawn, rest drawn, the two population
    sizes). The gate re-derives a committed audit's sample with it."""
    batched_all, rest = _partition(pop, traced)
    batched = sample_info.get("batched") if isinstance(sample_info.get("batched"), dict) else {}
    seed = sample_info.get("seed", 0)
    return (_draw(batched_all, batched.get("size"), seed), _draw(rest, sample_info.get("size"), seed),
            {"batched": len(batched_all), "rest": len(rest)})


@dataclasses.dataclass(frozen=True)
class Sample:
    """Which mutants run. ``size``: of the mutants that need a compile each (source mutants, and
    Constants fields that cannot be traced inputs), how many are drawn (None: all); ``batched``:
    of the Constants mutants that run under one compile (traced fields), how many are drawn (None:
    all). Each draw is ``random.Random(seed)`` over its population in the population's fixed
    order, so the same code and options draw the same mutants."""

    size: Optional[int]
    seed: int = 0
    batched: Optional[int] = None

    def draw(self, mutants: Sequence[Mutant]) -> list[Mutant]:
        return _draw(mutants, self.size, self.seed)

    def draw_batched(self, mutants: Sequence[Mutant]) -> list[Mutant]:
        return _draw(mutants, self.batched, self.seed)


def parse_option(text: str) -> Optional[Sample]:
    """``--mutants`` as given: ``none`` (no mutation testing), ``all``, or the number of source
    mutants to sample (the batched Constants mutants are ``--batched-mutants``)."""
    key = str(text).strip().lower()
    if key == "none":
        return None
    if key == "all":
        return Sample(None)
    try:
        n = int(key)
    except ValueError:
        n = -1
    if n < 0:
        raise MutationError(f"--mutants takes none, all or a whole number >= 0 (source mutants to "
                            f"sample), got {text!r}")
    return Sample(n)


def parse_batched(text: str) -> Optional[int]:
    """``--batched-mutants`` as given: ``all`` (None) or how many batched Constants mutants to
    draw, a whole number >= 1 (mutation testing off is ``--mutants none``)."""
    key = str(text).strip().lower()
    if key == "all":
        return None
    try:
        n = int(key)
    except ValueError:
        n = 0
    if n < 1:
        raise MutationError(f"--batched-mutants takes all or a whole number >= 1 (batched "
                            f"Constants mutants to draw; the quick audit draws {QUICK_BATCHED}, "
                            f"the full one all), got {text!r}")
    return n


def batched_drawn(sample_info: dict) -> tuple[Optional[int], Optional[int]]:
    """(drawn, population) of the batched Constants mutants an audit's ``mutation.sample``
    records; an audit from before the batched draw ran all of them (population = drawn); (None,
    None) when it records no count."""
    batched = sample_info.get("batched") if isinstance(sample_info, dict) else None
    if not isinstance(batched, dict):
        return None, None
    drawn = batched.get("count")
    if not isinstance(drawn, int) or isinstance(drawn, bool):
        return None, None
    pop = batched.get("population", drawn)
    return drawn, pop if isinstance(pop, int) and not isinstance(pop, bool) else None


# ---- results ------------------------------------------------------------------------------------


@dataclasses.dataclass
class MutantRow:
    id: str
    kind: str
    target: str
    at: str
    status: str  # killed | survived | equivalent
    killed_by: list[str]
    nearest_rule: Optional[str]
    nearest_rule_at: Optional[str] = None
    detail: str = ""

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def score(rows: Sequence[dict]) -> Optional[float]:
    """killed / (killed + survived): equivalent mutants excluded; None without any."""
    killed = sum(r["status"] == "killed" for r in rows)
    survived = sum(r["status"] == "survived" for r in rows)
    return round(killed / (killed + survived), 4) if killed + survived else None


def nearest_rule(at: str, tags) -> tuple[Optional[str], Optional[str]]:
    """The ``# rule:`` tag closest to ``at`` (file:line) in the same file; a tag above wins a tie."""
    file, _, line = at.rpartition(":")
    line = int(line or 0)
    best = None
    for t in tags:
        if t.kind != "rule" or display_path(t.file) != file:
            continue
        d = (abs(t.line - line), t.line > line)
        if best is None or d < best[0]:
            best = (d, t)
    return (best[1].value, best[1].at) if best else (None, None)


def summary(rows: Sequence[dict]) -> dict:
    counts = {s: sum(r["status"] == s for r in rows) for s in STATUSES}
    by_kind = {}
    for k in KINDS:
        mine = [r for r in rows if r["kind"] == k]
        if mine:
            by_kind[k] = {s: sum(r["status"] == s for r in mine) for s in STATUSES}
    return {"score": score(rows), **counts, "by_kind": by_kind}


# ---- running ------------------------------------------------------------------------------------

# Equivalence runs: whole-game lockstep runs against the unmutated JAX game (no ALE needed).
EQUIV_SEEDS = (0, 1, 2)
EQUIV_FRAMES = 2000  # from reset, per seed and policy
EQUIV_START_FRAMES = 400  # from every probe start (save point / poke), per policy
HOLD_FRAMES = (4, 60)  # the held policy holds each random action this many frames (uniform)


def probe_scripts(spec, game: str) -> tuple[list, list[str]]:
    """(scripts, notes): every seed of every reviewed frame-protocol probe, its save point's steps
    first; a script's name is the rule id. v5 probes are noted, not run (gymnasium's sticky
    actions are not a lockstep)."""
    from alignment.audit.mutant_runs import Script
    from alignment.audit.probes import probe_plan
    from alignment.spec.schema import ALE_ACTION_NAMES

    scripts, notes = [], []
    for rule in spec.rules:
        if rule.status != "reviewed" or rule.probe is None:
            continue
        if rule.probe.protocol == "v5":
            notes.append(f"{rule.id}: v5 probe not used (not a lockstep)")
            continue
        try:
            mode, prefix, steps = probe_plan(spec, game, rule.probe)
        except ValueError as exc:
            notes.append(f"{rule.id}: {exc}")
            continue
        out = []
        for s in list(prefix) + list(steps):
            if s.is_poke:
                out += [("poke", k, v) for k, v in s.poke.items()]
            elif s.frames:
                out.append(("act", ALE_ACTION_NAMES.index(s.action), int(s.frames)))
        for seed in rule.probe.seed_list:
            scripts.append(Script(rule.id, int(seed), mode, tuple(out)))
    return scripts, notes


def explore_scripts(spec, game: str, budget=None) -> list:
    """The audit's exploration (:mod:`alignment.audit.explore`) as scripts: every walk of every
    start but the deep ones (each start's steps, then the walk; the planner's too, planned here
    as the exploration plans it), and the deep recording's first ``budget.deep_frames`` frames as
    one script. Named ``explore:<start>/<policy>``."""
    from alignment import catalog
    from alignment.audit import explore
    from alignment.audit.mutant_runs import Script
    from alignment.spec.schema import ALE_ACTION_NAMES

    budget = budget or explore.QUICK
    entry = catalog.entry(game)

    def steps_of(holds) -> tuple:
        out = []
        for h in holds:
            if getattr(h, "is_poke", False):
                out += [("poke", k, v) for k, v in h.poke.items()]
            elif h.frames:
                out.append(("act", ALE_ACTION_NAMES.index(h.action), int(h.frames)))
        return tuple(out)

    out = []
    plan = [st for st in explore.starts(spec, budget=budget) if st.kind != "deep"]
    for n, st in enumerate(plan, 1):
        prefix = steps_of(st.steps)
        for policy in budget.policies_from(st):
            for k in range(budget.seeds if policy not in ("scripted", explore.EDGES) else 1):
                walk = explore.walk(policy, entry, budget.walk_frames,
                                    seed=explore.SEED + 1000 * k + n,
                                    edge_frames=budget.edge_frames)
                out.append(Script(f"explore:{st.name}/{policy}", explore.SEED, st.mode,
                                  prefix + steps_of(walk)))
        if budget.planner_frames and st.kind in budget.planner_starts:
            holds, _ = explore.planned_walk(game, plan, st, budget.planner_frames,
                                            seed=explore.SEED + n)
            out.append(Script(f"explore:{st.name}/{explore.PLANNER}", explore.SEED, st.mode,
                              prefix + steps_of(holds)))
    deep = deep_steps(game, budget.deep_frames) if budget.deep_frames else None
    if deep:
        out.append(Script("explore:deep play", explore.SEED, None, deep))
    return out


def rollout_scripts(game: str) -> list:
    """The audit's matched rollouts (:func:`alignment.audit.events.rollout_actions`: whole games
    from reset, frameskip 4, sticky off, up to ALE's game over) as scripts, named
    ``events:<policy> rollout <n>``: the longest play from reset the audit has, so a mutant only a
    game's end shows is killed."""
    import numpy as np

    from alignment import catalog
    from alignment.audit import events
    from alignment.audit.mutant_runs import Script
    from alignment.spec.schema import ALE_ACTION_NAMES

    entry = catalog.entry(game)
    ids = [ALE_ACTION_NAMES.index(a) for a in entry.minimal_actions]
    plan = events.rollout_actions(entry, seed=events.ROLLOUT_SEED)
    # cut at ALE's game over (the audit's events recorded these rollouts already: no replay)
    ale = events.ale_rollouts(entry.name, plan)
    out = []
    for (policy, i, frames), trace in zip(plan, ale):
        runs: list = []
        for a in np.asarray(frames)[:len(trace["terminated"])].tolist():
            if runs and runs[-1][1] == ids[a]:
                runs[-1][2] += 1
            else:
                runs.append(["act", ids[a], 1])
        out.append(Script(f"events:{policy} rollout {i}", events.ROLLOUT_SEED, None,
                          tuple(tuple(r) for r in runs)))
    return out


DEEP_FRAMES = 30_000  # the deep recording's frames played as one whole-game equivalence run


def deep_steps(game: str, frames: int = DEEP_FRAMES) -> Optional[tuple]:
    """The game's deep-play recording (tests/data/deep), its first ``frames`` frames, as steps."""
    from alignment.audit import explore
    from alignment.spec.schema import ALE_ACTION_NAMES

    deep, _ = explore.load_deep(game)
    if deep is None:
        return None
    return tuple(("act", ALE_ACTION_NAMES.index(h.action), int(h.frames))
                 for h in explore._holds(list(deep[:frames])))


def _random_steps(rng, actions: Sequence[int], frames: int, held: bool) -> tuple:
    steps, left = [], frames
    while left > 0:
        n = min(left, int(rng.integers(*HOLD_FRAMES)) if held else 1)
        steps.append(("act", int(rng.choice(actions)), n))
        left -= n
    return tuple(steps)


@dataclasses.dataclass(frozen=True)
class Equivalence:
    """How long and from where the equivalence runs play (see :func:`equivalence_scripts`)."""

    seeds: tuple = EQUIV_SEEDS
    frames: int = EQUIV_FRAMES
    start_frames: int = EQUIV_START_FRAMES

    def describe(self, starts: int, deep: int = 0) -> str:
        from alignment.audit.mutant_runs import SCREEN_EVERY

        return (f"no difference from the unmutated JAX game on any signal, the reward or a screen "
                f"(the first {SCREEN_EVERY} frames, then every {SCREEN_EVERY}th, and the last) over: "
                f"random and held-random play "
                f"(holds of {HOLD_FRAMES[0]}-{HOLD_FRAMES[1] - 1} frames) from reset, seeds "
                f"{list(self.seeds)}, {self.frames} frames each; and both policies for "
                f"{self.start_frames} frames from each of {starts} probe starts"
                + (f"; and the deep-play recording, {deep} frames" if deep else ""))


def equivalence_scripts(game_cls, kill_scripts: Sequence, how: Equivalence = Equivalence(),
                        deep: Optional[tuple] = None) -> list:
    """Random and held-random play (the game's minimal action set) from reset on ``how.seeds`` for
    ``how.frames`` frames, from every distinct probe start for ``how.start_frames``, and ``deep``
    (a deep-play recording's steps: whole games) when given."""
    import numpy as np

    from alignment.audit.mutant_runs import Script

    actions = list(game_cls.minimal_actions)
    out = []
    for seed in how.seeds:
        for held in (False, True):
            rng = np.random.default_rng([seed, held])
            out.append(Script(f"reset/{'held' if held else 'random'}/seed {seed}", seed, None,
                              _random_steps(rng, actions, how.frames, held)))
    seen = set()
    for s in kill_scripts:
        key = (s.seed, s.mode, s.steps)
        if key in seen or not s.steps or not how.start_frames:
            continue
        seen.add(key)
        for held in (False, True):
            rng = np.random.default_rng([s.seed, held, len(seen)])
            out.append(Script(f"{s.name} start/{'held' if held else 'random'}/seed {s.seed}", s.seed,
                              s.mode, s.steps + _random_steps(rng, actions, how.start_frames, held)))
    if deep:
        out.append(Script("deep play", 0, None, deep))
    return out


@dataclasses.dataclass
class MutationResult:
    rows: list[MutantRow]
    sample: dict
    stillborn: list[dict]
    scripts: dict
    seconds: float

    def to_json(self) -> dict:
        rows = [r.to_json() for r in self.rows]
        return {"score": score(rows), "summary": summary(rows), "mutants": rows,
                "sample": self.sample, "stillborn": self.stillborn, "scripts": self.scripts,
                "seconds": round(self.seconds, 1)}


def run_mutation(game: str, spec, game_cls, files: Sequence[Path], sample: Sample, *,
                 tags=None, explore: bool = True, how: Equivalence = Equivalence(),
                 progress: Optional[Callable[[str], None]] = None) -> MutationResult:
    """Mutation testing of a catalog game's audit: the spec's probes, then (for what they leave
    alive) the exploration's walks (:func:`explore_scripts`), in lockstep with ALE, kill the
    mutants (:func:`mutation_test`)."""
    from alignment import catalog
    from alignment.audit import mutant_runs as runs
    from alignment.audit import trace as tracing

    entry = catalog.entry(game)
    kill, notes = probe_scripts(spec, game)
    tags = tags if tags is not None else tracing.read_tags(files)
    reviewed = {r.id for r in spec.rules if r.status == "reviewed"}
    walks = (explore_scripts(spec, game) + rollout_scripts(game)) if explore else []
    return mutation_test(game, game_cls, files, sample, kill, explore=walks, deep=deep_steps(game),
                         reference=lambda s: runs.run_ale(game, s), signals=entry.signals,
                         pokes=entry.pokes, tags=tags, reviewed=reviewed, notes=notes, how=how,
                         progress=progress)


def _named_rules(files: Sequence[Path], tags) -> dict[str, str]:
    """Module-level names of the game's files whose assignment line carries a rule tag."""
    out = {}
    for path in files:
        shown = display_path(Path(path))
        at = {t.line: t.value for t in tags if t.kind == "rule" and display_path(t.file) == shown}
        for node in ast.parse(Path(path).read_text("utf-8")).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.lineno in at:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            out.setdefault(n.id, at[node.lineno])
    return out


def _row_for(m: Mutant, status, killed_by, detail, tags, field_tags, named) -> MutantRow:
    """The row, with the nearest rule: the Constants field's own tag; else the tag of a field or
    module constant the changed statement reads; else the closest tag in the same file."""
    read = [field_tags[n][0] for n in m.reads if field_tags.get(n)]
    read += [named[n] for n in m.reads if n in named]
    if m.field and field_tags.get(m.field):
        near, near_at = field_tags[m.field][0], m.at
    elif read:
        near, near_at = read[0], m.at
    else:
        near, near_at = nearest_rule(m.at, tags)
    return MutantRow(m.id, m.kind, m.target, m.at, status, killed_by, near, near_at, detail)


def mutation_test(game: str, game_cls, files: Sequence[Path], sample: Sample, kill: Sequence, *,
                  reference: Callable, signals, pokes=None, tags=(), reviewed=(), notes=(),
                  explore: Sequence = (), deep: Optional[tuple] = None,
                  how: Equivalence = Equivalence(), only: Optional[Sequence[Mutant]] = None,
                  progress: Optional[Callable[[str], None]] = None) -> MutationResult:
    """Run the mutants of ``game_cls`` (``only``, or the population drawn by ``sample``).

    ``kill``: scripts the audit runs in lockstep with the reference (``reference(script) ->
    Trace``: ALE). A mutant is *killed* by every script where it leaves the reference on a frame
    and signal (or reward, or sampled screen) where the unmutated game agrees with it; one that
    none of ``kill`` (the probes) kills plays the ``explore`` scripts until the first that kills
    it (the cost bound: exploration is long). A mutant no script kills is *equivalent* when it equals the unmutated game on every signal, reward and
    sampled screen of every equivalence run (:func:`equivalence_scripts`), else *survived*. A
    mutant whose game does not build or run is *stillborn*: listed, not scored."""
    import time

    from alignment.audit import mutant_runs as runs
    from alignment.audit import trace as tracing

    say = progress or (lambda label: None)
    t0 = time.monotonic()
    opts = {"signals": signals, "pokes": pokes}
    field_tags = {i.name: i.rules for i in tracing.structure(game_cls, list(tags), set(reviewed))
                  if i.kind == "constant"}
    named = _named_rules(files, tags)

    say("mutants: which Constants fields can be traced inputs")
    traced = runs.traceable_fields(game, game_cls, **opts)
    pop = list(only) if only is not None else population(game_cls, files)
    batched_all, rest = _partition(pop, traced)
    batched_ok = batched_all if only is not None else sample.draw_batched(batched_all)
    drawn_rest = rest if only is not None else sample.draw(rest)
    chosen = batched_ok + drawn_rest

    n_probe = len(kill)
    kill = list(kill) + list(explore)
    say(f"mutants: {len(kill)} scripts on the reference")
    ref = [reference(s) for s in kill]
    runners: dict = {}

    def shared(mode):
        if mode not in runners:
            runners[mode] = runs.JaxRunner(game, game_cls, mode, traced, **opts)
        return runners[mode]

    original = [shared(s.mode).run(s) for s in kill]
    unusable = {}
    for i, s in enumerate(kill):
        why = runs.usable(signals, ref[i], original[i])
        if why:
            unusable[f"{s.name} (seed {s.seed})"] = why
    live = [i for i in range(len(kill)) if f"{kill[i].name} (seed {kill[i].seed})" not in unusable]
    tiers = ([i for i in live if i < n_probe], [i for i in live if i >= n_probe])

    # the traced runner must be the game itself: its unmutated runs equal a plain compile's
    plain: dict = {}
    for i in live:
        mode = kill[i].mode
        if mode not in plain:
            plain[mode] = runs.JaxRunner(game, game_cls, mode, **opts)
        if runs.first_difference(signals, plain[mode].run(kill[i]), original[i]):
            raise MutationError(f"{game}: the game with traced Constants differs from the game "
                                f"itself on {kill[i].name}; the batched runner cannot be trusted")

    equiv = equivalence_scripts(game_cls, [kill[i] for i in tiers[0]], how, deep)
    say(f"mutants: {len(equiv)} equivalence runs of the unmutated game")
    equiv_original = [shared(s.mode).run(s) for s in equiv]

    rows, stillborn = [], []
    for n, m in enumerate(batched_ok, 1):
        say(f"mutant {n}/{len(chosen)}: {m.id}")

        def play(s, m=m):
            return shared(s.mode).run(s, {m.field: m.value})
        status, killed_by, detail = _classify(signals, play, kill, tiers, ref, original, equiv,
                                              equiv_original)
        rows.append(_row_for(m, status, killed_by, detail, tags, field_tags, named))
    for n, m in enumerate(drawn_rest, len(batched_ok) + 1):
        say(f"mutant {n}/{len(chosen)}: {m.id}")
        cls = game_cls
        try:
            cls = load_mutant_class(game_cls, files, m) if m.file else game_cls
            consts = {m.field: m.value} if m.field else None
            own: dict = {}

            def play(s, cls=cls, consts=consts, own=own):
                if s.mode not in own:
                    own[s.mode] = runs.JaxRunner(game, cls, s.mode, (), consts, **opts)
                return own[s.mode].run(s)
            status, killed_by, detail = _classify(signals, play, kill, tiers, ref, original, equiv,
                                                  equiv_original)
        except Exception as exc:  # a mutant that does not build or run: not a valid mutant
            stillborn.append({"id": m.id, "at": m.at,
                              "error": f"{type(exc).__name__}: {str(exc)[:200]}"})
            continue
        finally:
            release(cls)
        rows.append(_row_for(m, status, killed_by, detail, tags, field_tags, named))

    starts = len({(kill[i].seed, kill[i].mode, kill[i].steps) for i in tiers[0] if kill[i].steps})
    sample_info = {
        "seed": sample.seed, "size": sample.size,
        "population": len(pop), "population_by_kind": {k: sum(m.kind == k for m in pop) for k in KINDS},
        "batched": {"population": len(batched_all), "size": sample.batched,
                    "count": len(batched_ok), "traced_fields": len(traced),
                    "traced": list(traced),
                    "note": "every Constants mutant of a traced field runs under one compile"},
        "sampled_from": len(rest), "sampled": len(drawn_rest),
        "how": ("of the batched Constants mutants (fields that are traced inputs), `batched.size` "
                "drawn by random.Random(seed).sample over their fixed order (all when null); of "
                "the rest (source mutants and Constants fields that cannot be traced inputs), "
                "`size` drawn the same way (all when null)"
                if only is None else "the mutants asked for, all of them"),
        "equivalence": how.describe(starts, sum(s[2] for s in deep or () if s[0] == "act")),
        "explore": ("the exploration's walks (QUICK budget: every start but the deep ones, each "
                    "start's steps then a walk, the planner's from reset too; the deep recording's "
                    "first frames as one run; the matched rollouts, whole games from reset) "
                    "run for mutants no probe kills, until the first that kills"
                    if tiers[1] else "not run"),
    }
    scripts_info = {"kill": len(kill), "used": len(live), "probes": len(tiers[0]),
                    "explore": len(tiers[1]), "frames": sum(kill[i].frames for i in live),
                    "unusable": unusable,
                    "notes": list(notes), "equivalence_runs": len(equiv),
                    "equivalence_frames": sum(s.frames for s in equiv)}
    return MutationResult(rows, sample_info, stillborn, scripts_info, time.monotonic() - t0)


def _classify(signals, play, kill, tiers, ref, original, equiv, equiv_original):
    """(status, killed_by, detail) of one mutant; ``play(script) -> Trace`` runs it. Every probe
    (``tiers[0]``) runs; the exploration scripts (``tiers[1]``) only until the first kill."""
    from alignment.audit import mutant_runs as runs

    killed_by, detail = [], ""
    for tier in tiers:
        for i in tier:
            where = runs.first_kill(signals, ref[i], original[i], play(kill[i]))
            if where:
                if kill[i].name not in killed_by:
                    killed_by.append(kill[i].name)
                detail = detail or f"{kill[i].name} (seed {kill[i].seed}): {where}"
                if tier is tiers[1]:
                    break
        if killed_by:
            return "killed", killed_by, detail
    for s, base in zip(equiv, equiv_original):
        where = runs.first_difference(signals, base, play(s))
        if where:
            return "survived", [], f"differs from the unmutated game in {s.name}: {where}"
    return "equivalent", [], ""
