"""An unfinished training run's checkpoints in pieces, to carry it from one machine to the next.

The lent accelerator hands back files of at most 16 MiB and takes at most 64 MiB of working tree a
call, while a pixel run's checkpoint is ~20 MB a seed; the machine (and its ``/tmp``) is gone at
the end of a session. ``pack`` cuts each seed's newest good checkpoint into pieces of a bounded
size, one folder a seed (so a call can carry one seed's folder); ``unpack`` joins the pieces into a
checkpoint folder again and accepts a joined file only if it loads (each checkpoint carries a
sha256 over its header and payload: a missing, extra or changed piece is refused, and nothing
half-joined is left behind). Both return what they did and write nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from alignment import atomic
from alignment.learning import checkpoints as ckpts

# under the device's 16 MiB a returned file, with room to spare
PIECE_BYTES = 15 * 2**20
MAX_PIECES = 99
# The device hands back only files named in letters, digits, '.', '_' and '-' (a '~' stays
# behind, measured 2026-12-07), so a piece's name is made of those; the run's name comes first and
# may hold dots itself: the fields after it are matched from the end.
NAME_CHARS = re.compile(r"^[A-Za-z0-9._-]+$")
# a run trained on mods is named <game>+<mod>... (checkpoints.checkpoint_root): '+' travels as '__'
# (no game or mod name holds two underscores in a row)
PLUS = "__"
_PIECE = re.compile(r"^(?P<run>[A-Za-z0-9_.-]+)\.(?P<backend>[a-z]+)\.seed(?P<seed>\d+)"
                    r"\.interval(?P<interval>\d+)\.ckpt\.(?P<part>\d{2})of(?P<parts>\d{2})$")


class CarryError(ValueError):
    """A pack or unpack that cannot be done as asked; the message names the fix."""


@dataclass(frozen=True)
class Carried:
    run: str  # the checkpoint folder's name, e.g. asteroids-pixels-10000000
    backend: str
    seed: int
    interval: int  # evaluation intervals the checkpoint holds
    path: Path  # the checkpoint file (unpack) or its first piece (pack)
    pieces: int


def _seed_dirs(root: Path) -> list[tuple[str, int]]:
    found = []
    for backend_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        for d in sorted(backend_dir.glob("seed*")):
            if d.is_dir() and d.name[4:].isdigit():
                found.append((backend_dir.name, int(d.name[4:])))
    return found


def pack(root: Path, dest: Path, piece_bytes: int = PIECE_BYTES) -> tuple[list[Carried], list[str]]:
    """Cut every seed's newest good checkpoint under ``root`` (a run's checkpoint folder,
    ``<out>/.checkpoints/<game>-<obs>-<steps>``) into pieces in ``dest/<backend>-seed<k>/``.
    Returns what was packed and a note per corrupt checkpoint passed over."""
    root, dest = Path(root), Path(dest)
    if not root.is_dir():
        raise CarryError(f"{root} is not a checkpoint folder; give the run's folder under "
                         f"<out>/.checkpoints/ (e.g. /tmp/stage4/.checkpoints/pong-pixels-10000000)")
    if piece_bytes < 1:
        raise CarryError(f"a piece of {piece_bytes} bytes cannot hold anything; give a positive size")
    run = root.name.replace("+", PLUS)
    if PLUS in root.name or not NAME_CHARS.match(run):
        raise CarryError(f"the run's folder name {root.name!r} holds characters the device would "
                         "not hand back (letters, digits, '.', '_', '-', and '+' between mods)")
    seeds = _seed_dirs(root)
    if not seeds:
        raise CarryError(f"{root} holds no seed's checkpoints (<backend>/seed<k>/interval*.ckpt): "
                         "was the run checkpointed? (stress --max-minutes pauses with one)")
    plan, notes = [], []
    for backend, seed in seeds:
        path, ckpt, corrupt = ckpts.newest(root, backend, seed)
        notes.extend(corrupt)
        if path is None:
            continue
        data = path.read_bytes()
        n = -(-len(data) // piece_bytes)
        if n > MAX_PIECES:
            raise CarryError(f"{path} ({len(data):,} bytes) would take {n} pieces of {piece_bytes:,} "
                             f"bytes; at most {MAX_PIECES}: give a larger piece size")
        plan.append((backend, seed, ckpt.interval, data, n))
    if not plan:
        raise CarryError(f"no readable checkpoint under {root}: nothing to carry")
    carried = []
    for backend, seed, interval, data, n in plan:
        folder = dest / f"{backend}-seed{seed}"
        stem = f"{run}.{backend}.seed{seed}.interval{interval:05d}.ckpt"
        for stale in folder.glob(f"{run}.{backend}.seed{seed}.interval*"):
            stale.unlink()  # an older pack of the same seed would be joined beside this one
        first = None
        for i in range(n):
            piece = atomic.write_bytes(folder / f"{stem}.{i + 1:02d}of{n:02d}",
                                       data[i * piece_bytes:(i + 1) * piece_bytes])
            first = first or piece
        carried.append(Carried(root.name, backend, seed, interval, first, n))
    return carried, notes


def unpack(src: Path, out_dir: Path) -> list[Carried]:
    """Join every checkpoint whose pieces lie under ``src`` (searched through its sub-folders) into
    ``out_dir/.checkpoints/<run>/<backend>/seed<k>/``, where ``stress --out out_dir`` resumes it."""
    src, out_dir = Path(src), Path(out_dir)
    if not src.is_dir():
        raise CarryError(f"{src} is not a folder of checkpoint pieces (what checkpoint-pack wrote)")
    groups: dict[tuple, dict[int, Path]] = {}
    counts: dict[tuple, int] = {}
    for path in sorted(src.rglob("*")):
        m = _PIECE.match(path.name) if path.is_file() else None
        if m is None:
            continue
        key = (m["run"].replace(PLUS, "+"), m["backend"], int(m["seed"]), int(m["interval"]))
        parts = int(m["parts"])
        if counts.setdefault(key, parts) != parts:
            raise CarryError(f"pieces of {path.name.split('.ckpt')[0]} disagree on how many there "
                             f"are ({counts[key]} and {parts}): pack it again")
        if int(m["part"]) in groups.setdefault(key, {}):
            raise CarryError(f"piece {path.name} lies under {src} twice; keep one pack of it")
        groups[key][int(m["part"])] = path
    if not groups:
        raise CarryError(f"no checkpoint pieces under {src} (names like "
                         "<run>.jax.seed0.interval00042.ckpt.01of02)")
    seen: dict[tuple, int] = {}
    for (run, backend, seed, interval) in groups:
        if (run, backend, seed) in seen:
            raise CarryError(f"two packs of {run} {backend} seed {seed} (intervals "
                             f"{seen[(run, backend, seed)]} and {interval}) under {src}: keep one")
        seen[(run, backend, seed)] = interval
    staged = []  # every seed joined and checked before any takes its place: all or nothing
    try:
        for key, pieces in groups.items():
            staged.append(_join(key, pieces, counts[key], src, out_dir))
    except BaseException:
        for staging, _ in staged:
            staging.unlink(missing_ok=True)
        raise
    for staging, carried in staged:
        staging.replace(carried.path)
    return [carried for _, carried in staged]


def _join(key: tuple, pieces: dict[int, Path], count: int, src: Path,
          out_dir: Path) -> tuple[Path, Carried]:
    """One seed's pieces joined beside its target and checked: (the staged file, what it is)."""
    run, backend, seed, interval = key
    missing = sorted(set(range(1, count + 1)) - set(pieces))
    if missing:
        raise CarryError(f"{run} {backend} seed {seed}: piece(s) {missing} of {count} are missing "
                         f"under {src}; carry all of that seed's folder")
    folder = ckpts.seed_dir(out_dir / ".checkpoints" / run, backend, seed)
    target = folder / f"interval{interval:05d}.ckpt"
    newer = sorted(p.name for p in folder.glob("interval*.ckpt") if p.name > target.name)
    if newer:
        raise CarryError(f"{folder} already holds a newer checkpoint ({newer[-1]}) than the carried "
                         f"interval {interval}; remove it to resume from the carried one")
    staging = folder / f".carried-{target.name}"
    atomic.write_bytes(staging, b"".join(pieces[i].read_bytes() for i in range(1, count + 1)))
    try:
        ckpt = ckpts.load(staging)
    except ckpts.CorruptCheckpoint as exc:
        staging.unlink(missing_ok=True)
        raise CarryError(f"{run} {backend} seed {seed}: the joined pieces are not the checkpoint "
                         f"that was packed ({exc}); pack and carry it again") from None
    if ckpt.interval != interval:
        staging.unlink(missing_ok=True)
        raise CarryError(f"{run} {backend} seed {seed}: the pieces are named for interval "
                         f"{interval} but hold interval {ckpt.interval}; pack it again")
    return staging, Carried(run, backend, seed, interval, target, count)
