"""Open-loop policies for ``jaxtari-align compare``: each episode's agent actions, fixed in advance.

- ``random``: uniform over the game's action set, from ``numpy.random.default_rng([seed, episode])``.
- ``scripted``: the catalog entry's ``script`` ((action name, agent steps) pairs), looped.
- ``file``: a list of action names read from a file, looped until the episode ends. Accepted forms:
  a JSON list (``["NOOP", "UP", ...]``), a JSON object ``{"actions": [...], "repeat": k}`` (each action
  held for ``k`` agent steps, default 1), or plain text with names separated by whitespace or commas
  (``#`` starts a comment).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from jaxtari.env import action_position as position

from alignment.catalog import GameEntry
from alignment.cli_checks import MAX_EPISODE_FRAMES

POLICIES = ("random", "scripted", "file")


class PolicyError(ValueError):
    """A policy that cannot be built (unknown kind, unreadable or malformed file, unknown action)."""


def _indices(entry: GameEntry, names: list, where: str) -> list[int]:
    actions = entry.minimal_actions
    out = []
    for pos, name in enumerate(names):
        i = position(actions, name)
        if i is None:
            raise PolicyError(
                f"{where}: action #{pos + 1} {name!r} is not an action of {entry.name}; "
                f"its actions are: {', '.join(actions)}"
            )
        out.append(i)
    return out


def read_policy_file(entry: GameEntry, path: str | Path) -> np.ndarray:
    """The action indices (one per agent step, before looping) a policy file describes."""
    p = Path(path)
    if p.is_dir():
        raise PolicyError(f"policy file {str(p)!r} is a directory; give the file inside it")
    if not p.is_file():
        raise PolicyError(f"policy file {str(p)!r} does not exist (give --policy-file PATH)")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"cannot read policy file {str(p)!r}: {exc}") from None
    repeat = 1
    stripped = text.lstrip()
    if stripped.startswith(("[", "{")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PolicyError(f"policy file {str(p)!r} is not valid JSON: {exc}") from None
        if isinstance(data, dict):
            if "actions" not in data:
                raise PolicyError(
                    f"policy file {str(p)!r}: a JSON object needs an \"actions\" list "
                    f"(and optionally \"repeat\": k)")
            repeat = data.get("repeat", 1)
            if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 1:
                raise PolicyError(f"policy file {str(p)!r}: \"repeat\" must be an integer >= 1, "
                                  f"got {repeat!r}")
            data = data["actions"]
        if not isinstance(data, list):
            raise PolicyError(f"policy file {str(p)!r}: \"actions\" must be a list of action names")
        names = data
    else:
        lines = [line.split("#", 1)[0] for line in text.splitlines()]
        names = [n for n in re.split(r"[\s,]+", " ".join(lines)) if n]
    if not names:
        raise PolicyError(f"policy file {str(p)!r} lists no actions")
    idx = _indices(entry, names, f"policy file {str(p)!r}")
    # No episode outlasts the v5 cap, so a longer sequence would only be cut: refuse it before
    # allocating it.
    if len(idx) * repeat > MAX_EPISODE_FRAMES:
        raise PolicyError(
            f"policy file {str(p)!r}: {len(idx):,} actions x repeat {repeat:,} is more than "
            f"{MAX_EPISODE_FRAMES:,} steps, the longest episode ALE v5 plays")
    return np.repeat(np.asarray(idx, np.int32), repeat)


def episode_actions(entry: GameEntry, kind: str, *, seed: int, episodes: int, steps: int,
                    policy_file: str | Path | None = None) -> np.ndarray:
    """Agent actions of every episode, shape (episodes, steps), as indices into the action set."""
    if kind not in POLICIES:
        raise PolicyError(f"unknown policy {kind!r}; policies: {', '.join(POLICIES)}")
    n_actions = len(entry.minimal_actions)
    if kind == "random":
        return np.stack([
            np.random.default_rng([seed, ep]).integers(0, n_actions, size=steps).astype(np.int32)
            for ep in range(episodes)
        ])
    if kind == "scripted":
        base = np.concatenate([
            np.full(k, i, np.int32)
            for i, k in zip(_indices(entry, [a for a, _ in entry.script], "catalog script"),
                            [k for _, k in entry.script])
        ])
    else:
        if policy_file is None:
            raise PolicyError("--policy file needs --policy-file PATH (a JSON or text list of actions)")
        base = read_policy_file(entry, policy_file)
    looped = np.resize(base, steps).astype(np.int32)
    return np.tile(looped, (episodes, 1))
