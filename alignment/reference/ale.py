"""The real emulator behind the same step semantics as the JAX games.

:class:`AleGame` wraps one ``ale_py.ALEInterface`` (not gymnasium, not a mock). Each :meth:`AleGame.act`
advances exactly one emulator frame (ALE ``frame_skip`` is 1), which is what one raw ``Game.step``
of a jaxtari game does; the ALE v5 protocol (frameskip 4, sticky actions 0.25) is built on top by the
caller (see :mod:`alignment.audit.episodes`); :mod:`alignment.backends` puts this adapter and the JAX
games behind one lockstep API. Keep sticky actions off (0) for probes and matched
comparisons, where the emulator is then fully deterministic.

Sticky actions follow ALE's ``repeat_action_probability`` rule exactly — each frame, with probability
``sticky`` the previous frame's action is applied instead of the new one, the previous action being
NOOP after a reset — but the draw is made here, from a seeded numpy generator, and ALE's own
probability is set to 0. The reason is measured (tests/reference/test_ale.py): ALE's saved state does
not hold the previous action, so after ``restoreState`` the first sticky frame repeats whatever action
the emulator last saw, and a restored run is not an exact continuation. Holding the previous action
and the generator here makes :meth:`AleGame.clone`/:meth:`AleGame.restore` exact with sticky actions on.

Facts this relies on (measured here on ale-py 0.12.1, re-checked in tests/reference/test_ale.py): ``act`` returns that frame's integer reward; ``game_over`` is the
episode end; ``cloneState(include_rng=True)`` captures everything an exact continuation needs,
including the sticky-action RNG.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from jaxtari.env import action_position as position

from alignment import catalog
from alignment.actions import ACTION_NAMES, NOOP
from alignment.plain import whole_number
from alignment.signals import GameEntry

RAM_SIZE = 128
SCREEN_SHAPE = (210, 160, 3)


class AleError(ValueError):
    """Bad input to the ALE adapter (unknown mode, action out of range, RAM write out of range)."""


def _quiet_ale_logger() -> None:
    import ale_py

    # ALE prints a banner and ROM details on every loadROM; errors still come through.
    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)


@dataclasses.dataclass(frozen=True)
class AleSnapshot:
    """A saved emulator state (with its RNG) plus the adapter's own episode counters."""

    state: Any  # ale_py.ALEState
    frame: int
    score: int
    last_action: int  # the ALE action applied on the last frame (what a sticky frame repeats)
    rng_state: dict  # the sticky-action generator's state
    unpaid: int = 0  # points written into RAM that ALE will pay as the next frame's reward


SEED_MAX = 2**32 - 1  # numpy's generator and the folded ALE seed take 32-bit unsigned seeds


def _whole(value, what: str, hint: str) -> int:
    return whole_number(value, what, hint=hint, error=AleError)


class AleGame:
    """One game on the real emulator, one frame per :meth:`act`.

    ``game`` is a catalog name (``"pong"``, ``"Pong"``, ``"ALE/Pong-v5"``). ``sticky`` is the
    repeat-action probability (ALE's rule, drawn here: see the module docstring); ``seed`` seeds ALE
    and the sticky-action generator (it only matters with sticky actions).
    ``mode``/``difficulty`` must be among the ROM's available ones (``None``: the ROM default).
    Action indices for :meth:`step` follow the game's minimal action set in ALE's order (the same
    order as the JAX game's), or all 18 actions with ``full_action_space=True``.
    """

    def __init__(
        self,
        game: str,
        *,
        seed: int = 0,
        sticky: float = 0.0,
        mode: int | None = None,
        difficulty: int | None = None,
        full_action_space: bool = False,
        max_episode_frames: int = 0,
    ):
        import ale_py
        from ale_py import roms

        self.entry: GameEntry = catalog.entry(game)
        seed = _whole(seed, "seed", f"give a whole number 0..{SEED_MAX}")
        if not 0 <= seed <= SEED_MAX:
            raise AleError(f"seed {seed!r} is out of range: give a whole number 0..{SEED_MAX}")
        max_episode_frames = _whole(max_episode_frames, "max_episode_frames",
                                    "give a whole number of frames (0: no cap)")
        if not 0 <= max_episode_frames <= 2**31 - 1:
            raise AleError(f"max_episode_frames {max_episode_frames!r} is out of range: give "
                           f"0 (no cap) to {2**31 - 1}")
        if not 0.0 <= float(sticky) <= 1.0:
            raise AleError(f"sticky (repeat_action_probability) must be within [0, 1], got {sticky}")
        _quiet_ale_logger()
        self._ale_py = ale_py
        ale = ale_py.ALEInterface()
        ale.setInt("random_seed", int(seed) % (2**31))
        ale.setFloat("repeat_action_probability", 0.0)  # sticky actions are drawn here, see above
        ale.setInt("frame_skip", 1)
        ale.setInt("max_num_frames_per_episode", int(max_episode_frames))
        ale.loadROM(roms.get_rom_path(self.entry.rom))
        if mode is not None:
            modes = list(ale.getAvailableModes())
            mode = _whole(mode, f"{self.entry.name}: mode", f"modes: {modes}")
            if mode not in modes:
                raise AleError(f"{self.entry.name}: mode {mode} not available; modes: {modes}")
            ale.setMode(int(mode))
        if difficulty is not None:
            diffs = list(ale.getAvailableDifficulties())
            difficulty = _whole(difficulty, f"{self.entry.name}: difficulty",
                                f"difficulties: {diffs}")
            if difficulty not in diffs:
                raise AleError(
                    f"{self.entry.name}: difficulty {difficulty} not available; difficulties: {diffs}"
                )
            ale.setDifficulty(int(difficulty))
        self.ale = ale
        self.seed = int(seed)
        self.sticky = float(sticky)
        self.full_action_space = bool(full_action_space)
        if full_action_space:
            ids = tuple(range(len(ACTION_NAMES)))
        else:
            ids = tuple(int(a.value) for a in ale.getMinimalActionSet())
        self.action_ids: tuple[int, ...] = ids
        self._actions = [ale_py.Action(i) for i in range(len(ACTION_NAMES))]
        self._rng = np.random.default_rng(int(seed))
        self._last_action = NOOP
        self._frame = 0
        self._score = 0
        self._unpaid = 0
        self.reset()

    # ---- actions ----------------------------------------------------------------------------
    @property
    def action_names(self) -> tuple[str, ...]:
        return tuple(ACTION_NAMES[i] for i in self.action_ids)

    @property
    def num_actions(self) -> int:
        return len(self.action_ids)

    def action_index(self, name: str) -> int:
        i = position(self.action_names, name)
        if i is None:
            raise AleError(
                f"{self.entry.name}: unknown action {name!r}; this game's actions are: "
                f"{', '.join(self.action_names)}"
            )
        return i

    # ---- the episode --------------------------------------------------------------------------
    def reset(self) -> None:
        self.ale.reset_game()
        self._last_action = NOOP
        self._frame = 0
        self._score = 0
        self._unpaid = 0

    def act(self, ale_action: int) -> int:
        """Advance one emulator frame with ALE action id ``ale_action`` (0..17); returns its reward.

        After game over the console is frozen: nothing advances and the reward is 0 (as the JAX
        wrappers do), until :meth:`reset`.
        """
        a = _whole(ale_action, "ALE action id", f"give 0..{len(ACTION_NAMES) - 1}")
        if not 0 <= a < len(ACTION_NAMES):
            raise AleError(f"ALE action ids are 0..{len(ACTION_NAMES) - 1}, got {ale_action!r}")
        if self.ale.game_over():
            return 0
        if self.sticky > 0.0 and self._rng.random() < self.sticky:
            a = self._last_action
        self._last_action = a
        r = int(self.ale.act(self._actions[a])) - self._unpaid
        self._unpaid = 0
        self._frame += 1
        self._score += r
        return r

    def step(self, index: int) -> int:
        """One frame of the action at ``index`` in this game's action set; returns its reward."""
        i = _whole(index, f"{self.entry.name}: action index",
                   f"give 0..{len(self.action_ids) - 1} ({', '.join(self.action_names)})")
        if not 0 <= i < len(self.action_ids):
            raise AleError(
                f"{self.entry.name}: action index {index!r} out of range 0..{len(self.action_ids) - 1} "
                f"({', '.join(self.action_names)})"
            )
        return self.act(self.action_ids[i])

    def repeat(self, index: int, frames: int) -> int:
        """``frames`` frames of the action at ``index`` (one agent step of ALE v5 with frames=4);
        returns the summed reward. Stops early at game over."""
        total = 0
        n = _whole(frames, "frames", "give a whole number of emulator frames >= 0")
        if n < 0:
            raise AleError(f"frames must be >= 0, got {frames!r}")
        for _ in range(n):
            total += self.step(index)
            if self.terminated:
                break
        return total

    # ---- what can be read ---------------------------------------------------------------------
    @property
    def ram(self) -> np.ndarray:
        return np.asarray(self.ale.getRAM(), dtype=np.uint8).copy()

    @property
    def lives(self) -> int:
        return int(self.ale.lives())

    @property
    def terminated(self) -> bool:
        return bool(self.ale.game_over())

    @property
    def truncated(self) -> bool:
        return bool(self.ale.game_truncated())

    @property
    def frame(self) -> int:
        """Emulator frames advanced since :meth:`reset`."""
        return self._frame

    @property
    def score(self) -> int:
        """Rewards summed since :meth:`reset`."""
        return self._score

    def rgb(self) -> np.ndarray:
        return np.asarray(self.ale.getScreenRGB(), dtype=np.uint8).reshape(SCREEN_SHAPE)

    def gray(self) -> np.ndarray:
        return np.asarray(self.ale.getScreenGrayscale(), dtype=np.uint8).reshape(SCREEN_SHAPE[:2])

    def signals(self) -> dict[str, Any]:
        """Every catalog signal: ``score``, ``lives``, ``terminated``, ``frame`` from the emulator,
        then the game's own signals decoded from RAM."""
        out: dict[str, Any] = {
            "score": self.score,
            "lives": self.lives,
            "terminated": self.terminated,
            "frame": self.frame,
        }
        out.update(self.entry.ale_signals(self.ram))
        return out

    # ---- state ----------------------------------------------------------------------------------
    def clone(self) -> AleSnapshot:
        """Everything needed to continue exactly from here, the sticky-action RNG included."""
        return AleSnapshot(
            self.ale.cloneState(include_rng=True), self._frame, self._score, self._last_action,
            self._rng.bit_generator.state, self._unpaid,
        )

    def restore(self, snapshot: AleSnapshot) -> None:
        if not isinstance(snapshot, AleSnapshot):
            raise AleError(f"restore() takes what clone() returned, got {type(snapshot).__name__}")
        self.ale.restoreState(snapshot.state)
        self._frame = snapshot.frame
        self._score = snapshot.score
        self._last_action = snapshot.last_action
        self._rng.bit_generator.state = snapshot.rng_state
        self._unpaid = snapshot.unpaid

    def set_score(self, score: int) -> None:
        """Count ``score`` as the score from now on, after the game's score was written into RAM.

        ALE pays a game's score change as the reward of the next frame (its reward is the RAM
        score's change over a frame), so without this a written score would arrive as one large
        reward; here it is the score at once and that frame's reward is only what the frame scored.
        """
        self._unpaid += int(score) - self._score
        self._score = int(score)

    def poke(self, poke, value: int) -> None:
        """Write a registered quantity (:class:`alignment.signals.Poke`, value checked by the
        caller): its RAM bytes, and for the score :meth:`set_score`."""
        for address, byte in poke.ram(int(value)).items():
            self.set_ram(address, byte)
        if poke.score:
            self.set_score(int(value))

    def set_ram(self, index: int, value: int) -> None:
        i = _whole(index, "RAM index", f"give 0..{RAM_SIZE - 1}")
        v = _whole(value, "a RAM byte", "give 0..255")
        if not 0 <= i < RAM_SIZE:
            raise AleError(f"RAM index must be within 0..{RAM_SIZE - 1}, got {index!r}")
        if not 0 <= v <= 255:
            raise AleError(f"a RAM byte holds 0..255, got {value!r}")
        self.ale.setRAM(i, v)

    def __repr__(self) -> str:
        return f"AleGame({self.entry.name!r}, seed={self.seed}, sticky={self.sticky})"
