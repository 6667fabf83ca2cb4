"""What the drop-in front-ends share: ALE's keyword arguments checked and turned into a game and
the v5 protocol (:class:`~jaxtari.wrappers.AtariWrapper`), observations of ALE's kinds, and the
compiled functions, built once per configuration.

:mod:`jaxtari.gym` (gymnasium ids and the vector env) and :mod:`jaxtari.envpool` sit on this.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re

import gymnasium
from gymnasium.envs.registration import parse_env_id
import jax
import jax.numpy as jnp
import numpy as np

import jaxtari
from jaxtari import names
from jaxtari.env import UnknownGameError
from jaxtari.mods import InternalMod
from jaxtari.protocol import V5
from jaxtari.render import gray
from jaxtari.wrappers import INT32_MAX, MAX_FRAMESKIP, AtariWrapper

OBS_TYPES = ("rgb", "grayscale", "objects")


class DropInError(gymnasium.error.Error, ValueError):
    """A drop-in argument jaxtari cannot honour; the message names it and what to use instead."""


# The compiled step counts frames and steps in int32; every count a front-end takes is checked
# against the wrapper's bounds (INT32_MAX, MAX_FRAMESKIP) first, so a number JAX would wrap or
# overflow is refused by name.
MAX_MODE = 255  # ALE's modes and difficulties are one byte
# ALE's max_num_frames_per_episode=None (or 0) means no cap; the wrapper counts frames in int32, and
# a count at this "cap" plus any frameskip still fits (it is ~414 days of play at 60 Hz).
NO_CAP = INT32_MAX - MAX_FRAMESKIP


def whole_number(name: str, value, low: int, high: int, *, hint: str = "") -> int:
    """``value`` as an int when it is a whole number in ``low..high`` (a bool or a float is no
    whole number), else a :class:`DropInError` naming ``name`` and the range: the one check of every
    integer the drop-in front-ends take, with ranges that fit what the compiled step carries."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or not low <= int(value) <= high:
        raise DropInError(f"{name}={value!r}: expected a whole number from {low:,} to {high:,}"
                          + (f" ({hint})" if hint else ""))
    return int(value)


def seed_value(name: str, value) -> int | None:
    """``value`` as an int when it is None or a whole number >= 0 (the seeds gymnasium's
    ``np_random`` and numpy's ``SeedSequence`` take, of any size), else a :class:`DropInError`
    naming ``name``: the one check of every gymnasium seed the drop-in front-ends take. A numpy
    integer is taken as its value; a bool is no seed (True would seed as 1)."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or int(value) < 0:
        raise DropInError(f"{name}={value!r}: expected None or a whole number >= 0, as gymnasium's "
                          "seeds are")
    return int(value)


def flag(name: str, value) -> bool:
    """``value`` when it is True or False (a string such as "False" is refused, never read as
    True)."""
    if not isinstance(value, (bool, np.bool_)):
        raise DropInError(f"{name}={value!r}: expected True or False")
    return bool(value)


def env_name(game: str) -> str:
    """A canonical game name as ALE's ids spell it: ``"pong"`` -> ``"Pong"``,
    ``"space_invaders"`` -> ``"SpaceInvaders"``."""
    return game.title().replace("_", "")


# What an id may add to a game's name (the part jaxtari.names.key reduces away): ALE's
# "<Game>NoFrameskip" ids are the same game with v4 settings, which the caller's arguments give.
_VARIANTS_GIVEN = ("", "noframeskip")
_RAM_VARIANT = "ram"  # "<Game>-ram", "<Game>-ramNoFrameskip", "<Game>-ramDeterministic"
_DETERMINISTIC_VARIANT = "deterministic"


def game_from_id(task_id: str) -> str:
    """``"Pong-v5"``, ``"jaxtari/Pong-v5"``, ``"PongNoFrameskip-v4"``, ``"pong"`` -> ``"pong"``, or a
    :class:`DropInError` naming the games there are (with the closest first), or why ALE's -ram and
    Deterministic ids are refused.

    The id is split as gymnasium splits its ids (namespace, name, version) and the name read by the
    one game-name rule (:func:`jaxtari.names.key`, through :func:`jaxtari.canonical_name`); what that
    rule reduced away from the name is the id's variant, and only the variants given are accepted.
    """
    try:
        _, name, _ = parse_env_id(str(task_id))
    except gymnasium.error.Error:
        raise DropInError(f"{task_id!r} is not an id: write [namespace/]<Game>-v<version>, such as "
                          f"{', '.join(_ids())}") from None
    try:
        game = jaxtari.canonical_name(name)
    except UnknownGameError as exc:
        ids = _ids()
        close = difflib.get_close_matches(f"{name}-v5", ids, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise DropInError(f"{exc}.{hint} Ids: {', '.join(ids)}") from None
    written = re.sub(r"[^a-z0-9]", "", name.lower())
    variant = written[len(names.key(game)):] if written.startswith(names.key(game)) else written
    if variant in _VARIANTS_GIVEN:
        return game
    # the name rule reads "Pong-ram" and "PongDeterministic" as Pong, but those ids ask for
    # observations and a frameskip these ids do not give
    if variant.startswith(_RAM_VARIANT):
        raise DropInError(f"{task_id!r}: RAM observations are not emulated (each game is rewritten in "
                          "JAX); use the game's id without -ram and obs_type='objects'")
    if variant.endswith(_DETERMINISTIC_VARIANT):
        raise DropInError(f"{task_id!r}: ALE's Deterministic ids are not registered; use the game's "
                          f"-v5 id with frameskip={V5.frameskip} and repeat_action_probability=0.0")
    raise DropInError(f"{task_id!r}: not an id jaxtari registers; ids: {', '.join(_ids())}")


def _ids() -> list[str]:
    return [f"{env_name(g)}-v5" for g in jaxtari.list_games()]


@dataclasses.dataclass(frozen=True)
class Settings:
    """ALE's keyword arguments (``ale_py.env.AtariEnv``), checked; hashable, so compiled functions
    are shared by every env built with the same ones."""

    game: str
    obs_type: str = "rgb"
    frameskip: int = V5.frameskip
    repeat_action_probability: float = V5.repeat_action_probability
    full_action_space: bool = V5.full_action_space
    mode: int | None = None
    difficulty: int | None = None
    max_num_frames_per_episode: int | None = V5.max_num_frames_per_episode

    @staticmethod
    def make(game: str, **kwargs) -> "Settings":
        game = game_from_id(game)
        obs_type = kwargs.get("obs_type", "rgb")
        if obs_type == "ram":
            raise DropInError(
                "obs_type='ram': jaxtari does not emulate the console's RAM (each game is rewritten "
                "in JAX, not emulated); use obs_type='objects' for the game's object-centric state "
                "(positions, sizes, attributes), or 'rgb' / 'grayscale' for the screen")
        if obs_type not in OBS_TYPES:
            raise DropInError(f"obs_type={obs_type!r}: expected one of {', '.join(OBS_TYPES)}")
        frameskip = kwargs.get("frameskip", V5.frameskip)
        if isinstance(frameskip, tuple):
            raise DropInError(
                f"frameskip={frameskip!r}: stochastic frameskip (ALE's -v0/-v4 ids) is not supported; "
                f"give a whole number of frames ({V5.frameskip} as in -v5, 1 as in NoFrameskip-v4)")
        frameskip = whole_number("frameskip", frameskip, 1, MAX_FRAMESKIP,
                                 hint=f"frames per step: {V5.frameskip} as in -v5, 1 as in "
                                      "NoFrameskip-v4")
        prob = kwargs.get("repeat_action_probability", V5.repeat_action_probability)
        if isinstance(prob, (bool, np.bool_)) or not isinstance(prob, (int, float, np.floating, np.integer)) \
                or not 0.0 <= float(prob) <= 1.0:
            raise DropInError(f"repeat_action_probability={prob!r}: expected a number in [0, 1]")
        cap = kwargs.get("max_num_frames_per_episode", V5.max_num_frames_per_episode)
        if cap is not None:
            cap = whole_number("max_num_frames_per_episode", cap, 0, INT32_MAX - frameskip,
                               hint="0 or None: no cap; the frame count is carried in int32")
        mode, difficulty = (None if kwargs.get(n) is None else whole_number(n, kwargs[n], 0, MAX_MODE)
                            for n in ("mode", "difficulty"))
        return Settings(
            game=game, obs_type=obs_type, frameskip=frameskip,
            repeat_action_probability=float(prob),
            full_action_space=flag("full_action_space",
                                   kwargs.get("full_action_space", V5.full_action_space)),
            mode=mode, difficulty=difficulty,
            max_num_frames_per_episode=None if not cap else cap,
        )


def build_game(game: str, *, mode=None, difficulty=None, full_action_space=False):
    """The game with ALE's mode and difficulty applied; a game without them takes only ALE's
    default (None or 0)."""
    cls = jaxtari.game_class(game)
    fields = {f.name for f in dataclasses.fields(cls.Constants)}
    constants = {}
    for name, value in (("mode", mode), ("difficulty", difficulty)):
        if value is None:
            continue
        if name in fields:
            constants[name] = value
        elif value != 0:
            raise DropInError(f"{name}={value}: jaxtari's {env_name(game)} models only ALE's default "
                              f"{name} (0); leave {name} unset")
    mods = [InternalMod("ale-settings", "ALE mode and difficulty", constants=constants)] if constants else []
    built = jaxtari.make(game, mods=mods, full_action_space=full_action_space)
    try:  # the games check their mode and difficulty when a state is made
        jax.eval_shape(built.reset, jax.random.key(0))
    except ValueError as exc:
        raise DropInError(str(exc)) from None
    return built


# ALE's reset_game restarts the console (StellaEnvironment::reset calls System::reset), and
# Stella's M6532::reset starts the RIOT timer at 25 + (a draw of the console's generator) % 75. That
# generator is seeded with ALE's fixed system_random_seed whatever the env's seed, and a ROM's load
# takes the first draws (measured on ale-py 0.12.1 with 4K cartridges, which keep no RAM: 132, the
# RIOT's 128 bytes and four resets' timers), so the n-th reset_game after a load meets the same timer
# in every process and for every seed. A game whose start depends on it says how (ale_start).
ALE_SYSTEM_SEED = 4753849
DRAWS_BEFORE_FIRST_RESET = 132
RIOT_TIMER_MIN, RIOT_TIMER_VALUES = 25, 75
_riot_draws = np.zeros(0, np.uint32)


def riot_start_timers(resets) -> np.ndarray:
    """The RIOT timers ALE's ``resets``-th reset_game calls since the ROM's load start the console
    with (1: the first, which every env's first ``reset()`` is), elementwise, as int32."""
    global _riot_draws
    resets = np.asarray(resets, np.int64)
    if resets.size and resets.min() < 1:
        raise ValueError(f"resets count reset_game calls from 1, got {resets.min()}")
    index = DRAWS_BEFORE_FIRST_RESET + resets - 1
    last = int(index.max(initial=0))
    if last >= _riot_draws.size:
        # the stream from its start each time it grows (doubling), so its n-th draw never moves
        size = max(2 * _riot_draws.size, last + 1, 1024)
        _riot_draws = np.random.RandomState(ALE_SYSTEM_SEED).randint(0, 2**32, size=size, dtype=np.uint32)
    return (RIOT_TIMER_MIN + _riot_draws[index] % RIOT_TIMER_VALUES).astype(np.int32)


def riot_start_timer(resets: int) -> int:
    """:func:`riot_start_timers` of one count."""
    return int(riot_start_timers(resets))


FIRST_RESET_TIMER = riot_start_timer(1)


def episode_key(chain: jax.Array):
    """(next chain, this episode's key) from a chain of key data (uint32[2]); every front-end's
    resets draw their keys this way, so a vector env's sub-env i replays a single env exactly."""
    nxt, key = jax.random.split(jax.random.wrap_key_data(chain))
    return jax.random.key_data(nxt), key


class Core:
    """One configuration's game, v5 protocol and observation, as pure functions."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.game = build_game(settings.game, mode=settings.mode, difficulty=settings.difficulty,
                               full_action_space=settings.full_action_space)
        cap = settings.max_num_frames_per_episode
        self.atari = AtariWrapper(self.game, frameskip=settings.frameskip,
                                  sticky_prob=settings.repeat_action_probability, noop_max=V5.noop_max,
                                  max_episode_frames=NO_CAP if cap is None else cap, autoreset=False)
        like = jax.eval_shape(lambda k: self.observe(self.atari.reset(k)[1]), jax.random.key(0))
        if settings.obs_type == "objects":
            self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, like.shape, np.float32)
        else:
            self.observation_space = gymnasium.spaces.Box(0, 255, like.shape, np.uint8)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)

    def observe(self, state):
        gs = state.game_state
        if self.settings.obs_type == "objects":
            return self.game.observation(gs)
        screen = self.game.render(gs)
        return screen if self.settings.obs_type == "rgb" else gray(screen)

    def reset(self, chain, timer=FIRST_RESET_TIMER):
        """(chain, state, obs) of a new episode, started as ALE's reset_game starts it when the
        console's RIOT timer begins at ``timer`` (:func:`riot_start_timer`)."""
        chain, key = episode_key(chain)
        _, state = self.atari.reset(key)
        ale_start = getattr(self.game, "ale_start", None)
        if ale_start is not None:
            state = state.replace(game_state=ale_start(state.game_state, jnp.int32(timer)))
        return chain, state, self.observe(state)

    def step(self, state, action):
        """(state, obs, reward, terminated, truncated, frames this step advanced)."""
        _, new, reward, _, info = self.atari.step(state, action)
        frames = new.episode_frames - state.episode_frames
        return new, self.observe(new), reward, info["terminated"], info["truncated"], frames

    def lives(self, state):
        return state.lives

    @functools.cached_property
    def jit_reset(self):
        return jax.jit(self.reset)

    @functools.cached_property
    def jit_step(self):
        return jax.jit(self.step)

    @functools.cached_property
    def jit_render(self):
        return jax.jit(lambda state: self.game.render(state.game_state))


@functools.lru_cache(maxsize=None)
def core(settings: Settings) -> Core:
    return Core(settings)
