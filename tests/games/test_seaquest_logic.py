"""Seaquest's JAX game (jaxtari/games/seaquest) against the real emulator, frame by frame: every RAM
byte the state mirrors (alignment/reference/games/seaquest/ram.STATE_BYTES: 57 bytes, the collision latches
included), the score and the reward, from reset with the same actions (sticky actions off).

Measured (ale-py 0.12.1): every frame agrees over 1,500 NOOP frames, whole random games (seeds
0-9, actions held 1-8 frames), whole games of long holds (1-30 and 1-60 frames) and a game driven
through waves 0-4 by RAM-written divers (six divers written under water, then surfacing: the
oxygen bonus, the diver bonus, the next wave; then random play with the patrol sub on the
surface), 4,277 frames.
"""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment.actions import ACTION_NAMES
from alignment.porting import ramtrace as rt
from jaxtari.games.seaquest import Seaquest
from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest.game import state_from_ram
from alignment.reference.games.seaquest import ram as gt

GAME = Seaquest()
LENGTH = 2500  # runs are padded to this many frames: one compile for every fast test


def _body(s, a):
    s, r = GAME._step(s, a)
    return s, (s, r)


_SCAN = jax.jit(lambda s, a: jax.lax.scan(_body, s, a))


def _run_jax(actions, length=LENGTH):
    state = GAME._reset(jax.random.key(0))
    padded = np.zeros(max(length, len(actions)), np.int32)
    padded[:len(actions)] = actions
    _, (states, rewards) = _SCAN(state, jnp.asarray(padded))
    return jax.device_get(state), jax.device_get(states), np.asarray(rewards)


def _at(states, t):
    return jax.tree_util.tree_map(lambda x: x[t], states)


def assert_lockstep(trace, length=LENGTH):
    state0, states, rewards = _run_jax(trace.actions, length)
    assert gt.state_differences(state0, trace.rams[0]) == {}
    for t in range(trace.frames):
        diff = gt.state_differences(_at(states, t), trace.rams[t + 1])
        assert diff == {}, (t + 1, trace.action_names[trace.actions[t]], diff)
        assert rewards[t] == trace.rewards[t], t + 1
    last = _at(states, trace.frames - 1)
    assert int(GAME.lives(last)) == trace.lives[-1]
    assert bool(GAME.is_terminal(last)) == trace.game_over[-1]
    mine = GAME.signals(last)
    for s in gt.signals():
        assert np.array_equal(np.asarray(mine[s.name]), np.asarray(s.ale(trace.rams[-1]))), s.name


def test_noop_from_reset():
    assert_lockstep(rt.record("seaquest", rt.parse_script("NOOP:1500")))


def test_a_whole_random_game():
    trace = rt.record("seaquest", frames=LENGTH, seed=2, hold=(1, 8))
    assert trace.game_over[-1] and trace.rewards.sum() > 0  # 1,521 frames, scores, loses all subs
    assert_lockstep(trace)


def test_state_from_ram_mirrors_every_byte():
    trace = rt.record("seaquest", frames=800, seed=5, hold=(1, 6))
    for ram in trace.rams[::7]:
        assert gt.state_differences(state_from_ram(ram), ram) == {}


@pytest.mark.slow
@pytest.mark.parametrize("seed, hold", [(s, 8) for s in range(10)] + [(10, 30), (11, 30),
                                                                       (12, 60), (13, 60)])
def test_whole_random_and_long_held_games(seed, hold):
    trace = rt.record("seaquest", frames=8000, seed=seed, hold=(1, hold))
    assert trace.game_over[-1]
    assert_lockstep(trace, length=8000)


def _deep_plan(seed):
    """Five waves won by writing six divers under water and surfacing, then random play."""
    names = ACTION_NAMES
    plan = [("NOOP", 130)]
    for _ in range(5):
        plan += [("DOWN", 8), ("NOOP", 40), ("poke", 6), ("UP", 10), ("NOOP", 450)]
    rng = np.random.default_rng(seed)
    plan += [(names[int(rng.integers(18))], int(rng.integers(1, 10))) for _ in range(400)]
    return plan


@pytest.mark.slow
def test_a_game_through_five_waves_with_the_patrol_sub():
    import ale_py

    ale = rt.open_rom("seaquest")
    step = jax.jit(GAME._step)
    s = GAME._reset(jax.random.key(0))
    names = ACTION_NAMES
    frames, levels, patrol = 0, set(), 0
    for name, n in _deep_plan(0):
        if name == "poke":
            if ale.getRAM()[k.RAM_SUB_Y] > k.SUB_Y_MIN:
                ale.setRAM(k.RAM_DIVERS, n)
                s = s.replace(divers=jnp.int32(n))
            continue
        for _ in range(n):
            a = names.index(name)
            reward = ale.act(ale_py.Action(a))
            s, r = step(s, jnp.int32(a))
            frames += 1
            ram = ale.getRAM()
            assert gt.state_differences(s, ram) == {} and int(r) == reward, frames
            levels.add(int(ram[k.RAM_LEVEL]))
            patrol += int(ram[k.RAM_PATROL_X] != 0)
            if ale.game_over():
                break
        if ale.game_over():
            break
    assert levels == {0, 1, 2, 3, 4} and patrol > 1000 and ale.game_over()


DEEP = Path(__file__).resolve().parents[1] / "data" / "deep" / "seaquest-s0.json"


@pytest.mark.slow
def test_a_game_played_to_wave_three_by_the_lookahead_player():
    """The deep player's game (alignment/reference/games/seaquest/players.py, seed 0: clone/restore search,
    no RAM writes), stored as data: six divers rescued and surfaced three times, the patrol sub on
    the surface from wave 2; every frame agrees."""
    from alignment.deepplay import load_actions

    doc, actions = load_actions(DEEP)
    assert doc["game"] == "seaquest" and len(actions) == doc["frames"]
    trace = rt.record("seaquest", [(ACTION_NAMES[a], 1) for a in actions],
                      until_game_over=True)
    assert trace.frames == len(actions)
    levels = trace.rams[:, k.RAM_LEVEL]
    assert levels[-1] == 3 and np.all(np.diff(levels.astype(int)) >= 0)
    assert np.count_nonzero(trace.rams[:, k.RAM_PATROL_X]) > 1000
    assert_lockstep(trace, length=len(actions))


@pytest.mark.slow
def test_the_observation_and_a_vmapped_step():
    obs, s = GAME.reset(jax.random.key(0))
    step = jax.jit(GAME.step)
    for a in [0] * 130 + [5] * 20:  # the opening, then down
        obs, s, reward, done, info = step(s, a)
    groups = GAME.objects(s)
    assert obs.shape == (130,) and np.all(np.isfinite(np.asarray(obs)))
    player = groups["player"]
    sig = GAME.signals(s)
    assert (int(player.x[0]), int(player.y[0])) == (int(sig["player_x"]), int(sig["player_y"]))
    assert int(player.attrs["oxygen"][0]) == int(s.oxygen) and bool(player.active[0])
    assert groups["enemies"].size == 12 and not bool(done) and int(info["lives"]) == 4
    batch = jax.tree_util.tree_map(lambda x: jnp.stack([x, x]), s)
    o2, s2, r2, d2, _ = jax.jit(jax.vmap(GAME.step))(batch, jnp.asarray([3, 13]))
    o1, s1, r1, d1, _ = step(s, 13)
    assert np.array_equal(np.asarray(o2[1]), np.asarray(o1)) and int(s2.sub_x[0]) == int(s.sub_x) + 1


@pytest.mark.slow
def test_difficulty_a_slows_the_torpedo_and_agrees():
    """ALE difficulty 1 (the left switch at A): the torpedo moves 3 px a frame instead of 5."""
    import dataclasses

    game = Seaquest(dataclasses.replace(k.SeaquestConstants(), difficulty=1))

    def body(s, a):
        s, r = game._step(s, a)
        return s, (s, r)

    trace = rt.record("seaquest", frames=6000, seed=1, hold=(1, 8), difficulty=1)
    _, (states, rewards) = jax.jit(lambda s, a: jax.lax.scan(body, s, a))(
        game._reset(jax.random.key(0)), jnp.asarray(trace.actions, jnp.int32))
    states, rewards = jax.device_get(states), np.asarray(rewards)
    assert trace.game_over[-1]
    x = trace.rams[:, k.RAM_TORPEDO_X].astype(int)
    steps = np.abs(np.diff(x))[(x[:-1] != 0) & (x[1:] != 0)]  # (a hit and a new shot: larger)
    assert np.bincount(steps).argmax() == k.TORPEDO_SPEED - k.TORPEDO_PRO_SLOWDOWN
    assert not np.any(steps == k.TORPEDO_SPEED)
    for t in range(trace.frames):
        assert gt.state_differences(_at(states, t), trace.rams[t + 1]) == {}, t + 1
        assert rewards[t] == trace.rewards[t], t + 1
