"""Starting and resuming runs of the compiled graph (what ``run`` and ``run --resume`` do).

A node that raises leaves the run at that node (checkpoints are written synchronously after each
step), so the caller reports the failure and ``--resume`` re-runs that node. The traceback goes to
``<state dir>/logs/<run>.log``, the terminal gets one line.
"""

from __future__ import annotations

import sqlite3
import traceback
from pathlib import Path
from typing import Any, Callable, Optional

from langgraph.types import Command

from alignment import atomic
from alignment.pipeline import runs
from alignment.pipeline.configuration import Configuration


class NeedsAnswer(RuntimeError):
    """The run waits for a review answer that has not been given yet."""


StageCallback = Callable[[str, dict, tuple[str, ...]], None]  # (node, its update, nodes next)
ProgressCallback = Callable[[str, str], None]  # (stage, what it is doing now: "probe 3/30: ...")


def _invoke(compiled, payload: Any, run_id: str, cfg: Configuration, root: Path,
            on_stage: Optional[StageCallback] = None,
            on_progress: Optional[ProgressCallback] = None) -> runs.RunInfo:
    config = runs.run_config(run_id)
    try:
        for mode, chunk in compiled.stream(payload, config, context=cfg, durability="sync",
                                           stream_mode=["updates", "custom"]):
            if mode == "custom":  # a node's progress (alignment.pipeline.nodes._progress)
                if on_progress is not None and isinstance(chunk, dict):
                    on_progress(str(chunk.get("stage", "?")), str(chunk.get("progress", "")))
                continue
            for node, update in chunk.items():
                if on_stage is not None and node != "__interrupt__":
                    on_stage(node, update or {}, tuple(compiled.get_state(config).next))
    except sqlite3.Error:
        raise  # the store itself failed: runs.open_store names the file
    except Exception:  # a stage failed: recorded in the checkpoint, reported by run_info
        atomic.write_text(root / "logs" / f"{run_id}.log", traceback.format_exc())
    return runs.run_info(compiled, run_id)


def start(compiled, game: str, cfg: Configuration, root: Path, run_id: Optional[str] = None,
          on_stage: Optional[StageCallback] = None,
          on_progress: Optional[ProgressCallback] = None) -> runs.RunInfo:
    run_id = run_id or runs.new_run_id(game)
    initial = {"game": game, "run_id": run_id, "settings": cfg.as_dict(), "errors": [],
               "acknowledged": [], "decisions": {}}
    return _invoke(compiled, initial, run_id, cfg, root, on_stage, on_progress)


def resume(compiled, info: runs.RunInfo, root: Path,
           on_stage: Optional[StageCallback] = None,
           on_progress: Optional[ProgressCallback] = None) -> runs.RunInfo:
    """Continue a run: with the waiting review answer, after a playtest, or from a failed node."""
    cfg = Configuration.from_dict(info.values.get("settings") or {})
    if not info.next:
        return info
    payload: Any = None
    if info.waiting is not None and info.waiting.get("kind") == "review":
        answer = runs.load_answer(root, info.run_id)
        if answer is None:
            raise NeedsAnswer(
                f"run {info.run_id} waits for review of {len(info.waiting['rules'])} rule(s); answer "
                f"with `jaxtari-align review {info.run_id}` (or --accept/--reject RULE), then resume")
        payload = Command(resume=answer)
    elif info.waiting is not None:
        payload = Command(resume="checked")  # a playtest was asked for: the node looks again
    result = _invoke(compiled, payload, info.run_id, cfg, root, on_stage, on_progress)
    # An answer is consumed once the review node has run with it (an invalid one is reported in
    # the state); a run killed after that finds it still there and does not need it.
    if result.waiting is None or result.waiting.get("kind") != "review" or payload is not None:
        runs.clear_answer(root, info.run_id)
    return result
