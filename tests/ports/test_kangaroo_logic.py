"""Kangaroo's JAX game (ports/kangaroo/game) against the real emulator, frame by frame: every RAM
byte the state mirrors (ports/kangaroo/game/game.FIELD_RAM: the mother, the big ape's coconut, the
timer, score, lives, fruit, bell, layout, the waits and the music index they hang on), the score
and the reward, from reset with the same actions (sticky actions off).

The monkeys and their apples are not ported yet: on ALE they are held off with the no_monkey RAM
writes (ports/kangaroo/reference/ram.ALE_MODS), so these comparisons cover the mother and the
coconut. The scripted climb also holds the coconut off, on both sides with the same write
(no_coconut: ram[33] = 255 after reset and after every frame).

Measured (ale-py 0.12.1): every frame agrees over the NOOP game (three lives lost to coconuts,
1,150 frames), a scripted climb of layout 0 (two fruit, the bell and the fruit growing back, the
baby reached, the round-won tune and bonus, layout 1, 2,679 frames), random play with a punched
coconut, and (slow) whole random games to the game over (seeds 0-9, actions held 1-8 frames:
1,414-4,206 frames each).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment.porting import ramtrace as rt
from ports.kangaroo.game import Kangaroo
from ports.kangaroo.game import constants as k
from ports.kangaroo.game.game import FIELD_RAM, ram_of_state, state_from_ram
from ports.kangaroo.reference import ram as gt

GAME = Kangaroo()
LENGTH = 3000  # runs are padded to this many frames: one compile for every fast test
NO_MONKEY = gt.ALE_MODS["no_monkey"].writes
HELD_OFF = (*NO_MONKEY, *gt.ALE_MODS["no_coconut"].writes)
MIRRORED = sorted(ram_of_state(GAME._reset(jax.random.key(0))))

# layout 0 climbed with monkeys and coconut held off (positions measured on ALE): right to the
# first ladder, up, left (a fruit on the way), up the second ladder, a jump for the second fruit,
# a jump under the bell, up the third ladder to the baby, the round-won tune, layout 1, a punch
CLIMB = [("NOOP", 160), ("RIGHT", 340), ("UP", 160), ("LEFT", 360), ("RIGHT", 15), ("UP", 160),
         ("RIGHT", 100), ("UPRIGHT", 60), ("RIGHT", 84), ("UP", 50), ("RIGHT", 120), ("UP", 160),
         ("NOOP", 400), ("RIGHT", 200), ("FIRE", 10), ("LEFT", 300)]


def _hold_coconut_off(s):
    """no_coconut's RAM write on the state: ram[33] = 255, as ALE's counterpart writes it."""
    return s.replace(coconut_row=jnp.int32(gt.NONE))


def _scan(no_coconut: bool):
    def body(s, a):
        s, r = GAME._step(s, a)
        s = _hold_coconut_off(s) if no_coconut else s
        return s, (s, r)

    return jax.jit(lambda s, a: jax.lax.scan(body, s, a))


_SCANS = {False: _scan(False), True: _scan(True)}


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


def assert_lockstep(trace, length=LENGTH, *, no_coconut=False):
    state = GAME._reset(jax.random.key(0))
    state = _hold_coconut_off(state) if no_coconut else state
    assert ram_of_state(state) == {i: int(trace.rams[0][i]) for i in MIRRORED}
    padded = np.zeros(max(length, trace.frames), np.int32)
    padded[:trace.frames] = trace.actions
    _, (states, rewards) = _SCANS[no_coconut](state, jnp.asarray(padded))
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


def test_the_noop_game_start_tune_coconuts_and_game_over_match_ale():
    trace = rt.record("kangaroo", [("NOOP", 1500)], writes=NO_MONKEY)
    assert trace.game_over[-1] and trace.frames == 1_150  # three coconuts on the standing mother
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
    assert_lockstep(trace, no_coconut=True)


def test_random_play_matches_ale_on_every_frame():
    trace = rt.record("kangaroo", frames=LENGTH, seed=0, hold=(1, 8), writes=NO_MONKEY)
    assert (trace.rewards == 200).any()  # a punched coconut (the glove's collision on the picture)
    assert_lockstep(trace)


def test_state_from_ram_continues_a_game_reached_on_ale():
    trace = rt.record("kangaroo", CLIMB[:6], writes=HELD_OFF)
    state = state_from_ram(trace.rams[-1])
    assert ram_of_state(state) == {i: int(trace.rams[-1][i]) for i in MIRRORED}
    assert int(GAME.score(state)) == gt.score(trace.rams[-1])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_whole_random_games_match_ale_on_every_frame(seed):
    trace = rt.record("kangaroo", frames=20_000, seed=seed, hold=(1, 8), writes=NO_MONKEY)
    assert trace.game_over[-1]
    assert_lockstep(trace, length=20_000)
