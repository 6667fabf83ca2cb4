"""Fixtures shared across the test folder, and the suite's guard on the process's memory maps."""

import time
from pathlib import Path

import pytest

# XLA's CPU backend keeps each compiled program's code in memory mappings of its own, and Linux
# caps a process's mappings (vm.max_map_count, 65,530 by default): the default run compiles
# thousands of programs in one process and, once nothing else cleared JAX's caches on the way
# (a test of release_compiled did, until it moved to a child process), died in a compile with
# SIGABRT 79% of the way through. So after a test, when the process holds more than a share of
# the cap, every compiled program is forgotten (alignment.backends.release_compiled: the next use
# compiles again). Reading /proc/self/maps costs a few milliseconds, so at most once a second.
_MAPS_SHARE = 0.5
_CHECK_EVERY_S = 1.0
_last_check = 0.0


def _map_cap() -> int:
    try:
        return int(Path("/proc/sys/vm/max_map_count").read_text())
    except (OSError, ValueError):
        return 0


def mappings() -> int:
    """How many memory mappings this process holds (0 where /proc does not say)."""
    try:
        with open("/proc/self/maps", "rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    except OSError:
        return 0


_CAP = _map_cap()


def pytest_runtest_teardown(item, nextitem):
    global _last_check
    if not _CAP or time.monotonic() - _last_check < _CHECK_EVERY_S:
        return
    _last_check = time.monotonic()
    if mappings() > _MAPS_SHARE * _CAP:
        from alignment.backends import release_compiled

        release_compiled()


@pytest.fixture
def repo(tmp_path):
    """A throwaway git repository with gate artefacts, committed on ``main``
    (:func:`tests.gate_fixtures.make_repo`)."""
    from tests.gate_fixtures import make_repo

    return make_repo(tmp_path)
