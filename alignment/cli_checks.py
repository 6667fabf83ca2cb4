"""One validation layer for the command line: numbers, seeds, input files, git refs and output
locations.

Every command takes its bounded numbers through these options and checks its inputs and output
location before any work, so bad input ends in a message naming the option and the fix before an
emulator starts or a compile begins — never a traceback after minutes. The checks raise
:class:`InputError` (each command turns it into its own exit status; :func:`usage` makes it a
usage error, exit status 2, click's convention for a bad parameter). Resumable work is held by one
process at a time with :func:`alignment.atomic.exclusive` (pipeline runs, stress checkpoints).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import typer

from alignment import atomic
from jaxtari.protocol import V5

# Seeds go to numpy and ALE, which take 32-bit unsigned seeds.
SEED_MAX = 2**32 - 1
# The ALE v5 episode cap: no episode is longer.
MAX_EPISODE_FRAMES = V5.max_num_frames_per_episode
MAX_EPISODES = 10_000


def seed_option(default: int = 0, help: str = "seed") -> int:
    return typer.Option(default, min=0, max=SEED_MAX, help=f"{help} (0..{SEED_MAX})")


def count_option(default: int | None, flag: str, help: str, *, low: int = 1, high: int,
                 why: str = "") -> int:
    """A whole-number option bounded before any work (typer's ``min``/``max``, which the help
    shows): what a JAX array, ALE or the stage can carry, so 10**10 is a usage error naming the
    option, never an overflow inside a compiled function. ``why`` says where the bound comes from."""
    return typer.Option(default, flag, min=low, max=high,
                        help=f"{help} ({why})" if why else help)


def frames_option(default: int, help: str, *, flag: str | None = None) -> int:
    names = (flag,) if flag else ()
    return typer.Option(default, *names, min=1, max=MAX_EPISODE_FRAMES,
                        help=f"{help} (1..{MAX_EPISODE_FRAMES:,}, the v5 episode cap)")


MAX_FPS = 1000.0


def finite_fps(value: float) -> float:
    """A frame rate: a finite number from 0 (as fast as it goes) to MAX_FPS."""
    import math

    if not math.isfinite(value) or not 0 <= value <= MAX_FPS:
        raise bad_parameter("--fps", f"{value} is not a frame rate: give a number from 0 (as fast "
                                     f"as it goes) to {MAX_FPS:g}")
    return value


def bad_parameter(option: str, message: str) -> typer.BadParameter:
    """A usage error naming the option (exit status 2, before any work)."""
    return typer.BadParameter(message, param_hint=f"'{option}'")


class InputError(ValueError):
    """Bad input found before any work; the message names the option and what to do instead."""


def usage(option: str, err: Exception) -> typer.BadParameter:
    """A check's error as a usage error naming the option (exit status 2)."""
    return bad_parameter(option, str(err))


def input_file(path: Path | str, option: str) -> Path:
    """``path`` as a readable file, or :class:`InputError` naming the option."""
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{option} {str(p)!r} is a folder; give a file in it")
    if not p.is_file():
        raise InputError(f"{option} {str(p)!r}: no such file")
    if not os.access(p, os.R_OK):
        raise InputError(f"{option} {str(p)!r} cannot be read; fix its permissions")
    return p


def input_dir(path: Path | str, option: str) -> Path:
    """``path`` as a readable folder, or :class:`InputError` naming the option."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise InputError(f"{option} {str(p)!r} is a file; give a folder")
    if not p.is_dir():
        raise InputError(f"{option} {str(p)!r}: no such folder")
    if not os.access(p, os.R_OK | os.X_OK):
        raise InputError(f"{option} {str(p)!r} cannot be read; fix its permissions")
    return p


def git_commit(ref: str, option: str, root: Path | str = ".") -> str:
    """The commit a user-given git ref names (its sha), or :class:`InputError`.

    A ref starting with '-' is refused and git gets ``--end-of-options`` before the ref: git would
    read ``--output=FILE`` as an option and write that file. Callers use the returned sha, never
    the user's text, in later git commands."""
    if not ref or ref.startswith("-"):
        raise InputError(f"{option} {ref!r} is not a git ref (a ref cannot start with '-'; give a "
                         "branch, tag or commit)")
    try:
        out = subprocess.run(["git", "rev-parse", "--verify", "--quiet", "--end-of-options",
                              f"{ref}^{{commit}}"], cwd=root, capture_output=True, text=True)
    except OSError as exc:
        raise InputError(f"{option} {ref!r}: git cannot run here ({exc})") from None
    if out.returncode != 0:
        raise InputError(f"{option} {ref!r} is not a git ref here (try origin/main, or fetch the "
                         "base branch first: git fetch origin main)")
    return out.stdout.strip()


def output_dir(path: Path | str, option: str = "--out") -> Path:
    """``path`` as a folder files can be written into, or a usage error naming the option."""
    try:
        return atomic.check_writable_dir(path, what=f"{option} folder")
    except atomic.OutputLocationError as err:
        raise bad_parameter(option, str(err)) from None


# ---- mods ------------------------------------------------------------------------------------------

def mod_list(items, option: str = "--mods", *, without: str = "leave it out for the original game"
             ) -> list[str]:
    """The mod names of a repeatable, comma-separated option (``--mods a,b --mods c``), or
    :class:`InputError` for a value that names no mod (``--mods ''``, ``--mods ,``): the one
    reading of ``--mods`` on every stage, so an empty value never means "all mods" on one stage and
    "none" on another. ``without`` says how the command takes "no mods"."""
    names: list[str] = []
    for item in items or ():
        parts = str(item).replace(",", " ").split()
        if not parts:
            raise InputError(f"{option} {item!r} names no mod: {without}, or name the mods (comma "
                             f"separated or repeated: {option} a,b or {option} a {option} b)")
        names += parts
    return names


# ---- replacing a committed report ------------------------------------------------------------------
#
# One rule for every command that writes a committed artefact (audit, audit --mods, robustness,
# stress, transfer, transfer-anchor, stress --export-policy): a run refuses, before any work, to
# replace a report that holds more than it would (fewer faults, seeds, episodes, mods, mutants, a
# smaller budget, no exploration, ...) unless asked (``--replace``). Each command names what its
# report holds as measures and gives :func:`check_artefact_not_weaker` the artefact it writes.


class Same:
    """A measure that is neither more nor less but a setting (a learning rate, a protocol): a run
    with another value is another experiment, so it replaces the report only when asked."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    def __eq__(self, other) -> bool:
        return isinstance(other, Same) and other.value == self.value

    def __hash__(self) -> int:
        return hash(repr(self.value))

    def __repr__(self) -> str:
        return f"Same({self.value!r})"


def _nothing(value) -> bool:
    """None, False, 0 or an empty collection: a measure that holds nothing."""
    if value is None or value is False:
        return True
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value == 0
    return isinstance(value, (list, tuple, set, frozenset, dict)) and not value


def _at_least(new, old) -> bool:
    """Whether a measure ``new`` of a run is at least ``old``: nothing is never a loss and
    anything beats nothing; numbers compare, a collection must hold every item of the old one, a
    mapping every key at least as much, a setting (:class:`Same`) must be equal; an equal value is
    never a loss; values of different kinds are a loss."""
    if old is None:
        return True
    if isinstance(old, Same) or isinstance(new, Same):
        return old == new
    if _nothing(old):
        return True
    if _nothing(new):
        return False
    if isinstance(old, dict):
        return isinstance(new, dict) and all(_at_least(new.get(k), v) for k, v in old.items())
    if isinstance(old, (list, tuple, set, frozenset)):
        return isinstance(new, (list, tuple, set, frozenset)) and set(old) <= set(new)
    if isinstance(old, bool):
        return True
    if isinstance(new, (int, float)) and isinstance(old, (int, float)):
        return new >= old
    return type(new) is type(old) and new == old


def _shown(value) -> str:
    if isinstance(value, Same):
        return _shown(value.value)
    if value is None or value is False:
        return "none"
    if value is True:
        return "yes"
    if value == float("inf"):
        return "all"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_shown(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return "[" + ", ".join(str(v) for v in sorted(value, key=str)) + "]"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


class ReplaceRefused(InputError):
    """A run that would replace a report holding more (faults, seeds, episodes, ...) than it."""


def _a(what: str) -> str:
    return f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"


def _fix(path, option: str) -> str:
    return f"pass {option} to write this run elsewhere, or --replace to overwrite {path}"


def check_not_weaker(path: Path | str, old: dict, new: dict, *, what: str,
                     option: str = "--out", fix: str | None = None) -> None:
    """Refuse, before any work, a run whose report would replace ``path`` with a weaker one.

    ``old`` holds the measures the report at ``path`` records and ``new`` the same measures of
    this run (a larger number, a superset, or something rather than none is stronger; a
    :class:`Same` setting must be equal). The caller skips this check when asked to replace
    (``--replace``); a measure the old report does not hold (None) is never a loss. ``fix`` says
    what to do instead (default: another ``option`` folder, or --replace)."""
    names = [name for name in old if not _at_least(new.get(name), old[name])]
    if names:
        lost = "; ".join(f"{name}: {_shown(old[name])} now, {_shown(new.get(name))} in this run"
                         for name in names)
        settings_only = all(isinstance(old[name], Same) for name in names)
        raise ReplaceRefused(
            f"{path} holds {_a(what) + ' of other settings' if settings_only else 'a stronger ' + what} "
            f"than this run would write ({lost}); {fix or _fix(path, option)}")


def _read_json(path: Path):
    import json

    return json.loads(path.read_text("utf-8"))


def check_report_not_weaker(path: Path | str, schema, measures, new: dict, *, what: str,
                            option: str = "--out", read=_read_json) -> None:
    """:func:`check_not_weaker` against the report at ``path`` when one is there (its interrupted
    writes recovered first); ``read(path)`` reads it (JSON by default) and ``measures(doc)`` its
    measures. A file there that is not a readable report of ``schema`` (a JSON document's
    "schema"; None: any) is refused too: what it holds cannot be told, so it is never replaced
    unasked."""
    path = Path(path)
    if path.parent.is_dir():
        atomic.recover(path.parent)
    if not path.exists() and not path.is_symlink():
        return
    try:
        data = read(path)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if schema is not None and data.get("schema") != schema:
            raise ValueError(f"its schema is {data.get('schema')!r}, not {schema!r}")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ReplaceRefused(f"{path} exists but cannot be read as {_a(what)} ({exc}); "
                             f"{_fix(path, option)}") from None
    check_not_weaker(path, measures(data), new, what=what, option=option)


def check_artefact_not_weaker(artefact, folder: Path | str | None, measures, new: dict, *,
                              what: str, option: str = "--out", read=_read_json,
                              **fields) -> Path:
    """:func:`check_report_not_weaker` for ``artefact`` (:mod:`alignment.artefacts`) in
    ``folder`` (its default folder when None), named by ``fields``; returns its path."""
    path = artefact.path(folder, **fields)
    check_report_not_weaker(path, artefact.schema, measures, new, what=what, option=option,
                            read=read)
    return path
