"""Find probe save points on the real emulator: a search whose output is data.

A save point (``save_points:`` in ``specs/<game>.yaml``) is a named list of ``{action, frames}`` steps
from reset that reaches a situation a probe starts from (the igloo complete, Bailey at the door, a
serve the computer misses, ...). Finding such a list by hand is slow; here a beam search over ALE's
``cloneState``/``restoreState`` finds it: from the start, every beam node is extended by each macro
(an action held a few frames), children that lost a life are dropped, the best ``beam`` children by
the target's objective are kept (one per distinct situation), until a child meets the goal. The steps
of that child, run-length merged, plus the signal values it reaches, are the save point.

The search is deterministic (ALE with sticky actions off, a fixed macro order, stable sorting), so
running it again writes the same steps; the tests re-run a short one and replay every stored save
point on both backends. The targets below are the code of the search; the spec only ever holds its
output, and nothing in a spec is executed.

    python -m alignment.audit.savepoints frostbite igloo-complete            # print the YAML
    python -m alignment.audit.savepoints frostbite igloo-complete --write    # store it in the spec
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from alignment import catalog
from alignment.spec.schema import ALE_ACTION_NAMES, Expectation, GameSpec, ProbeStep, SavePoint

Macro = tuple[tuple[str, int], ...]
Signals = dict


class SearchError(RuntimeError):
    """The search ran out of depth (or every branch lost a life) before reaching the goal."""


@dataclasses.dataclass(frozen=True)
class Target:
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


# ---- Frostbite ---------------------------------------------------------------------------------

_FB_MOVES: tuple[Macro, ...] = (
    (("NOOP", 8),), (("LEFT", 8),), (("RIGHT", 8),), (("UP", 4), ("NOOP", 4)),
    (("DOWN", 4), ("NOOP", 4)),
)
_FB_SHORE = 255
_FB_DOOR = 123  # x of the igloo door (x 120..127 on the shore starts the igloo jump)


_FB_SHORE_Y, _FB_ROW_GAP = 56, 26  # player_y on the shore; rows are 26 px apart below it


def _fb_position(s: Signals) -> float:
    """Bailey's height counted in rows from the shore (0) down to the bottom row (4), fractional
    in the air, so that a jump towards a row already counts as progress."""
    return (int(s["player_y"]) - _FB_SHORE_Y) / _FB_ROW_GAP


def _fb_blocks(s: Signals) -> float:
    # more blocks first; then closeness (in rows) to the nearest white row below or above
    white = [4 - i for i in range(4) if s["floe_white"][i]]
    near = min((abs(_fb_position(s) - w) for w in white), default=0)
    return 100.0 * s["igloo_blocks"] - near + 0.001 * s["temperature"]


def _fb_door(s: Signals) -> float:
    return -40.0 * _fb_position(s) - abs(int(s["player_x"]) - _FB_DOOR)


def _fb_situation(s: Signals) -> tuple:
    return (s["igloo_blocks"], s["row"], int(s["player_x"]) // 4, int(s["player_y"]) // 4,
            tuple(bool(w) for w in s["floe_white"]), s["level"])


def _fb_standing(s: Signals) -> bool:
    # standing still on a floe row: the y of that row (ram y + 29; see the catalog)
    rows = {3: 82, 2: 108, 1: 134, 0: 160}
    return s["row"] in rows and s["player_y"] == rows[s["row"]]


FROSTBITE: dict[str, Target] = {
    "four-rows": Target(
        note="Level 1: Bailey has landed on each of the four floe rows once (4 blocks, 40 points) "
             "and all rows have turned white again.",
        goal=lambda s, _: s["igloo_blocks"] == 4 and bool(np.all(s["floe_white"])),
        objective=_fb_blocks, reaches=("score", "igloo_blocks", "lives", "level"),
        macros=_FB_MOVES, prefix=(("NOOP", 120),), situation=_fb_situation,
    ),
    "igloo-complete": Target(
        note="Level 1: the igloo is complete (16 blocks, door open) and Bailey stands on a floe.",
        goal=lambda s, _: s["igloo_blocks"] == 16 and _fb_standing(s),
        objective=_fb_blocks, reaches=("igloo_blocks", "lives", "level", "row"),
        macros=_FB_MOVES, prefix=(("NOOP", 120),), situation=_fb_situation, beam=30,
    ),
    "at-door": Target(
        note="Level 1, igloo complete: Bailey stands on the shore in front of the igloo door.",
        goal=lambda s, _: s["row"] == _FB_SHORE and 120 <= s["player_x"] <= 127
        and s["player_y"] == 56,
        objective=_fb_door, reaches=("igloo_blocks", "lives", "level", "row"),
        macros=_FB_MOVES, start="igloo-complete", situation=_fb_situation,
    ),
}

# ---- Pong ---------------------------------------------------------------------------------------

_PONG_MOVES: tuple[Macro, ...] = ((("NOOP", 2),), (("RIGHT", 2),), (("LEFT", 2),))
_PONG_AIM = 8  # the paddle's centre this far above the ball: the CPU misses such a return (measured)


def _pong_aim(s: Signals) -> float:
    # track the ball with the paddle's centre (top + 8) _PONG_AIM px above it; points dominate
    off = abs(int(s["player_y"]) + 8 - _PONG_AIM - int(s["ball_y"]))
    return 1000.0 * (s["player_score"] - s["enemy_score"]) - off


PONG: dict[str, Target] = {
    "winning-return": Target(
        note="The first serve comes towards the agent's paddle, which stands where the ball will "
             "meet its upper half: left alone, it returns the ball past the computer's paddle.",
        goal=lambda s, after: 110 <= s["ball_x"] <= 134 and after[1]["ball_x"] > s["ball_x"]
        and after[-1]["player_score"] == 1 and after[-1]["enemy_score"] == 0,
        objective=_pong_aim, reaches=("player_score", "enemy_score", "ball_x"),
        macros=_PONG_MOVES, lookahead=(("NOOP", 150),), beam=4,
        keep=lambda start, now: now["enemy_score"] == start["enemy_score"],
        situation=lambda s: (s["player_y"], s["ball_x"], s["ball_y"]),
    ),
}


# ---- Freeway ------------------------------------------------------------------------------------

FREEWAY: dict[str, Target] = {
    "car-ahead": Target(
        note="The chicken walks up from the kerb; a car in the next lane is about to hit it.",
        goal=lambda s, after: after[-1]["chicken_y"] > s["chicken_y"]
        and after[-1]["player_score"] == s["player_score"],
        objective=lambda s: -float(s["chicken_y"]), reaches=("chicken_y", "player_score"),
        macros=((("UP", 4),),), lookahead=(("UP", 16),), beam=1,
        situation=lambda s: (s["chicken_y"],),
    ),
}

FROSTBITE.update({
    "fish-ahead": Target(
        note="Level 2: Bailey stands on a floe row where a fish swims towards him; left alone he "
             "catches it.",
        goal=lambda s, after: _fb_standing(s) and after[-1]["score"] - s["score"] == 200
        and after[-1]["igloo_blocks"] == s["igloo_blocks"] and after[-1]["lives"] == s["lives"],
        objective=_fb_blocks, reaches=("score", "igloo_blocks", "lives", "level", "row"),
        macros=_FB_MOVES, start="level-2", lookahead=(("NOOP", 60),), situation=_fb_situation,
        beam=20,
    ),
    "shore-far-left": Target(
        note="Level 5 (mode 2): Bailey has jumped up from a floe onto the shore left of where "
             "walking can take him, out of the bear's reach.",
        goal=lambda s, after: s["row"] == _FB_SHORE and s["player_y"] == _FB_SHORE_Y + 0
        and s["player_x"] < 16 and after[-1]["lives"] == s["lives"],
        objective=lambda s: -float(s["player_x"]) - 0.5 * abs(_fb_position(s) - 1),
        reaches=("lives", "level", "row"), macros=_FB_MOVES, mode=2, prefix=(("NOOP", 60),),
        lookahead=(("NOOP", 300),), situation=_fb_situation,
    ),
})

TARGETS: dict[str, dict[str, Target]] = {"frostbite": FROSTBITE, "pong": PONG, "freeway": FREEWAY}


# ---- the search --------------------------------------------------------------------------------


@dataclasses.dataclass
class _Node:
    snapshot: object
    steps: list[tuple[str, int]]
    signals: Signals
    value: float


def _play(ale, steps: Sequence[tuple[str, int]]) -> None:
    for action, frames in steps:
        a = ALE_ACTION_NAMES.index(action)
        for _ in range(frames):
            ale.act(a)


def _replay(ale, steps: Sequence[ProbeStep]) -> None:
    """A save point's stored steps: actions, and pokes of the game's registry (RAM writes)."""
    pokes = ale.entry.pokes
    for s in steps:
        if s.is_poke:
            for name, value in s.poke.items():
                if name not in pokes:
                    raise SearchError(f"{ale.entry.name}: unknown poke {name!r}; quantities: "
                                      f"{', '.join(sorted(pokes)) or 'none'}")
                problem = pokes[name].when_problem(ale.frame)
                if problem:
                    raise SearchError(f"{ale.entry.name}: {problem}")
                ale.poke(pokes[name], pokes[name].check(value))
        else:
            _play(ale, [(s.action, s.frames)])


def _merge(steps: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for a, n in steps:
        if out and out[-1][0] == a:
            out[-1] = (a, out[-1][1] + n)
        else:
            out.append((a, n))
    return out


def _reached(ale, target: Target, origin: Signals, now: Signals) -> bool:
    """Whether ``now`` (the emulator's state) meets the goal, after the target's settle steps; the
    lookahead is played to judge it and undone."""
    if target.settle:
        _play(ale, target.settle)
        now = ale.signals()
        if not target.keep(origin, now):
            return False
    here = ale.clone()
    after = []
    for action, frames in target.lookahead:
        for _ in range(frames):
            ale.act(ALE_ACTION_NAMES.index(action))
            after.append(ale.signals())
    ale.restore(here)
    return bool(target.goal(now, after))


def search(game: str, target: Target, start_steps: Sequence[ProbeStep] = (),
           progress: Optional[Callable[[int, float], None]] = None) -> list[tuple[str, int]]:
    """The steps (after ``start_steps``) that reach ``target``'s goal on ALE, run-length merged."""
    from alignment.reference import AleGame

    ale = AleGame(game, mode=target.mode, full_action_space=True)
    _replay(ale, start_steps)
    _play(ale, target.prefix)
    origin = ale.signals()
    beam = [_Node(ale.clone(), list(target.prefix), origin, target.objective(origin))]
    for depth in range(target.max_depth):
        children: list[_Node] = []
        for node in beam:
            for macro in target.macros:
                ale.restore(node.snapshot)
                _play(ale, macro)
                s = ale.signals()
                if s["terminated"] or not target.keep(origin, s):
                    continue
                steps = node.steps + list(macro)
                snapshot = ale.clone()
                if _reached(ale, target, origin, s):
                    return _merge(steps + list(target.settle))
                children.append(_Node(snapshot, steps, s, target.objective(s)))
        if not children:
            raise SearchError(f"{game}: every branch lost a life at depth {depth}")
        children.sort(key=lambda n: -n.value)  # stable: ties keep macro order
        beam, seen = [], set()
        for child in children:
            key = target.situation(child.signals)
            if key not in seen:
                seen.add(key)
                beam.append(child)
            if len(beam) == target.beam:
                break
        if progress is not None:
            progress(depth, beam[0].value)
    raise SearchError(f"{game}: goal not reached in {target.max_depth} macros "
                      f"(best objective {beam[0].value:.1f})")


def find(spec: GameSpec, name: str, progress=None) -> SavePoint:
    """Search for the save point ``name`` of ``spec.game`` and describe it as data."""
    from alignment.reference import AleGame

    game = catalog.canonical(spec.game)
    targets = TARGETS.get(game, {})
    if name not in targets:
        raise SearchError(f"{game}: no search target {name!r}; targets: "
                          f"{', '.join(sorted(targets)) or 'none'}")
    target = targets[name]
    _, before = spec.save_point_steps(target.start) if target.start != "reset" else (None, [])
    steps = search(game, target, before, progress)
    ale = AleGame(game, mode=target.mode, full_action_space=True)
    _replay(ale, before)
    _play(ale, steps)
    end = ale.signals()
    reaches = [Expectation(signal=k, op="==", value=_plain(end[k])) for k in target.reaches]
    return SavePoint(
        start=target.start, mode=target.mode,
        steps=[ProbeStep(action=a, frames=n) for a, n in steps], reaches=reaches,
        note=f"{target.note} Found on ALE by `python -m alignment.audit.savepoints {game} {name}` "
             f"(beam search over clone/restore, {sum(n for _, n in steps)} frames).",
    )


def _plain(v):
    a = np.asarray(v)
    return a.item() if a.ndim == 0 else a.tolist()


def main(argv: Optional[Sequence[str]] = None) -> int:
    from alignment.spec.store import SpecFileError, load_spec, write_spec, yaml_text

    p = argparse.ArgumentParser(prog="python -m alignment.audit.savepoints",
                                description="Find a probe save point on ALE (beam search).")
    p.add_argument("game")
    p.add_argument("name", help="the save point to find (a search target of the game)")
    p.add_argument("--specs", type=Path, default=Path("specs"))
    p.add_argument("--write", action="store_true", help="store it in specs/<game>.yaml")
    args = p.parse_args(argv)
    try:
        game = catalog.canonical(args.game)
        path = args.specs / f"{game}.yaml"
        spec = load_spec(path)
        point = find(spec, args.name)
    except (SearchError, SpecFileError, catalog.UnknownCatalogGame) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.write:
        data = spec.model_dump(mode="json", exclude_none=True)
        data["save_points"][args.name] = point.model_dump(mode="json", exclude_none=True)
        write_spec(GameSpec.model_validate(data), path)
        print(f"wrote save point {args.name!r} ({point.frames} frames) to {path}")
    else:
        print(yaml_text({args.name: point.model_dump(mode="json", exclude_none=True)}), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
