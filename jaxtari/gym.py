"""jaxtari's games under gymnasium ids, as ale-py registers ALE's.

``gymnasium.make("jaxtari/Pong-v5")`` takes ALE's keyword arguments (``obs_type`` "rgb" /
"grayscale" / "objects" in place of "ram", ``frameskip``, ``repeat_action_probability``,
``full_action_space``, ``mode``, ``difficulty``, ``max_num_frames_per_episode``, ``render_mode``),
takes and returns numpy, and gives ALE's ``info`` (``lives``, ``episode_frame_number``,
``frame_number``). ``jaxtari/<Game>NoFrameskip-v4`` is the same with ALE's v4 settings (frameskip 1,
no sticky actions). ``gymnasium.make_vec("jaxtari/Pong-v5", num_envs=N)`` gives
:class:`jaxtari.vector.JaxtariVectorEnv`, all N envs in one compiled call.

``vectorization_mode="async"`` works with gymnasium's defaults: a worker forked after JAX started
runs its env in a fresh interpreter of its own (JAX does not survive a fork), and
``vector_kwargs={"context": "spawn"}`` or ``"forkserver"`` avoid the fork altogether. JAX warns
at such a fork ("os.fork() was called ... will likely lead to a deadlock"); the forked worker
runs no JAX itself, so for these envs the warning does not come true (a spawn context avoids it). Envs and
vector envs pickle (their settings, generators and episodes; the compiled functions are rebuilt).

The ids exist once ``jaxtari`` is imported (``gymnasium.register_envs(jaxtari)`` says so to
linters), and ``gymnasium.make("jaxtari:jaxtari/Pong-v5")`` imports it.
"""

from __future__ import annotations

import difflib
import os
import sys
from typing import Any

import gymnasium
import jax
import numpy as np

from jaxtari import dropin
from jaxtari.dropin import DropInError, Settings
from jaxtari.protocol import V5
from jaxtari.render import gray

NAMESPACE = "jaxtari"
RENDER_FPS = 30  # what ale-py declares for its v5 envs
HUMAN_SCALE = 3  # window pixels per screen pixel in render_mode="human"
# ALE's v4 settings (ale_py.registration): one frame per step, no sticky actions
V4_FRAMESKIP = 1
V4_STICKY = 0.0


# Keyword arguments that belong to another layer than ALE's env (EnvPool's options, gymnasium's
# Atari wrappers), with where they go: a user moving from EnvPool or SB3 writes them here.
ELSEWHERE = {
    "episodic_life": "an EnvPool option (jaxtari.envpool.make(..., episodic_life=True)); with gymnasium, "
                     "wrap the env in an EpisodicLifeEnv (SB3's, CleanRL's), which reads env.unwrapped.ale.lives()",
    "noop_max": "gymnasium.wrappers.AtariPreprocessing(env, noop_max=...) or jaxtari.envpool.make(..., noop_max=...)",
    "frame_skip": "ALE's name is frameskip",
    "stack_num": "gymnasium.wrappers.FrameStackObservation(env, stack_size=...) or jaxtari.envpool.make(..., stack_num=...)",
    "reward_clip": "an EnvPool option (jaxtari.envpool.make(..., reward_clip=True)); with gymnasium, "
                   "gymnasium.wrappers.TransformReward(env, numpy.sign)",
    "use_fire_reset": "an EnvPool option (jaxtari.envpool.make(..., use_fire_reset=True)); with gymnasium, "
                      "a FireResetEnv wrapper (SB3's, CleanRL's)",
    "num_envs": "gymnasium.make_vec(id, num_envs=...)",
    "seed": "env.reset(seed=...)",
}


def check_settings(settings: dict) -> None:
    """Refuse a keyword argument no jaxtari env takes (the one list, :class:`~jaxtari.dropin.Settings`),
    saying where it belongs or which name was meant."""
    takes = [f for f in Settings.__dataclass_fields__ if f != "game"]
    unknown = sorted(set(settings) - set(takes), key=str)
    if unknown:
        hints = []
        for name in unknown:
            close = difflib.get_close_matches(str(name), takes + ["render_mode"], n=1)
            if name in ELSEWHERE:
                hints.append(f"{name}: {ELSEWHERE[name]}")
            elif close:
                hints.append(f"{name}: did you mean {close[0]}?")
        raise DropInError(f"unknown argument(s) {', '.join(map(str, unknown))}; jaxtari's gymnasium "
                          f"envs take {', '.join(takes)} and render_mode"
                          + "".join(f". {h}" for h in hints))


class AleLike:
    """``env.unwrapped.ale``: the part of ale-py's ``ALEInterface`` that wrappers written for ALE's
    envs read (SB3's and CleanRL's ``EpisodicLifeEnv`` call ``ale.lives()``)."""

    def __init__(self, env: "JaxtariEnv"):
        self._env = env

    def lives(self) -> int:
        return self._env._info()["lives"]

    def getEpisodeFrameNumber(self) -> int:  # noqa: N802 (ALE's name)
        return self._env._info()["episode_frame_number"]

    def getFrameNumber(self) -> int:  # noqa: N802 (ALE's name)
        return self._env._info()["frame_number"]

    # gymnasium's AtariPreprocessing reads the screen through these (into its buffer, as ALE's do)
    def getScreenRGB(self, screen_data: np.ndarray | None = None) -> np.ndarray:  # noqa: N802
        return _into(screen_data, self._env._screen())

    def getScreenGrayscale(self, screen_data: np.ndarray | None = None) -> np.ndarray:  # noqa: N802
        return _into(screen_data, np.asarray(gray(self._env._screen())))


def _into(buffer: np.ndarray | None, screen: np.ndarray) -> np.ndarray:
    if buffer is None:
        return screen
    buffer[...] = screen.reshape(buffer.shape)
    return buffer


class JaxtariEnv(gymnasium.Env):
    """One jaxtari game with ALE's gymnasium interface (``ale_py.env.AtariEnv``'s arguments).

    Made in a process forked after JAX started (gymnasium's ``AsyncVectorEnv`` forks its workers
    on Linux), the env runs in a fresh interpreter of its own (:class:`_Hosted`): JAX's runtime
    does not survive a fork, and a forked worker that compiles would hang."""

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": RENDER_FPS}

    def __init__(self, game: str = "pong", render_mode: str | None = None, **settings: Any):
        check_settings(settings)
        if render_mode not in (None, "rgb_array", "human"):
            raise DropInError(f"render_mode={render_mode!r}: expected None, 'rgb_array' or 'human'")
        if render_mode == "human":
            check_display()
        self.settings = Settings.make(game, **settings)
        self.render_mode = render_mode
        self.ale = AleLike(self)
        self._frameskip = self.settings.frameskip  # ale-py's name: AtariPreprocessing checks it is 1
        self._host = _Hosted(game, render_mode, settings) if forked_after_jax() else None
        if self._host is not None:
            self.observation_space, self.action_space, self._meanings = self._host.call("spaces")
        else:
            self._start()

    def _start(self) -> None:
        self.core = dropin.core(self.settings)
        self.observation_space = self.core.observation_space
        self.action_space = self.core.action_space
        self._meanings = list(self.core.game.action_names)
        self._chain: np.ndarray | None = None
        # reset_game calls since ALE's env loaded its ROM (at making, and on every seeded reset):
        # the n-th meets the n-th RIOT start timer (dropin.riot_start_timer)
        self._resets = 0
        self._state = None
        self._frame_number = 0
        self._window = None

    @property
    def game(self):
        if self._host is not None:
            raise DropInError("this env runs in a process of its own (made in a forked worker): "
                              "its game is not here; make the env in the main process to read it")
        return self.core.game

    def get_action_meanings(self) -> list[str]:
        return list(self._meanings)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        seed = dropin.seed_value("seed", seed)
        super().reset(seed=seed, options=options)
        if seed is not None:
            self._np_random, chain = seeded(seed)
        if self._host is not None:
            return self._host.call("reset", seed=seed, options=options)
        if seed is not None or self._chain is None:
            self._chain = chain if seed is not None else seed_chain(self.np_random)
            self._frame_number = 0
        if seed is not None:
            self._resets = 0
        self._resets += 1
        timer = np.int32(dropin.riot_start_timer(self._resets))
        chain, self._state, obs = self.core.jit_reset(self._chain, timer)
        self._chain = np.asarray(chain)
        if self.render_mode == "human":
            self.render()
        return np.array(obs), self._info()

    def step(self, action):
        given = action
        if isinstance(action, jax.Array):  # a jax integer is as clear as its numpy value
            action = np.asarray(action)
        if isinstance(action, (bool, np.bool_)) or not self.action_space.contains(action):
            raise DropInError(f"invalid action {given!r}: actions are integers 0..{self.action_space.n - 1} "
                              f"({', '.join(f'{i}={n}' for i, n in enumerate(self.get_action_meanings()))})")
        if self._host is not None:
            return self._host.call("step", int(action))
        if self._state is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        state, obs, reward, terminated, truncated, frames = self.core.jit_step(self._state, np.int32(action))
        self._state = state
        self._frame_number += int(frames)
        if self.render_mode == "human":
            self.render()
        return np.array(obs), float(reward), bool(terminated), bool(truncated), self._info()

    def _info(self) -> dict:
        if self._host is not None:
            return self._host.call("_info")
        if self._state is None:
            raise gymnasium.error.ResetNeeded("call reset() first: the env has no episode yet")
        return {"lives": int(self._state.lives), "episode_frame_number": int(self._state.episode_frames),
                "frame_number": self._frame_number}

    def _screen(self) -> np.ndarray:
        """The RGB screen (210x160x3 uint8) whatever the render mode."""
        if self._host is not None:
            return self._host.call("_screen")
        if self._state is None:
            raise gymnasium.error.ResetNeeded("call reset() first: the env has no screen yet")
        return np.array(self.core.jit_render(self._state))

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the env with "
                                  "render_mode='rgb_array' or 'human'")
            return None
        if self._host is not None:
            return self._host.call("render")
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
            # the display alone: pygame.init() would also open audio (ALSA's complaints on a
            # machine without a sound card), which these envs never play
            pygame.display.init()
            driver = pygame.display.get_driver()
            if driver in HEADLESS_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
                pygame.display.quit()
                raise DropInError(f"render_mode='human': SDL found no display (it chose its "
                                  f"{driver!r} driver, which shows nothing); {NO_DISPLAY_FIX}")
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
        if self._host is not None:
            self._host.close()
            return
        if self._window is not None:
            import pygame

            pygame.display.quit()
            self._window = None

    # ---- pickling: the settings, the generator and the episode, never the compiled functions ----
    def __getstate__(self) -> dict:
        if self._host is not None:
            return self._host.call("__getstate__")
        return {"game": self.settings.game, "settings": _settings_kwargs(self.settings),
                "render_mode": self.render_mode,
                "np_random": None if self._np_random is None else self._np_random.bit_generator.state,
                "np_random_seed": self._np_random_seed, "chain": self._chain,
                "frame_number": self._frame_number, "resets": self._resets,
                "state": None if self._state is None else state_to_numpy(self._state)}

    def __setstate__(self, data: dict) -> None:
        self.__init__(data["game"], render_mode=data["render_mode"], **data["settings"])
        if self._host is not None:
            self._host.call("__setstate__", data)
            return
        if data["np_random"] is not None:
            self._np_random = np.random.Generator(getattr(np.random, data["np_random"]["bit_generator"])())
            self._np_random.bit_generator.state = data["np_random"]
        self._np_random_seed = data["np_random_seed"]
        self._chain, self._frame_number = data["chain"], data["frame_number"]
        self._resets = data.get("resets", 0)
        if data["state"] is not None:
            like = jax.eval_shape(self.core.reset, np.zeros(2, np.uint32))[1]
            self._state = state_from_numpy(data["state"], like)


# ---- what survives pickling and a process boundary ----------------------------------------------

def _settings_kwargs(settings: Settings) -> dict:
    return {f: getattr(settings, f) for f in Settings.__dataclass_fields__ if f != "game"}


def state_to_numpy(state) -> list:
    """The leaves of an env state as numpy arrays (a key as its key data), in tree order."""
    return [np.asarray(jax.random.key_data(x)) if jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)
            else np.asarray(x) for x in jax.tree_util.tree_leaves(state)]


def state_from_numpy(leaves: list, like):
    """The state :func:`state_to_numpy` took apart, on the layout of ``like`` (its shapes and
    dtypes: the env's own reset, traced, so another configuration's state is refused)."""
    specs, treedef = jax.tree_util.tree_flatten(like)
    if len(leaves) != len(specs):
        raise DropInError("the pickled env's state is not one of this configuration's")
    out = []
    for leaf, spec in zip(leaves, specs):
        if jax.dtypes.issubdtype(spec.dtype, jax.dtypes.prng_key):
            out.append(jax.random.wrap_key_data(np.asarray(leaf, np.uint32)))
        else:
            out.append(jax.numpy.asarray(leaf, spec.dtype))
    return jax.tree_util.tree_unflatten(treedef, out)


# ---- human rendering needs a display --------------------------------------------------------------

HEADLESS_DRIVERS = ("offscreen", "dummy")  # SDL video drivers that show no window
NO_DISPLAY_FIX = ("use render_mode='rgb_array' and save or show the frames yourself, run where "
                  "there is a display (set DISPLAY or WAYLAND_DISPLAY), or set SDL_VIDEODRIVER=dummy "
                  "to run without a window on purpose")


def check_display() -> None:
    """Refuse render_mode='human' where no window can be shown (a Linux machine without an X or
    Wayland display), unless SDL_VIDEODRIVER names a driver on purpose."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        raise DropInError(f"render_mode='human' needs a display and there is none (DISPLAY and "
                          f"WAYLAND_DISPLAY are unset): {NO_DISPLAY_FIX}")


# ---- an env made in a forked worker runs in a process of its own ----------------------------------

_FORKED_AFTER_JAX = False


def _after_fork_in_child() -> None:
    global _FORKED_AFTER_JAX
    try:
        from jax._src import xla_bridge

        started = xla_bridge.backends_are_initialized()
    except Exception:  # the check moved in another JAX: assume the runtime had started
        started = True
    _FORKED_AFTER_JAX = _FORKED_AFTER_JAX or started


os.register_at_fork(after_in_child=_after_fork_in_child)


def forked_after_jax() -> bool:
    """Whether this process is a fork of one whose JAX runtime had started (its threads are gone
    here, so the first compile would hang)."""
    return _FORKED_AFTER_JAX


class _Hosted:
    """A :class:`JaxtariEnv` in a fresh interpreter (:func:`_serve`), driven over its
    standard input and output with pickled calls. A subprocess, not a multiprocessing child:
    gymnasium's workers are daemonic, and a daemonic process may not start children."""

    def __init__(self, game: str, render_mode, settings: dict):
        import subprocess

        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        self._proc = subprocess.Popen([sys.executable, "-c", "import jaxtari.gym; jaxtari.gym._serve()"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.call("make", game, render_mode, settings)

    def call(self, name: str, *args, **kwargs):
        import pickle

        if self._proc is None:
            raise DropInError("the env is closed")
        try:
            pickle.dump((name, args, kwargs), self._proc.stdin)
            self._proc.stdin.flush()
            ok, value = pickle.load(self._proc.stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as exc:
            raise DropInError(f"the env's process ended ({exc!r}; exit status "
                              f"{self._proc.poll()})") from None
        if not ok:
            raise value
        return value

    def close(self) -> None:
        if self._proc is not None:
            try:
                self.call("close")
            except Exception:
                pass
            self._proc.stdin.close()
            self._proc.wait(timeout=30)
            self._proc = None


def seeded(seed: int | None) -> tuple[np.random.Generator, np.ndarray]:
    """The ``np_random`` and the chain of episode keys of ``reset(seed=seed)``, seeded as ale-py
    seeds its envs (``AtariEnv.seed_game``: the first word of the seed's SeedSequence seeds the
    generator): the same seed gives jaxtari's env the np_random ALE's has, so a wrapper that draws
    from it (AtariPreprocessing's no-op count) draws the same. The chain is the sequence's third
    and fourth words (ALE seeds its emulator with the second)."""
    words = np.random.SeedSequence(seed).generate_state(4)
    rng, _ = gymnasium.utils.seeding.np_random(int(words[0]))
    return rng, words[2:].astype(np.uint32)


def seed_chain(rng: np.random.Generator) -> np.ndarray:
    """The key data of an env's chain of episode keys, drawn from its gymnasium ``np_random``."""
    return rng.integers(0, 2**32, size=2, dtype=np.uint32)


def _serve() -> None:
    """The hosted env's process (:class:`_Hosted`): pickled calls in on standard input, answers
    out on standard output."""
    import pickle

    # the protocol owns the real standard output; anything printed goes to standard error
    channel_in = sys.stdin.buffer
    channel_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr
    env = None
    while True:
        try:
            name, args, kwargs = pickle.load(channel_in)
        except EOFError:
            break
        try:
            if name == "make":
                game, render_mode, settings = args
                env = JaxtariEnv(game, render_mode=render_mode, **settings)
                result = None
            elif name == "spaces":
                result = (env.observation_space, env.action_space, env.get_action_meanings())
            elif name == "__setstate__":
                env.__setstate__(*args)
                result = None
            else:
                result = getattr(env, name)(*args, **kwargs)
            answer = (True, result)
        except Exception as exc:  # the caller raises it
            answer = (False, exc)
        pickle.dump(answer, channel_out)
        channel_out.flush()
        if name == "close":
            break


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
            kwargs = {"game": game, "repeat_action_probability": V5.repeat_action_probability,
                      "full_action_space": V5.full_action_space, "frameskip": V5.frameskip,
                      "max_num_frames_per_episode": V5.max_num_frames_per_episode, **extra}
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
