"""jaxtari's games under gymnasium ids, as ale-py registers ALE's.

``gymnasium.make("jaxtari/Pong-v5")`` takes ALE's keyword arguments (``obs_type`` "rgb" /
"grayscale" / "objects" in place of "ram", ``frameskip``, ``repeat_action_probability``,
``full_action_space``, ``mode``, ``difficulty``, ``max_num_frames_per_episode``, ``render_mode``),
takes and returns numpy, and gives ALE's ``info`` (``lives``, ``episode_frame_number``,
``frame_number``). ``jaxtari/<Game>NoFrameskip-v4`` is the same with ALE's v4 settings (frameskip 1,
no sticky actions). ``gymnasium.make_vec("jaxtari/Pong-v5", num_envs=N)`` gives
:class:`jaxtari.vector.JaxtariVectorEnv`, all N envs in one compiled call.

The ids exist once ``jaxtari`` is imported (``gymnasium.register_envs(jaxtari)`` says so to
linters), and ``gymnasium.make("jaxtari:jaxtari/Pong-v5")`` imports it.
"""

from __future__ import annotations

import difflib
from typing import Any

import gymnasium
import numpy as np

from jaxtari import dropin
from jaxtari.dropin import DropInError, Settings

NAMESPACE = "jaxtari"
RENDER_FPS = 30  # what ale-py declares for its v5 envs
HUMAN_SCALE = 3  # window pixels per screen pixel in render_mode="human"
# ALE's v4 settings (ale_py.registration): one frame per step, no sticky actions
V4_FRAMESKIP = 1
V4_STICKY = 0.0


class JaxtariEnv(gymnasium.Env):
    """One jaxtari game with ALE's gymnasium interface (``ale_py.env.AtariEnv``'s arguments)."""

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": RENDER_FPS}

    def __init__(self, game: str = "pong", render_mode: str | None = None, **settings: Any):
        unknown = set(settings) - {f for f in Settings.__dataclass_fields__ if f != "game"}
        if unknown:
            raise DropInError(f"unknown argument(s) {', '.join(sorted(unknown))}; jaxtari's gymnasium "
                              f"envs take {', '.join(f for f in Settings.__dataclass_fields__)} "
                              "and render_mode")
        if render_mode not in (None, "rgb_array", "human"):
            raise DropInError(f"render_mode={render_mode!r}: expected None, 'rgb_array' or 'human'")
        self.settings = Settings.make(game, **settings)
        self.core = dropin.core(self.settings)
        self.observation_space = self.core.observation_space
        self.action_space = self.core.action_space
        self.render_mode = render_mode
        self._chain: np.ndarray | None = None
        self._state = None
        self._frame_number = 0
        self._window = None

    @property
    def game(self):
        return self.core.game

    def get_action_meanings(self) -> list[str]:
        return list(self.core.game.action_names)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed, options=options)
        if seed is not None or self._chain is None:
            self._chain = seed_chain(self.np_random)
            self._frame_number = 0
        chain, self._state, obs = self.core.jit_reset(self._chain)
        self._chain = np.asarray(chain)
        if self.render_mode == "human":
            self.render()
        return np.array(obs), self._info()

    def step(self, action):
        if self._state is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if not self.action_space.contains(action):
            raise DropInError(f"invalid action {action!r}: actions are integers 0..{self.action_space.n - 1} "
                              f"({', '.join(f'{i}={n}' for i, n in enumerate(self.get_action_meanings()))})")
        state, obs, reward, terminated, truncated, frames = self.core.jit_step(self._state, np.int32(action))
        self._state = state
        self._frame_number += int(frames)
        if self.render_mode == "human":
            self.render()
        return np.array(obs), float(reward), bool(terminated), bool(truncated), self._info()

    def _info(self) -> dict:
        return {"lives": int(self._state.lives), "episode_frame_number": int(self._state.episode_frames),
                "frame_number": self._frame_number}

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the env with "
                                  "render_mode='rgb_array' or 'human'")
            return None
        if self._state is None:
            raise gymnasium.error.ResetNeeded("call reset() before render()")
        frame = np.array(self.core.jit_render(self._state))
        if self.render_mode == "rgb_array":
            return frame
        self._show(frame)
        return None

    def _show(self, frame: np.ndarray) -> None:
        try:
            import pygame
        except ImportError:
            raise DropInError("render_mode='human' needs pygame, which is not installed: "
                              "pip install pygame (or use render_mode='rgb_array')") from None
        if self._window is None:
            pygame.init()
            h, w = frame.shape[:2]
            self._window = pygame.display.set_mode((w * HUMAN_SCALE, h * HUMAN_SCALE))
            pygame.display.set_caption(f"jaxtari {dropin.env_name(self.settings.game)}")
            self._clock = pygame.time.Clock()
        pygame.event.pump()
        surface = pygame.surfarray.make_surface(frame.swapaxes(0, 1))
        self._window.blit(pygame.transform.scale(surface, self._window.get_size()), (0, 0))
        pygame.display.flip()
        self._clock.tick(self.metadata["render_fps"])

    def close(self):
        if self._window is not None:
            import pygame

            pygame.display.quit()
            self._window = None


def seed_chain(rng: np.random.Generator) -> np.ndarray:
    """The key data of an env's chain of episode keys, drawn from its gymnasium ``np_random``."""
    return rng.integers(0, 2**32, size=2, dtype=np.uint32)


ENTRY_POINT = "jaxtari.gym:JaxtariEnv"
NOT_PORTED_ENTRY_POINT = "jaxtari.gym:not_ported"


def env_ids() -> list[str]:
    """Every id :func:`register` registers for a game jaxtari has (not the unported ALE games')."""
    return sorted(i for i, spec in gymnasium.registry.items()
                  if i.startswith(f"{NAMESPACE}/") and spec.entry_point == ENTRY_POINT)


def not_ported(game: str, env_id: str, **_ignored: Any):
    """The entry point of ``jaxtari/<Game>-v5`` (and ``NoFrameskip-v4``) for an ALE game jaxtari has
    not ported: raises a :class:`DropInError` naming jaxtari's ids, the closest one, and ALE's id.

    Why an id for it at all: gymnasium 1.x offers a package no hook into the error for an id it
    does not know (that message says "doesn't exist", with one did-you-mean among the registered
    names, which for a typo such as ``jaxtari/Pongg-v5`` already names ``Pong``), and patching its
    lookup would change it for every other package. An id in our own namespace whose maker explains
    is the one place gymnasium lets a package say more.
    """
    import jaxtari

    name = dropin.env_name(game)
    names = [dropin.env_name(g) for g in jaxtari.list_games()]
    ids = [f"{NAMESPACE}/{n}-v5" for n in names]
    close = difflib.get_close_matches(name, names, n=1)  # names alone: the id's frame is shared
    hint = f" Did you mean '{NAMESPACE}/{close[0]}-v5'?" if close else ""
    raise DropInError(f"{env_id}: {name} is an Atari game in ALE that jaxtari has not ported; "
                      f"jaxtari's ids: {', '.join(ids)} (each also as <Game>NoFrameskip-v4).{hint} "
                      f"The emulator itself: gymnasium.make('ALE/{name}-v5') with ale-py.")


def register() -> None:
    """Register ``jaxtari/<Game>-v5`` and ``jaxtari/<Game>NoFrameskip-v4`` for every game of
    ``jaxtari.list_games()``, and the same ids of every other ALE game as :func:`not_ported`
    (again: idempotent)."""
    import jaxtari

    for game in jaxtari.list_games():
        name = dropin.env_name(game)
        variants = {
            f"{NAMESPACE}/{name}-v5": {},
            f"{NAMESPACE}/{name}NoFrameskip-v4": {"frameskip": V4_FRAMESKIP,
                                                  "repeat_action_probability": V4_STICKY},
        }
        for env_id, extra in variants.items():
            if env_id in gymnasium.registry:
                continue
            kwargs = {"game": game, "repeat_action_probability": dropin.STICKY_PROB,
                      "full_action_space": False, "frameskip": dropin.FRAMESKIP,
                      "max_num_frames_per_episode": dropin.MAX_EPISODE_FRAMES, **extra}
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT,
                               vector_entry_point="jaxtari.vector:JaxtariVectorEnv", kwargs=kwargs)
    # ALE's other games (when ale-py is installed): the same ids, made into an error that names
    # jaxtari's ids instead of gymnasium's bare "doesn't exist"
    ported = {dropin.env_name(g) for g in jaxtari.list_games()}
    for rom in jaxtari.ale_rom_ids():
        name = dropin.env_name(rom)
        if name in ported:
            continue
        for env_id in (f"{NAMESPACE}/{name}-v5", f"{NAMESPACE}/{name}NoFrameskip-v4"):
            if env_id not in gymnasium.registry:
                gymnasium.register(id=env_id, entry_point=NOT_PORTED_ENTRY_POINT,
                                   vector_entry_point=NOT_PORTED_ENTRY_POINT,
                                   kwargs={"game": rom, "env_id": env_id})
