"""Fixtures shared by the audit tests."""

import pytest


@pytest.fixture(scope="session")
def toy_audit():
    """The toy game's whole audit with its seeded faults, matched rollouts not run under them
    (~16 s under load): several files read the same result, none changes it."""
    from alignment.audit import core
    from tests.audit import toy

    return core.audit(toy.subject())
