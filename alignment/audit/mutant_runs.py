"""Lockstep runs for mutation testing: scripted frames on ALE and on (mutated) JAX games.

A :class:`Script` is a seed, a game mode and steps (an action held for some frames, or a poke) —
a probe with its save point's prefix, or an exploration run. Running it gives a :class:`Trace`:
every catalog signal and the reward on every frame, and a hash of the 210x160 screen on every
``SCREEN_EVERY``-th frame and the last. On the JAX side one compiled ``lax.scan`` per game class
(chunks of ``CHUNK`` frames, the tail masked) serves every script; the Constants fields that can be
traced are passed as traced inputs (:class:`JaxRunner`), so every constant mutant of a game runs
under that one compile.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping, Optional, Sequence

import numpy as np

from alignment import catalog
from jaxtari.variants import candidate_fields, keyed_by_static_fields, select_fields

CHUNK = 512
SCREEN_EVERY = 7  # odd, as the exploration's (explore.SCREEN_EVERY says why); and the last
_SCREEN_SHAPE = (210, 160, 3)


def _screen_weights() -> np.ndarray:
    # fixed odd weights: equal screens hash equal, different ones almost surely not
    return (np.random.default_rng(20261204).integers(0, 2**31, _SCREEN_SHAPE, dtype=np.uint32)
            | np.uint32(1))


_WEIGHTS = _screen_weights()


def screen_hash(rgb: np.ndarray) -> int:
    return int((np.asarray(rgb).astype(np.uint32) * _WEIGHTS).sum(dtype=np.uint32))


@dataclasses.dataclass(frozen=True)
class Script:
    name: str  # the rule id of a probe, or "explore:<start>/<policy>/seed <n>"
    seed: int
    mode: Optional[int]
    steps: tuple  # ("act", ALE action id, frames) | ("poke", name, value)

    @property
    def frames(self) -> int:
        return sum(s[2] for s in self.steps if s[0] == "act")


@dataclasses.dataclass
class Trace:
    signals: dict[str, np.ndarray]  # name -> (frames, *shape)
    reward: np.ndarray  # (frames,)
    screens: dict[int, int]  # frame index -> screen hash

    @property
    def frames(self) -> int:
        return len(self.reward)


def sampled(t: int, last: int) -> bool:
    """Whether frame index ``t`` of a run from reset (frame ``t + 1`` since reset) shows its screen:
    every frame of the first ``SCREEN_EVERY`` (start-up screens last a frame or two), then every
    ``SCREEN_EVERY``-th, and the last."""
    return t < SCREEN_EVERY or (t + 1) % SCREEN_EVERY == 0 or t == last


# ---- ALE ---------------------------------------------------------------------------------------


def run_ale(game: str, script: Script) -> Trace:
    """The script on the emulator, frame by frame (standing still after game over, as JAX does)."""
    from alignment.backends import AleBackend

    b = AleBackend(game, mode=script.mode, full_action_space=True)
    b.reset(script.seed)
    names = list(b.entry.signals)
    rows, rewards, screens = [], [], {}
    last = script.frames - 1
    t = 0
    for step in script.steps:
        if step[0] == "poke":
            b.poke(step[1], step[2])
            continue
        for _ in range(step[2]):
            over = b.terminated
            rewards.append(0.0 if over else float(b._step(int(step[1]))))
            rows.append(b.signals())
            if sampled(t, last):
                screens[t] = screen_hash(b.rgb())
            t += 1
    sig = {k: np.asarray([r[k] for r in rows]) for k in names}
    return Trace(sig, np.asarray(rewards, np.float64), screens)


# ---- JAX ---------------------------------------------------------------------------------------


def _segments(steps) -> list:
    """Steps as ("act", per-frame ALE action ids) runs and ("poke", (name, value)) writes."""
    out: list = []
    for step in steps:
        if step[0] == "poke":
            out.append(("poke", (step[1], step[2])))
        elif out and out[-1][0] == "act":
            out[-1][1].extend([int(step[1])] * int(step[2]))
        else:
            out.append(("act", [int(step[1])] * int(step[2])))
    return out


class JaxRunner:
    """Compiled runs of one JAX game class (one game mode); ``traced`` names the Constants fields
    passed as traced inputs (any value of theirs runs without a new compile)."""

    def __init__(self, game: str, game_cls, mode: Optional[int] = None,
                 traced: Sequence[str] = (), constants: Optional[dict] = None,
                 signals: Optional[Mapping] = None, pokes: Optional[Mapping] = None):
        import jax
        import jax.numpy as jnp

        from jaxtari.xla import select_tree

        if signals is None:
            entry = catalog.entry(game)
            signals, pokes = entry.signals, entry.pokes
        self.signals, self.pokes = dict(signals), dict(pokes or {})
        self.game_cls = game_cls
        base = game_cls.Constants()
        if mode is not None:
            base = dataclasses.replace(base, mode=int(mode))
        if constants:  # a static constant mutant: its own compile
            base = dataclasses.replace(base, **constants)
        self.traced = tuple(traced)
        if self.traced:
            base = keyed_by_static_fields(base, self.traced)
        self.base = base
        catalog_signals = self.signals
        weights = jnp.asarray(_WEIGHTS)

        def make(cvals):
            return game_cls(dataclasses.replace(base, **cvals), full_action_space=True)

        def signals(game, state):
            return {k: jnp.asarray(s.jax(game, state)) for k, s in catalog_signals.items()}

        def reset(cvals, key):
            return make(cvals).reset(key)[1]

        def run(cvals, state, actions, n, sample):
            game = make(cvals)

            def body(s, xs):
                t, a, shot = xs
                _, new, reward, _, _ = game.step(s, a)
                live = (t < n) & ~jnp.asarray(game.is_terminal(s))
                new = select_tree(live, new, s)
                reward = jnp.where(live, reward, 0.0)
                screen = jax.lax.cond(
                    shot, lambda st: jnp.sum(game.render(st).astype(jnp.uint32) * weights,
                                             dtype=jnp.uint32),
                    lambda st: jnp.uint32(0), new)
                return new, (signals(game, new), reward, screen)

            return jax.lax.scan(body, state, (jnp.arange(actions.shape[0]), actions, sample))

        self._reset = jax.jit(reset)
        self._run = jax.jit(run)
        self._make = make

    def cvals(self, overrides: Optional[dict] = None) -> dict:
        """The traced fields' values: the base game's, with ``overrides`` (traced fields only)."""
        out = {f: getattr(self.base, f) for f in self.traced}
        for k, v in (overrides or {}).items():
            if k not in out:
                raise ValueError(f"{k!r} is not a traced field of this runner")
            out[k] = v
        return out

    def check(self) -> None:
        """Trace (not compile) a reset and a chunk: raises when a traced field cannot be traced."""
        import jax

        cv = self.cvals()
        state = jax.eval_shape(self._reset, cv, jax.random.key(0))
        jax.eval_shape(self._run, cv, state, np.zeros(CHUNK, np.int32), np.int32(1),
                       np.zeros(CHUNK, bool))

    def run(self, script: Script, overrides: Optional[dict] = None) -> Trace:
        """The script on this game (``overrides``: values of traced fields, no new compile)."""
        import jax

        cv = self.cvals(overrides)
        state = self._reset(cv, jax.random.key(int(script.seed)))
        return self._play(script, state, cv, self._run, None)[0]

    def _play(self, script: Script, state, cv, run, batch: Optional[int]) -> list[Trace]:
        import jax

        lanes = 1 if batch is None else batch
        total = script.frames
        parts, screens, t0 = [], [dict() for _ in range(lanes)], 0
        for kind, what in _segments(script.steps):
            if kind == "poke":
                poke = self.pokes[what[0]]
                value = poke.check(what[1])
                state = (poke.jax(state, value) if batch is None
                         else jax.vmap(lambda st: poke.jax(st, value))(state))
                continue
            for start in range(0, len(what), CHUNK):
                part = what[start:start + CHUNK]
                k = len(part)
                actions = np.zeros(CHUNK, np.int32)
                actions[:k] = part
                shots = np.asarray([i < k and sampled(t0 + i, total - 1) for i in range(CHUNK)])
                state, (sig, rew, scr) = run(cv, state, actions, np.int32(k), shots)
                sig, rew, scr = jax.device_get((sig, rew, scr))
                if batch is None:
                    sig, rew, scr = ({n: v[None] for n, v in sig.items()}, rew[None], scr[None])
                parts.append(({n: np.asarray(v)[:, :k] for n, v in sig.items()},
                              np.asarray(rew, np.float64)[:, :k]))
                for i in np.nonzero(shots)[0]:
                    for lane in range(lanes):
                        screens[lane][t0 + int(i)] = int(scr[lane, i])
                t0 += k
        if not parts:
            empty = Trace({n: np.zeros((0, *s.shape)) for n, s in self.signals.items()},
                          np.zeros(0), {})
            return [empty] * lanes
        out = []
        for lane in range(lanes):
            sig = {n: np.concatenate([p[0][n][lane] for p in parts]) for n in parts[0][0]}
            out.append(Trace(sig, np.concatenate([p[1][lane] for p in parts]), screens[lane]))
        return out


def traceable_fields(game: str, game_cls, mode: Optional[int] = None, **runner) -> list[str]:
    """The Constants fields that can be traced inputs of this runner (the game's reset, its step
    with every catalog signal, its screen), found as :func:`jaxtari.variants.select_fields` finds
    them; the rest stay static, a compile per mutant."""
    def ok(fields) -> bool:
        try:
            JaxRunner(game, game_cls, mode, fields, **runner).check()
            return True
        except Exception:
            return False

    return select_fields(candidate_fields(game_cls.Constants()), ok)


# ---- comparing ---------------------------------------------------------------------------------


def _signal_agree(signals, name: str, a: np.ndarray, b: np.ndarray, exact: bool) -> np.ndarray:
    """Per frame: whether signal ``name`` agrees (within the catalog's tolerance unless exact)."""
    a = np.asarray(a, np.float64).reshape(len(a), -1)
    b = np.asarray(b, np.float64).reshape(len(b), -1)
    tol = 0.0 if exact else signals[name].tolerance
    return np.all(np.abs(a - b) <= tol, axis=1)


def agreement(signals, ref: Trace, other: Trace, exact: bool = False) -> dict[str, np.ndarray]:
    """Per signal (and ``reward``, ``screen``), a per-frame bool array: ``other`` agrees with
    ``ref`` (screens: only the frames both sampled; others count as agreeing)."""
    n = min(ref.frames, other.frames)
    out = {k: _signal_agree(signals, k, ref.signals[k][:n], other.signals[k][:n], exact)
           for k in ref.signals}
    out["reward"] = np.abs(ref.reward[:n] - other.reward[:n]) <= 0
    screen = np.ones(n, bool)
    for t, h in ref.screens.items():
        if t < n and t in other.screens and other.screens[t] != h:
            screen[t] = False
    out["screen"] = screen
    if ref.frames != other.frames:  # a shorter run disagrees from where it ends
        for k in out:
            out[k] = np.concatenate([out[k], np.zeros(abs(ref.frames - other.frames), bool)])
    return out


def first_kill(signals, ale: Trace, original: Trace, mutant: Trace) -> Optional[str]:
    """Where the mutant fails a lockstep comparison with ALE that the unmutated game passes:
    ``"frame T, SIGNAL"`` of the first such frame, or None."""
    ok = agreement(signals, ale, original)
    bad = agreement(signals, ale, mutant)
    first = None
    for k in ok:
        hit = np.nonzero(ok[k] & ~bad[k])[0]
        if len(hit) and (first is None or hit[0] < first[0]):
            first = (int(hit[0]), k)
    return None if first is None else f"frame {first[0] + 1} since reset, {first[1]}"


def first_difference(signals, original: Trace, mutant: Trace) -> Optional[str]:
    """The first frame and signal where a mutant's run differs from the unmutated game's at all."""
    diff = agreement(signals, original, mutant, exact=True)
    first = None
    for k, ok in diff.items():
        hit = np.nonzero(~ok)[0]
        if len(hit) and (first is None or hit[0] < first[0]):
            first = (int(hit[0]), k)
    return None if first is None else f"frame {first[0] + 1} since reset, {first[1]}"


def usable(signals, ale: Trace, original: Trace) -> Optional[str]:
    """None when the unmutated game agrees with ALE on every signal and reward of every frame (its
    screens may differ on some sampled frames: those frames are not used); else why not."""
    ok = agreement(signals, ale, original)
    for k, v in ok.items():
        if k != "screen" and not v.all():
            return (f"the unmutated game differs from ALE at frame {int(np.argmin(v)) + 1} since "
                    f"reset on {k}")
    return None


__all__ = ["CHUNK", "JaxRunner", "SCREEN_EVERY", "Script", "Trace", "agreement", "first_difference",
           "first_kill", "run_ale", "screen_hash", "traceable_fields", "usable"]
