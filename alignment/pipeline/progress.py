"""A run's progress as plain lines, for output that is not a terminal (a log file, a pipe, CI).

A terminal shows the stage's current step in the spinner; a file gets no spinner, so without these
lines a log stayed silent for the whole audit (issue 53: 25 minutes between "review: done" and
"audit: done"). A stage reports every step it takes; one line every ``every`` seconds is kept, so a
log shows where the run is without a line per probe frame.
"""

from __future__ import annotations

import time
from typing import Callable

PROGRESS_EVERY_S = 5.0  # seconds between two progress lines at least


def elapsed(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` past an hour) of a run's wall time."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressLines:
    """``lines(stage, label)`` writes ``[m:ss] stage: label`` through ``write`` when at least
    ``every`` seconds (default :data:`PROGRESS_EVERY_S`) have passed since the last line it wrote
    (the first one at once), and says whether it wrote."""

    def __init__(self, write: Callable[[str], None], every: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._write, self._clock = write, clock
        self._every = PROGRESS_EVERY_S if every is None else every
        self._start = clock()
        self._last: float | None = None

    def __call__(self, stage: str, label: str) -> bool:
        now = self._clock()
        if self._last is not None and now - self._last < self._every:
            return False
        self._last = now
        self._write(f"[{elapsed(now - self._start)}] {stage}: {label}")
        return True
