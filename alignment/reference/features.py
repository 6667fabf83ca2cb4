"""The JAX game's object-centric observation, decoded from ALE RAM (what object-centric PPO on
the ALE side sees, :mod:`alignment.stress`).

The feature layout has one home, the JAX game's ``observation(state)``. A game's entry (its
ground-truth package ``alignment/reference/games/<game>/``) gives ``observation_fields(rams)``: the
state fields that observation reads (positions, the frame counter, ...) decoded from a batch of RAM
snapshots, each named by its attribute path from the state (``"ball_x"`` on a flat state,
``"ship.x_code"`` on a nested one); here the game's own observation is evaluated on a reset state
carrying those fields. So
the two sides cannot disagree on order, sizes or geometry, only where the RAM decoding does, which
tests/reference/test_features.py measures frame by frame on matched runs.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from alignment.catalog import canonical, entry


class UnsupportedFeatures(ValueError):
    pass


def _fields_of(game: str):
    return entry(game).observation_fields


def supported_games() -> list[str]:
    """Games whose ground truth decodes the object features from RAM."""
    from alignment.catalog import games

    return [g for g in games() if _fields_of(g) is not None]


def _with_fields(state, values):
    """``state`` with the fields named in ``values`` replaced (each cast to the field's dtype): a
    name is an attribute of the state, or a dotted path into a nested one (``"ship.x_code"``)."""
    inner: dict = {}
    for name, v in values.items():
        head, dot, rest = name.partition(".")
        if dot:
            inner.setdefault(head, {})[rest] = v
    clash = sorted(set(inner) & set(values))
    if clash:
        raise ValueError(f"observation field {clash[0]!r} is given whole and by its parts")
    here = {k: jnp.asarray(v, getattr(state, k).dtype) for k, v in values.items() if "." not in k}
    here.update({head: _with_fields(getattr(state, head), sub) for head, sub in inner.items()})
    return state.replace(**here)


class FeatureDecoder:
    """``decoder(rams (N, 128) uint8) -> (N, F) float32``: the JAX game's ``observation`` for each
    RAM snapshot (one compiled call per batch)."""

    def __init__(self, game_name: str):
        import jaxtari

        name = canonical(game_name)
        fields = _fields_of(name)
        if fields is None:
            raise UnsupportedFeatures(
                f"no RAM decoding of {name}'s object features yet; games with one: "
                f"{', '.join(supported_games())}")
        self.game = jaxtari.make(name)
        self._fields = fields
        _, template = self.game.reset(jax.random.key(0))

        def one(values):
            return self.game.observation(_with_fields(template, values))

        self._observe = jax.jit(jax.vmap(one))

    @property
    def size(self) -> int:
        return int(self.game.observation_space.shape[0])

    def __call__(self, rams: np.ndarray) -> np.ndarray:
        rams = np.asarray(rams, np.uint8).reshape(-1, 128)
        return np.asarray(self._observe(self._fields(rams)))


_DECODERS: dict[str, FeatureDecoder] = {}


def features(game_name: str, ram: np.ndarray) -> np.ndarray:
    """The feature vector of one RAM snapshot (shape (F,)), as ``game.observation(state)``."""
    if game_name not in _DECODERS:
        _DECODERS[game_name] = FeatureDecoder(game_name)
    return _DECODERS[game_name](np.asarray(ram)[None])[0]
