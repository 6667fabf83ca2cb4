"""``gymnasium.make_vec("jaxtari/Pong-v5", num_envs=N)``: N envs stepped in one compiled call.

It behaves exactly like gymnasium's ``SyncVectorEnv`` over N ``jaxtari/Pong-v5`` envs (same
observations, rewards, terminations, truncations and infos step by step, for the autoreset mode
declared in ``metadata["autoreset_mode"]``: next-step (the default), same-step or disabled), because
sub-env i is seeded as SyncVectorEnv seeds it (``seed + i``) and draws its episodes' keys as the
single env does (:func:`jaxtari.dropin.episode_key`). Resets happen inside the compiled step,
behind a branch taken only when some env resets.
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from jaxtari import dropin
from jaxtari.dropin import DropInError, Settings
from jaxtari.gym import RENDER_FPS, check_settings, seeded, state_from_numpy, state_to_numpy
from jaxtari.xla import select_tree

INFO_KEYS = ("lives", "episode_frame_number", "frame_number")
MAX_ENVS = 2**20  # a batch index fits int32 with room; more envs than this fit no memory anyway


def _rows(mask, on_true, on_false):
    """Per env (leading axis), ``on_true`` where ``mask`` else ``on_false``, over a whole tree."""
    return jax.vmap(select_tree)(mask, on_true, on_false)


class _Batched:
    """A configuration's compiled batch functions (shared by every vector env built with it)."""

    def __init__(self, core: dropin.Core):
        self.core = core
        reset, step = jax.vmap(core.reset), jax.vmap(core.step)
        observe = jax.vmap(core.observe)

        def reset_rows(state, chain, mask, timers):
            # rows not in the mask keep their state and chain (the branch runs only when any is set)
            new_chain, fresh, _ = reset(chain, timers)
            state = fresh if state is None else _rows(mask, fresh, state)
            chain = jnp.where(mask[:, None], new_chain, chain)
            return state, chain, observe(state)

        def reset_if_any(state, chain, mask, timers):
            return jax.lax.cond(mask.any(), lambda: reset_rows(state, chain, mask, timers)[:2],
                                lambda: (state, chain))

        def next_step(state, chain, actions, autoreset, timers):
            stepped, _, reward, term, trunc, frames = step(state, actions)
            state, chain = reset_if_any(_rows(autoreset, state, stepped), chain, autoreset, timers)
            zero = jnp.zeros_like(term)
            return (state, chain, observe(state), jnp.where(autoreset, 0.0, reward),
                    jnp.where(autoreset, zero, term), jnp.where(autoreset, zero, trunc),
                    jnp.where(autoreset, 0, frames))

        def same_step(state, chain, actions, timers):
            stepped, final_obs, reward, term, trunc, frames = step(state, actions)
            ended = term | trunc
            final_lives, final_frames = stepped.lives, stepped.episode_frames
            state, chain = reset_if_any(stepped, chain, ended, timers)
            obs = jax.lax.cond(ended.any(), lambda: observe(state), lambda: final_obs)
            return (state, chain, obs, reward, term, trunc, frames, final_obs, final_lives, final_frames)

        def disabled(state, chain, actions, timers):
            stepped, obs, reward, term, trunc, frames = step(state, actions)
            return stepped, chain, obs, reward, term, trunc, frames

        self.reset_all = jax.jit(lambda chain, timers: reset_rows(None, chain, jnp.ones(chain.shape[0], bool),
                                                                  timers))
        self.reset_rows = jax.jit(reset_rows)
        self.steps = {
            AutoresetMode.NEXT_STEP: jax.jit(next_step),
            AutoresetMode.SAME_STEP: jax.jit(same_step),
            AutoresetMode.DISABLED: jax.jit(disabled),
        }


@functools.lru_cache(maxsize=None)
def _batched(settings: Settings) -> _Batched:
    return _Batched(dropin.core(settings))


class JaxtariVectorEnv(gymnasium.vector.VectorEnv):
    """N jaxtari envs of one configuration as a gymnasium ``VectorEnv`` (numpy in and out)."""

    def __init__(self, game: str = "pong", num_envs: int = 1, *,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 render_mode: str | None = None, **settings: Any):
        num_envs = dropin.whole_number("num_envs", num_envs, 1, MAX_ENVS)
        by_name = {m.name: m for m in AutoresetMode}
        try:
            self.autoreset_mode = by_name.get(str(autoreset_mode).upper()) or AutoresetMode(autoreset_mode)
        except ValueError:
            raise DropInError(f"autoreset_mode={autoreset_mode!r}: expected one of "
                              f"{', '.join(m.value for m in AutoresetMode)}") from None
        if render_mode not in (None, "rgb_array"):
            raise DropInError(f"render_mode={render_mode!r}: the vector env renders 'rgb_array' "
                              "(every env's screen) or nothing")
        if "max_episode_steps" in settings:
            raise DropInError(
                f"max_episode_steps={settings['max_episode_steps']!r}: gymnasium's TimeLimit, which "
                "the vector env does not apply; cap episodes with max_num_frames_per_episode "
                "(frames: steps x frameskip), or use vectorization_mode='sync' for TimeLimit itself")
        check_settings(settings)
        self.settings = Settings.make(game, **settings)
        self._fns = _batched(self.settings)
        core = self._fns.core
        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["rgb_array"], "render_fps": RENDER_FPS,
                         "autoreset_mode": self.autoreset_mode}
        self.single_observation_space = core.observation_space
        self.single_action_space = core.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._rngs: list[np.random.Generator | None] = [None] * self.num_envs
        self._chain = np.zeros((self.num_envs, 2), np.uint32)
        # per env, reset_game calls since its ALE env would have loaded the ROM (as the single env's)
        self._resets = np.zeros(self.num_envs, np.int64)
        self._state = None
        self._frame_number = np.zeros(self.num_envs, np.int64)
        self._ended = np.zeros(self.num_envs, bool)

    def _seed(self, i: int, seed: int | None) -> None:
        """Sub-env i's generator and chain, as ``Env.reset(seed=...)`` makes them."""
        if seed is not None or self._rngs[i] is None:
            self._rngs[i], self._chain[i] = seeded(seed)
            self._frame_number[i] = 0
            self._resets[i] = 0

    def _seeds(self, seed) -> list[int | None]:
        """Each sub-env's seed, as SyncVectorEnv hands them out (an int: env i gets seed + i; a
        sequence: one per env), each checked as a single env's seed is."""
        if seed is None or isinstance(seed, (bool, np.bool_, int, np.integer)):
            first = dropin.seed_value("seed", seed)
            return [None if first is None else first + i for i in range(self.num_envs)]
        if isinstance(seed, (str, bytes)) or not isinstance(seed, (list, tuple, np.ndarray)):
            raise DropInError(f"seed={seed!r}: expected None, a whole number >= 0 (env i gets seed + i) "
                              f"or a sequence of {self.num_envs} seeds, one per env")
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise DropInError(f"{len(seeds)} seeds for {self.num_envs} envs: give one per env, "
                              "an int (env i gets seed + i) or None")
        return [dropin.seed_value(f"seed[{i}]", s) for i, s in enumerate(seeds)]

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict | None = None):
        seeds = self._seeds(seed)
        mask = np.ones(self.num_envs, bool)
        options = dict(options or {})
        if "reset_mask" in options:
            mask = np.asarray(options.pop("reset_mask"))
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_ or not mask.any():
                raise DropInError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},) "
                                  "with at least one True")
            if self._state is None and not mask.all():
                raise DropInError("the first reset resets every env: leave out options['reset_mask']")
        for i in np.flatnonzero(mask):
            self._seed(int(i), seeds[i])
        self._resets[mask] += 1
        timers = dropin.riot_start_timers(np.maximum(self._resets, 1))
        if self._state is None:
            state, chain, obs = self._fns.reset_all(self._chain, timers)
        else:
            state, chain, obs = self._fns.reset_rows(self._state, self._chain, mask, timers)
        self._state, self._chain = state, np.array(chain)
        self._ended[mask] = False
        return np.array(obs), self._infos(mask)

    def step(self, actions):
        if self._state is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        # a bool among ints would become 0 or 1 in the array: a move nobody chose
        mixed = isinstance(actions, (list, tuple)) and any(isinstance(a, (bool, np.bool_)) for a in actions)
        actions = np.asarray(actions)
        n = self.single_action_space.n
        if mixed or actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer) \
                or actions.min() < 0 or actions.max() >= n:
            raise DropInError(f"actions must be {self.num_envs} integers in 0..{n - 1}, got {actions!r}")
        actions = actions.astype(np.int32)
        mode = self.autoreset_mode
        fn = self._fns.steps[mode]
        # the timers an env resetting in this step meets
        timers = dropin.riot_start_timers(self._resets + 1)
        if mode == AutoresetMode.NEXT_STEP:
            out = fn(self._state, self._chain, actions, self._ended, timers)
            self._resets[self._ended] += 1
        else:
            if mode == AutoresetMode.DISABLED and self._ended.any():
                raise DropInError(f"envs {np.flatnonzero(self._ended).tolist()} have ended and autoreset is "
                                  "disabled: reset them with reset(options={'reset_mask': mask}) first")
            out = fn(self._state, self._chain, actions, timers)
        state, chain, obs, reward, term, trunc, frames = out[:7]
        if mode == AutoresetMode.SAME_STEP:
            self._resets[np.asarray(term) | np.asarray(trunc)] += 1
        self._state, self._chain = state, np.array(chain)
        self._frame_number += np.asarray(frames, np.int64)
        term, trunc = np.array(term), np.array(trunc)
        infos: dict[str, Any] = {}
        if mode == AutoresetMode.SAME_STEP and (term | trunc).any():
            infos = self._final(out[7:], term | trunc)
        infos.update(self._infos(np.ones(self.num_envs, bool)))
        self._ended = term | trunc
        return np.array(obs), np.array(reward, np.float64), term, trunc, infos

    def _info_values(self) -> dict[str, np.ndarray]:
        return {"lives": np.asarray(self._state.lives, np.int64),
                "episode_frame_number": np.asarray(self._state.episode_frames, np.int64),
                "frame_number": self._frame_number.copy()}

    def _infos(self, mask: np.ndarray) -> dict[str, np.ndarray]:
        """ALE's info of the envs in ``mask``, batched as SyncVectorEnv batches it (a ``_key``
        mask per key; zeros outside the mask)."""
        out = {}
        for key, value in self._info_values().items():
            out[key] = np.where(mask, value, 0)
            out[f"_{key}"] = mask.copy()
        return out

    def _final(self, finals, ended: np.ndarray) -> dict[str, Any]:
        """Same-step autoreset's ``final_obs`` and ``final_info`` for the envs that ended."""
        final_obs, final_lives, final_frames = (np.asarray(x) for x in finals)
        obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(ended):
            obs[i] = np.array(final_obs[i])
        values = {"lives": final_lives.astype(np.int64), "episode_frame_number": final_frames.astype(np.int64),
                  "frame_number": self._frame_number.copy()}
        info = {}
        for key, value in values.items():
            info[key] = np.where(ended, value, 0)
            info[f"_{key}"] = ended.copy()
        return {"final_obs": obs, "_final_obs": ended.copy(), "final_info": info, "_final_info": ended.copy()}

    def render(self):
        if self.render_mode != "rgb_array":
            return None
        if self._state is None:
            raise gymnasium.error.ResetNeeded("call reset() before render()")
        return tuple(np.array(jax.vmap(self._fns.core.jit_render)(self._state)))

    def close_extras(self, **kwargs):
        self._state = None

    # ---- pickling: the settings, generators and episodes, never the compiled functions ----------
    def __getstate__(self) -> dict:
        return {"game": self.settings.game,
                "settings": {f: getattr(self.settings, f) for f in Settings.__dataclass_fields__
                             if f != "game"},
                "num_envs": self.num_envs, "autoreset_mode": self.autoreset_mode.value,
                "render_mode": self.render_mode, "rngs": self._rngs, "chain": self._chain,
                "frame_number": self._frame_number, "ended": self._ended, "resets": self._resets,
                "state": None if self._state is None else state_to_numpy(self._state)}

    def __setstate__(self, data: dict) -> None:
        self.__init__(data["game"], data["num_envs"], autoreset_mode=data["autoreset_mode"],
                      render_mode=data["render_mode"], **data["settings"])
        self._rngs, self._chain = data["rngs"], data["chain"]
        self._frame_number, self._ended = data["frame_number"], data["ended"]
        self._resets = data.get("resets", np.zeros(self.num_envs, np.int64))
        if data["state"] is not None:
            like = jax.eval_shape(self._fns.reset_all, self._chain, dropin.riot_start_timers(
                np.ones(self.num_envs, np.int64)))[0]
            self._state = state_from_numpy(data["state"], like)
