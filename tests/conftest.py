"""Fixtures shared across the test folder, the suite's guard on the process's memory maps, and
its cache of compiled programs."""

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

# The default run is mostly XLA compiling (profiled: half the wall time of its first 339 tests, the
# audit folder's, in the backend compile), some of it the same programs again: tests jit the same
# games' functions anew, the CLI tests compile in interpreters of their own, and every
# jax.clear_caches() (the audit after each seeded fault, the guard further down) makes the next
# tests compile everything afresh. JAX's persistent cache keys a program by its HLO (and JAX's
# version and flags), so the same program compiled again is read back from disk instead (measured:
# Frostbite's backend 44 s -> 9 s after a release); what runs is the same executable. One fresh
# folder a session, named through the environment so that child interpreters share it, removed at
# the end; a folder the caller set is used as it is.
_CACHE_ENV = "JAX_COMPILATION_CACHE_DIR"
_MIN_TIME_ENV = "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"
_OWN_CACHE = None
if not os.environ.get(_CACHE_ENV):
    _OWN_CACHE = tempfile.mkdtemp(prefix="jaxtari-tests-xla-")
    os.environ[_CACHE_ENV] = _OWN_CACHE
# compiles shorter than this cost less than the write; JAX's default (1 s) left out the toy games'
# steps that the audit tests compile again for every fault
os.environ.setdefault(_MIN_TIME_ENV, "0.1")
if "jax" in sys.modules:  # imported before this file: the environment was read already
    import jax

    jax.config.update("jax_compilation_cache_dir", os.environ[_CACHE_ENV])
    jax.config.update("jax_persistent_cache_min_compile_time_secs",
                      float(os.environ[_MIN_TIME_ENV]))


def pytest_unconfigure(config):
    if _OWN_CACHE:
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)


# Two workers for a run of the whole folder (pyproject's `-n auto`): one test process keeps one
# core of CI's two busy (XLA compiles a program on the calling thread, and ALE, Python and the
# tests' own checks are single-threaded), so the second core sat mostly idle. Two, not one per
# core: each worker holds its own compiled programs (2-3 GB), and two is what CI has. They share
# the persistent cache above (the environment names it before they start). A run that names files
# or tests stays one process: prints, --pdb, and a shared machine's one heavy process each.
# PYTEST_XDIST_AUTO_NUM_WORKERS, when set, decides (xdist's own reading of it).
_WORKERS = 2


def pytest_xdist_auto_num_workers(config):
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist reads it
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return _WORKERS if (cores or 1) >= _WORKERS else 0


# XLA's CPU backend keeps each compiled program's code in memory mappings of its own, and Linux
# caps a process's mappings (vm.max_map_count, 65,530 by default): the default run compiles
# thousands of programs in one process and, once nothing else cleared JAX's caches on the way
# (a test of release_compiled did, until it moved to a child process), died in a compile with
# SIGABRT 79% of the way through. So after a test, when the process holds more than a share of
# the cap, every compiled program is forgotten (AuditSession.release_compiled of the process's
# session, alignment.audit.session: the next use compiles again). Reading /proc/self/maps costs a
# few milliseconds, so at most once a second.
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
        from alignment.audit import session

        session.current().release_compiled()


@pytest.fixture
def repo(tmp_path):
    """A throwaway git repository with gate artefacts, committed on ``main``
    (:func:`tests.gate_fixtures.make_repo`)."""
    from tests.gate_fixtures import make_repo

    return make_repo(tmp_path)
