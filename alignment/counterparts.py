"""Measure a JAX mod against its ALE counterpart (RAM writes): whole games, both sides in lockstep.

``python -m alignment.counterparts GAME MOD [--games N] [--seed S] [--max-frames F]`` plays ``N``
games of random actions (each held for a random 1..8 frames; ``--policy noop``: NOOP throughout;
``--policy scripted``: the game's scripted player, reading the ALE side's signals each frame, which
plays deeper than random actions) on the modified ALE game and the modified JAX game from the same
seeds, compares every catalog signal (within its tolerance) and the reward every frame, and prints the measurement. Its
``exact`` and ``measured``/``differs`` are what a ground-truth module records with the counterpart
(:class:`alignment.signals.AleCounterpart`); tests/test_counterparts.py re-checks every counterpart
marked exact the same way.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from alignment import catalog
from alignment.backends import REWARD, make_backend

CHUNK = 2048  # frames per lockstep chunk
MAX_HOLD = 8  # frames a random action is held at most


@dataclasses.dataclass
class Measurement:
    game: str
    mod: str
    games: int
    frames: int  # frames compared, all games together
    ended: int  # games that ended on both sides before the frame cap
    exact: bool
    first_difference: dict[str, Any] | None  # game, frame, signal, ale, jax
    policy: str = "random"

    def summary(self) -> str:
        what = {"random": f"random held actions (1..{MAX_HOLD} frames)",
                "noop": "NOOP every frame",
                "scripted": "the scripted player (alignment.playtest.scripted)"}[self.policy]
        how = (f"{self.games} game(s) of {what}, "
               f"{self.frames} frames, {self.ended} ended on both sides before the frame cap; "
               f"every catalog signal and the reward every frame (alignment.counterparts)")
        if self.exact:
            return how
        d = self.first_difference
        return (f"{how}; first difference in game {d['game']} at frame {d['frame']}: "
                f"{d['signal']} ALE {d['ale']} vs JAX {d['jax']}")


def random_actions(n_actions: int, frames: int, rng: np.random.Generator) -> np.ndarray:
    out = np.empty(frames, np.int32)
    t = 0
    while t < frames:
        hold = int(rng.integers(1, MAX_HOLD + 1))
        out[t:t + hold] = rng.integers(0, n_actions)
        t += hold
    return out


POLICIES = ("random", "noop", "scripted")


class ScriptedActions:
    """The game's scripted player as a closed-loop policy: one action per frame from the ALE
    side's signals (both sides show the same ones while they agree)."""

    def __init__(self, entry, ale):
        from alignment.playtest.keymap import action_for

        if entry.scripted_player is None:
            raise ValueError(f"{entry.name} has no scripted player; use --policy random or noop")
        self._policy, self._ale, self._entry = entry.scripted_player.make(), ale, entry
        self._action_for, self._tick = action_for, 0

    def run(self, frames: int) -> tuple[dict, np.ndarray]:
        """Play up to ``frames`` frames on ALE (fewer once its game is over): its traces, as
        :meth:`~alignment.backends.Backend.run` gives them, and the actions played."""
        rows, actions = [], []
        while len(actions) < frames and not (actions and self._ale.terminated):
            held = self._policy(self._ale.signals(), self._tick)
            self._tick += 1
            actions.append(self._action_for(held, self._ale.action_names,
                                            self._entry.control_aliases))
            rows.append(self._ale.run(actions[-1:]))
        return ({k: np.concatenate([r[k] for r in rows]) for k in rows[0]},
                np.asarray(actions, np.int32))


def measure(game: str, mod: str, *, games: int = 2, seed: int = 0, max_frames: int = 20_000,
            policy: str = "random") -> Measurement:
    """Lockstep the ALE counterpart of ``mod`` against the JAX mod over ``games`` whole games (up
    to ``max_frames`` frames each); stops at the first difference."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choices: {', '.join(POLICIES)}")
    entry = catalog.entry(game)
    ale, jx = make_backend("ale", entry.name, mods=[mod]), make_backend("jax", entry.name, mods=[mod])
    frames, ended = 0, 0
    for g in range(games):
        ale.reset(seed + g)
        jx.reset(seed + g)
        scripted = ScriptedActions(entry, ale) if policy == "scripted" else None  # a fresh player
        rng = np.random.default_rng(seed + g)
        played = 0
        while played < max_frames and not (ale.terminated and jx.terminated):
            n = min(CHUNK, max_frames - played)
            if scripted:  # ALE frame by frame (the player reads it), then JAX on its actions
                a, actions = scripted.run(n)
                n = len(actions)
            else:
                actions = (random_actions(len(ale.action_names), n, rng) if policy == "random"
                           else np.zeros(n, np.int32))
                a = ale.run(actions)
            j = jx.run(actions)
            for name, sig in [*entry.signals.items(), (REWARD, None)]:
                bad = (np.flatnonzero(a[name] != j[name]) if sig is None else
                       [t for t in range(n) if not sig.within(a[name][t], j[name][t])])
                if len(bad):
                    t = int(bad[0])
                    diff = {"game": g, "frame": played + t + 1, "signal": name,
                            "ale": np.asarray(a[name][t]).tolist(),
                            "jax": np.asarray(j[name][t]).tolist()}
                    return Measurement(entry.name, mod, g + 1, frames + played + t + 1, ended,
                                       False, diff, policy)
            played += n
        frames += ale.frame  # frames actually played (both stand still after game over)
        ended += int(ale.terminated and jx.terminated)
    return Measurement(entry.name, mod, games, frames, ended, True, None, policy)


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m alignment.counterparts", description=__doc__)
    p.add_argument("game")
    p.add_argument("mod")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-frames", type=int, default=20_000)
    p.add_argument("--policy", choices=POLICIES, default="random")
    args = p.parse_args(argv)
    from alignment.backends import BackendError

    try:
        m = measure(args.game, args.mod, games=args.games, seed=args.seed,
                    max_frames=args.max_frames, policy=args.policy)
    except (BackendError, catalog.UnknownCatalogGame, ValueError) as exc:
        print(f"error: {exc}")
        return 2
    print(f"{m.game} {m.mod}: exact={m.exact}")
    print(m.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
