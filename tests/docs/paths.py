"""Paths shared by the docs and spec tests: the project's own test corpus and the real one."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TEST_DOCS = REPO / "tests" / "data" / "docs"
SHARED_DOCS = (REPO / ".." / "shared" / "docs").resolve()
SPECS = REPO / "specs"

needs_shared = pytest.mark.skipif(
    not (SHARED_DOCS / "farama").is_dir(), reason="the real corpus ../shared/docs is not present"
)
