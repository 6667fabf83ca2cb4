"""Export a session: a side-by-side video (imageio) with the marks as captions, and Minari datasets.

The video replays the session's actions on both backends (frames are not stored in the session) and
draws the same ALE | JAX | difference panes as the window. The Minari export writes two datasets,
one per side, from the recorded signals: observations are the catalog signals flattened in catalog
order (the reset observation read from a fresh backend), actions the recorded action indices,
rewards the steps of the recorded ``score``; an episode ends where the session started a new one.
"""

from __future__ import annotations

import contextlib
import os
import re
import warnings
from pathlib import Path
from typing import Iterator

import numpy as np

from alignment import atomic, catalog
from alignment.playtest import panes
from alignment.playtest.session import Session, read_session

VIDEO_SUFFIXES = (".mp4", ".gif")
CAPTION_SECONDS = 2.0


class ExportError(ValueError):
    """An export that cannot be made (names the problem and the fix)."""


# Bounds on a video, checked before a frame is drawn: two 160x210 panes at scale 8 are already
# 2,560 x 1,680 pixels a frame; past that a 10-minute session writes gigabytes.
MAX_SCALE = 8
MAX_FPS = 240
MAX_EVERY = 3600


def _readable(path: Path) -> Session:
    s = read_session(path)
    if not s.frames:
        raise ExportError(f"{path}: the session has no frames to export")
    return s


def _backends(s: Session):
    from alignment.playtest.core import make_sides

    return make_sides(s.game, tuple(s.header.get("mods") or ()), s.header.get("mode"))


def _captions(s: Session, fps: int) -> dict[int, str]:
    """Caption text per tick: each mark is shown for CAPTION_SECONDS from its frame on."""
    out: dict[int, str] = {}
    span = max(1, int(CAPTION_SECONDS * fps))
    for m in s.marks:
        text = f"frame {m['tick']}: {m['kind']}" + (f" - {m['text']}" if m["text"] else "")
        for t in range(max(0, m["tick"]), m["tick"] + span):
            out[t] = text if t not in out else out[t] + " | " + text
    return out


def video_frames(path: Path, *, scale: int = 1, every: int = 1, fps: int = 60) -> Iterator[np.ndarray]:
    """The session's frames as pictures (every ``every``-th), captions on marked frames."""
    s = _readable(path)
    sides = _backends(s)
    captions = _captions(s, fps)
    for reset, frames in s.episodes():
        for b in sides.values():
            b.reset(seed=int(reset["seed"]))
        for f in frames:
            for b in sides.values():
                b.act(int(f["action"]))
            if f["tick"] % every:
                continue
            img = panes.panes(sides["ale"].rgb(), sides["jax"].rgb(), scale)
            text = captions.get(f["tick"])
            yield panes.caption(img, text) if text else img


def _check_out(out: Path, suffixes: tuple[str, ...]) -> None:
    if out.suffix.lower() not in suffixes:
        raise ExportError(f"{out}: the video must end in {' or '.join(suffixes)}")
    try:
        atomic.check_writable(out, what="--video")
        out.parent.mkdir(parents=True, exist_ok=True)
    except atomic.OutputLocationError as exc:
        raise ExportError(str(exc)) from None
    except OSError as exc:
        raise ExportError(f"cannot create {out.parent}: {exc.strerror or exc}") from None


def write_video(path: Path, out: Path, *, scale: int = 1, fps: int = 60, every: int = 1) -> int:
    """Write the video (written to a temporary name, then moved into place); returns its frames."""
    import imageio.v2 as imageio

    path, out = Path(path), Path(out)
    for name, value, high in (("--scale", scale, MAX_SCALE), ("--every", every, MAX_EVERY),
                              ("--fps", fps, MAX_FPS)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
            raise ExportError(f"{name} must be a whole number from 1 to {high} (the bound on a "
                              f"video), got {value!r}")
    _check_out(out, VIDEO_SUFFIXES)
    tmp = out.with_name(f".{out.stem}.tmp{out.suffix}")
    n = 0
    try:
        with warnings.catch_warnings():
            # imageio-ffmpeg starts ffmpeg with fork+exec, which Python flags in a threaded process
            warnings.filterwarnings("ignore", message="os.fork", category=RuntimeWarning)
            if out.suffix.lower() == ".mp4":
                writer = imageio.get_writer(tmp, format="FFMPEG", fps=fps / every, codec="libx264",
                                            macro_block_size=2, quality=7)
            else:
                writer = imageio.get_writer(tmp, format="GIF", mode="I",
                                            duration=1000 * every / fps, loop=0)
            with writer:
                for img in video_frames(path, scale=scale, every=every, fps=fps):
                    writer.append_data(img)
                    n += 1
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return n


# ---- Minari -------------------------------------------------------------------------------------
def _flat(entry, signals: dict) -> np.ndarray:
    return np.concatenate([np.ravel(np.asarray(signals[k], np.float64)) for k in entry.signals])


@contextlib.contextmanager
def _minari_root(root: Path):
    # Minari finds its datasets folder through this variable only.
    old = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(root)
    try:
        yield
    finally:
        if old is None:
            del os.environ["MINARI_DATASETS_PATH"]
        else:
            os.environ["MINARI_DATASETS_PATH"] = old


def dataset_id(s: Session, side: str) -> str:
    sid = re.sub(r"[^A-Za-z0-9]+", "_", str(s.header.get("session_id") or s.path.name))
    return f"jaxtari-playtest/{s.game}-{sid}-{side}-v0"


def write_minari(path: Path, root: Path) -> list[str]:
    """Two Minari datasets under ``root`` (the ALE and the JAX trajectories); returns their ids."""
    import gymnasium as gym
    import minari
    from minari.data_collector import EpisodeBuffer

    path, root = Path(path), Path(root)
    s = _readable(path)
    entry = catalog.entry(s.game)
    missing = [k for k in entry.signals if k not in s.header["signals"]]
    if missing:
        raise ExportError(f"{path}: recorded without the catalog signals {missing}; observations "
                          f"need every one (record the session again)")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create {root}: {exc.strerror or exc}") from None
    sides = _backends(s)
    by_side = {}
    for side in ("ale", "jax"):
        episodes = []
        for i, (reset, frames) in enumerate(s.episodes()):
            if not frames:
                continue
            b = sides[side]
            b.reset(seed=int(reset["seed"]))
            first = b.signals()
            obs = [_flat(entry, first)] + [_flat(entry, f[side]) for f in frames]
            score = np.asarray([first["score"]] + [f[side]["score"] for f in frames], np.float64)
            term = [bool(f[side]["terminated"]) for f in frames]
            episodes.append(EpisodeBuffer(
                id=i, seed=int(reset["seed"]), observations=np.stack(obs).astype(np.float32),
                actions=np.asarray([f["action"] for f in frames], np.int64),
                rewards=list(np.diff(score)), terminations=term,
                truncations=[False] * (len(frames) - 1) + [not term[-1]]))
        for ep in episodes:  # what a dataset promises its readers, checked before it is written
            bad_obs = ~np.isfinite(ep.observations)
            if bad_obs.any():
                step = int(np.argwhere(bad_obs)[0][0])
                raise ExportError(f"{path}: the {side} observation of episode {ep.id} step {step} "
                                  f"is not finite (a signal past float32's range?); nothing written")
            n = len(s.header["actions"])
            if ((ep.actions < 0) | (ep.actions >= n)).any():
                raise ExportError(f"{path}: episode {ep.id} has actions outside 0..{n - 1} (the "
                                  f"session's action set); nothing written")
        by_side[side] = episodes
    with _minari_root(root):
        there = [dataset_id(s, side) for side in by_side
                 if dataset_id(s, side) in minari.list_local_datasets()]
    if there:
        more = f" (so does {there[1]})" if len(there) > 1 else ""
        raise ExportError(f"the Minari dataset {there[0]} already exists under {root}{more}; "
                          f"delete it or export to another folder")
    ids = []
    for side, episodes in by_side.items():  # both checked before either is written
        dim = episodes[0].observations.shape[1]
        ds_id = dataset_id(s, side)
        with _minari_root(root), warnings.catch_warnings():
            # minari warns about every metadata field left empty (author, e-mail, permalink...)
            warnings.simplefilter("ignore", UserWarning)
            if ds_id in minari.list_local_datasets():
                raise ExportError(f"the Minari dataset {ds_id} already exists under {root}; "
                                  f"delete it or export to another folder")
            minari.create_dataset_from_buffers(
                ds_id, episodes,
                observation_space=gym.spaces.Box(-np.inf, np.inf, (dim,), np.float32),
                action_space=gym.spaces.Discrete(len(s.header["actions"])),
                algorithm_name=f"playtest ({s.header.get('player', {}).get('kind', '?')} player)",
                description=(f"{s.game} playtest session {s.header.get('session_id')}, {side} side; "
                             f"observations: the catalog signals {', '.join(entry.signals)} "
                             f"flattened in that order; actions index {s.header['actions']}"),
            )
        ids.append(ds_id)
    return ids
