"""Deprecated: compare moved to :mod:`alignment.audit.compare` (the run) and
:mod:`alignment.audit.compare_report` (the files)."""

import warnings

from alignment.audit.compare import SCHEMA, CompareError, run_compare  # noqa: F401
from alignment.audit.compare_report import render_markdown, write_report  # noqa: F401

warnings.warn("alignment.compare moved to alignment.audit.compare", DeprecationWarning, stacklevel=2)
