"""ALE's sticky actions, measured: what the JAX wrapper's per-frame coins claim to copy.

jaxtari's AtariWrapper flips one coin per emulator frame (tests/test_wrappers.py checks its rate):
within an agent step the previous action holds for the first k frames and the new one for the rest,
P(k) = 0.75 * 0.25**k for k < 4 and 0.25**4 for k = 4. ALE's sticky actions are its own code (and
its own generator), so here they are identified on the emulator: before each sticky step the state
is cloned, and a sticky-off emulator restored to it plays the five candidate splits (k frames of
the previous action, then the new one); the splits whose saved state equals the sticky step's are
the ones that could have happened (the emulator's whole saved state equal, not only RAM and screen:
a paddle's resistance shows in RAM only frames later). A once-a-step coin would leave only k in {0, 4}.

Both ways of running ALE that the project compares against are measured: the ALE interface with
its own frame_skip (the transfer's and the learner's emulators), and gymnasium's ALE v5 env (its
frameskip in Python, four act() calls of one frame).
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest

ROM = "breakout"  # the paddle moves on every frame of LEFT/RIGHT: most splits are told apart
STICKY = 0.25
FRAMESKIP = 4
SPLITS = range(FRAMESKIP + 1)


def _interface(rom: str, *, sticky: float, frame_skip: int, seed: int):
    """An emulator as the transfer's and the learner's are made, its game started."""
    from alignment.stress.ale_rollout import _ale_interface

    ale = _ale_interface(rom, seed, sticky, frame_skip)
    ale.reset_game()
    return ale


def _identify(ale, sticky_step, actions, *, steps: int, seed: int) -> list[tuple[int, ...]]:
    """For each of ``steps`` random actions played through ``sticky_step(action)`` on the emulator
    ``ale``: the splits k that reproduce its whole saved state (RAM, CPU, TIA, the paddles'
    resistance, the frame counts), replayed on a sticky-off emulator."""
    import ale_py

    replay = _interface(ROM, sticky=0.0, frame_skip=1, seed=0)
    rng = np.random.default_rng(seed)
    applied = ale_py.Action.NOOP  # ALE starts a game with the previous action NOOP
    found = []
    for _ in range(steps):
        new = actions[int(rng.integers(len(actions)))]
        before = ale.cloneState()
        sticky_step(new)
        after = ale.cloneState().serialize()
        splits = []
        for k in SPLITS:
            replay.restoreState(before)
            for f in range(FRAMESKIP):
                replay.act(applied if f < k else new)
            if replay.cloneState().serialize() == after:
                splits.append(k)
        assert splits, "no split of the previous and the new action explains this sticky step"
        found.append(tuple(splits))
        if min(splits) < FRAMESKIP:
            # k < 4 possible: the new action was applied by the step's end unless only k = 4 fits;
            # where both fit (the two actions alike here) the choice changes no later replay
            applied = new
        if ale.game_over():
            ale.reset_game()
            applied = ale_py.Action.NOOP
    return found


def _per_frame(k: int, p: float) -> float:
    return p ** FRAMESKIP if k == FRAMESKIP else (1 - p) * p ** k


def _log_likelihood(found, p: float, law) -> float:
    total = 0.0
    for splits in found:
        prob = sum(law(k, p) for k in splits)
        if prob == 0.0:
            return -math.inf
        total += math.log(prob)
    return total


def _once_a_step(k: int, p: float) -> float:
    return {0: 1 - p, FRAMESKIP: p}.get(k, 0.0)


def _check(found):
    told = [s[0] for s in found if len(s) == 1]
    # every split length occurs on its own: the coin is flipped inside the step
    assert {1, 2, 3} <= set(told), sorted(set(told))
    assert _log_likelihood(found, STICKY, _once_a_step) == -math.inf
    # the per-frame law's rate, by maximum likelihood over every step (ambiguous ones included)
    grid = np.linspace(0.05, 0.6, 111)
    best = grid[int(np.argmax([_log_likelihood(found, p, _per_frame) for p in grid]))]
    # ~1,000 informative steps: the estimate's standard error is ~0.013
    assert abs(best - STICKY) <= 0.04, best


@pytest.mark.parametrize("seed", [1, 2])
def test_ale_interface_flips_its_sticky_coin_every_frame(seed):
    ale = _interface(ROM, sticky=STICKY, frame_skip=FRAMESKIP, seed=seed)
    found = _identify(ale, ale.act, ale.getMinimalActionSet(), steps=2000, seed=seed)
    _check(found)


def test_gymnasium_v5_env_flips_its_sticky_coin_every_frame():
    import ale_py

    gym.register_envs(ale_py)
    env = gym.make("ALE/Breakout-v5", repeat_action_probability=STICKY, frameskip=FRAMESKIP)
    env.reset(seed=3)
    ale = env.unwrapped.ale
    actions = env.unwrapped._action_set
    index = {a: i for i, a in enumerate(actions)}
    found = _identify(ale, lambda a: env.step(index[a]), actions, steps=2000, seed=3)
    env.close()
    _check(found)
