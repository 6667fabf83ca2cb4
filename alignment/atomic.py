"""Atomic file writes: a temp file in the target's folder, then ``os.replace``.

Specs, reports and caches are written this way so that a crash or a full disk never leaves half a
file where a whole one was. ``mkstemp`` creates its file 0600; a reviewed spec that others could
read must stay readable, so the new file takes the mode of the file it replaces, or the mode the
umask gives a new file.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
import tempfile
from pathlib import Path
from typing import Iterator, Mapping


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
        raise OutputLocationError(f"{what} {str(path)!r} is a file, not a folder; choose another")
    existing = path
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputLocationError(f"{what} {str(path)!r} cannot be created: {str(existing)!r} is a "
                                  "file, not a folder; choose another location")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutputLocationError(f"{what} {str(path)!r}: the folder {str(existing)!r} is not "
                                  "writable; choose another location or fix its permissions")
    return path


def check_targets(folder: os.PathLike | str, names, *, what: str = "report") -> None:
    """Refuse, before any work, a report whose files could not replace what is there now (a
    folder where a file goes, a folder that cannot be written)."""
    folder = Path(folder)
    check_writable_dir(folder, what=f"the {what} folder")
    for name in names:
        if (folder / name).is_dir():
            raise OutputLocationError(
                f"{str(folder / name)!r} is a directory, so the {what} cannot be written there; "
                "move it aside or choose another output folder")


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


# ---- several files as one unit ------------------------------------------------------------------
#
# A report of several files (JSON + markdown + plots) must never be seen half old, half new. Each
# new file is first written whole beside its target under a temporary name; then one journal file
# listing the renames is written atomically (the commit point); then the renames are done and the
# journal removed. A process killed before the journal exists leaves every old file as it was; one
# killed after it is rolled forward by the next :func:`recover` of that folder, which every writer
# and reader of such reports calls first. Either way: all old files or all new.

# One journal per write (two reports written into one folder at once each keep their own).
JOURNAL_PREFIX = ".atomic-journal-"


def recover(folder: os.PathLike | str) -> list[str]:
    """Finish every multi-file write in ``folder`` that was killed after its commit point; returns
    the names it completed (none when there was nothing to finish)."""
    folder = Path(folder)
    done = []
    for journal in sorted(folder.glob(f"{JOURNAL_PREFIX}*.json")):
        try:
            entries = json.loads(journal.read_text("utf-8"))["renames"]
        except FileNotFoundError:
            continue  # finished by another process meanwhile
        except (OSError, ValueError, KeyError, TypeError):
            # written atomically, so never half a journal; an unreadable one is not ours to act on
            raise OutputLocationError(
                f"{str(journal)!r} is not a readable journal of an interrupted report write; move "
                "it aside, then run the command again") from None
        for tmp, name in entries:
            if Path(tmp).name != tmp or Path(name).name != name:
                continue  # journals only ever name files of their own folder
            try:
                os.replace(folder / tmp, folder / name)
                done.append(name)
            except FileNotFoundError:
                pass  # renamed already (by the writer, or another reader finishing it)
        journal.unlink(missing_ok=True)
    return done


def write_files(folder: os.PathLike | str, files: Mapping[str, bytes | str]) -> dict[str, Path]:
    """Write ``files`` (plain names -> bytes or text) into ``folder`` as one unit: afterwards every
    file is new, and a process killed part way leaves every file old or (after :func:`recover`)
    every file new."""
    folder = Path(folder)
    for name in files:
        if Path(name).name != name or name in ("", ".", ".."):
            raise ValueError(f"{name!r} is not a plain file name")
        if (folder / name).is_dir():
            raise OutputLocationError(
                f"{str(folder / name)!r} is a directory, so the report cannot be written there; "
                "move it aside or choose another output folder")
    folder.mkdir(parents=True, exist_ok=True)
    recover(folder)
    staged: dict[str, str] = {}
    try:
        for name, data in files.items():
            try:
                mode = stat.S_IMODE((folder / name).stat().st_mode)
            except FileNotFoundError:
                mode = _new_file_mode()
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
            staged[name] = tmp
            _in_flight.add(tmp)
            with os.fdopen(fd, "wb") as f:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, mode)
        journal = {"renames": [[Path(tmp).name, name] for name, tmp in staged.items()]}
        token = secrets.token_hex(8)
        write_bytes(folder / f"{JOURNAL_PREFIX}{token}.json", json.dumps(journal).encode("utf-8"))
    except BaseException:
        for tmp in staged.values():
            Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        for tmp in staged.values():
            _in_flight.discard(tmp)
    recover(folder)
    return {name: folder / name for name in files}


# ---- one process at a time -------------------------------------------------------------------
class Busy(RuntimeError):
    """Another process holds the lock (its holder is named in the message)."""


@contextlib.contextmanager
def exclusive(path: os.PathLike | str, busy: str) -> Iterator[None]:
    """Hold ``path`` as an exclusive lock while the block runs; :class:`Busy` (``busy`` and the
    holder's pid) when another process holds it. The lock is the operating system's (flock), so a
    killed process never leaves it held; the file stays, naming the last holder."""
    import fcntl

    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+")
    except OSError as err:
        raise OutputLocationError(f"cannot create the lock {str(path)!r}: {err}") from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise Busy(busy.format(holder=holder)) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        yield
    finally:
        handle.close()
