"""A game's known end (GameEntry.known_ends): where the JAX game knowingly ends its episode and ALE
runs on, the comparison stops on that frame - and only there.

Frostbite declares one: the JAX game ends the episode when the last Bailey freezes; the cartridge
runs on into its demo and ALE never ends it (the measurement in its package's README.md). Its deep play
recording frostbite-s0 stops on the frame the last Bailey freezes (frame 7,488): played on with
NOOP, the two games part there.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from alignment import catalog
from alignment.audit import events, explore, lockstep
from alignment.backends import make_backend
from alignment.signals import KnownEnd, Signal, make_entry

FROZEN_AT = 7488  # trace index (frame 7,489 since reset) where the last Bailey of frostbite-s0 freezes


def _rec(n, **traces):
    tr = {"terminated": np.zeros(n), "lives": np.ones(n), "reward": np.zeros(n),
          "mark": np.zeros(n), "score": np.zeros(n)}
    tr.update({k: np.asarray(v, np.float64) for k, v in traces.items()})
    return lockstep.Recording(0, tr, [], [], {}, {})


SIG = {k: Signal(k, None, None, 0, "", "") for k in ("score", "lives", "terminated", "mark")}
END = KnownEnd("test end", marker="mark", differs=("lives", "terminated"), removed_by=None, why="")


def test_a_known_end_stops_the_comparison_on_its_frame_and_excuses_only_what_it_declares():
    ale = _rec(6, mark=[0, 0, 0, 1, 1, 1], lives=[1] * 6, score=[0, 0, 0, 0, 5, 9])
    jax = _rec(6, mark=[0, 0, 0, 1, 1, 1], lives=[1, 1, 1, 0, 0, 0],
               terminated=[0, 0, 0, 1, 1, 1], score=[0] * 6)
    # without the declaration: a divergence on the end's frame
    d = lockstep.first_divergence(SIG, ale, jax, "w")
    assert (d.frame, d.signal, d.others) == (4, "lives", ["terminated"])
    # with it: nothing compared after that frame (ALE's score runs on), lives/terminated not on it
    assert lockstep.first_divergence(SIG, ale, jax, "w", (END,)) is None
    assert lockstep.known_end((END,), ale, jax) == (END, 3)
    # a signal the end does not declare still counts on that frame
    jax_score = _rec(6, mark=[0, 0, 0, 1, 1, 1], lives=[1, 1, 1, 0, 0, 0],
                     terminated=[0, 0, 0, 1, 1, 1], score=[0, 0, 0, 7, 7, 7])
    d = lockstep.first_divergence(SIG, ale, jax_score, "w", (END,))
    assert (d.frame, d.signal) == (4, "score")


def test_a_jax_game_that_ends_early_is_not_excused():
    # the JAX game raises the marker and ends a frame before ALE's marker: the marker diverges
    ale = _rec(5, mark=[0, 0, 0, 1, 1])
    jax = _rec(5, mark=[0, 0, 1, 1, 1], lives=[1, 1, 0, 0, 0], terminated=[0, 0, 1, 1, 1])
    d = lockstep.first_divergence(SIG, ale, jax, "w", (END,))
    assert (d.frame, d.signal) == (3, "lives") and "mark" in d.others
    # ends without the marker at all: not the known end
    jax = _rec(5, lives=[1, 1, 0, 0, 0], terminated=[0, 0, 1, 1, 1])
    assert lockstep.known_end((END,), _rec(5), jax) is None
    assert lockstep.first_divergence(SIG, _rec(5), jax, "w", (END,)).frame == 3
    # both ended there: an ordinary end, compared as always
    both = _rec(5, mark=[0, 0, 1, 1, 1], terminated=[0, 0, 1, 1, 1])
    assert lockstep.known_end((END,), both, jax) is None


def test_a_known_end_must_name_catalog_signals():
    with pytest.raises(ValueError, match="marker must be a catalog signal"):
        make_entry("x", "ALE/X-v5", manual_url="", minimal_actions=("NOOP",), signals=[],
                   jax_game=None, known_ends=(KnownEnd("e", "nowhere", ("lives",), None, ""),))


def test_frostbite_declares_its_end_at_the_last_freeze():
    e = catalog.entry("frostbite")
    (end,) = e.known_ends
    assert end.marker == "game_over" and end.removed_by == "ale_endless_game_over"
    from jaxtari.mod_registry import registered_mods

    assert end.removed_by in registered_mods("frostbite")


def test_frostbite_parts_from_ale_only_where_its_known_end_says():
    """The emulator, and the JAX game, on the whole deep game and 40 frames after the freeze."""
    deep, _ = explore.load_deep("frostbite")
    assert len(deep) == FROZEN_AT
    steps = explore._holds(list(deep) + ["NOOP"] * 40)
    e = catalog.entry("frostbite")
    recs = {}
    for kind in ("ale", "jax"):
        b = make_backend(kind, "frostbite", full_action_space=True)
        b.reset(explore.SEED)
        recs[kind] = lockstep.play(b, steps, lockstep.Screens(every=997))
    ale, jax = recs["ale"], recs["jax"]
    # the cartridge's game-over marker rises on the same frame on both; ALE runs on, lives 1
    for r in (ale, jax):
        assert np.nonzero(r.traces["game_over"])[0][0] == FROZEN_AT
    assert not ale.traces["terminated"][FROZEN_AT] and jax.traces["terminated"][FROZEN_AT]
    assert (ale.traces["lives"][FROZEN_AT], jax.traces["lives"][FROZEN_AT]) == (1, 0)
    d = lockstep.first_divergence(e.signals, ale, jax, "deep")
    assert (d.frame, d.signal) == (FROZEN_AT + 1, "lives")
    assert lockstep.first_divergence(e.signals, ale, jax, "deep", e.known_ends) is None
    # the matched rollouts' comparison (each side cut at its own end) says the same
    cut = lambda r: {k: np.asarray(v)[:np.nonzero(r.traces["terminated"])[0][0] + 1]
                     if np.any(r.traces["terminated"]) else np.asarray(v) for k, v in r.traces.items()}
    assert events.rollout_divergence(e.signals, cut(ale), cut(jax), "deep").signal == "lives"
    assert events.rollout_divergence(e.signals, cut(ale), cut(jax), "deep", e.known_ends) is None


def test_an_exploration_lists_every_declared_end_even_when_no_walk_reached_it():
    reached = explore.WalkResult("reset", "random-holds", 100, None, [], known_end="frozen")
    plain = explore.WalkResult("reset", "human-holds", 100, None, [])
    ex = explore.Exploration(explore.QUICK, [], [reached, plain], 1.0, [],
                             declared_ends=("frozen", "never met"))
    assert ex.to_json()["known_ends"] == {"frozen": 1, "never met": 0}
    # the audit page says both: the walks one stopped, and that the other excused nothing
    from alignment.audit.report import render_markdown
    report = json.loads((Path(__file__).parents[2] / "audits" / "frostbite.json").read_text())
    report["exploration"]["known_ends"] = ex.to_json()["known_ends"]
    page = render_markdown(report)
    assert "1 walks reached the game's known end *frozen*" in page
    assert "No walk reached the game's known end *never met*" in page
