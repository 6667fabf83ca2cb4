"""The modules a game's behaviour is made of, traced, against what its code hash covers.

:func:`alignment.catalog.code_hash` hashes folders (all of ``jaxtari/`` but the other games and
the drop-in adapters, the game's spec, ground truth and fault set): a constant moved to a module
outside them and changed later would leave every audit "current". The committed audits keep that
hash (re-making every audit costs hours); this check closes the hole instead: a fresh interpreter
imports jaxtari and the game's ground truth, makes the game and each of its registered mods,
traces reset, step, render, objects and signals (``jax.eval_shape``: every Python line of the step
runs, nothing compiles), and lists every module it loaded. Any module of the repository among them
that the hash does not cover fails the game, named. Modules outside the repository (the standard
library and the pinned packages in site-packages) are versions the artefacts record.

:func:`traced_modules` returns data (the files); :func:`uncovered` says which the hash misses.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from alignment.gate.fresh import run_json

TIMEOUT_S = 300

# Run in a fresh interpreter with the repository first on sys.path. It records every Python
# function that runs while the game (and each of its mods) is made and its step, render, objects and
# signals are traced, then follows imports from there: the module-level imports of every module
# whose code ran, and the imports inside the functions that ran (an import inside a function that
# never ran is not a dependency). Prints the repository files reached.
_SCRIPT = r"""
import ast, importlib, importlib.util, json, sys
from pathlib import Path
root = Path.cwd().resolve()
game, jax_game = sys.argv[1], sys.argv[2]
ran = set()
# a global trace function is called once per new frame only (no returns, no C calls, no lines:
# it returns None), far cheaper than a profile function over jax's tracing
def tracer(frame, event, arg):
    ran.add((frame.f_code.co_filename, frame.f_code.co_firstlineno))
import jax
import jaxtari
from jaxtari.mod_registry import registered_mods
from jaxtari.wrappers import AtariWrapper
plugin = importlib.import_module("alignment.reference.games." + game)
cls = jaxtari.game_class(jax_game)
sys.settrace(tracer)
for mods in [()] + [(m,) for m in sorted(registered_mods(jax_game))]:
    g = jaxtari.make(jax_game, mods=mods)
    key = jax.random.key(0)
    # shapes only: every line of reset runs under the trace, no operation is dispatched
    state = jax.eval_shape(g.reset, key)[1]
    for name in ("render", "objects", "signals", "observation"):
        fn = getattr(g, name, None)
        if fn is not None:
            jax.eval_shape(fn, state)
    w = AtariWrapper(g)  # its step runs the game's step (and the mod's)
    jax.eval_shape(lambda k: w.step(w.reset(k)[1], 0), key)
sys.settrace(None)

def inside(f):
    try:
        p = Path(f).resolve()
    except (OSError, ValueError):
        return None
    if p.suffix != ".py" or not p.is_relative_to(root):
        return None
    rel = p.relative_to(root)
    if "site-packages" in rel.parts or rel.parts[0].startswith("."):
        return None
    return p

def module_name(p):
    parts = list(p.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts), p.name == "__init__.py"

def find(name):
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    return inside(spec.origin) if spec is not None and spec.origin else None

def imports(p):
    tree = ast.parse(p.read_text("utf-8"))
    name, is_pkg = module_name(p)
    package = name if is_pkg else name.rpartition(".")[0]
    out = []
    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                if (str(p), first) not in ran and (str(p), child.lineno) not in ran:
                    continue
            if isinstance(child, ast.Import):
                out.extend(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - child.level + 1]
                    mod = ".".join(base + ([child.module] if child.module else []))
                else:
                    mod = child.module
                out.append(mod)
                out.extend(f"{mod}.{a.name}" for a in child.names)
            visit(child)
    visit(tree)
    return out

GAME_DIRS = (("jaxtari", "games"), ("alignment", "reference", "games"))

def owner(p):
    # the game whose package holds p (None: shared code)
    parts = p.relative_to(root).parts
    for d in GAME_DIRS:
        if parts[:len(d)] == d and len(parts) > len(d) + 1:
            return parts[len(d)]
        if parts[:len(d)] == d and len(parts) == len(d) + 1 and parts[-1] != "__init__.py":
            return parts[-1].split(".")[0].split("_")[0]
    return None

mine = {game, jax_game}
start = {inside(f) for f, _ in ran}
start |= {inside(getattr(m, "__file__", None) or "") for n, m in list(sys.modules.items())
          if n == cls.__module__.rpartition(".")[0] or n.startswith(cls.__module__.rpartition(".")[0] + ".")
          or n == plugin.__name__ or n.startswith(plugin.__name__ + ".")}
todo = [p for p in start if p is not None]
seen = set(todo)
while todo:
    p = todo.pop()
    for name in imports(p):
        f = find(name)
        # a shared registry (jaxtari.games, the catalog) imports every game: that edge is not a
        # dependency of this one; an edge from this game's own code into another game's is
        if f is not None and owner(f) not in (None, *mine) and owner(p) is None:
            continue
        if f is not None and f not in seen:
            seen.add(f)
            todo.append(f)
from alignment import catalog
covered = [str(Path(f).resolve()) for f in catalog.behaviour_files(game)]
print(json.dumps({"files": sorted(str(p) for p in seen), "covered": covered}))
"""


class TraceError(RuntimeError):
    """The game could not be made and traced in a fresh interpreter (the message says why)."""


def traced_modules(game: str, root: Path) -> tuple[list[Path], set[Path]]:
    """(the repository files ``game``'s behaviour is traced to, the files its code hash covers),
    both as the repository at ``root`` has them (made and traced in a fresh interpreter there);
    :class:`TraceError` when it cannot be made."""
    from alignment import catalog

    root = Path(root).resolve()
    jax_game = catalog.entry(game).jax_game or game
    found = run_json(_SCRIPT, [game, jax_game], root, timeout=TIMEOUT_S, error=TraceError,
                     what=f"making and tracing {game}'s step", inherit_path=True)
    return [Path(f) for f in found["files"]], {Path(f) for f in found["covered"]}


# The pipeline's own modules the ground-truth package imports (the types a plug-in is written
# with): they are shared by every game, and a change there re-audits every game in CI
# (alignment/gate/core.py SHARED_ROOTS), so they are not the game's own code.
PIPELINE_PACKAGE = "alignment"
GROUND_TRUTH = ("alignment", "reference", "games")


def uncovered(game: str, files: list[Path], root: Path,
              covered: Optional[set[Path]] = None) -> list[str]:
    """Repository files among ``files`` that :func:`alignment.catalog.behaviour_files` does not
    hash for ``game`` (repository-relative, sorted). Pipeline modules outside the ground truth
    (``alignment/`` but ``alignment/reference/games/``) are shared code, not the game's."""
    from alignment import catalog

    root = Path(root).resolve()
    if covered is None:
        covered = {Path(f).resolve() for f in catalog.behaviour_files(game)}
    out = []
    for f in files:
        f = Path(f).resolve()
        if not f.is_relative_to(root) or f in covered:
            continue
        rel = f.relative_to(root)
        parts = rel.parts
        if "site-packages" in parts or parts[0].startswith("."):
            continue  # a virtual environment inside the checkout: installed packages
        if parts[0] == PIPELINE_PACKAGE and parts[:3] != GROUND_TRUTH:
            continue
        out.append(rel.as_posix())
    return sorted(out)


def problems(game: str, root: Path = Path(".")) -> list[str]:
    """The gate's failures for ``game``: each traced module outside its code hash, named."""
    try:
        files, covered = traced_modules(game, root)
    except TraceError as err:
        return [f"code hash: {err}"]
    missing = uncovered(game, files, root, covered)
    return [f"code hash: {game}'s step imports {rel}, which its code hash does not cover "
            f"(alignment.catalog.behaviour_files): move it into jaxtari/ (or the game's package) "
            f"so that a change to it stales the game's artefacts" for rel in missing]
