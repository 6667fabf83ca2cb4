"""The Asteroids port's pokes (alignment/reference/games/asteroids/ram.py ``pokes``): each written on ALE
(its RAM bytes) and on the JAX game (its state fields) at the same frame gives the same game from
there on: every mirrored RAM byte, every catalog signal of the reference and the score on every
frame, the 210x160 screen on every fourth frame and the last (ale-py, sticky actions off)."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from alignment.porting import ramtrace
from jaxtari.games.asteroids import Asteroids
from jaxtari.games.asteroids import constants as c
from jaxtari.games.asteroids import draw
from jaxtari.games.asteroids import game as g
from alignment.reference.games.asteroids import ram as k

ROM = "asteroids"
SPIN = [("LEFTFIRE", 2), ("LEFT", 2)]
POKES = {p.name: p for p in k.pokes()}
SIGNALS = k.signals()


def _frames(script, n):
    plan = [ramtrace.ACTION_NAMES.index(a) for a, m in script for _ in range(m)]
    return [plan[i % len(plan)] for i in range(n)]


# Compiled once for every lockstep: eager, the catalog signals' slot gathers were ~80% of each
# frame's time (about 40 ms a frame)
_SIGNALS = jax.jit(Asteroids().signals)


def lockstep(plan):
    """Play ``plan`` (("poke", name, value) or (script, frames)) on ALE and on the JAX game; the
    differences found (frame, what), the last JAX state, the ALE handle and ALE's lives() after
    each frame."""
    import ale_py

    ale = ramtrace.open_rom(ROM, seed=0)
    state = g.reset()
    render = jax.jit(draw.render_rgb)
    bad, frames, lives = [], 0, []
    for item in plan:
        if item[0] == "poke":
            poke = POKES[item[1]]
            value = poke.check(item[2])
            assert poke.when_problem(frames) is None
            for address, byte in poke.ram(value).items():
                ale.setRAM(address, byte)
            state = poke.jax(state, value)
            continue
        script, n = item
        for a in _frames(script, n):
            ale.act(ale_py.Action(a))
            state = g.step(state, a)
            frames += 1
            lives.append(ale.lives())
            ram = ale.getRAM()
            ours = {name: int(v) for name, v in g.signals(state).items()}
            diff = {name: (ours[name], v) for name, v in k.all_bytes(ram).items() if ours[name] != v}
            signals = _SIGNALS(state)
            for s in SIGNALS:
                if not np.array_equal(np.asarray(s.ale(ram)), np.asarray(signals[s.name])):
                    diff[s.name] = (np.asarray(signals[s.name]), s.ale(ram))
            if int(g.score(state)) != k.score(ram):
                diff["score"] = (int(g.score(state)), k.score(ram))
            if frames % 4 == 0 and (np.asarray(render(state)) != ale.getScreenRGB()).any():
                diff["screen"] = True
            if diff:
                bad.append((frames, diff))
            if ale.game_over():
                break
    if (np.asarray(render(state)) != ale.getScreenRGB()).any():
        bad.append((frames, "the last screen"))
    return bad[:3], state, ale, lives


def test_a_poked_score_plays_on_as_ale_and_pays_the_bonus_life():
    bad, state, _, lives = lockstep([(SPIN, 100), ("poke", "score", 4990), (SPIN, 1400)])
    assert not bad, bad
    assert int(g.score(state)) >= 5000 and (np.diff(lives) > 0).any()


def test_poked_lives_at_reset_play_on_as_ale():
    bad, _, _, lives = lockstep([("poke", "lives", 7), (SPIN, 1500)])
    assert not bad, bad
    assert lives[0] == 7


def test_a_poked_wave_starts_the_next_wave_as_ale():
    """The field cleared after 300 frames: the next frame lays out a new wave (2 large a list);
    with 15,000 points poked first, one of 4 a list."""
    bad, _, ale, _ = lockstep([(SPIN, 301), ("poke", "wave", 1), (SPIN, 1)])
    assert not bad, bad
    assert [a["y"] for a in k.asteroids(ale.getRAM())] == [1, 63, 1, 63]
    bad, _, _, _ = lockstep([(SPIN, 301), ("poke", "wave", 1), (SPIN, 400)])
    assert not bad, bad
    bad, _, ale, _ = lockstep([(SPIN, 300), ("poke", "score", 15000), ("poke", "wave", 1), (SPIN, 1)])
    assert not bad, bad
    assert [a["y"] for a in k.asteroids(ale.getRAM())] == [1, 21, 42, 63] * 2
    bad, _, _, _ = lockstep([(SPIN, 300), ("poke", "score", 15000), ("poke", "wave", 1), (SPIN, 400)])
    assert not bad, bad


def test_pokes_refuse_what_they_cannot_write():
    with pytest.raises(ValueError):
        POKES["score"].check(c.POINTS["large"] * 10_000)
    assert POKES["lives"].when_problem(1) is not None
    assert k.score_bytes(4990) == {k.SCORE[0]: 0x04, k.SCORE[1]: 0x99}


def test_the_entry_reads_the_same_signals_on_both_sides():
    """The plug-in's ENTRY (reference/__init__.py): its signals read off ALE's RAM and off the JAX
    game agree after 600 frames of the spinning gunner (hits, points), with the core frame, score
    and lives, and the ENTRY names the game's minimal actions, pokes and mods."""
    import ale_py

    from jaxtari.games.asteroids import mods as asteroid_mods
    from alignment.reference.games.asteroids import ENTRY

    game = Asteroids()
    _, state = game.reset(jax.random.key(0))
    step = jax.jit(game.step)
    ale = ramtrace.open_rom(ROM, seed=0)
    for a in _frames(SPIN, 600):
        index = game.action_ids.index(a)
        _, state, _, _, _ = step(state, index)
        ale.act(ale_py.Action(a))
    ours, theirs = ENTRY.jax_signals(game, state), ENTRY.ale_signals(ale.getRAM())
    assert theirs and all(np.array_equal(np.asarray(ours[n]), np.asarray(v)) for n, v in theirs.items())
    assert int(ours["score"]) == k.score(ale.getRAM()) > 0 and int(ours["frame"]) == 600
    assert len(ENTRY.minimal_actions) == game.num_actions
    assert set(ENTRY.pokes) == {"score", "lives", "wave"}
    assert set(ENTRY.ale_mods) | set(ENTRY.jax_only_mods) == {m.name for m in asteroid_mods.MODS}
