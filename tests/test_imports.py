"""No import cycles in ``alignment`` and ``jaxtari``, and every module imports alone.

A cycle hidden behind a function-local import still runs: a call reaches a module that is half
loaded, or the order two modules are first imported in decides whether it works. So the graph
checked here holds every import of a project module wherever it is written (module top, inside a
function, under ``if __name__ == "__main__"``), plus the registries' ``importlib`` imports, which
scan folders. It reads the source and runs none of it.

The slow test imports each module alone in a fresh interpreter (a pool of processes, one
interpreter per module), which is what a user's first ``import`` does.
"""

from __future__ import annotations

import ast
import concurrent.futures as cf
import os
import subprocess
import sys
from pathlib import Path

import pytest

from alignment.stages import OTHER_COMMANDS, STAGES  # plain data: it imports nothing of ours

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("alignment", "jaxtari")

GAME_PLUGINS = "alignment.reference.games"


# Modules that import others by a name computed at run time, and what those names can be. A new
# importlib.import_module call must be declared here (test_every_dynamic_import_is_declared).
def _dynamic(modules: set[str]) -> dict[str, set[str]]:
    plugins = {m for m in modules if m.startswith(GAME_PLUGINS + ".") and m.count(".") == 3}
    games = {m for m in modules if m.startswith("jaxtari.games.") and m.count(".") == 2}
    return {
        "alignment.catalog": plugins,  # the catalog: every ground-truth package's ENTRY
        "jaxtari": games,  # game_class: the game's package
        "jaxtari.mod_registry": {f"{g}.mods" for g in games} & modules,  # registered_mods
        # register(app) of each command module
        "alignment.cli": {s.command for s in STAGES.values()} | set(OTHER_COMMANDS),
        "alignment.pipeline.nodes": {s.core for s in STAGES.values()},  # the stage a node runs
    }


# Dynamic imports that load no project module under its own name.
NOT_PROJECT_IMPORTS = {
    "alignment.audit.mutants": "imports a copy of a game's modules under a fresh alias (a mutant)",
    "alignment.gate.closure": "the import is in a script run in a fresh interpreter",
    "jaxtari.envpool": "imports the third-party gym where installed",
}


def project_modules() -> dict[str, Path]:
    found = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported_names(name: str, path: Path, modules) -> list[str]:
    """Every project module ``name``'s source imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            for alias in node.names:  # ``from pkg import module`` imports the module
                sub = f"{source}.{alias.name}"
                out.append(sub if sub in modules else source)
    return out


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """module -> the project modules importing it executes: each imported module and the packages
    above it (their ``__init__`` runs first), less the module's own packages (already running)."""
    graph = {}
    for name, path in modules.items():
        targets = set()
        for imported in _imported_names(name, path, modules):
            parts = imported.split(".")
            for i in range(1, len(parts) + 1):
                target = ".".join(parts[:i])
                if target in modules and target != name and not name.startswith(target + "."):
                    targets.add(target)
        graph[name] = targets
    for name, targets in _dynamic(set(modules)).items():
        graph[name] |= targets - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _path_within(graph, component: list[str]) -> str:
    """The shortest cycle through the component's first module, ``a -> b -> ... -> a``."""
    members, start = set(component), component[0]
    came_from, frontier = {}, [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & members):
                if nxt == start:
                    trail = [node]
                    while trail[-1] != start:
                        trail.append(came_from[trail[-1]])
                    return " -> ".join(reversed(trail)) + f" -> {start}"
                if nxt not in came_from:
                    came_from[nxt] = node
                    following.append(nxt)
        frontier = following
    return " -> ".join(component)


def test_the_graph_sees_lazy_and_registry_imports():
    """The checker itself: a function-local import and a registry scan are edges."""
    graph = import_graph(project_modules())
    assert "jaxtari" in graph["alignment.reference.features"]  # imported only in a function
    assert f"{GAME_PLUGINS}.pong" in graph["alignment.catalog"]  # the catalog's scan
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    graph = import_graph(project_modules())
    found = [f"{_path_within(graph, c)}   (all of: {', '.join(c)})" for c in cycles(graph)]
    assert not found, "import cycles (break them: move what both need to a module below both):\n" \
        + "\n".join(found)


def test_every_dynamic_import_is_declared():
    modules = project_modules()
    declared = set(_dynamic(set(modules))) | set(NOT_PROJECT_IMPORTS)
    calling = set()
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
                calling.add(name)
    assert calling <= declared, f"undeclared dynamic imports in {sorted(calling - declared)}"
    assert all(targets for targets in _dynamic(set(modules)).values())


def _import_alone(name: str) -> tuple[str, int, str]:
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    code = f"import importlib; importlib.import_module({name!r})"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    return name, run.returncode, run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""


@pytest.mark.slow
def test_every_module_imports_alone_in_a_fresh_interpreter():
    """One interpreter per module, one per core up to four at a time (~240 modules). A module
    whose third-party package is not installed (an optional extra) is not a failure of ours."""
    names = sorted(n for n in project_modules() if not n.endswith("__main__"))
    with cf.ThreadPoolExecutor(max(1, min(4, (os.cpu_count() or 2)))) as pool:
        results = list(pool.map(_import_alone, names))
    failed = []
    for name, code, last in results:
        missing_extra = last.startswith("ModuleNotFoundError") and not any(
            f"'{p}" in last for p in PACKAGES)
        if code != 0 and not missing_extra:
            failed.append(f"{name}: {last}")
    assert not failed, "modules that fail to import alone:\n" + "\n".join(failed)
