"""A trained agent as a file: the network's parameters and what they were trained on.

A policy file (``.npz``) holds one array per parameter, named by its path in the Flax tree
(``params/Dense_0/kernel``), stored as float16 with a leading seed axis, and a ``meta`` entry (JSON:
format, game, observation mode, number of actions, MLP sizes, seeds, agent steps per seed, the code
hash and config it was trained with). float16 halves the file, which is what lets a pixel agent
(1.7M parameters) be committed; the agent that is evaluated, reported and replayed is always the
loaded one, float16 values widened to float32, never the float32 weights before rounding.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax import traverse_util

from alignment import artefacts, atomic
from alignment.learning.config import OBS_MODES, PPOConfig

FORMAT = artefacts.POLICY.schema
STORED = np.float16


class PolicyError(ValueError):
    """A policy file that cannot be used (missing, malformed, another game or network)."""


@dataclasses.dataclass
class Policy:
    game: str
    obs: str
    num_actions: int
    mlp_sizes: tuple
    seeds: list[int]
    params: Any  # the Flax parameter tree, each leaf with a leading seed axis, float32
    meta: dict  # steps, code hash, config, where it was trained

    def apply_fn(self):
        from alignment.learning.networks import make_network

        return make_network(self.obs, self.num_actions, self.mlp_sizes).apply

    def seed_params(self, i: int):
        return jax.tree_util.tree_map(lambda x: x[i], self.params)

    def select(self, seeds: list[int]) -> "Policy":
        """The same file's agents for ``seeds`` only (in that order)."""
        idx = [self.seeds.index(s) for s in seeds]
        params = jax.tree_util.tree_map(lambda x: x[np.asarray(idx)], self.params)
        return dataclasses.replace(self, seeds=list(seeds), params=params)


def _template(game: str, obs: str, num_actions: int, mlp_sizes: tuple):
    from alignment.learning.networks import make_network

    net = make_network(obs, num_actions, tuple(mlp_sizes))
    example = jax.ShapeDtypeStruct(observation_shape(game, obs), jnp.uint8 if obs == "pixels"
                                   else jnp.float32)
    return jax.eval_shape(lambda k, x: net.init(k, x), jax.random.key(0), example)


def observation_shape(game: str, obs: str) -> tuple:
    """One observation's shape as the learner saw it (a batch of one)."""
    from alignment.learning.config import FRAME_STACK
    from alignment.learning.ppo import make_jax_env

    env = make_jax_env(game, PPOConfig(obs=obs))
    shape = tuple(env.observation_space.shape)
    if obs == "pixels" and len(shape) == 2:
        shape = (FRAME_STACK,) + shape
    return (1,) + shape


def make(game: str, obs: str, num_actions: int, mlp_sizes: tuple, seeds: list[int], params,
         meta: dict) -> Policy:
    """A policy from float32 parameters stacked over ``seeds``, rounded as the file stores them,
    so the object in memory is exactly the one :func:`load` gives back."""
    rounded = jax.tree_util.tree_map(
        lambda x: jnp.asarray(np.asarray(x).astype(STORED), jnp.float32), params)
    return Policy(game, obs, int(num_actions), tuple(mlp_sizes), list(seeds), rounded, dict(meta))


def from_runner_leaves(game: str, config: PPOConfig, num_actions: int, seeds: list[int],
                       runners: list, meta: dict) -> Policy:
    """The policy of stress checkpoints' runners (one per seed, ``alignment.learning.ppo.Runner``)."""
    params = jax.tree_util.tree_map(lambda *xs: jnp.stack(xs),
                                    *[r.train_state.params for r in runners])
    return make(game, config.obs, num_actions, config.mlp_sizes, seeds, params, meta)


def save(path: Path, policy: Policy) -> Path:
    flat = traverse_util.flatten_dict(jax.device_get(policy.params), sep="/")
    arrays = {k: np.asarray(v).astype(STORED) for k, v in flat.items()}
    meta = {"format": FORMAT, "game": policy.game, "obs": policy.obs,
            "num_actions": policy.num_actions, "mlp_sizes": list(policy.mlp_sizes),
            "seeds": list(policy.seeds), **policy.meta}
    arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), np.uint8)
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    atomic.write_bytes(Path(path), buf.getvalue())
    return Path(path)


def describe_file(path: Path) -> tuple[str, str]:
    """(the file's path from the repository root when inside it, its sha256)."""
    import hashlib

    path = Path(path).resolve()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    from alignment.artefacts import repo_relative

    return repo_relative(path) or str(path), digest


def read_meta(path: Path) -> dict:
    """A policy file's metadata alone (its arrays unread), its format as ``schema``; ValueError
    or OSError for a file that is not one."""
    import zipfile

    if not zipfile.is_zipfile(path):
        raise ValueError("not an .npz file")
    with np.load(Path(path)) as z:
        if "meta" not in z.files:
            raise ValueError("no metadata in it")
        meta = json.loads(z["meta"].tobytes())
    if not isinstance(meta, dict):
        raise ValueError("its metadata is not a JSON object")
    return {"schema": meta.get("format"), **meta}


def measures(meta: dict) -> dict:
    """What a policy file holds, measure by measure (more seeds and steps are stronger; the game,
    observations and mods are settings: see :func:`alignment.cli_checks.check_not_weaker`)."""
    from alignment.cli_checks import Same

    return {"agents (training seeds)": list(meta.get("seeds") or []),
            "agent steps per seed": meta.get("steps"),
            "game": Same(meta.get("game")), "observations": Same(meta.get("obs")),
            "mods trained on": Same(sorted(meta.get("mods") or [])),
            "protocol trained in": Same((meta.get("config") or {}).get("protocol", "v5"))}


def load(path: Path, game: str | None = None, obs: str | None = None) -> Policy:
    """The policy in ``path``; ``game``/``obs`` when given must be what it was trained on."""
    path = Path(path)
    try:
        with np.load(path) as z:
            meta = json.loads(z["meta"].tobytes()) if "meta" in z.files else None
            arrays = {k: z[k] for k in z.files if k != "meta"}
    except FileNotFoundError:
        raise PolicyError(f"{path}: no such policy file") from None
    except (OSError, ValueError, KeyError) as exc:
        raise PolicyError(f"{path}: not a policy file ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise PolicyError(f"{path}: not a {FORMAT} file")
    for key, want in (("game", game), ("obs", obs)):
        if want is not None and meta.get(key) != want:
            raise PolicyError(f"{path}: trained on {key} {meta.get(key)!r}, not {want!r}")
    if meta.get("obs") not in OBS_MODES:
        raise PolicyError(f"{path}: unknown observation mode {meta.get('obs')!r}")
    seeds = meta.get("seeds")
    if not isinstance(seeds, list) or not seeds:
        raise PolicyError(f"{path}: no seeds listed")
    template = traverse_util.flatten_dict(
        _template(meta["game"], meta["obs"], meta["num_actions"], tuple(meta["mlp_sizes"])), sep="/")
    if set(template) != set(arrays):
        raise PolicyError(f"{path}: its arrays ({sorted(arrays)}) are not this network's "
                          f"({sorted(template)})")
    for k, like in template.items():
        want_shape = (len(seeds),) + tuple(like.shape)
        if arrays[k].shape != want_shape or arrays[k].dtype != STORED:
            raise PolicyError(f"{path}: {k} is {arrays[k].dtype}{list(arrays[k].shape)}, the "
                              f"network needs {np.dtype(STORED)}{list(want_shape)}")
        if not np.isfinite(arrays[k]).all():
            raise PolicyError(f"{path}: {k} holds NaN or infinite values")
    params = traverse_util.unflatten_dict(
        {k: jnp.asarray(v, jnp.float32) for k, v in arrays.items()}, sep="/")
    rest = {k: v for k, v in meta.items()
            if k not in ("format", "game", "obs", "num_actions", "mlp_sizes", "seeds")}
    return Policy(meta["game"], meta["obs"], int(meta["num_actions"]), tuple(meta["mlp_sizes"]),
                  [int(s) for s in seeds], params, rest)
