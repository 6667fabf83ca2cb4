"""The lockstep backends against the real emulator: the two kinds agree on every signal over a scripted
run, clone/restore continue exactly, run() is repeated act(), and bad input is a clear error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from alignment import catalog
from alignment.audit import session
from alignment.backends import (
    ACT_CHUNK, BACKENDS, REWARD, BackendError, JaxBackend, make_backend,
)
from tests.conftest import mappings


def scripted(game: str, frames: int) -> np.ndarray:
    """The catalog script of a game (agent steps held 4 frames), as frame action indices."""
    e = catalog.entry(game)
    steps = [e.minimal_actions.index(name) for name, n in e.script for _ in range(n)]
    per_frame = np.repeat(np.asarray(steps, np.int32), 4)
    return np.resize(per_frame, frames)


def assert_traces_agree(entry, a: dict, b: dict):
    for name, sig in entry.signals.items():
        assert a[name].shape == b[name].shape, name
        bad = [t for t in range(len(a[name])) if not sig.within(a[name][t], b[name][t])]
        assert not bad, f"{name}: first disagreement at frame {bad[0] + 1}: {a[name][bad[0]]} vs " \
                        f"{b[name][bad[0]]}"
    np.testing.assert_array_equal(a[REWARD], b[REWARD])


# frames of the scripted run (600 unless listed; Breakout's script loses the last ball at frame 497,
# after which neither side's frame counter moves)
SCRIPTED_FRAMES = {"frostbite": 900, "breakout": 480}


@pytest.mark.parametrize("game", catalog.games())
def test_both_kinds_agree_on_every_signal_over_a_scripted_run(game):
    frames = SCRIPTED_FRAMES.get(game, 600)
    ale, jax_side = make_backend("ale", game), make_backend("jax", game)
    assert ale.action_names == jax_side.action_names == catalog.entry(game).minimal_actions
    actions = scripted(game, frames)
    a, j = ale.run(actions), jax_side.run(actions)
    assert set(a) == set(j) == set(catalog.entry(game).signals) | {REWARD}
    assert len(a["frame"]) == frames and a["frame"][-1] == frames
    assert_traces_agree(catalog.entry(game), a, j)
    assert ale.frame == jax_side.frame == frames
    sa, sj = ale.signals(), jax_side.signals()
    assert set(sa) == set(sj)
    for name, sig in catalog.entry(game).signals.items():
        assert sig.within(sa[name], sj[name]), name
        assert type(sa[name]) is type(sj[name]), name  # plain python scalars / numpy arrays alike


def test_frostbite_script_scores_on_both_kinds():
    # the agreement test above would pass on two frozen games; this run must change the game
    for kind in BACKENDS:
        b = make_backend(kind, "frostbite")
        trace = b.run(scripted("frostbite", 900))
        assert trace["score"][-1] > 0 and trace[REWARD].sum() == trace["score"][-1], kind
        assert len(set(trace["player_y"].tolist())) > 1, kind


@pytest.mark.parametrize("kind", BACKENDS)
def test_run_is_repeated_act(kind):
    actions = scripted("frostbite", 300)
    by_run = make_backend(kind, "frostbite")
    trace = by_run.run(actions)
    by_act = make_backend(kind, "frostbite")
    for t, a in enumerate(actions):
        r = by_act.act(int(a))
        assert r == trace[REWARD][t]
        if t in (0, 99, 299):
            s = by_act.signals()
            for name in s:
                np.testing.assert_array_equal(s[name], trace[name][t], err_msg=f"{name} @ {t}")
    assert by_act.frame == by_run.frame == 300
    # act with many frames (more than one compiled chunk) sums the rewards of the same frames
    held = make_backend(kind, "frostbite")
    total = held.act("DOWN", 2 * ACT_CHUNK + 5)
    again = make_backend(kind, "frostbite")
    per_frame = again.run(np.full(2 * ACT_CHUNK + 5, again.action_index("DOWN")))
    assert total == per_frame[REWARD].sum() and held.signals()["score"] == again.signals()["score"]
    assert held.frame == 2 * ACT_CHUNK + 5


@pytest.mark.parametrize("kind", BACKENDS)
def test_clone_restore_round_trip(kind):
    b = make_backend(kind, "frostbite")
    b.act("DOWN", 10)
    b.act("NOOP", 100)
    snap, before = b.clone(), b.signals()
    later = scripted("frostbite", 400)[::-1].copy()
    first = b.run(later)
    assert b.frame == 510
    b.restore(snap)
    assert b.frame == 110
    for name, value in b.signals().items():
        np.testing.assert_array_equal(value, before[name], err_msg=name)
    second = b.run(later)
    for name in first:
        np.testing.assert_array_equal(first[name], second[name], err_msg=name)
    other = make_backend("jax" if kind == "ale" else "ale", "frostbite")
    with pytest.raises(BackendError, match="clone"):
        b.restore(other.clone())


def test_reset_starts_over_and_both_kinds_stop_at_game_over():
    # Freeway ends after 8192 frames (2 min 16.5 s); after that nothing advances on either side
    for kind in BACKENDS:
        b = make_backend(kind, "freeway")
        b.act("UP", 50)
        b.reset(seed=3)
        assert b.frame == 0 and b.signals()["score"] == 0
        trace = b.run(np.full(8300, b.action_index("UP")))
        over = int(np.argmax(trace["terminated"]))
        assert over == 8191 and trace["frame"][over] == 8192, kind
        assert (trace["frame"][over:] == 8192).all() and (trace[REWARD][over + 1:] == 0).all()
        assert b.terminated and b.frame == 8192 and b.act("UP", 5) == 0.0 and b.frame == 8192


def test_ale_reset_is_the_state_of_a_freshly_loaded_emulator():
    # ALE's own reset_game after a reset and some play starts Frostbite one frame-counter tick
    # and a different random byte away from a fresh load (measured); reset() must not.
    fresh = make_backend("ale", "frostbite", full_action_space=True)
    fresh.act("NOOP")
    used = make_backend("ale", "frostbite", full_action_space=True)
    used.act("NOOP")
    used.reset(seed=0)
    used.reset(seed=0)
    used.act("NOOP")
    np.testing.assert_array_equal(used.ram(), fresh.ram())


def test_jax_functions_are_compiled_once_per_game_mods_and_mode():
    a, b = make_backend("jax", "pong"), make_backend("jax", "pong")
    assert a._fns is b._fns
    full = make_backend("jax", "pong", full_action_space=True)
    assert full._fns is not a._fns and len(full.action_names) == 18
    modded = make_backend("jax", "frostbite", mods=["no_enemies"])
    assert modded._fns is make_backend("jax", "frostbite", mods=["no-enemies"])._fns
    assert modded._fns is not make_backend("jax", "frostbite")._fns


def test_release_compiled_frees_the_programs_and_the_games_run_on():
    # In an interpreter of its own: release_compiled() forgets every compiled program of the
    # process, which in the whole default run cost ~1 min here (freeing thousands of programs)
    # and every later test its compiles again
    proc = subprocess.run([sys.executable, "-c", "from tests.test_backends import "
                           "_release_compiled_frees_the_programs; _release_compiled_frees_the_programs()"],
                          cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]


def _release_compiled_frees_the_programs():
    # each compiled program holds memory mappings until released (Linux caps them per process:
    # the audit releases each faulty game's programs)
    actions = scripted("pong", 600)
    b = make_backend("jax", "pong", mods=["no_enemy_points"])
    first = b.run(actions)
    b.rgb()
    loaded = mappings()
    session.current().release_compiled()
    assert not session.current().compiled
    assert loaded - mappings() >= 50  # pong's frame and picture: ~60 mappings each
    b.reset(0)
    again = b.run(actions)  # compiled afresh
    assert_traces_agree(b.entry, first, again)
    assert make_backend("jax", "pong", mods=["no_enemy_points"])._fns is not b._fns


def test_a_mod_with_an_ale_counterpart_plays_the_same_on_both_kinds():
    # Freeway's stop_cars on ALE: every car byte held at the parked value (RAM writes, as data)
    actions = scripted("freeway", 3000)
    ale, jx = (make_backend(k, "freeway", mods=["stop_cars"]) for k in BACKENDS)
    a, j = ale.run(actions), jx.run(actions)
    assert_traces_agree(catalog.entry("freeway"), a, j)
    assert (a["car_x"] == a["car_x"][0]).all() and a["score"][-1] >= 10
    plain = make_backend("ale", "freeway").run(actions)  # the writes are what parks the cars
    assert not (plain["car_x"] == plain["car_x"][0]).all()
    ale.reset()
    assert ale.signals()["car_x"].tolist() == j["car_x"][0].tolist()
    snap = ale.clone()
    ale.act("UP", 100)
    ale.restore(snap)
    assert ale.run(actions[:100])["chicken_y"].tolist() == a["chicken_y"][:100].tolist()


def test_frostbite_mode_2_starts_on_level_5_on_both_kinds():
    for kind in BACKENDS:
        assert make_backend(kind, "frostbite", mode=2).signals()["level"] == 5, kind


def test_rgb_frames():
    for kind in BACKENDS:
        b = make_backend(kind, "pong")
        b.act("NOOP", 70)
        frame = b.rgb()
        assert frame.shape == (210, 160, 3) and frame.dtype == np.uint8 and frame.max() > 0
    # at the first serve both kinds draw the same picture
    ale, jx = make_backend("ale", "pong"), make_backend("jax", "pong")
    ale.act("NOOP", 70)
    jx.act("NOOP", 70)
    np.testing.assert_array_equal(ale.rgb(), jx.rgb())


def test_bad_input_is_a_clear_error():
    with pytest.raises(BackendError, match="unknown backend 'gym'"):
        make_backend("gym", "pong")
    with pytest.raises(catalog.UnknownCatalogGame, match="tetris"):
        make_backend("ale", "tetris")
    with pytest.raises(BackendError, match="no_enemies.*JAX-only.*mods with one: ale_endless_game_over, keep_warm"):
        make_backend("ale", "frostbite", mods=["no_enemies"])
    with pytest.raises(BackendError, match="invincible.*JAX-only.*mods with one: stop_cars"):
        make_backend("ale", "freeway", mods=["stop_cars", "invincible"])
    with pytest.raises(BackendError, match="no game modes"):
        make_backend("jax", "pong", mode=1)
    with pytest.raises(BackendError, match="mode 7 not available"):
        make_backend("ale", "pong", mode=7)
    with pytest.raises(BackendError, match="unknown mod"):
        make_backend("jax", "pong", mods=["zero_gravity"])
    for kind in BACKENDS:
        b = make_backend(kind, "pong")
        with pytest.raises(BackendError, match="unknown action 'JUMP'.*NOOP, FIRE"):
            b.act("JUMP")
        with pytest.raises(BackendError, match="out of range 0..5"):
            b.run([0, 6])
        with pytest.raises(BackendError, match="frames must be >= 0"):
            b.act(0, -1)
        assert b.run([])["score"].shape == (0,)


def test_a_catalog_game_without_a_jax_game(monkeypatch):
    import dataclasses

    ghost = dataclasses.replace(catalog.entry("pong"), name="ghostpong", jax_game=None)
    monkeypatch.setitem(catalog.CATALOG, "ghostpong", ghost)
    with pytest.raises(BackendError, match="ghostpong has no JAX game"):
        JaxBackend("ghostpong")
