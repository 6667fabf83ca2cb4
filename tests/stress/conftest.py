"""Fixtures shared by the stress tests."""

import shutil

import pytest


@pytest.fixture(scope="session")
def jax_tiny(tmp_path_factory):
    """A finished run of the JAX side alone on Freeway at the TINY budget, two seeds, made once:
    (its out folder, its result). Tests copy the folder before changing anything in it (each run
    compiles and trains again: ~100 s under load)."""
    from alignment.stress.core import run_stress
    from tests.stress.test_core import TINY

    out = tmp_path_factory.mktemp("jax-tiny")
    return out, run_stress("freeway", budget=TINY, seeds=2, backends=("jax",), out_dir=out)


@pytest.fixture
def jax_tiny_copy(jax_tiny, tmp_path):
    """``jax_tiny``'s out folder copied into this test's tmp_path (its checkpoints included)."""
    out, result = jax_tiny
    shutil.copytree(out, tmp_path, dirs_exist_ok=True)
    return tmp_path, result
