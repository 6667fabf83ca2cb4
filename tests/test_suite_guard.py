"""The suite's guard on memory maps (tests/conftest.py): past its share of the kernel's cap, the
compiled programs are forgotten and their mappings given back; its persistent cache of compiled
programs; and its two workers for a run of the whole folder."""

import gc
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import pytest

from tests import conftest


@pytest.mark.skipif(conftest.mappings() == 0, reason="no /proc/self/maps on this system")
def test_past_the_share_of_the_cap_compiled_programs_are_released(monkeypatch):
    programs = [jax.jit(lambda x, i=i: jnp.sin(x) * i + jnp.cos(x)) for i in range(60)]
    for f in programs:
        f(jnp.ones(3))
    held = conftest.mappings()
    # under the share: nothing happens
    monkeypatch.setattr(conftest, "_CAP", 10 * held)
    monkeypatch.setattr(conftest, "_last_check", 0.0)
    conftest.pytest_runtest_teardown(None, None)
    assert conftest.mappings() >= held - 20
    # past it: every compiled program is forgotten and its mappings unmapped
    monkeypatch.setattr(conftest, "_CAP", held)
    monkeypatch.setattr(conftest, "_last_check", 0.0)
    conftest.pytest_runtest_teardown(None, None)
    gc.collect()
    assert conftest.mappings() < held - 100


def test_the_suite_compiles_through_one_persistent_cache_its_child_interpreters_share():
    folder = os.environ[conftest._CACHE_ENV]
    assert Path(folder).is_dir() and jax.config.jax_compilation_cache_dir == folder
    said = "import jax; c = jax.config; print(c.jax_compilation_cache_dir, " \
           "c.jax_persistent_cache_min_compile_time_secs)"
    child = subprocess.run([sys.executable, "-c", said], capture_output=True, text=True, check=True)
    assert child.stdout.split() == [folder, str(float(os.environ[conftest._MIN_TIME_ENV]))]


def test_a_run_of_the_whole_folder_takes_two_workers_and_a_named_one_none(monkeypatch, request):
    assert "-n auto" in " ".join(request.config.getini("addopts"))
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    whole = SimpleNamespace(args_source=pytest.Config.ArgsSource.TESTPATHS)
    named = SimpleNamespace(args_source=pytest.Config.ArgsSource.ARGS)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert conftest.pytest_xdist_auto_num_workers(whole) == 2
    assert conftest.pytest_xdist_auto_num_workers(named) == 0
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert conftest.pytest_xdist_auto_num_workers(whole) == 0  # one core: no second process
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert conftest.pytest_xdist_auto_num_workers(whole) is None  # xdist's own reading decides
