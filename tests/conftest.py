"""Fixtures shared across the test folder."""

import pytest


@pytest.fixture
def repo(tmp_path):
    """A throwaway git repository with gate artefacts, committed on ``main``
    (:func:`tests.gate_fixtures.make_repo`)."""
    from tests.gate_fixtures import make_repo

    return make_repo(tmp_path)
