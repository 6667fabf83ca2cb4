"""The seeded faults side by side, one process per core.

The seeded faults are independent of each other, so a pool of processes runs them at once
(:class:`concurrent.futures.ProcessPoolExecutor`); each process compiles the game once for the
faults it runs (the fault switch, :mod:`alignment.fault_switch`; a fault the switch cannot hold
compiles a faulty game of its own). Its processes are spawned, not forked: a forked
copy of a process that has started XLA's threads can hang. A worker builds the audit's subject
afresh (:attr:`alignment.audit.core.Subject.rebuild`) and is handed what the audit already
decided: the rules whose probes hold, the traced structure, and the planner's walks (planning
again would compile the unmodified game in the worker). The emulator's recordings it makes again
(the same seeds, so the same frames). Results come back in the faults' order, equal to a run in
this process (tests/audit/test_fault_pool.py); a pool that breaks (a worker killed) leaves its
faults to this process.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
from typing import Callable, Optional, Sequence

# A pool process's job (its subject and what the audit decided), set when it starts; its caches
# are its own default audit session's (alignment.audit.session), gone with the process.
_WORKER: dict = {}


def available_cores() -> int:
    """The cores this process may run on (its affinity, where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def worker_count(workers: Optional[int], faults: int) -> int:
    """How many processes run ``faults`` faults: ``workers`` (None: one per available core), never
    more than there are faults; 1 means this process alone."""
    n = available_cores() if workers is None else int(workers)
    return max(1, min(n, faults))


def _start_worker(run_fault, rebuild, holding: list[str], structure: list, walks: dict) -> None:
    from alignment.audit import explore

    explore.adopt_planned_walks(walks)
    _WORKER.update(run_fault=run_fault, subject=rebuild(), holding=holding, structure=structure)


def _run_in_worker(index: int):
    return _WORKER["run_fault"](_WORKER["subject"], index, _WORKER["holding"], _WORKER["structure"])


def run_pooled(run_fault: Callable, subject, holding: Sequence[str], structure, say,
               workers: int) -> list:
    """Every fault of ``subject`` in ``workers`` spawned processes; the FaultResults in order.
    ``run_fault`` runs one fault (the audit core's, handed in so this module does not import the
    core that imports it; a module-level function, it reaches the workers by name)."""
    from alignment.audit import explore

    total = len(subject.faults)
    results: list = [None] * total
    say(f"seeded faults: {total}, {workers} at a time")
    try:
        with cf.ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(run_fault, subject.rebuild, list(holding), list(structure),
                          explore.planned_walks())) as pool:
            futures = {pool.submit(_run_in_worker, i): i for i in range(total)}
            for done, future in enumerate(cf.as_completed(futures), 1):
                i = futures[future]
                results[i] = future.result()
                say(f"seeded fault {done}/{total} done: {subject.faults[i].name}")
    except cf.process.BrokenProcessPool as exc:
        left = [subject.faults[i].name for i in range(total) if results[i] is None]
        say(f"seeded faults: the pool broke ({exc}); {len(left)} left run here: {', '.join(left)}")
    return [r if r is not None else run_fault(subject, i, holding, structure, say)
            for i, r in enumerate(results)]
