"""Kangaroo's JAX game (jaxtari/games/kangaroo) against the real emulator, frame by frame: every RAM
byte the state mirrors (jaxtari/games/kangaroo/game.FIELD_RAM: the monkeys, their apples, the mother,
the big ape's coconut, the timer, score, lives, fruit, bell, layout, the waits and the music index
they hang on: 57 bytes), the score and the reward, lives and the end, from reset with the same
actions (sticky actions off), the game-over frame (the attract mode's first) included.

Measured (ale-py 0.12.1): every frame agrees over the NOOP game, random play, the stored deep game
(tests/data/deep/kangaroo-s0.json: 7,689 frames to the second floor, monkeys and apples
punched), a scripted climb of layout 0 with the monkeys and the coconut held off on both sides by
the same RAM writes (two fruit, the bell and the fruit growing back, the baby reached, the
round-won tune and bonus, layout 1), and (slow) whole random games seeds 0-9 (1,414-2,459 frames
each) and with the no_monkey writes on both sides.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from pathlib import Path

from alignment import deepplay
from alignment.porting import ramtrace as rt
from alignment.signals import RamWrite
from jaxtari.games.kangaroo import Kangaroo
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.game import FIELD_RAM, KangarooConstants, ram_of_state, state_from_ram
from jaxtari.games.kangaroo.mods import MODS
from alignment.reference.games.kangaroo import ram as gt

GAME = Kangaroo()
STORED = Path(__file__).resolve().parents[1] / "data" / "deep" / "kangaroo-s0.json"
LENGTH = 8000  # runs are padded to this many frames: one compile per RAM-write set in the fast tests
NO_MONKEY = gt.ALE_MODS["no_monkey"].writes
HELD_OFF = (*NO_MONKEY, *gt.ALE_MODS["no_coconut"].writes)
LEVEL = gt.POKES[0]  # the layout, written right after reset
MIRRORED = sorted(ram_of_state(GAME._reset(jax.random.key(0))))

# layout 0 climbed with monkeys and coconut held off (positions measured on ALE): right to the
# first ladder, up, left (a fruit on the way), up the second ladder, a jump for the second fruit,
# a jump under the bell, up the third ladder to the baby, the round-won tune, layout 1, a punch
CLIMB = [("NOOP", 160), ("RIGHT", 340), ("UP", 160), ("LEFT", 360), ("RIGHT", 15), ("UP", 160),
         ("RIGHT", 100), ("UPRIGHT", 60), ("RIGHT", 84), ("UP", 50), ("RIGHT", 120), ("UP", 160),
         ("NOOP", 400), ("RIGHT", 200), ("FIRE", 10), ("LEFT", 300)]


def modded(*mods, mode: int = 0) -> Kangaroo:
    """The game with mods (jaxtari/games/kangaroo/mods.py) by name, in ALE game ``mode``."""
    by_name = {m.name: m for m in MODS}
    consts = {"mode": mode}
    for name in mods:
        consts.update(by_name[name].constants)
    return Kangaroo(KangarooConstants(**consts))


def _scan(game):
    def body(s, a):
        s, r = game._step(s, a)
        return s, (s, r)

    return jax.jit(lambda s, a: jax.lax.scan(body, s, a))


_SCANS = {}


def _mirrored(states) -> np.ndarray:
    """(T, len(MIRRORED)) the RAM bytes of a scanned run of states, in MIRRORED's order."""
    cols = {}
    for name, i in FIELD_RAM.items():
        v = np.asarray(getattr(states, name))
        if v.ndim == 2:
            cols.update({i + j: v[:, j] for j in range(v.shape[1])})
        else:
            cols[i] = v
    return np.stack([cols[i] for i in MIRRORED], 1)


def assert_lockstep(trace, length=LENGTH, *, mods=(), start=None, mode=0):
    """Every mirrored byte, the reward, lives and the end against an ALE trace played with the
    same actions (and, for ``mods``, with their ALE counterparts' RAM writes; in ALE game
    ``mode``); ``start``: a RAM snapshot to start from instead of reset."""
    key = (tuple(mods), mode)
    if key not in _SCANS:
        _SCANS[key] = (modded(*mods, mode=mode), _scan(modded(*mods, mode=mode)))
    game, scan = _SCANS[key]
    state = game._reset(jax.random.key(0)) if start is None else state_from_ram(start)
    assert ram_of_state(state) == {i: int(trace.rams[0][i]) for i in MIRRORED}
    padded = np.zeros(max(length, trace.frames), np.int32)
    padded[:trace.frames] = trace.actions
    _, (states, rewards) = scan(state, jnp.asarray(padded))
    ours = _mirrored(states)[:trace.frames]
    ale = trace.rams[1:, MIRRORED]
    bad = np.nonzero((ours != ale).any(1))[0]
    if len(bad):
        t = int(bad[0])
        diff = {MIRRORED[c]: (int(ours[t, c]), int(ale[t, c])) for c in np.nonzero(ours[t] != ale[t])[0]}
        pytest.fail(f"frame {t + 1} ({trace.action_names[trace.actions[t]]}): ram index: "
                    f"(jax, ale) {diff}")
    np.testing.assert_array_equal(np.asarray(rewards)[:trace.frames], trace.rewards)
    last = jax.tree_util.tree_map(lambda x: x[trace.frames - 1], states)
    assert int(GAME.lives(last)) == trace.lives[-1]
    assert bool(GAME.is_terminal(last)) == bool(trace.game_over[-1])
    return states


def test_the_noop_game_matches_ale_to_the_game_over():
    trace = rt.record("kangaroo", [("NOOP", 3000)])
    assert trace.game_over[-1]
    assert_lockstep(trace)


def test_a_climb_of_layout_0_to_the_baby_matches_ale_on_every_frame():
    trace = rt.record("kangaroo", CLIMB, writes=HELD_OFF)
    rams = trace.rams
    # what the climb covers, on ALE: two fruit eaten, the bell rung, the baby reached (row 0),
    # the round won (255 frames of tune), layout 1 with the time bonus paid, a punch
    assert (rams[:, gt.FRUIT[0]] & gt.FRUIT_GONE).any() and (rams[:, gt.FRUIT[2]] & gt.FRUIT_GONE).any()
    assert (rams[:, gt.BELL] & k.BELL_RUNG).any()
    assert (rams[:, gt.MOTHER_ROW] == 0).any() and (rams[:, gt.MOTHER_STATE] == k.ROUND_WON).any()
    assert rams[-1, gt.LEVEL] == 1 and gt.score(rams[-1]) == 1_600  # 200 for fruit, 1,400 time bonus
    assert (rams[:, gt.MOTHER_POSE] == k.PUNCH_POSE | k.FACING_RIGHT).any()
    assert_lockstep(trace, mods=("no_monkey", "no_coconut"))


@pytest.mark.parametrize("seed", [1, 2])
def test_mode_1_whole_random_games_match_ale_on_every_frame(seed):
    """ALE's mode 1 (the reset at the second difficulty step: ram[38], ram[55], the game number
    ram[58]): every mirrored byte, the reward, lives and the end, to the game over."""
    trace = rt.record("kangaroo", frames=4000, seed=seed, hold=(1, 8), mode=1)
    assert trace.game_over[-1] and (trace.rams[0, [k.RAM_DIFFICULTY, k.RAM_MONKEY_PACE]] == 1).all()
    assert_lockstep(trace, mode=1)


def test_a_mode_outside_ales_is_refused():
    with pytest.raises(ValueError, match=r"ALE modes \(0, 1\); got mode=2"):
        Kangaroo(KangarooConstants(mode=2))._reset(jax.random.key(0))


def test_random_play_matches_ale_on_every_frame():
    trace = rt.record("kangaroo", frames=3000, seed=0, hold=(1, 8))
    assert trace.game_over[-1]
    assert_lockstep(trace)


def test_the_stored_deep_game_matches_ale_on_every_frame():
    """7,689 frames to the second floor: monkeys punched (200), apples punched (100: the glove's
    collision on the picture), fruit, deaths to apples and coconuts, the game over."""
    doc, actions = deepplay.load_actions(STORED)
    names = deepplay.Lookahead.of_rom("kangaroo").names
    trace = rt.record("kangaroo", [(names[a], 1) for a in actions])
    assert (trace.rewards == 100).sum() == 5 and (trace.rewards == 200).any()
    assert_lockstep(trace)


def test_state_from_ram_continues_a_game_reached_on_ale():
    trace = rt.record("kangaroo", CLIMB[:6], writes=HELD_OFF)
    state = state_from_ram(trace.rams[-1])
    assert ram_of_state(state) == {i: int(trace.rams[-1][i]) for i in MIRRORED}
    assert int(GAME.score(state)) == gt.score(trace.rams[-1])


@pytest.mark.parametrize("layout", (1, 2))
def test_random_play_on_the_other_layouts_matches_ale(layout):
    """Layouts 1 and 2 from the level poke (written right after reset on ALE; the JAX game starts
    from that RAM): their fruit, bell, ladders, the monkeys' pace and throwing x."""
    assert LEVEL.name == "level"
    writes = [RamWrite(a, v, "reset") for a, v in LEVEL.ram(layout).items()]
    trace = rt.record("kangaroo", frames=3000, seed=layout, hold=(1, 8), writes=writes)
    assert (trace.rams[:, gt.LEVEL] == layout).all() and trace.game_over[-1]
    assert_lockstep(trace, start=trace.rams[0])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_whole_random_games_match_ale_on_every_frame(seed):
    trace = rt.record("kangaroo", frames=20_000, seed=seed, hold=(1, 8))
    assert trace.game_over[-1]
    assert_lockstep(trace, length=20_000)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_whole_random_games_without_monkeys_match_ale_with_the_same_writes(seed):
    trace = rt.record("kangaroo", frames=20_000, seed=seed, hold=(1, 8), writes=NO_MONKEY)
    assert trace.game_over[-1]
    assert_lockstep(trace, length=20_000, mods=("no_monkey",))


def test_every_reference_signal_reads_the_same_from_the_state_as_from_ale_ram():
    """The signals of alignment/reference/games/kangaroo/ram.py (RAM-decoded on ALE) against the JAX game's
    signals, every frame of the stored deep game (monkeys, apples, coconut, fruit, deaths)."""
    doc, actions = deepplay.load_actions(STORED)
    names = deepplay.Lookahead.of_rom("kangaroo").names
    trace = rt.record("kangaroo", [(names[a], 1) for a in actions])
    states = assert_lockstep(trace)
    signals = gt.signals()
    ours = jax.device_get(jax.vmap(GAME.signals)(states))
    assert {s.name for s in signals} <= set(ours)
    for sig in signals:
        ale = np.stack([np.asarray(sig.ale(r)) for r in trace.rams[1:]])
        mine = np.asarray(ours[sig.name])[:trace.frames]
        bad = np.nonzero((ale != mine).reshape(len(ale), -1).any(1))[0]
        assert len(bad) == 0, (sig.name, int(bad[0]) + 1, ale[bad[0]], mine[bad[0]])


def test_objects_place_the_mother_and_the_monkeys_where_the_reference_reads_them():
    trace = rt.record("kangaroo", frames=3000, seed=0, hold=(1, 8))
    states = assert_lockstep(trace)
    groups = jax.device_get(jax.vmap(GAME.objects)(states))
    for t in range(trace.frames - 1):  # at the game over every object goes inactive
        ram = trace.rams[t + 1]
        assert (groups["player"].x[t, 0], groups["player"].y[t, 0]) == (gt.mother_x(ram), gt.mother_y(ram))
        on = gt.monkeys_active(ram)[::-1]  # the reference's slot i is ram[11 - i]
        np.testing.assert_array_equal(groups["monkeys"].active[t], on)
        np.testing.assert_array_equal(groups["monkeys"].x[t][on], gt.monkey_x(ram)[::-1][on])
        np.testing.assert_array_equal(groups["monkeys"].y[t][on], gt.monkey_y(ram)[::-1][on])
    assert groups["monkeys"].active.any() and groups["apples"].active.any()
