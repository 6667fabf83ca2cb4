"""The suite's guard on memory maps (tests/conftest.py): past its share of the kernel's cap, the
compiled programs are forgotten and their mappings given back."""

import gc

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
