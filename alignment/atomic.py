"""Atomic file writes: a temp file in the target's folder, then ``os.replace``.

Specs, reports and caches are written this way so that a crash or a full disk never leaves half a
file where a whole one was.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_bytes(path: os.PathLike | str, data: bytes) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_text(path: os.PathLike | str, text: str) -> Path:
    """UTF-8 text with ``\\n`` line ends on every platform."""
    return write_bytes(path, text.encode("utf-8"))
