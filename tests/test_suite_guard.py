"""The suite's guard on memory maps (tests/conftest.py): past its share of the kernel's cap, the
compiled programs are forgotten and their mappings given back; and its persistent cache of
compiled programs."""

import gc
import os
import subprocess
import sys
from pathlib import Path

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
