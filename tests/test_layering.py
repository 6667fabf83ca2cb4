"""The layers: ``jaxtari`` (the games) never imports ``alignment`` (the pipeline)."""

from __future__ import annotations

import ast
import subprocess
import sys
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
