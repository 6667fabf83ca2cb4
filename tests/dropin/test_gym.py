"""jaxtari's gymnasium ids: registration as ale-py does it, gymnasium's own env checker for every
game and observation type, ALE's info, and the errors for what jaxtari cannot do."""

from __future__ import annotations

import os
import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import jaxtari
from jaxtari.dropin import DropInError, env_name
from jaxtari.gym import env_ids

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
GAMES = jaxtari.list_games()
OBS_TYPES = ("rgb", "grayscale", "objects")
# one game per observation type stays in the default run; the rest are slow (a compile each)
FAST = {("pong", "rgb"), ("breakout", "grayscale"), ("freeway", "objects")}


def _cases():
    for game in GAMES:
        for obs_type in OBS_TYPES:
            marks = () if (game, obs_type) in FAST else (pytest.mark.slow,)
            yield pytest.param(game, obs_type, marks=marks, id=f"{game}-{obs_type}")


@pytest.mark.parametrize("game,obs_type", list(_cases()))
def test_check_env(game, obs_type):
    env = gymnasium.make(f"jaxtari/{env_name(game)}-v5", obs_type=obs_type)
    check_env(env.unwrapped)
    env.close()


def test_every_game_has_v5_and_noframeskip_ids():
    expected = sorted(f"jaxtari/{env_name(g)}{v}" for g in GAMES for v in ("-v5", "NoFrameskip-v4"))
    assert env_ids() == expected
    spec = gymnasium.spec("jaxtari/PongNoFrameskip-v4")
    assert spec.kwargs["frameskip"] == 1 and spec.kwargs["repeat_action_probability"] == 0.0
    spec = gymnasium.spec("jaxtari/Pong-v5")
    assert spec.kwargs["frameskip"] == 4 and spec.kwargs["repeat_action_probability"] == 0.25
    assert spec.kwargs["max_num_frames_per_episode"] == 108_000


def test_make_with_module_prefix_needs_no_import():
    code = ("import gymnasium as gym; e = gym.make('jaxtari:jaxtari/Pong-v5', obs_type='objects'); "
            "o, i = e.reset(seed=0); print(o.dtype, sorted(i))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-2] == "float32 ['episode_frame_number', 'frame_number', 'lives']"


# ALE games nobody here is porting (Seaquest and Kangaroo are on their way: not those)
UNPORTED = ("MontezumaRevenge", "Tennis")


def test_ale_rom_ids_are_ale_pys_own_list():
    from ale_py.roms import get_all_rom_ids

    assert jaxtari.ale_rom_ids() == sorted(get_all_rom_ids())


@pytest.mark.parametrize("name", UNPORTED)
def test_an_unported_ale_game_names_jaxtaris_ids(name):
    ours = ", ".join(f"jaxtari/{env_name(g)}-v5" for g in GAMES)
    for env_id in (f"jaxtari/{name}-v5", f"jaxtari/{name}NoFrameskip-v4"):
        with pytest.raises(DropInError, match=f"{env_id}: {name} is an Atari game in ALE that "
                                              f"jaxtari has not ported; jaxtari's ids: {ours}"):
            gymnasium.make(env_id)
    with pytest.raises(gymnasium.error.Error, match=f"'ALE/{name}-v5'"):
        gymnasium.make_vec(f"jaxtari/{name}-v5", num_envs=2)
    # jaxtari's own ids stay those of its games
    assert not any(name in i for i in env_ids())


def test_a_near_name_gets_its_did_you_mean():
    with pytest.raises(DropInError, match="Pooyan.*Did you mean 'jaxtari/Pong-v5'"):
        gymnasium.make("jaxtari/Pooyan-v5")


def test_import_registers_only_its_namespace_and_leaves_ale_py_alone():
    """The explaining ids are jaxtari's own: no other namespace's id changes, and ale-py (whose
    import registers ALE's ids) is not imported on the user's behalf; the module-prefix form
    explains too."""
    code = (
        "import sys, gymnasium as gym\n"
        "before = dict(gym.registry)\n"
        "import jaxtari\n"
        "new = set(gym.registry) - set(before)\n"
        "changed = [i for i in before if gym.registry[i] is not before[i]]\n"
        "print(all(i.startswith('jaxtari/') for i in new), len(new) > 8, changed, 'ale_py' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-2] == "True True [] False"
    code = "import gymnasium as gym; gym.make('jaxtari:jaxtari/Tennis-v5')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert out.returncode != 0
    assert "DropInError: jaxtari/Tennis-v5: Tennis is an Atari game in ALE" in out.stderr


def test_info_like_ale():
    env = gymnasium.make("jaxtari/Breakout-v5", obs_type="objects")
    _, info = env.reset(seed=3)
    assert info == {"lives": 5, "episode_frame_number": 0, "frame_number": 0}
    for _ in range(3):
        _, reward, terminated, truncated, info = env.step(0)
    assert type(reward) is float and type(terminated) is bool and type(truncated) is bool
    assert info == {"lives": 5, "episode_frame_number": 12, "frame_number": 12}
    _, info = env.reset()  # like ALE: the frame number runs on over episodes until a seeded reset
    assert info == {"lives": 5, "episode_frame_number": 0, "frame_number": 12}
    _, info = env.reset(seed=3)
    assert info["frame_number"] == 0


def test_grayscale_is_ales_grey_of_the_rgb_screen():
    from jaxtari.render import gray

    rgb = gymnasium.make("jaxtari/Breakout-v5", obs_type="rgb", render_mode="rgb_array")
    grey = gymnasium.make("jaxtari/Breakout-v5", obs_type="grayscale")
    a, _ = rgb.reset(seed=1)
    b, _ = grey.reset(seed=1)
    for _ in range(20):
        np.testing.assert_array_equal(gray(a), b)
        np.testing.assert_array_equal(rgb.render(), a)
        a = rgb.step(1)[0]
        b = grey.step(1)[0]


def test_mode_and_difficulty():
    easy = gymnasium.make("jaxtari/Breakout-v5", obs_type="objects", mode=4, difficulty=1)
    assert easy.unwrapped.game.consts.mode == 4 and easy.unwrapped.game.consts.difficulty == 1
    gymnasium.make("jaxtari/Pong-v5", mode=0, difficulty=0)  # ALE's defaults
    with pytest.raises(DropInError, match="mode 3 not available; modes: \\[0, 4"):
        gymnasium.make("jaxtari/Breakout-v5", mode=3)
    with pytest.raises(DropInError, match="difficulty=2: jaxtari's Pong models only ALE's default"):
        gymnasium.make("jaxtari/Pong-v5", difficulty=2)


def test_bad_input_named():
    with pytest.raises(DropInError, match="does not emulate the console's RAM.*obs_type='objects'"):
        gymnasium.make("jaxtari/Pong-v5", obs_type="ram")
    with pytest.raises(gymnasium.error.NameNotFound, match="Did you mean: `Pong`"):
        gymnasium.make("jaxtari/Pongg-v5")
    with pytest.raises(DropInError, match="stochastic frameskip"):
        gymnasium.make("jaxtari/Pong-v5", frameskip=(2, 5))
    with pytest.raises(DropInError, match="unknown argument\\(s\\) sound_obs"):
        gymnasium.make("jaxtari/Pong-v5", sound_obs=True)
    env = gymnasium.make("jaxtari/Pong-v5", obs_type="objects").unwrapped
    env.reset(seed=0)
    with pytest.raises(DropInError, match="invalid action 6: actions are integers 0..5"):
        env.step(6)


def test_human_render_through_pygame(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = gymnasium.make("jaxtari/Pong-v5", obs_type="objects", render_mode="human")
    env.reset(seed=0)
    env.step(0)
    import pygame

    assert pygame.display.get_surface().get_size() == (160 * 3, 210 * 3)
    env.close()
