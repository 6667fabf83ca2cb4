"""A script run in a fresh interpreter on a tree (its JSON answer read back): the gate reads a tree's
plug-ins and traces its games there, so that nothing this process imported stands in for them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Sequence


def environment(cwd: Path, inherit_path: bool = False) -> dict[str, str]:
    """The environment of a script run on the tree at ``cwd``: that tree first on the import path
    (the caller's PYTHONPATH after it when ``inherit_path``), JAX on the CPU."""
    path = str(cwd) + (os.pathsep + os.environ.get("PYTHONPATH", "") if inherit_path else "")
    return {**os.environ, "PYTHONPATH": path, "JAX_PLATFORMS": "cpu"}


def run_json(script: str, args: Sequence[str], cwd: Path, *, timeout: float, error: type[Exception],
             what: str, inherit_path: bool = False) -> dict:
    """The JSON object the script prints last, run with ``cwd`` first on the import path (and the
    caller's PYTHONPATH after it when ``inherit_path``) on the CPU. ``error`` (its message naming
    ``what``, e.g. "tracing pong's step") when it runs past ``timeout`` or fails."""
    try:
        out = subprocess.run([sys.executable, "-c", script, *args], cwd=cwd,
                             env=environment(cwd, inherit_path),
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise error(f"{what} took over {timeout:g} s") from None
    if out.returncode != 0:
        tail = (out.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise error(f"{what} failed in a fresh interpreter: {tail}")
    return json.loads(out.stdout.strip().splitlines()[-1])
