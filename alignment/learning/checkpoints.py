"""Per-seed training checkpoints: written atomically after every evaluation interval, checksummed,
the last two kept, so a killed run loses at most one interval and a corrupt file falls back to the
one before it.

A file is a JSON header line (format, interval index, the seed's curve so far, and a sha256 over
the rest of the header and the payload: the curve is as much the result as the weights) followed by
an ``.npz`` payload: the runner's leaves in flatten order (keys as key data)
and, on the ALE side, the pickled emulator states.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import math
from pathlib import Path
from typing import Any, Sequence

import jax
import numpy as np

from alignment import artefacts, atomic
from alignment.learning.config import protocol_suffix

FORMAT = artefacts.STRESS_CHECKPOINT.schema
KEEP = 2


class CorruptCheckpoint(ValueError):
    pass


@dataclasses.dataclass
class Checkpoint:
    interval: int  # evaluation intervals completed
    leaves: list[np.ndarray]
    history: list[dict]  # one row per completed interval (see core)
    env_blob: bytes | None = None
    wall_seconds: float = 0.0


def _plain(x) -> np.ndarray:
    if hasattr(x, "dtype") and jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key):
        x = jax.random.key_data(x)
    return np.asarray(x)


def leaves_of(tree) -> list[np.ndarray]:
    return [_plain(x) for x in jax.tree_util.tree_leaves(tree)]


def fill(template, leaves: list[np.ndarray]):
    """``template`` (a pytree of the right structure) with its leaves replaced by ``leaves``."""
    old, treedef = jax.tree_util.tree_flatten(template)
    if len(old) != len(leaves):
        raise CorruptCheckpoint(f"checkpoint has {len(leaves)} arrays, the runner {len(old)}")
    new = []
    for like, x in zip(old, leaves):
        if hasattr(like, "dtype") and jax.dtypes.issubdtype(like.dtype, jax.dtypes.prng_key):
            new.append(jax.random.wrap_key_data(jax.numpy.asarray(x), impl=jax.random.key_impl(like)))
        else:
            if tuple(np.shape(like)) != tuple(x.shape):
                raise CorruptCheckpoint(f"array shape {x.shape} does not fit {np.shape(like)}")
            new.append(jax.numpy.asarray(x, dtype=like.dtype))
    return jax.tree_util.tree_unflatten(treedef, new)


def checkpoint_root(out_dir: Path, game: str, config, mods: Sequence[str] = ()) -> Path:
    """Where one training run keeps its checkpoints: ``<out>/.checkpoints/<game>[+<mod>...]-<obs>-
    <steps>[-<protocol>]`` (the protocol named when not v5). The name says what the agents were trained on, so a stage that evaluates them
    (robustness) finds and checks them by it. ``config``: the run's :class:`PPOConfig`."""
    name = "+".join([game, *mods])
    return (Path(out_dir) / ".checkpoints"
            / f"{name}-{config.obs}-{config.total_timesteps}{protocol_suffix(config.protocol)}")


def seed_dir(root: Path, backend: str, seed: int) -> Path:
    return Path(root) / backend / f"seed{seed}"


def save(root: Path, backend: str, seed: int, ckpt: Checkpoint) -> Path:
    buf = io.BytesIO()
    arrays = {f"leaf{i:04d}": a for i, a in enumerate(ckpt.leaves)}
    if ckpt.env_blob is not None:
        arrays["env_blob"] = np.frombuffer(ckpt.env_blob, np.uint8)
    np.savez(buf, **arrays)
    payload = buf.getvalue()
    header = {"format": FORMAT, "interval": ckpt.interval, "history": ckpt.history,
              "wall_seconds": ckpt.wall_seconds, "leaves": len(ckpt.leaves)}
    header["sha256"] = _digest(header, payload)
    d = seed_dir(root, backend, seed)
    path = d / f"interval{ckpt.interval:05d}.ckpt"
    atomic.write_bytes(path, json.dumps(header).encode() + b"\n" + payload)
    for old in sorted(d.glob("interval*.ckpt"))[:-KEEP]:
        old.unlink(missing_ok=True)
    return path


def _digest(header: dict, payload: bytes) -> str:
    """sha256 of the header (less its own checksum, keys sorted) and the payload."""
    rest = {k: v for k, v in header.items() if k != "sha256"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True).encode() + b"\n" + payload).hexdigest()


def _check_history(header: dict, path) -> None:
    """The recorded curve, checked value by value (a checksum proves who wrote it, not that it is
    sane)."""
    rows, n = header.get("history"), header.get("interval")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1 or not isinstance(rows, list) \
            or len(rows) != n or not isinstance(header.get("leaves"), int):
        raise CorruptCheckpoint(f"{path}: its interval count and learning curve do not agree")
    for k, row in enumerate(rows):
        ret = row.get("return") if isinstance(row, dict) else "missing"
        ok = (isinstance(row, dict) and row.get("interval") == k
              and isinstance(row.get("steps"), int) and row["steps"] > 0
              and isinstance(row.get("episodes"), int) and row["episodes"] >= 0
              and (ret is None or (isinstance(ret, (int, float)) and not isinstance(ret, bool)
                                   and math.isfinite(ret))))
        if not ok:
            raise CorruptCheckpoint(f"{path}: row {k} of its learning curve is malformed ({row!r})")


def load(path: Path) -> Checkpoint:
    data = Path(path).read_bytes()
    head, sep, payload = data.partition(b"\n")
    try:
        header = json.loads(head)
    except ValueError as exc:
        raise CorruptCheckpoint(f"{path}: unreadable header ({exc})") from None
    if not sep or not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CorruptCheckpoint(f"{path}: not a {FORMAT} file")
    if _digest(header, payload) != header.get("sha256"):
        raise CorruptCheckpoint(f"{path}: checksum mismatch (header or payload truncated or changed)")
    _check_history(header, path)
    with np.load(io.BytesIO(payload)) as z:
        leaves = [z[f"leaf{i:04d}"] for i in range(header["leaves"])]
        blob = z["env_blob"].tobytes() if "env_blob" in z.files else None
    return Checkpoint(header["interval"], leaves, header["history"], blob,
                      float(header.get("wall_seconds", 0.0)))


def newest(root: Path, backend: str, seed: int) -> tuple[Path | None, Checkpoint | None, list[str]]:
    """The newest readable checkpoint file of a seed and what it holds (None, None: none) and a
    note per corrupt file passed over."""
    notes: list[str] = []
    for path in sorted(seed_dir(root, backend, seed).glob("interval*.ckpt"), reverse=True):
        try:
            return path, load(path), notes
        except (CorruptCheckpoint, OSError, ValueError, KeyError) as exc:
            notes.append(f"corrupt checkpoint {path}: {exc}; seed {seed} ({backend}) "
                         f"restarts from the last good one")
    return None, None, notes


def latest(root: Path, backend: str, seed: int) -> tuple[Checkpoint | None, list[str]]:
    """The newest readable checkpoint of a seed (None: start afresh) and a note per corrupt file
    passed over."""
    _, ckpt, notes = newest(root, backend, seed)
    return ckpt, notes
