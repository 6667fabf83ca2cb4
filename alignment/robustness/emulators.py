"""The ALE side's emulators: K x E of one variant, stepped together, in this process or spread over
worker processes.

:class:`AleEpisodes` holds the emulators and steps them one after another (RAM writes after
reset and every frame, ALE's own sticky actions at frame skip 1, so 4 calls are one v5 step).
:class:`AlePool` gives the same emulators to ``workers`` spawned processes, each owning a slice
(emulator i keeps its seed wherever it runs), stepped in lockstep: the parent sends each its
slice of the batched policy's actions and gets back rewards, game-over flags and what the policy
sees next. Same seeds, same returns, bit for bit (tests/robustness/test_emulators.py), since every
emulator plays the same calls in the same order either way.

Workers are spawned, not forked: the parent has imported JAX, and a forked copy of a process
whose library threads have started can hang. A worker that dies or stops answering
(:data:`REPLY_TIMEOUT_S`) raises :class:`EmulatorPoolError` naming it; the pool is closed on
every path (``with``).

A worker imports JAX with ``jaxtari`` (the v5 protocol's constants, the 84x84 sampling grid)
but never runs it.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from typing import Optional, Sequence

import numpy as np

from jaxtari.protocol import V5

OBSERVE = (None, "rams", "frames")  # what the policy reads: nothing (random), RAM, 84x84 screens
REPLY_TIMEOUT_S = 600.0  # one step of a worker's slice, or its start (emulator loads), at most
POLL_S = 0.5  # how often a wait looks at the clock
CLOSE_WAIT_S = 5.0  # a worker asked to stop that has not, after this, is terminated


class EmulatorPoolError(RuntimeError):
    """A worker process of the emulator pool died, failed or stopped answering; the message
    names it."""


def emulator_seed(seed: int, index: int) -> int:
    """ALE's ``random_seed`` of emulator ``index`` in a run seeded ``seed`` (its sticky actions)."""
    return (seed * 10_007 + index) % (2 ** 31)


class AleEpisodes:
    """The emulators ``indices`` (at least one) of one variant, each seeded by
    :func:`emulator_seed`, stepped one after another; ``observe``: what :meth:`observe` returns."""

    def __init__(self, game: str, writes, indices: Sequence[int], seed: int,
                 observe: Optional[str] = None):
        import ale_py
        from ale_py import roms

        from alignment.catalog import entry

        if observe not in OBSERVE:
            raise ValueError(f"observe must be one of {OBSERVE}, not {observe!r}")
        cat = entry(game)
        ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
        self.writes = tuple(writes)
        self.observing = observe
        self.envs = []
        for i in indices:
            ale = ale_py.ALEInterface()
            ale.setInt("random_seed", emulator_seed(seed, int(i)))
            ale.setFloat("repeat_action_probability", V5.repeat_action_probability)
            ale.setInt("frame_skip", 1)
            ale.setInt("max_num_frames_per_episode", V5.max_num_frames_per_episode)
            ale.loadROM(roms.get_rom_path(cat.rom))
            ale.reset_game()
            self._write(ale, "reset")
            self.envs.append(ale)
        self.actions = list(self.envs[0].getMinimalActionSet())

    def _write(self, ale, event: str) -> None:
        if self.writes:
            from alignment.signals import apply_ram_writes

            apply_ram_writes(self.writes, event, ale.getRAM(), ale.setRAM)

    def observe(self) -> Optional[np.ndarray]:
        """Each emulator's RAM (``"rams"``) or screen as the pixel agent's 84x84 frame
        (``"frames"``); None when nothing is observed."""
        if self.observing == "rams":
            return np.stack([ale.getRAM() for ale in self.envs])
        if self.observing == "frames":
            from alignment.stress.obsmatch import observe_screen

            return np.stack([observe_screen(ale.getScreenGrayscale()) for ale in self.envs])
        return None

    def step(self, actions, live) -> np.ndarray:
        """One v5 step (``V5.frameskip`` frames, fewer if the game ends) of each live emulator;
        ``actions`` index the minimal action set. The rewards, 0 for those not live."""
        reward = np.zeros(len(self.envs))
        for i, ale in enumerate(self.envs):
            if not live[i] or ale.game_truncated():
                continue  # past the frame cap: an episode cut there plays on no further
            a = self.actions[int(actions[i])]
            for _ in range(V5.frameskip):
                reward[i] += ale.act(a)
                self._write(ale, "frame")
                if ale.game_over():
                    break
        return reward

    def over(self) -> np.ndarray:
        # the game's own end only: a game cut by the frame cap stays live, so the caller counts it
        # truncated (ale-py's game_over() counts the cap unless told not to)
        return np.array([ale.game_over(with_truncation=False) for ale in self.envs], bool)


def _serve(conn, indices: list[int]) -> None:
    """A worker's life: (re)build its emulators when told, answer each step, stop when told (or
    when the parent goes: its end of the pipe closes)."""
    envs = None
    try:
        while True:
            msg = conn.recv()
            if msg[0] == "close":
                return
            if msg[0] == "start":
                _, game, writes, seed, observe = msg
                envs = AleEpisodes(game, writes, indices, seed, observe)
                conn.send(("ok", (envs.actions, np.zeros(len(indices)), envs.over(),
                                  envs.observe())))
                continue
            _, actions, live = msg
            reward = envs.step(actions, live)
            conn.send(("ok", (None, reward, envs.over(), envs.observe())))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        return
    except BaseException:  # noqa: BLE001  (reported to the parent, which raises it by name)
        try:
            conn.send(("error", traceback.format_exc()))
        except (OSError, ValueError):
            pass


class AlePool:
    """Emulators ``0..n-1`` spread over ``workers`` spawned processes (contiguous slices, as even
    as they go). :meth:`start` gives them a variant (its emulators built afresh, as
    :class:`AleEpisodes` would), after which the pool has :class:`AleEpisodes`' methods, with the
    same results; the processes live until :meth:`close`, across variants."""

    def __init__(self, n: int, workers: int, *, timeout_s: float = REPLY_TIMEOUT_S):
        ctx = multiprocessing.get_context("spawn")
        self.timeout_s = float(timeout_s)
        self.slices = [s for s in np.array_split(np.arange(n), max(1, min(workers, n))) if len(s)]
        self.procs, self.conns = [], []
        self.actions = self._reward = self._over = self._seen = None
        try:
            for w, part in enumerate(self.slices):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_serve, name=f"ale-emulators-{w}", daemon=True,
                                   args=(child, part.tolist()))
                proc.start()
                child.close()  # the worker's end lives in the worker: a dead worker reads as EOF
                self.procs.append(proc)
                self.conns.append(parent)
        except BaseException:
            self.close()
            raise

    def start(self, game: str, writes, seed: int, observe: Optional[str] = None) -> "AlePool":
        """Every worker's emulators built afresh for one variant (``writes``) and seed."""
        self._send([("start", game, tuple(writes), seed, observe)] * len(self.conns))
        self.actions = self._keep(self._gather("start its emulators"))[0]
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _keep(self, replies) -> list:
        self._reward = np.concatenate([r[1] for r in replies])
        self._over = np.concatenate([r[2] for r in replies])
        seen = [r[3] for r in replies]
        self._seen = None if seen[0] is None else np.concatenate(seen)
        return replies[0]

    def _send(self, messages) -> None:
        for w, (conn, msg) in enumerate(zip(self.conns, messages)):
            try:
                conn.send(msg)
            except (OSError, ValueError):
                raise EmulatorPoolError(
                    f"emulator worker {w} (process {self.procs[w].pid}) cannot be reached (exit "
                    f"code {self.procs[w].exitcode}); the run is stopped") from None

    def _gather(self, doing: str) -> list:
        """Every worker's reply, in order; a worker that died, failed or is silent past the
        timeout raises :class:`EmulatorPoolError` naming it."""
        replies = []
        for w, (proc, conn) in enumerate(zip(self.procs, self.conns)):
            who = (f"emulator worker {w} (process {proc.pid}, emulators "
                   f"{self.slices[w][0]}..{self.slices[w][-1]})")
            deadline = time.monotonic() + self.timeout_s
            while not conn.poll(POLL_S):  # a dead worker's pipe reads as EOF: poll says so
                if time.monotonic() > deadline:
                    raise EmulatorPoolError(
                        f"{who} gave no answer in {self.timeout_s:.0f} s while it should {doing}; "
                        f"the run is stopped (the machine may be overloaded: run again, or with "
                        f"fewer --workers)")
            try:
                status, payload = conn.recv()
            except (EOFError, OSError):
                proc.join(CLOSE_WAIT_S)
                raise EmulatorPoolError(
                    f"{who} died (exit code {proc.exitcode}) while it should {doing}; the run is "
                    f"stopped. Run again, or with --workers 1 to step the emulators in this "
                    f"process") from None
            if status != "ok":
                raise EmulatorPoolError(f"{who} failed while it should {doing}:\n{payload}")
            replies.append(payload)
        return replies

    def step(self, actions, live) -> np.ndarray:
        actions, live = np.asarray(actions), np.asarray(live, bool)
        self._send([("step", actions[part], live[part]) for part in self.slices])
        self._keep(self._gather("step its emulators"))
        return self._reward

    def over(self) -> np.ndarray:
        return self._over

    def observe(self) -> Optional[np.ndarray]:
        return self._seen

    def close(self) -> None:
        """Stop every worker (asked, then terminated if it has not stopped); safe to call twice."""
        for conn in self.conns:
            try:
                conn.send(("close",))
            except (OSError, ValueError):
                pass
        for proc in self.procs:
            proc.join(CLOSE_WAIT_S)
            if proc.is_alive():
                proc.terminate()
                proc.join(CLOSE_WAIT_S)
            if proc.is_alive():  # a stopped process holds SIGTERM until it runs again
                proc.kill()
                proc.join(CLOSE_WAIT_S)
        for conn in self.conns:
            conn.close()
        self.procs, self.conns = [], []


class InProcess:
    """:class:`AlePool`'s counterpart in this process: :meth:`start` builds an
    :class:`AleEpisodes` of emulators ``0..n-1``."""

    def __init__(self, n: int):
        self.n = n

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self, game: str, writes, seed: int, observe: Optional[str] = None) -> AleEpisodes:
        return AleEpisodes(game, writes, range(self.n), seed, observe)

    def close(self) -> None:
        """Nothing to release."""


def open_emulators(n: int, *, workers: Optional[int] = None):
    """Where ``n`` emulators run, variant after variant (``.start(game, writes, seed,
    observe)``): this process (:class:`InProcess`) when one worker is asked or is all there is,
    else an :class:`AlePool` of ``workers`` processes (None: one per available core, never more
    than ``n``). Use it with ``with``: the pool is closed on every path."""
    from alignment.audit.fault_pool import worker_count

    w = worker_count(workers, n)
    return InProcess(n) if w == 1 else AlePool(n, w)
