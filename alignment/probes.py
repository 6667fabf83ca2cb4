"""Deprecated: the probes moved to :mod:`alignment.audit.probes` (``run_spec`` is now ``run_probes``)."""

import warnings

from alignment.audit.probes import (  # noqa: F401
    BACKENDS, ProbeError, ProbeResult, holds, run_on_ale, run_on_jax, run_probe, run_probes,
)

warnings.warn("alignment.probes moved to alignment.audit.probes", DeprecationWarning, stacklevel=2)
