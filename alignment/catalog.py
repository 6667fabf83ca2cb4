"""The catalog: the registry of the games the pipeline checks, and their signals.

A game is in the catalog when ``alignment/reference/games/<game>/`` defines its ``ENTRY`` (its
ground truth: RAM map, signal extractors, actions, documents; see :mod:`alignment.signals` for what an
entry holds). This module only finds those modules and answers by name: :func:`entry`, :func:`games`,
:func:`canonical`; and :func:`code_hash`, the hash of a game's jaxtari source that every artefact
records. Adding a game adds a file there; nothing here changes.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import pkgutil
from pathlib import Path

from alignment import artefacts, gamenames
from alignment.gamenames import UnknownGameError
from alignment.signals import CORE_SIGNALS, GameEntry, Signal, bcd, bcd_number  # noqa: F401

GROUND_TRUTH_PACKAGE = "alignment.reference.games"

# The error for a name the catalog has no game for (one error type for names across alignment).
UnknownCatalogGame = UnknownGameError


def _discover() -> dict[str, GameEntry]:
    """The entries: every ground-truth package defines ``ENTRY``, its :class:`GameEntry`."""
    package = importlib.import_module(GROUND_TRUTH_PACKAGE)
    found: dict[str, GameEntry] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{GROUND_TRUTH_PACKAGE}.{info.name}")
        e = getattr(module, "ENTRY", None)
        if not isinstance(e, GameEntry) or e.name != info.name:
            raise TypeError(f"{module.__name__} must define ENTRY, the GameEntry of {info.name!r} "
                            f"(a game still being ported lives in ports/{info.name}/ instead)")
        found[e.name] = e
    return found


CATALOG: dict[str, GameEntry] = _discover()

# Games being ported live in ports/<game>/ (ports/README.md) until both halves and their artefacts
# are there; the first line of each one's package docstring says where it stands.
PORTS_FOLDER = "ports"


def in_progress() -> dict[str, str]:
    """Ports in progress (``ports/<game>/``, read without importing them): game -> the first line
    of its package docstring."""
    folder = _repo_root() / PORTS_FOLDER
    out: dict[str, str] = {}
    for init in sorted(folder.glob("[!_]*/__init__.py")):
        try:
            doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        except (OSError, SyntaxError, ValueError):
            doc = ""
        out[init.parent.name] = doc.strip().splitlines()[0] if doc.strip() else "being ported"
    return out


def games() -> list[str]:
    """Canonical names of the games in the catalog."""
    return sorted(CATALOG)


def canonical(name: str) -> str:
    """``"Pong"``, ``"pong"``, ``"ALE/Pong-v5"`` -> ``"pong"``; :class:`UnknownGameError` otherwise,
    saying whether the name is no ALE game at all or an ALE game not ported yet."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name is a string, got {name!r}")
    key = gamenames.key(name)
    for canon, e in CATALOG.items():
        if key in {gamenames.key(canon), gamenames.key(e.rom)}:
            return canon
    checked = ", ".join(games())
    slug = gamenames.lookup(name)
    pending = in_progress()
    if slug in pending:
        raise UnknownGameError(f"{slug} is not in the catalog yet: its port is in progress in "
                               f"{PORTS_FOLDER}/{slug}/ ({pending[slug]}); games in the catalog: "
                               f"{checked}")
    if slug is None:
        raise UnknownGameError(f"unknown game {name!r}; games in the catalog: {checked}."
                               f"{gamenames.did_you_mean(name, games())}")
    import jaxtari

    if slug in jaxtari.list_games():
        raise UnknownGameError(
            f"unknown game {name!r} to the catalog: jaxtari has {slug}, but it has no ground truth "
            f"yet (add alignment/reference/games/{slug}/); games in the catalog: {checked}")
    raise UnknownGameError(
        f"unknown game {name!r} to the catalog: {slug} is an ALE game that jaxtari has not ported "
        f"yet (no JAX game, no ground truth); games in the catalog: {checked}")


def entry(name: str) -> GameEntry:
    """The catalog entry of a game (any spelling :func:`canonical` accepts)."""
    return CATALOG[canonical(name)]


# ---- the code a result was computed from ---------------------------------------------------------
def _games_dir() -> Path:
    import jaxtari

    return Path(jaxtari.__file__).resolve().parent / "games"


def game_source_files(jax_game: str) -> list[Path]:
    """A jaxtari game's source files, sorted: every ``.py`` of its package ``games/<game>/``."""
    package = _games_dir() / jax_game
    return sorted({f.resolve() for f in package.rglob("*.py") if f.is_file()})


def _repo_root() -> Path:
    from alignment.artefacts import REPO_ROOT

    return REPO_ROOT


def _belongs(rel_parts: tuple[str, ...], game: str) -> bool:
    """Whether a path below a games folder is ``game``'s: ``<game>.py``, ``<game>_*.py``, or
    anything under ``<game>/``."""
    if len(rel_parts) > 1:
        return rel_parts[0] == game
    stem = rel_parts[0].split(".")[0]
    return stem == game or stem.startswith(f"{game}_")


def _files_under(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return [f for f in folder.rglob("*") if f.is_file() and "__pycache__" not in f.parts
            and f.suffix not in (".pyc", ".pyo")]


def _own_files(folder: Path, game: str, others: set[str]) -> list[Path]:
    """Files of a per-game folder that are ``game``'s or shared (no other game's)."""
    out = []
    for f in _files_under(folder):
        parts = f.relative_to(folder).parts
        if _belongs(parts, game) or not any(_belongs(parts, o) for o in others):
            out.append(f)
    return out


# The drop-in adapters for code written for gymnasium and EnvPool: nothing a verdict comes from runs
# a game through them (the audit, playtest and stress drive jaxtari's own API and wrappers), and
# tests/dropin holds them against ALE and gymnasium's checker on their own, so a change there says
# nothing about what an audit found and leaves its verdicts current. The one use in the pipeline,
# stress's envpool protocol (an experiment against the anchors' protocol, no verdict), records
# their own hashes (drop_in_hashes) in its report instead.
DROP_IN_MODULES = ("dropin.py", "envpool.py", "gym.py", "vector.py")


def drop_in_hashes() -> dict[str, str]:
    """sha256 of each drop-in module's file, by its path from the repository root."""
    import hashlib

    root = _repo_root()
    return {f"jaxtari/{name}": hashlib.sha256((root / "jaxtari" / name).read_bytes()).hexdigest()
            for name in DROP_IN_MODULES}

# Builds a game with some Constants fields as data (jaxtari/variants.py). What the game does with
# them is in the game's own files; the pipeline uses it only in the audit's mutant runner, to pass
# a Constants mutant without a compile each, as part of the audit's machinery (alignment/audit),
# which no code hash covers either.
BUILDER_MODULES = ("variants.py",)


def behaviour_files(game: str) -> list[Path]:
    """Every file a game's behaviour, and the verdicts on it, depend on, sorted: all of
    ``jaxtari/`` but the other games, the drop-in adapters (:data:`DROP_IN_MODULES`) and the
    variant builder (:data:`BUILDER_MODULES`): the game's
    package or modules, the wrappers with the v5 protocol, the renderer, the shared Atari and XLA
    helpers, the engine; its reviewed spec
    ``specs/<game>.yaml``; its ground truth under ``alignment/reference/games/``; its seeded-fault
    set under ``faults/``. Folders, not file names: a game that becomes a package, or a new
    shared module, is covered without a change here."""
    canon = canonical(game)
    jax_game = CATALOG[canon].jax_game or canon
    root = _repo_root()
    jaxtari_dir = _games_dir().parent
    import jaxtari

    other_jax = {g for g in jaxtari.list_games() if g != jax_game}
    others = set(CATALOG) - {canon}
    drop_in = {jaxtari_dir / name for name in DROP_IN_MODULES + BUILDER_MODULES}
    files = [f for f in _files_under(jaxtari_dir)
             if f not in drop_in and not (f.is_relative_to(_games_dir()) and any(
                 _belongs(f.relative_to(_games_dir()).parts, o) for o in other_jax))]
    files += [root / artefacts.SPEC.rel(game=canon)]
    files += _own_files(root / "alignment" / "reference" / "games", canon, others)
    files += _own_files(root / artefacts.FAULTS.folder, canon, others)
    return sorted({f.resolve() for f in files if f.is_file()})


def hash_files(files) -> str:
    """sha256 over files: each one's path (from the repository root when inside it), then its bytes."""
    root = _repo_root()
    h = hashlib.sha256()
    for f in files:
        f = Path(f).resolve()
        name = f.relative_to(root).as_posix() if f.is_relative_to(root) else f.as_posix()
        h.update(name.encode())
        h.update(b"\0")
        h.update(f.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def code_hash(game: str) -> str:
    """sha256 over everything a game's behaviour depends on (:func:`behaviour_files`,
    :func:`hash_files`): the one hash that audits, stress reports and playtest sessions record, so
    that an artefact made for other code shows as stale."""
    return hash_files(behaviour_files(game))


MOD_SEPARATOR = "+"  # audits/<game>+<mod>[+<mod>...]: a modified game's artefacts


def mod_code_hash(game: str, mods) -> str:
    """The code hash of a modified game: the game's :func:`code_hash` (its mods live in its own
    package and its counterparts in its ground truth, so their code is covered) and the mods'
    registered names in the order applied, so each modification has a hash of its own."""
    h = hashlib.sha256(code_hash(game).encode())
    for m in mods:
        h.update(b"\0" + str(m).encode())
    return h.hexdigest()


def modified_name(game: str, mods) -> str:
    """``<game>+<mod>+...``: the file stem of a modified game's artefacts."""
    return MOD_SEPARATOR.join([canonical(game), *mods])


def split_modified_name(name: str) -> tuple[str, tuple[str, ...]]:
    """(game, mods) of an artefact stem ``<game>+<mod>+...`` (no mods: the game itself)."""
    game, *mods = name.split(MOD_SEPARATOR)
    return game, tuple(mods)
