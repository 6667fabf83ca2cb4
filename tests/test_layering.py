"""The layers: ``jaxtari`` (the games) never imports ``alignment`` (the pipeline), nor needs the
pipeline's packages (pyproject's ``align`` extra)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import jaxtari

JAXTARI_DIR = Path(jaxtari.__file__).resolve().parent
REPO = JAXTARI_DIR.parent


def test_importing_every_jaxtari_module_loads_no_alignment_module():
    # a fresh interpreter: this test process has imported alignment long ago
    code = (
        "import importlib, pkgutil, sys\n"
        "import jaxtari\n"
        "for m in pkgutil.walk_packages(jaxtari.__path__, 'jaxtari.'):\n"
        "    importlib.import_module(m.name)\n"
        "for name in jaxtari.list_games():\n"
        "    jaxtari.make(name)\n"
        "print(len([m for m in sys.modules if m.startswith('jaxtari')]))\n"
        "print(sorted(m for m in sys.modules if m == 'alignment' or m.startswith('alignment.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    n_modules, loaded = out.stdout.strip().splitlines()
    assert int(n_modules) > 10  # the walk did import the games, not an empty package
    assert loaded == "[]"


def test_no_jaxtari_source_names_alignment():
    # also catches an import inside a function, which the subprocess above may never reach
    offenders = []
    for path in sorted(JAXTARI_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.relative_to(REPO)}:{node.lineno} imports {n}" for n in names
                          if n == "alignment" or n.startswith("alignment.")]
    assert offenders == []


def _canon(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _dist(requirement: str) -> str:
    return _canon(re.match(r"\s*([A-Za-z0-9._-]+)", requirement).group(1))


def pipeline_only_modules() -> list[str]:
    """Top-level modules of the pipeline's extra (pyproject's ``align``) that the games' own
    dependencies do not pull in: what importing jaxtari must not need."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pulled, todo = set(), [_dist(r) for r in project["dependencies"]]
    while todo:
        dist = todo.pop()
        if dist in pulled:
            continue
        pulled.add(dist)
        try:
            todo += [_dist(r) for r in metadata.requires(dist) or () if "extra ==" not in r]
        except metadata.PackageNotFoundError:
            pass
    pipeline = {_dist(r) for r in project["optional-dependencies"]["align"]} - pulled
    return sorted(module for module, dists in metadata.packages_distributions().items()
                  if not module.startswith("_") and any(_canon(d) in pipeline for d in dists))


def test_the_games_need_none_of_the_pipelines_packages():
    blocked = pipeline_only_modules()
    assert {"ale_py", "langgraph", "typer", "pygame", "flax"} <= set(blocked)
    code = (
        "import importlib, importlib.abc, pkgutil, sys\n"
        f"BLOCKED = {blocked!r}\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ImportError(f'{name} is a pipeline package (blocked)')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import jax, jax.numpy as jnp, jaxtari\n"
        "for m in pkgutil.walk_packages(jaxtari.__path__, 'jaxtari.'):\n"
        "    importlib.import_module(m.name)\n"
        "for name in jaxtari.list_games():\n"
        "    game = jaxtari.make(name)\n"  # traced, not run: the imports are what is checked
        "    obs, state = jax.eval_shape(game.reset, jax.random.key(0))\n"
        "    jax.eval_shape(game.step, state, jnp.int32(0))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in BLOCKED))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"
