"""What a game's plug-in declares that can excuse a difference from ALE, read as data from this
tree and from the base's: signal tolerances, known ends, the mods' ALE counterparts, the mods it
declares JAX-only-unaudited, and the game's registered mods.

The plug-in is code (``alignment/reference/games/<game>/``), so the base's declarations are read
by importing the base's own tree, exported with ``git archive`` into a temporary folder, in a
fresh interpreter (the base is the branch the change goes into: its code is trusted). Returns
data: ``{game: {"signals": {name: tolerance}, "known_ends": [...], "counterparts": [...],
"unaudited_mods": {mod: reason}, "mods": [...]}}``.
"""

from __future__ import annotations

import functools
import subprocess
import tarfile
import tempfile
from pathlib import Path

from alignment.gate.fresh import run_json

TIMEOUT_S = 300
# What a fresh interpreter needs of a tree to import the catalog and the games' mods.
TREE = ("alignment", "jaxtari", "specs", "faults")

_SCRIPT = r"""
import json, sys
from alignment import catalog
try:
    from jaxtari.mod_registry import registered_mods
except ModuleNotFoundError:  # a base tree from before the registry had a module of its own
    from jaxtari.mods import registered_mods
out = {}
for g in catalog.games():
    e = catalog.entry(g)
    out[g] = {"signals": {k: float(s.tolerance) for k, s in e.signals.items()},
              "known_ends": sorted(k.name for k in e.known_ends),
              "counterparts": sorted(e.ale_mods),
              "exact": {m: cp.exact for m, cp in e.ale_mods.items()},
              "unaudited_mods": dict(getattr(e, "unaudited_mods", None) or {}),
              "mods": sorted(registered_mods(e.jax_game or g)) if e.jax_game else []}
print(json.dumps(out))
"""


class DeclarationsError(RuntimeError):
    """A tree whose plug-ins cannot be read (the message says why)."""


def _run(cwd: Path) -> dict:
    return run_json(_SCRIPT, [], cwd, timeout=TIMEOUT_S, error=DeclarationsError,
                    what="reading the plug-ins")


def current(root: Path = Path(".")) -> dict:
    """The declarations of the tree at ``root`` (a fresh interpreter, as the base's are read)."""
    return _current(str(Path(root).resolve()))


@functools.lru_cache(maxsize=4)
def _current(root: str) -> dict:
    return _run(Path(root))


@functools.lru_cache(maxsize=4)
def at_commit(sha: str, root: str) -> dict:
    """The declarations of commit ``sha`` of the repository at ``root``."""
    present = [p for p in TREE if subprocess.run(["git", "cat-file", "-e", f"{sha}:{p}"], cwd=root,
                                                 capture_output=True).returncode == 0]
    if "alignment" not in present:
        return {}  # no plug-ins there: nothing they declared to compare with
    with tempfile.TemporaryDirectory(prefix="gate-base-") as tmp:
        archive = Path(tmp) / "tree.tar"
        out = subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), sha, "--",
                              *present], cwd=root, capture_output=True, text=True)
        if out.returncode != 0:
            raise DeclarationsError(f"cannot export {sha[:12]}: {out.stderr.strip()}")
        tree = Path(tmp) / "tree"
        tree.mkdir()
        with tarfile.open(archive) as tar:
            tar.extractall(tree, filter="data")
        return _run(tree)
