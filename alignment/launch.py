"""The ``jaxtari-align`` program: says which of the pipeline's packages are missing before anything
imports them (an install of the games alone, ``pip install jaxtari-align``, lacks them), then runs
:mod:`alignment.cli`."""

from __future__ import annotations

import re
import sys
from importlib import metadata

DISTRIBUTION = "jaxtari-align"
EXTRA = "align"


def missing_packages() -> list[str]:
    """The distributions of the ``align`` extra that are not installed (none when this package is
    not installed at all, e.g. run from a source tree: pip has nothing to say then)."""
    try:
        requires = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return []
    out = []
    for req in requires:
        spec, _, marker = req.partition(";")
        if not re.fullmatch(rf'\s*extra\s*==\s*"{EXTRA}"\s*', marker):
            continue  # another extra's, or one with a marker of its own (a Python version): pip's
        name = re.match(r"\s*([A-Za-z0-9._-]+)", spec).group(1)
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            out.append(name)
    return out


def main() -> None:
    missing = missing_packages()
    if missing:
        sys.stderr.write(
            f"error: jaxtari-align needs the pipeline's packages, not installed here: "
            f"{', '.join(missing)}\nInstall them with `pip install 'jaxtari-align[{EXTRA}]'` "
            f"(from the repository: `pip install -e '.[{EXTRA}]'`); the games alone need none.\n")
        raise SystemExit(2)
    from alignment.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
