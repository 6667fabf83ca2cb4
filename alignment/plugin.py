"""The parts of a game's plug-in that are code, as types: what a ground-truth package
(``alignment/reference/games/<game>/``) hands the general stages through its
:class:`~alignment.signals.GameEntry`.

- :class:`SavePointTarget` - what the save-point search (:mod:`alignment.audit.savepoints`) looks
  for: a goal over signals, an objective that leads there, the macros it tries;
- :class:`ScriptedPolicy` - the playtest's scripted player (:mod:`alignment.playtest.scripted`):
  ``policy(signals, tick) -> held controls``, and the name its sessions record;
- :data:`DeepPlayer` - a player of :mod:`alignment.deepplay`: ``player(lookahead, rng, **options)``
  plays the emulator far into the game through a :class:`Lookahead` (ALE's clone/restore);
- :data:`ObservationFields` - ``rams (N, 128) -> {state field: (N, ...) values}``: the JAX state
  fields the game's observation reads, decoded from RAM (:mod:`alignment.reference.features`);
- :class:`PlannerGoal` - what a strong player reaches in the game (a floor climbed, a coconut
  punched on it), judged on the emulator's side of every exploration walk and reported as reached
  or not (:mod:`alignment.audit.explore`); :data:`PlannerObjective` - the end-of-plan value that
  pulls the audit's planner (:mod:`alignment.audit.planner`) towards them;
- :class:`DeepStart` - a deep situation written into both backends (the game's pokes: a later level,
  reserves, a thinned wall) and played into, that the audit's exploration starts walks from.

Nothing here imports a stage, so a ground-truth package can use these types without cycles.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Optional, Protocol

import numpy as np

Macro = tuple[tuple[str, int], ...]  # (ALE action name, frames) steps
Signals = dict  # a backend's signals by name
ObservationFields = Callable[[np.ndarray], Mapping[str, np.ndarray]]
Policy = Callable[[dict, int], set]  # (signals, tick) -> the controls to hold


@dataclasses.dataclass(frozen=True)
class SavePointTarget:
    """What to search for: a goal over signals, an objective that leads there, and the macros."""

    note: str
    # (signals now, signals after each frame of `lookahead` from here)
    goal: Callable[[Signals, list[Signals]], bool]
    objective: Callable[[Signals], float]
    reaches: tuple[str, ...]  # signals whose values at the goal are stored as the save point's check
    macros: tuple[Macro, ...]
    start: str = "reset"
    mode: Optional[int] = None
    prefix: Macro = ()  # fixed steps before the search (e.g. waiting out the opening)
    settle: Macro = ()  # fixed steps after the goal (e.g. letting a jump land)
    lookahead: Macro = ()  # steps played (then undone) to judge the goal: what follows from here
    beam: int = 12
    max_depth: int = 400
    keep: Callable[[Signals, Signals], bool] = lambda start, now: now["lives"] >= start["lives"]
    situation: Callable[[Signals], tuple] = lambda s: (s["score"],)


@dataclasses.dataclass(frozen=True)
class ScriptedPolicy:
    """A playtest player: ``make()`` gives a fresh policy (one may keep state between frames);
    ``name`` is what a session's header records (a changed policy gets a new version)."""

    name: str
    make: Callable[[], Policy]


class Lookahead(Protocol):
    """The ALE handle a deep player drives (:class:`alignment.deepplay.Lookahead`)."""

    names: list[str]  # the game's minimal action names, in ALE's order
    taken: list[int]  # the actions played so far, one per frame
    raw: Any  # the ale_py.ALEInterface (game_over(), ...)

    def idx(self, name: str) -> int: ...
    def sim(self, plan) -> tuple[int, np.ndarray, bool]: ...
    def play(self, i: int, n: int = 1) -> int: ...
    @property
    def ram(self) -> np.ndarray: ...


DeepPlayer = Callable[..., None]  # (lookahead, rng, **options): plays until its game is done
# {signal: (candidates,) values at the end of each candidate plan} -> (candidates,) floats, higher
# better: ranked after the game's end, lives and levels and before the reward
PlannerObjective = Callable[[Mapping[str, np.ndarray]], np.ndarray]


@dataclasses.dataclass(frozen=True)
class PlannerGoal:
    """A situation a strong player reaches, judged on a walk's emulator recording.

    ``reached(start, traces)``: ``start`` the signals before the walk's first frame, ``traces``
    {signal (and "reward"): (T, ...) values after each frame}; True when the walk reached it."""

    name: str
    note: str
    reached: Callable[[Signals, Mapping[str, np.ndarray]], bool]



def with_start(start: Signals, traces: Mapping[str, np.ndarray], name: str) -> np.ndarray:
    """A goal's view of one signal: its value before the walk's first frame, then after each frame
    ((T + 1, ...) values; ``traces[name]`` is (T, ...))."""
    return np.concatenate([np.asarray(start[name])[None], np.asarray(traces[name])])


Step = Any  # ("ACTION", frames): an action held; {poke name: value}: written between frames


@dataclasses.dataclass(frozen=True)
class DeepStart:
    """A situation deep in the game that play from reset reaches late or rarely, made on both
    backends with the game's registered pokes (:class:`~alignment.signals.Poke`) and played into.

    ``steps``: played from reset, in order: ``("ACTION", frames)`` holds and ``{poke: value}``
    writes (each poke inside its ``first_frame``/``last_frame``). The exploration compares the
    steps themselves in lockstep and walks (and plans, in the quick audit too) from their end."""

    name: str
    note: str
    steps: tuple[Step, ...]
