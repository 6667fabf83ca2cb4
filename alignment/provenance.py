"""What a report was made with: the versions of the packages its figures depend on.

One function for every stage. Each stage names the packages it records, in the order its report
lists them (the committed reports keep their key order and spelling: the audit writes ``ale_py``,
the stress report the distribution name ``ale-py``).
"""

from __future__ import annotations

import platform
from importlib.metadata import PackageNotFoundError, version

NOT_INSTALLED = "not installed"

# The key a report records -> the distribution that carries it, where the two differ.
_DISTRIBUTIONS = {"ale_py": "ale-py"}

# What the audit, the compare report and playtest replays record.
EMULATOR_STACK = ("ale_py", "jax", "jaxtari", "numpy", "python")
# What a playtest session's header and its replay report record.
PLAYTEST_STACK = ("jaxtari", "ale_py", "jax", "numpy", "python")
# What the stress and robustness reports record (the learner's libraries too).
LEARNING_STACK = ("python", "jax", "jaxlib", "flax", "optax", "ale-py", "numpy", "rliable",
                  "jaxtari-align")


def versions(names=EMULATOR_STACK) -> dict[str, str]:
    """``{name: version}`` in the order given; ``python`` is the interpreter, ``jaxtari`` the
    package's own ``__version__``, anything else an installed distribution (or "not installed")."""
    out = {}
    for name in names:
        if name == "python":
            out[name] = platform.python_version()
        elif name == "jaxtari":
            import jaxtari

            out[name] = jaxtari.__version__
        else:
            try:
                out[name] = version(_DISTRIBUTIONS.get(name, name))
            except PackageNotFoundError:
                out[name] = NOT_INSTALLED
    return out
