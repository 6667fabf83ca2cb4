"""What an audit keeps while it runs: every cache of the audit, and of what it calls, in one
:class:`AuditSession`.

Every audit goes through :func:`alignment.audit.core.audit` (``run_audit``, ``run_mod_audit``, the
tests' toy audits), which opens a session (:func:`opened`) for its whole run and closes it at the
end, and with it goes everything it kept: emulators, recordings, compiled programs, the fault
switch. A second audit in the same process starts empty, so it cannot take what the first kept
under a key that misses what tells them apart (a faults file of the same names and other numbers,
another spec's save points).

The session is made current rather than passed down: its caches sit four or five calls below the
audit (core, a subject's probe runner, probes, backends), in functions that the probe and compare
commands, the playtest, the gate and the tests call as well; threading it through would add an
argument to dozens of signatures that most callers never use. Outside an audit those callers get
the process's default session, which lives as long as the process (:meth:`AuditSession.clear`
empties it, :meth:`AuditSession.release_compiled` frees its programs). A process of the fault pool
(:mod:`alignment.audit.fault_pool`) runs its faults in its own default session, which ends with the
process, that is with the pool; the pool's ``_WORKER`` is that process's job, not a cache.

Each cache is declared below with its key and why what it holds may be reused. The ones left
where they are, as pure functions of their arguments holding nothing worth freeing:

- ``probes._ale_action_set(game)``, ``probes._jax_minimal_actions(game)``: a game's action names;
- ``alignment.reference.games.pong.ram._readings_by_pot()``: the paddle's reading table;
- the games' own draw tables (``functools.lru_cache`` keyed by the raster and the Constants; jaxtari
  never imports alignment);
- ``alignment.reference.features._DECODERS``: one RAM-to-features decoder per game, a function of
  the game's code alone (mods play no part in reading RAM); the stress and robustness stages use
  decoders, the audit does not.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, Iterator, Optional

# ALE emulators and gymnasium environments kept at once (each holds a ROM and its machine): as
# many as an audit uses (a mode or two, with and without mods), so the probe command and the tests
# that walk every game do not keep one per game
EMULATORS_KEPT = 8
GYM_ENVS_KEPT = 4


@dataclasses.dataclass(eq=False)
class AuditSession:
    """The caches of one audit (or, for the default session, of the process)."""

    # alignment.backends.JaxBackend: a JAX game built with its mods and mode, and its jitted
    # programs. Key: (catalog game, jaxtari game, mods by name, mode, full action set). Names
    # suffice: registered mods are unique by name and a session holds one fault set, whose names
    # are unique. Reused by every probe, exploration and rollout on the same build; a faulty
    # game's are released after its fault (release_compiled).
    compiled: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.probes: the v5 probes' jitted runner of a game build. Key: (catalog game,
    # jaxtari game, mods by name), as ``compiled``. Released with it.
    v5_runners: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.probes: an ALE backend per (game, mode, ALE mods), reset before each probe
    # (loading the ROM is most of a short probe). At most EMULATORS_KEPT, oldest out first.
    ale_emulators: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.probes: gymnasium's ALE v5 environment per game. The mods are not in the key:
    # a v5 probe reseeds it (the ROM reloaded) and writes its mods' RAM itself, every frame.
    gym_envs: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.probes: the emulator's side of a save point's prefix, (AleSnapshot,
    # Recording). Key: (game, mode, seed, start, its steps, ALE mods). ALE is the same under every
    # fault and mutant, so the prefix is played once.
    ale_prefixes: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.probes: the emulator's Recording of a probe's own steps. Key: (the prefix's
    # key, the steps, whether every screen is kept). Reused as the prefixes are.
    ale_probe_runs: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.probes: the JAX side of a prefix, (JaxSnapshot, first divergence or None).
    # Key: (the JAX build's key, the prefix's key). Holds one build's at a time: a prefix of
    # another fault's game is never asked for again.
    jax_prefixes: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.explore: the emulator's recordings of one exploration (an _AleSide). Key:
    # (game, budget, ALE mods, the starts and their steps). One at a time: every fault explores
    # the same starts on the same emulator.
    explore_ale: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.explore: the planner's walks another process found, keyed as explore_ale
    # (a fault pool's process is handed its parent's, so it does not plan, and compile, again).
    adopted_walks: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.planner: the planner's jitted search of a game build. Key: (the JAX build's
    # key, candidates, horizon).
    planner_programs: dict = dataclasses.field(default_factory=dict)
    # alignment.audit.events: the emulator's matched rollouts. Key: (game, ALE mods, frame cap,
    # seed). One at a time: every fault's rollouts are compared with the same recording.
    ale_rollouts: dict = dataclasses.field(default_factory=dict)
    # alignment.fault_switch: the switch serving the seeded faults of the fault stage (one compile
    # for all of them), or None; it holds its programs, which go with it.
    fault_switch: Optional[Any] = None

    def caches(self) -> dict[str, dict]:
        """Every cache by its field name."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name != "fault_switch"}

    def empty(self) -> bool:
        return self.fault_switch is None and not any(self.caches().values())

    def release_compiled(self) -> None:
        """Forget every compiled JAX program of the session's builds, and JAX's own caches of
        every jitted function in the process; the next use compiles again.

        XLA's CPU backend keeps each compiled program's machine code in memory mappings of its own
        (measured, jax 0.10: ~270 for a Seaquest frame, ~500 for its 210x160 picture), and Linux
        caps a process's mappings (``vm.max_map_count``, 65,530 by default). A run that compiles
        every function of a dozen modified games and keeps them all crosses the cap: Seaquest's
        quick audit died with SIGTRAP in the dynamic loader 43 minutes in. The audit calls this
        after each seeded fault, whose programs it never runs again. The fault switch's programs
        (:mod:`alignment.fault_switch`, compiled ahead of time) are not in JAX's caches and stay
        until the fault stage lets the switch go."""
        import jax

        self.compiled.clear()
        self.v5_runners.clear()
        jax.clear_caches()

    def clear(self) -> None:
        """Drop everything the session holds (what nothing else refers to is then freed)."""
        for cache in self.caches().values():
            cache.clear()
        self.fault_switch = None


def kept(cache: dict, key, make, most: int):
    """``cache[key]``, made by ``make()`` when missing; the oldest entries go past ``most``."""
    if key not in cache:
        while len(cache) >= most:
            del cache[next(iter(cache))]
        cache[key] = make()
    return cache[key]


_DEFAULT = AuditSession()
_OPEN: list[AuditSession] = []


def current() -> AuditSession:
    """The innermost open session, else the process's default one."""
    return _OPEN[-1] if _OPEN else _DEFAULT


@contextlib.contextmanager
def opened() -> Iterator[AuditSession]:
    """A session for an audit: a new one, current until the block ends and then cleared; inside
    an open session, that session (an audit started within another audit's work, e.g. a modified
    game's audit after its save points are checked, shares its caches)."""
    if _OPEN:
        yield _OPEN[-1]
        return
    session = AuditSession()
    _OPEN.append(session)
    try:
        yield session
    finally:
        _OPEN.remove(session)
        session.clear()


__all__ = ["AuditSession", "current", "kept", "opened"]
