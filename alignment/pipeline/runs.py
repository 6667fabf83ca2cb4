"""Durable runs: the state directory, its SQLite checkpoint store, run ids, run status, answers.

Every run is a LangGraph thread in ``<state dir>/checkpoints.sqlite`` (default state dir
``.jaxtari-align/``, or ``--state-dir`` / ``$JAXTARI_ALIGN_STATE``). A checkpoint is written after
every node, so a run killed anywhere resumes from the node it was in. A review answer given with
``jaxtari-align review RUN`` waits in ``<state dir>/answers/<run>.json`` until the run resumes.
The store is never deleted or repaired here: a locked or unreadable one is reported by name.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import json
import os
import secrets
import sqlite3
from pathlib import Path
from typing import Any, Iterator, Optional

from langgraph.checkpoint.sqlite import SqliteSaver

from alignment import artefacts, atomic

STATE_ENV = "JAXTARI_ALIGN_STATE"
DEFAULT_STATE_DIR = artefacts.RUN_STATE
DB_NAME = "checkpoints.sqlite"
# How long to wait on a database another process is writing before calling it locked.
LOCK_TIMEOUT_S = 5.0


class RunStoreError(RuntimeError):
    """The checkpoint store cannot be used; the message names the file and what to do."""


class UnknownRunError(LookupError):
    """A run id that is not in the store; the message lists the runs there are."""


def state_dir(given: Optional[os.PathLike | str] = None) -> Path:
    return Path(given or os.environ.get(STATE_ENV) or DEFAULT_STATE_DIR)


def db_path(root: Path) -> Path:
    return Path(root) / DB_NAME


def _store_error(path: Path, err: sqlite3.Error) -> RunStoreError:
    text = str(err)
    if "locked" in text or "busy" in text:
        return RunStoreError(
            f"the checkpoint database {path} is locked by another process (another "
            f"`jaxtari-align run`?). Wait for it to finish, or use another --state-dir. "
            f"Nothing was changed.")
    return RunStoreError(
        f"the checkpoint database {path} cannot be read ({text}). It was left as it is: move it "
        f"aside to start a fresh store (its runs are then not resumable), or use another --state-dir.")


@contextlib.contextmanager
def open_store(root: Path) -> Iterator[SqliteSaver]:
    """The SQLite checkpointer of ``root``, checked readable before any run touches it."""
    path = db_path(root)
    if path.exists() and not path.is_file():
        raise RunStoreError(f"the checkpoint database {path} is not a file; use another --state-dir")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise RunStoreError(f"cannot create the state directory {path.parent} ({err.strerror}): "
                            f"give --state-dir a folder that can be created and written, or set "
                            f"${STATE_ENV}") from None
    conn = None
    try:
        conn = sqlite3.connect(str(path), check_same_thread=False, timeout=LOCK_TIMEOUT_S)
        saver = SqliteSaver(conn)
        saver.setup()
        conn.execute("SELECT count(*) FROM checkpoints").fetchone()
        # a damaged page can still answer a count: check the whole file before trusting a run to it
        problems = [line for r in conn.execute("PRAGMA quick_check(3)").fetchall()
                    for line in str(r[0]).splitlines() if not line.startswith("***")][:3]
    except sqlite3.Error as err:
        if conn is not None:
            conn.close()
        raise _store_error(path, err) from None
    if problems != ["ok"]:
        conn.close()
        raise RunStoreError(
            f"the checkpoint database {path} is damaged (SQLite's quick_check: "
            f"{'; '.join(problems)}). It was left as it is: move it aside to start a "
            f"fresh store (its runs are then not resumable), or use another --state-dir.")
    try:
        yield saver
    except sqlite3.Error as err:
        raise _store_error(path, err) from None
    finally:
        conn.close()


class RunBusyError(RuntimeError):
    """The run is being run or resumed by another process now."""


@contextlib.contextmanager
def run_lock(root: Path, run_id: str) -> Iterator[None]:
    """Hold the run's lock (``<state dir>/locks/<run>.lock``) while it runs: a second ``run
    --resume`` of the same run is refused instead of running every stage a second time
    (:func:`alignment.atomic.exclusive`: a killed process never leaves it held)."""
    path = Path(root) / "locks" / f"{run_id}.lock"
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(atomic.exclusive(
                path, f"run {run_id} is running now ({{holder}}); wait for it to finish, then see "
                      "its state with `jaxtari-align runs`"))
        except atomic.Busy as err:
            raise RunBusyError(str(err)) from None
        except atomic.OutputLocationError as err:
            raise RunStoreError(f"{err}; use another --state-dir") from None
        yield


def new_run_id(game: str) -> str:
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"{game}-{stamp}-{secrets.token_hex(2)}"


def run_config(run_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": run_id}}


def run_ids(saver: SqliteSaver) -> list[str]:
    """Every run in the store, oldest first."""
    rows = saver.conn.execute(
        "SELECT thread_id, min(checkpoint_id) FROM checkpoints GROUP BY thread_id "
        "ORDER BY min(checkpoint_id)").fetchall()
    return [r[0] for r in rows]


@dataclasses.dataclass
class RunInfo:
    run_id: str
    game: str
    stage: str   # the last node that finished
    status: str  # done | waiting for review | waiting for a playtest | failed in X: ... | stopped in X
    next: tuple[str, ...]
    waiting: Optional[dict] = None  # the interrupt payload when the run waits for a person
    values: dict = dataclasses.field(default_factory=dict)


def run_info(compiled, run_id: str) -> RunInfo:
    snapshot = compiled.get_state(run_config(run_id))
    values = dict(snapshot.values or {})
    game, stage = values.get("game", "?"), values.get("stage", "-")
    waiting = next((i.value for t in snapshot.tasks for i in t.interrupts), None)
    if not snapshot.next:
        status = "done"
    elif waiting is not None:
        status = f"waiting for {'review' if waiting.get('kind') == 'review' else 'a playtest'}"
    else:
        errors = [t for t in snapshot.tasks if t.error]
        status = (f"failed in {errors[0].name}: {errors[0].error}" if errors
                  else f"stopped before {', '.join(snapshot.next)}")
    return RunInfo(run_id, game, stage, status, tuple(snapshot.next), waiting, values)


def find_run(compiled, saver: SqliteSaver, run_id: str) -> RunInfo:
    known = run_ids(saver)
    if run_id not in known:
        listing = "\n".join(f"  {r}" for r in known[-20:]) or "  (none yet)"
        more = f" (the last 20 of {len(known)})" if len(known) > 20 else ""
        raise UnknownRunError(f"no run {run_id!r}; the runs there are{more}:\n{listing}\n"
                              "(`jaxtari-align runs` lists them with their status)")
    return run_info(compiled, run_id)


# --------------------------------------------------------------------------------------------------
# Review answers waiting for a resume


def answer_path(root: Path, run_id: str) -> Path:
    return Path(root) / "answers" / f"{run_id}.json"


def save_answer(root: Path, run_id: str, answer: dict) -> Path:
    return atomic.write_text(answer_path(root, run_id), json.dumps(answer, indent=2) + "\n")


def load_answer(root: Path, run_id: str) -> Optional[dict]:
    path = answer_path(root, run_id)
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as err:
        raise RunStoreError(f"the review answer {path} cannot be read ({err}); answer again with "
                            f"`jaxtari-align review {run_id}`") from None


def clear_answer(root: Path, run_id: str) -> None:
    answer_path(root, run_id).unlink(missing_ok=True)
