"""The modules a game's behaviour is made of, traced, against what its code hash covers.

:func:`alignment.catalog.code_hash` hashes folders (all of ``jaxtari/`` but the other games and
the drop-in adapters, the game's spec, ground truth and fault set): a constant moved to a module
outside them and changed later would leave every audit "current". The committed audits keep that
hash (re-making every audit costs hours); this check closes the hole instead: each game is made,
with each of its registered mods, in a fresh interpreter of its own (a few at a time), which
traces reset, step, render, objects and signals (``jax.eval_shape``: every Python line of the
step runs, nothing compiles), records every function that ran and follows imports from them. Any
module of the repository reached that the hash does not cover fails the game, named. Modules
outside the repository (the standard library and the pinned packages in site-packages) are
versions the artefacts record.

Not children forked from one interpreter that imported jax once: a child forked from a process
whose imported libraries hold threads can hang (an independent run of the gate did, three games'
traces never answering), and one interpreter tracing several games would find the first one's
caches filled for the next.

:class:`Traces` traces games in the background (the gate judges the artefacts meanwhile);
:func:`traced_modules` returns one game's files; :func:`uncovered` says which the hash misses.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Optional

from alignment.gate.fresh import environment

TIMEOUT_S = 300  # one game's making and tracing
STDERR_KEPT = 20  # the last lines of a tracing interpreter's stderr, for its failure message

# Run in a fresh interpreter with the repository first on sys.path, for one game. It imports jax
# and jaxtari, then records every Python function that runs while the game (and each of its mods) is
# made and its step, render, objects and signals are traced, then follows imports from there: the
# module-level imports of every module whose code ran, and the imports inside the functions that
# ran (an import inside a function that never ran is not a dependency). Writes one JSON line: the
# repository files reached and the ones the code hash covers, or the error.
_SCRIPT = r"""
import ast, importlib, importlib.util, json, os, sys, traceback
from pathlib import Path
# the answers go to a copy of stdout that only this script writes; whatever the code it runs
# prints goes to stderr
answers = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)

def say(found):
    answers.write(json.dumps(found) + "\n")
    answers.flush()

root = Path.cwd().resolve()
game, jax_game = json.loads(sys.argv[1])
import jax
import jaxtari
from jaxtari.mod_registry import registered_mods
from jaxtari.wrappers import AtariWrapper

def traced(game, jax_game):
    ran = set()
    # a global trace function is called once per new frame only (no returns, no C calls, no
    # lines: it returns None), far cheaper than a profile function over jax's tracing
    def tracer(frame, event, arg):
        ran.add((frame.f_code.co_filename, frame.f_code.co_firstlineno))
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
    return reached(game, jax_game, ran, cls, plugin)

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

def imports(p, ran):
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

def reached(game, jax_game, ran, cls, plugin):
    mine = {game, jax_game}
    package = cls.__module__.rpartition(".")[0]
    start = {inside(f) for f, _ in ran}
    start |= {inside(getattr(m, "__file__", None) or "") for n, m in list(sys.modules.items())
              if n == package or n.startswith(package + ".")
              or n == plugin.__name__ or n.startswith(plugin.__name__ + ".")}
    todo = [p for p in start if p is not None]
    seen = set(todo)
    while todo:
        p = todo.pop()
        for name in imports(p, ran):
            f = find(name)
            # a shared registry (jaxtari.games, the catalog) imports every game: that edge is not
            # a dependency of this one; an edge from this game's own code into another game's is
            if f is not None and owner(f) not in (None, *mine) and owner(p) is None:
                continue
            if f is not None and f not in seen:
                seen.add(f)
                todo.append(f)
    from alignment import catalog
    covered = [str(Path(f).resolve()) for f in catalog.behaviour_files(game)]
    return {"files": sorted(str(p) for p in seen), "covered": covered}

def answer(game, jax_game):
    try:
        return {"game": game, **traced(game, jax_game)}
    except BaseException as err:
        traceback.print_exc()
        # the exception itself, not the notes a library appends to it (jax's on its frames)
        said = str(err).strip()
        return {"game": game, "error": type(err).__name__ + (": " + said if said else "")}

say(answer(game, jax_game))
"""


class TraceError(RuntimeError):
    """The game could not be made and traced in a fresh interpreter (the message says why)."""


def cores() -> int:
    """The CPU cores this process may run on (a container's share, where the OS says)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Traces:
    """Games traced in the background, starting at once: :meth:`result` waits for one game.

    ``games``: (catalog name, jaxtari name) pairs (:func:`jax_games`); ``workers`` games are
    traced at a time (default: the cores); ``on_traced(game, error)`` is called as each game's
    answer arrives (from another thread; ``error`` None when it was traced). Each game is traced in a
    fresh interpreter of its own, stopped past ``timeout`` seconds."""

    def __init__(self, games: list[tuple[str, str]], root: Path, *, workers: Optional[int] = None,
                 on_traced: Optional[Callable[[str, Optional[str]], None]] = None,
                 timeout: float = TIMEOUT_S) -> None:
        self.root = Path(root).resolve()
        self.games = [g for g, _ in games]
        self.workers = max(1, min(len(games), workers or cores()))
        self.timeout = timeout
        self._on_traced = on_traced
        self._answers: dict[str, dict] = {}
        self._arrived = threading.Condition()
        self._processes: list[subprocess.Popen] = []
        self._closed = False
        # a thread per interpreter running, its output read there
        self._pool = ThreadPoolExecutor(max_workers=self.workers)
        for game in games:
            self._pool.submit(self._run_or_fail, game)

    def _record(self, found: dict) -> None:
        with self._arrived:
            if found["game"] in self._answers:
                return
            self._answers[found["game"]] = found
            self._arrived.notify_all()
        if self._on_traced is not None:
            self._on_traced(found["game"], found.get("error"))

    def _run_or_fail(self, game: tuple[str, str]) -> None:
        # whatever goes wrong here, the game gets an answer: result() must not wait forever
        try:
            self._run(game)
        except Exception as err:  # noqa: BLE001 - named in the game's failure
            self._record({"game": game[0], "error": f"the gate could not run its trace "
                                                    f"({type(err).__name__}: {err})"})

    def _run(self, game: tuple[str, str]) -> None:
        name = game[0]
        tail: collections.deque = collections.deque(maxlen=STDERR_KEPT)
        try:
            if self._closed:
                raise OSError("the gate stopped before it started")
            proc = subprocess.Popen(
                [sys.executable, "-c", _SCRIPT, json.dumps(game)],
                cwd=self.root, env=environment(self.root, inherit_path=True),
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, start_new_session=hasattr(os, "setsid"))
        except OSError as err:
            self._record({"game": name, "error": f"its interpreter did not start ({err})"})
            return
        self._processes.append(proc)
        if self._closed:  # close() ran while it started
            self._stop(proc)
        drain = threading.Thread(target=lambda: tail.extend(proc.stderr), daemon=True)
        drain.start()
        expired = threading.Event()
        timer = threading.Timer(self.timeout, lambda: (expired.set(), self._stop(proc)))
        timer.daemon = True
        timer.start()
        try:
            for line in proc.stdout:
                try:
                    found = json.loads(line)
                except ValueError:
                    continue
                if isinstance(found, dict) and found.get("game") == name:
                    self._record(found)
            proc.wait()
        finally:
            timer.cancel()
            drain.join(timeout=5)
        stopped = expired.is_set() and proc.returncode != 0
        last = next((line.strip() for line in reversed(tail) if line.strip()), "(no output)")
        # the interpreter failed before answering (its import), or ran out of time
        self._record({"game": name, "error": (
            f"it took over {self.timeout:g} s" if stopped else
            f"{last} (the tracing interpreter ended with status {proc.returncode})")})

    @staticmethod
    def _stop(proc: subprocess.Popen) -> None:
        if proc.poll() is not None:
            return
        try:
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, signal.SIGKILL)  # its session: whatever it started too
            else:
                proc.kill()
        except (ProcessLookupError, PermissionError):
            pass

    def done(self, game: str) -> bool:
        """Whether ``game``'s answer (its files, or why it failed) has arrived."""
        with self._arrived:
            return game in self._answers

    def result(self, game: str) -> tuple[list[Path], set[Path]]:
        """(the repository files ``game``'s behaviour is traced to, the files its code hash
        covers); :class:`TraceError` naming why when it could not be made and traced."""
        if game not in self.games:
            raise KeyError(f"{game} is not among the games traced ({', '.join(self.games)})")
        with self._arrived:
            self._arrived.wait_for(lambda: game in self._answers)
            found = self._answers[game]
        if "error" in found:
            raise TraceError(f"making and tracing {game}'s step failed in a fresh interpreter: "
                             f"{found['error']}")
        return [Path(f) for f in found["files"]], {Path(f) for f in found["covered"]}

    def problems(self, game: str) -> list[str]:
        """The gate's failures for ``game`` (:func:`problems`)."""
        try:
            files, covered = self.result(game)
        except TraceError as err:
            return [f"code hash: {err}"]
        return _named(game, uncovered(game, files, self.root, covered))

    def close(self) -> None:
        """Stops whatever is still tracing (the gate ended early)."""
        self._closed = True
        for proc in list(self._processes):
            self._stop(proc)
        self._pool.shutdown(wait=True)

    def __enter__(self) -> "Traces":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def jax_games(games: list[str]) -> list[tuple[str, str]]:
    """(catalog name, jaxtari name) of each game, as :class:`Traces` takes them."""
    from alignment import catalog

    return [(g, catalog.entry(g).jax_game or g) for g in games]


def traced_modules(game: str, root: Path) -> tuple[list[Path], set[Path]]:
    """(the repository files ``game``'s behaviour is traced to, the files its code hash covers),
    both as the repository at ``root`` has them (made and traced in a fresh interpreter there);
    :class:`TraceError` when it cannot be made."""
    with Traces(jax_games([game]), root) as traces:
        return traces.result(game)


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
    with Traces(jax_games([game]), root) as traces:
        return traces.problems(game)


def _named(game: str, missing: list[str]) -> list[str]:
    return [f"code hash: {game}'s step imports {rel}, which its code hash does not cover "
            f"(alignment.catalog.behaviour_files): move it into jaxtari/ (or the game's package) "
            f"so that a change to it stales the game's artefacts" for rel in missing]
