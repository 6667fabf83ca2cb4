"""The JAX game's object-centric observation, decoded from ALE RAM (the ALE side of OC training).

Stress-local until the per-game ground-truth modules (``alignment/reference/games/<game>.py``)
land; then each game's ``state_fields`` moves next to its signals there as ``features(ram)``.

The feature layout has one home, the JAX game's ``observation(state)``. Here RAM is decoded into the
state fields that observation reads (positions, the frame counter, ...) and the game's own
observation is evaluated on them, so the two sides cannot disagree on order, sizes or geometry;
they can only disagree where the RAM decoding does, which tests/stress/test_ram_features.py
measures frame by frame on matched runs. RAM addresses and their sources are the catalog's
(:mod:`alignment.catalog`); the ones only used here say where they come from.
"""

from __future__ import annotations

from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np


def _bcd(byte: np.ndarray) -> np.ndarray:
    b = byte.astype(np.int32)
    return (b >> 4) * 10 + (b & 0x0F)


def pong_state_fields(ram: np.ndarray, game) -> dict[str, np.ndarray]:
    """Pong's state keeps the kernel's RAM units: paddles ram[51] (agent) / ram[50] (computer),
    ball ram[49] (x) / ram[54] (y) (OCAtari's Pong extractor, see the catalog)."""
    r = ram.astype(np.int32)
    return {"player_y": r[:, 51], "enemy_y": r[:, 50], "ball_x": r[:, 49], "ball_y": r[:, 54]}


FREEWAY_CROSSING_BIT = 0x80  # ram[106] after a crossing (measured here, see jaxtari.games.freeway)
FREEWAY_HIT_BIT = 0x40  # ram[106] after a hit
FREEWAY_COUNT_MASK = 0x3F


def freeway_state_fields(ram: np.ndarray, game) -> dict[str, np.ndarray]:
    """Freeway: frame = 256*ram[105] + ram[1], climb = ram[14], cars ram[117..108] (lanes top to
    bottom), the hurt pose and the score the digits show from the wait counter ram[106] (all as in
    the catalog and jaxtari.games.freeway's module docstring)."""
    r = ram.astype(np.int32)
    frame = 256 * r[:, 105] + r[:, 1]
    wait = r[:, 106]
    count = wait & FREEWAY_COUNT_MASK
    # The digits latch the score on odd frames, so they lag a crossing by one or two frames: on the
    # crossing frame (wait count still cross_wait, or cross_wait - 1 after an even frame's tick) and
    # on the next frame when that one is even.
    crossing = (wait & FREEWAY_CROSSING_BIT) != 0
    full = game.consts.cross_wait
    lagging = crossing & ((count == full) | ((count == full - 1) & (frame % 2 == 0)))
    score = _bcd(ram[:, 103])
    return {
        "frame": frame,
        "climb": r[:, 14],
        "car_x": r[:, 117:107:-1],
        "hurt_pose": ((wait & FREEWAY_HIT_BIT) != 0) & (count > 0),
        "shown_score": np.where(lagging, score - 1, score),
    }


STATE_FIELDS: dict[str, Callable] = {"pong": pong_state_fields, "freeway": freeway_state_fields}


class UnsupportedFeatures(ValueError):
    pass


class FeatureDecoder:
    """``decoder(rams (N, 128) uint8) -> (N, F) float32``: the JAX game's ``observation`` for each
    RAM snapshot (one compiled call per batch)."""

    def __init__(self, game_name: str):
        import jaxtari

        if game_name not in STATE_FIELDS:
            raise UnsupportedFeatures(
                f"no RAM decoding of {game_name}'s object features yet; games with one: "
                f"{', '.join(sorted(STATE_FIELDS))}")
        self.game = jaxtari.make(game_name)
        self._fields = STATE_FIELDS[game_name]
        _, template = self.game.reset(jax.random.key(0))

        def one(fields):
            state = template.replace(**{k: jnp.asarray(v, getattr(template, k).dtype)
                                        for k, v in fields.items()})
            return self.game.observation(state)

        self._observe = jax.jit(jax.vmap(one))

    @property
    def size(self) -> int:
        return int(self.game.observation_space.shape[0])

    def __call__(self, rams: np.ndarray) -> np.ndarray:
        rams = np.asarray(rams, np.uint8).reshape(-1, 128)
        return np.asarray(self._observe(self._fields(rams, self.game)))


_DECODERS: dict[str, FeatureDecoder] = {}


def features(game_name: str, ram: np.ndarray) -> np.ndarray:
    """The feature vector of one RAM snapshot (shape (F,)), as ``game.observation(state)``."""
    if game_name not in _DECODERS:
        _DECODERS[game_name] = FeatureDecoder(game_name)
    return _DECODERS[game_name](np.asarray(ram)[None])[0]

