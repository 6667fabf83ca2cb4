"""Atomic file writes: a temp file in the target's folder, then ``os.replace``.

Specs, reports and caches are written this way so that a crash or a full disk never leaves half a
file where a whole one was. ``mkstemp`` creates its file 0600; a reviewed spec that others could
read must stay readable, so the new file takes the mode of the file it replaces, or the mode the
umask gives a new file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class OutputLocationError(ValueError):
    """An output path that cannot be written: names the path and what to do instead."""


def _new_file_mode() -> int:
    # The umask can only be read by setting it; set it straight back.
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def check_writable(path: os.PathLike | str, *, what: str = "output") -> Path:
    """Refuse, before any long work, an output file that could not be written atomically.

    The file may not exist yet; its folder (or the nearest existing parent, which will be created)
    must be a writable directory, and the path itself must not be a directory.
    """
    path = Path(path)
    if path.is_dir():
        raise OutputLocationError(f"{what} {str(path)!r} is a directory; give a file path inside it")
    parent = path.parent
    while not parent.exists():
        if parent.parent == parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        raise OutputLocationError(f"{what} {str(path)!r}: {str(parent)!r} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputLocationError(
            f"{what} {str(path)!r}: the folder {str(parent)!r} is not writable; choose another "
            "location or fix its permissions"
        )
    return path


def check_writable_dir(path: os.PathLike | str, *, what: str = "output folder") -> Path:
    """Like :func:`check_writable` for a folder that files will be written into."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputLocationError(f"{what} {str(path)!r} is a file, not a folder")
    check_writable(path / ".probe", what=what)
    return path


def write_bytes(path: os.PathLike | str, data: bytes) -> Path:
    path = Path(path)
    if path.is_dir():
        raise OutputLocationError(f"{str(path)!r} is a directory; give a file path inside it")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    _in_flight.add(tmp)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        _in_flight.discard(tmp)
    return path


# Temporary files of writes under way: an interrupt that ends the process at once removes them.
_in_flight: set[str] = set()


def discard_in_flight() -> None:
    for tmp in list(_in_flight):
        Path(tmp).unlink(missing_ok=True)


def write_text(path: os.PathLike | str, text: str) -> Path:
    """UTF-8 text with ``\\n`` line ends on every platform."""
    return write_bytes(path, text.encode("utf-8"))
