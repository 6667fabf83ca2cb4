"""The toy game (tests/toy_game.py) as an audit subject with a spec whose numbers are known.

"ALE" here is the unmodified toy game: the reference the audited toy (built with two deliberate
deviations) is measured against, exactly as a JAX game is measured against the emulator.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import jax
import numpy as np

from alignment.audit import probes
from alignment.audit.core import Subject
from alignment.audit.events import compare_events, event_kinds
from alignment.audit.faults import Fault
from alignment.audit.source import hash_files
from alignment.docs.document import Document
from alignment.spec.schema import ALE_ACTION_NAMES, GameSpec, Source, span_ref
from jaxtari import mods as mods_lib
from jaxtari.mods import InternalMod, PostStepMod
from tests.toy_game import ToyGame

MANUAL = Document(
    id="manual/toy", kind="manual", game="toy", url="https://example.invalid/toy", retrieved="2026-12-03",
    text="TOY - MANUAL\n\nEach button pays its number in points. You lose a life at frame 40. "
         "The game ends at frame 100. The marker glides across the screen. Toys bounce.\n",
    origin="tests/audit/toy.py",
)
SIGNALS = ("score", "lives", "terminated", "frame", "marker_x")


def _span(quote: str) -> dict:
    start = MANUAL.text.index(quote)
    return span_ref(MANUAL, start, start + len(quote)).model_dump()


def _probe(steps, expectations) -> dict:
    return {"steps": [{"action": a, "frames": n} for a, n in steps],
            "expectations": [dict(zip(("signal", "op", "value"), e)) for e in expectations]}


def _rule(rid, quote, probe=None, status="reviewed", **extra) -> dict:
    return {"id": rid, "category": rid.split(".")[0], "statement": quote, "source": _span(quote),
            "status": status, "probe": probe, **extra}


SPEC = GameSpec.model_validate({
    "game": "toy", "sources": [Source.of(MANUAL).model_dump()],
    "rules": [
        # holds on the reference and on the audited toy: pass
        _rule("scoring.action-payout", "Each button pays its number in points.",
              _probe([("FIRE", 10)], [("score", "==", 10)])),
        # holds on the reference; the audited toy loses its life one frame late: fail
        _rule("lives.loss-at-40", "You lose a life at frame 40.",
              _probe([("NOOP", 40)], [("lives", "decreases_by", 1)])),
        _rule("termination.at-100", "The game ends at frame 100.",
              _probe([("NOOP", 100)], [("terminated", "==", True)])),
        # a wrong probe: it fails on the reference itself
        _rule("timing.marker-glides", "The marker glides across the screen.",
              _probe([("NOOP", 10)], [("frame", "==", 11)])),
        # cannot be probed, and says why
        _rule("rendering.marker", "The marker glides across the screen.",
              unprobed="the marker's colour is no signal"),
        # a coverage gap: no probe, no reason
        _rule("physics.bounce", "Toys bounce."),
        _rule("physics.rejected-one", "Toys bounce.", status="rejected"),
    ],
})

# The audited toy's two deviations: its life is lost a frame late, and frame 60 pays 50 more.
LATE_LIFE = InternalMod("late_life", "life lost at frame 41", constants={"life_loss_frame": 41})
BONUS = PostStepMod("bonus_at_60", "50 more points on frame 60",
                    lambda g, prev, s, r: (s.replace(total=s.total + 50.0 * (s.frame == 60)),
                                           r + 50.0 * (s.frame == 60)))
AUDITED = (LATE_LIFE, BONUS)

FAULTS = [
    Fault(InternalMod("free_payout", "buttons pay nothing",
                      mechanics={"payout": lambda self, a: 0.0 * a}), "scoring.action-payout"),
    Fault(InternalMod("endless", "the game never ends", constants={"game_over_frame": 1000}),
          "termination.at-100"),
    # breaks a rule no probe checks: the audit cannot see it (a missed fault)
    Fault(InternalMod("five_lives", "five lives", constants={"start_lives": 5}), "physics.bounce"),
]


@dataclasses.dataclass
class _Result:
    passed: bool
    failures: list


def _game(mods):
    consts, mechanics = mods_lib.apply_internal(ToyGame, list(mods))
    post = [m for m in mods if isinstance(m, PostStepMod)]
    return ToyGame(consts, full_action_space=True, mechanic_overrides=mechanics, post_step_mods=post)


# Compiles were ~97% of a toy audit's time (69 of them, ~30 s under load), and the same few mod
# sets come back in every probe, fault and audit: the toy is built and compiled once per set of
# mod objects. The entry keeps the mods alive, so an id in a key is never another mod's.
_BUILT: dict = {}


def _built(mods, seed):
    """The toy built with ``mods``, its compiled step and its state after reset from ``seed``."""
    key = tuple(id(m) for m in mods)
    if key not in _BUILT:
        game = _game(mods)
        _BUILT[key] = (tuple(mods), game, jax.jit(game.step), {})
    _, game, step, starts = _BUILT[key]
    if seed not in starts:
        starts[seed] = game.reset(jax.random.key(seed))[1]
    return game, step, starts[seed]


def _signals(game, state) -> dict:
    return {"score": int(game.score(state)), "lives": int(game.lives(state)),
            "terminated": bool(game.is_terminal(state)), "frame": int(state.frame),
            "marker_x": int(game.signals(state)["marker_x"])}


def play(mods, frame_actions) -> dict:
    """Per-frame signal traces of the toy built with ``mods``."""
    game, step, state = _built(tuple(mods), 0)
    rows = []
    for a in frame_actions:
        state = step(state, int(a))[1]
        rows.append(_signals(game, state))
    return {k: np.asarray([r[k] for r in rows]) for k in SIGNALS}


def run_probe(probe, backend, mods):
    game_mods = () if backend == "ale" else AUDITED + tuple(mods)
    game, step, state = _built(game_mods, probe.seed)
    start = _signals(game, state)
    for s in probe.steps:
        for _ in range(s.frames):
            state = step(state, ALE_ACTION_NAMES.index(s.action))[1]
    end = _signals(game, state)
    failures = [e.describe() for e in probe.expectations
                if not probes.holds(e.op, start[e.signal], end[e.signal], e.value)]
    return _Result(not failures, failures)


def events() -> dict:
    actions = [1] * 120  # FIRE every frame, past the end of the game
    return compare_events(Counter(event_kinds(play((), actions))),
                          Counter(event_kinds(play(AUDITED, actions))))


def subject(faults=FAULTS) -> Subject:
    from pathlib import Path

    src = Path(__file__).resolve().parent.parent / "toy_game.py"
    return Subject(game="toy", spec=SPEC, game_cls=ToyGame, source_files=[src], run_probe=run_probe,
                   signals=SIGNALS, code_hash=hash_files([src]), versions={"toy": "1"},
                   events=events, faults=faults, spec_path="(built in tests/audit/toy.py)")


def rebuildable_subject() -> Subject:
    """The toy subject, which a pool's worker process can build again (its seeded faults run in a
    pool: alignment.audit.fault_pool)."""
    return dataclasses.replace(subject(), rebuild=rebuildable_subject)


def _broken_rebuild() -> Subject:
    raise RuntimeError("this subject cannot be built in another process")


def subject_that_breaks_a_pool() -> Subject:
    """The toy subject whose rebuild fails in a worker: the pool breaks before any fault ran."""
    return dataclasses.replace(subject(), rebuild=_broken_rebuild)
