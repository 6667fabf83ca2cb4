"""ALE's reset_game does not always leave the same start: it restarts the console, whose RIOT
timer begins at a value drawn from ALE's fixed-seed console generator, and some games' power-up
runs a frame more or less by it. ``jaxtari/<Game>-v5`` counts its resets since the ROM's load as
ale-py's env does and starts each episode as ALE's matching reset_game leaves it: the screens (RGB
and grey) of the first frames after each of a run of resets equal ALE's."""

from __future__ import annotations

import pickle

import ale_py
import gymnasium
import numpy as np
import pytest

from jaxtari import dropin
from jaxtari.dropin import env_name

gymnasium.register_envs(ale_py)

RESETS = 12          # reset(seed) and 11 reset()s: Frostbite's 3rd start is late, Seaquest's 4th early
FRAMES = 8           # Frostbite's aurora shows a late start on the 2nd frame, Seaquest's oxygen bar on the 1st
NOOP = 0


def make(namespace: str, game: str):
    return gymnasium.make(f"{namespace}/{env_name(game)}-v5", frameskip=1, repeat_action_probability=0.0)


def screens(env):
    ale = env.unwrapped.ale
    return ale.getScreenRGB(), ale.getScreenGrayscale()


def test_riot_start_timers_follow_ales_console_generator():
    # the draws ale-py 0.12.1's first resets after a load meet (fitted on 1,500 resets of
    # Frostbite and Seaquest, whose starts tell a late timer from an early one)
    assert [dropin.riot_start_timer(n) for n in range(1, 5)] == [65, 64, 78, 39]
    assert dropin.FIRST_RESET_TIMER == 65
    with pytest.raises(ValueError):
        dropin.riot_start_timer(0)


@pytest.mark.parametrize("game, changed_at", [
    ("frostbite", 3),
    ("seaquest", 4)])
def test_every_reset_starts_as_ales(game, changed_at):
    ale, ours = make("ALE", game), make("jaxtari", game)
    frame_counter = []   # ram[1], both games' frame counter, right after each reset on ALE
    for n in range(1, RESETS + 1):
        seed = 5 if n == 1 else None
        ale.reset(seed=seed), ours.reset(seed=seed)
        frame_counter.append(int(ale.unwrapped.ale.getRAM()[1]))
        for frame in range(FRAMES):
            ale.step(NOOP), ours.step(NOOP)
            (a_rgb, a_grey), (j_rgb, j_grey) = screens(ale), screens(ours)
            where = f"reset {n} (RIOT timer {dropin.riot_start_timer(n)}), frame {frame + 1}"
            np.testing.assert_array_equal(j_rgb, a_rgb, err_msg=f"RGB: {where}")
            np.testing.assert_array_equal(j_grey, a_grey, err_msg=f"grey: {where}")
    # the run meets ALE's other start (where the preprocessed lockstep parted before the fix)
    assert frame_counter[changed_at - 1] != frame_counter[0] == frame_counter[changed_at - 2]


def test_the_reset_count_survives_pickling():
    env = make("jaxtari", "seaquest").unwrapped
    env.reset(seed=5)
    for _ in range(2):
        env.reset()
    copy = pickle.loads(pickle.dumps(env))
    env.reset(), copy.reset()     # the 4th reset_game: an early start on ALE
    assert int(copy._state.game_state.frame_count) == int(env._state.game_state.frame_count) == 66
