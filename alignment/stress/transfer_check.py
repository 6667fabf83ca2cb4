"""What the gate re-derives of a committed transfer report, on the CPU, without an accelerator.

:func:`check` recomputes the statistics and the verdict from the per-episode returns (never
trusting the summary), checks that the committed policy file is the one evaluated (sha256), and
plays the report's replay episodes again on both backends, each alone with its fixed seeds: a
change to the game that the policy notices changes a return, and the report is stale.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np

from alignment import artefacts
from alignment.stress import transfer
from jaxtari.protocol import V5

RECOMPUTED = ("label",)


def report_policy(root: Path, policy_file: str | None, digest: str | None) -> Path:
    """The policy file a transfer report evaluated (``policy_file`` from ``root`` where relative),
    checked to be that file by its sha256; PolicyError saying which of these fails."""
    from alignment.learning.policy import PolicyError

    if not policy_file or not digest:
        raise PolicyError("the report names no committed policy file")
    path = Path(policy_file)
    path = path if path.is_absolute() else Path(root) / path
    if not path.is_file():
        raise PolicyError(f"its policy {policy_file} is not committed")
    if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
        raise PolicyError(f"{policy_file} is not the policy the report evaluated (sha256 differs)")
    return path


def _finite_returns(doc: dict, rel: str) -> list[str]:
    problems = []
    for side in ("ale", "jax"):
        agents = doc.get("sides", {}).get(side)
        if not isinstance(agents, list) or not agents:
            problems.append(f"{rel}: no {side} side")
            continue
        for k, e in enumerate(agents):
            r = e.get("returns") if isinstance(e, dict) else None
            if (not isinstance(r, list) or len(r) != doc.get("episodes")
                    or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                               and math.isfinite(x) for x in r)):
                problems.append(f"{rel}: {side} agent {k}: its returns are not "
                                f"{doc.get('episodes')} finite numbers")
    return problems


def check(root: Path, rel: str, *, replay: bool = True) -> list[str]:
    """Problems with the committed transfer report ``rel`` (empty: it holds)."""
    import json

    path = Path(root) / rel
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        return [f"{rel}: unreadable ({exc})"]
    if doc.get("schema") != artefacts.TRANSFER.schema:
        return [f"{rel}: not a {artefacts.TRANSFER.schema} report"]
    problems = _finite_returns(doc, rel)
    if problems:
        return problems
    rand = doc.get("random_policy", {}).get("returns")
    if not isinstance(rand, list) or not rand:
        return [f"{rel}: the random policy's returns are missing"]
    stats, verdict = transfer.compare_sides(doc["sides"], float(np.mean(rand)))
    if verdict["label"] != doc.get("verdict", {}).get("label"):
        problems.append(f"{rel}: the verdict recomputed from its returns is "
                        f"{verdict['label']!r}, the report says {doc['verdict'].get('label')!r}")
    for side in ("ale", "jax"):
        got, want = doc.get("statistics", {}).get(side, {}), stats[side]
        if any(not _close(got.get(k), want[k]) for k in ("n", "mean", "sd", "median")):
            problems.append(f"{rel}: its {side} summary does not match its returns")
    problems += _anchor_eval(doc, rel)
    if not replay:
        return problems
    from alignment.learning import policy

    try:
        ppath = report_policy(root, doc.get("policy_file"), doc.get("policy_sha256"))
    except policy.PolicyError as exc:
        return problems + [f"{rel}: {exc}"]
    pol = policy.load(ppath, doc["game"], doc["obs"])
    for row in doc.get("replays", []):
        for side in ("ale", "jax"):
            got = transfer.replay(pol, int(row["agent"]), int(row["episode"]),
                                  seed=int(doc["eval_seed"]), side=side,
                                  max_frames=int(doc.get("max_frames", V5.max_num_frames_per_episode)))
            if got != row.get(f"{side}_alone"):
                problems.append(
                    f"{rel}: replayed on {side}, agent {row['agent_seed']} episode "
                    f"{row['episode']} returns {got}, the report {row.get(f'{side}_alone')}: the "
                    f"game changed in a way the policy meets; re-run `jaxtari-align transfer "
                    f"{doc['game']} --obs {doc['obs']}`")
    if not doc.get("replays"):
        problems.append(f"{rel}: no replay episodes recorded")
    return problems


def _anchor_eval(doc: dict, rel: str) -> list[str]:
    """The anchor-protocol section's figures recomputed from its returns and the committed
    anchor (never the report's own copy of it)."""
    e = doc.get("anchor_eval")
    if e is None:
        return []
    from alignment.stress.anchors import anchor

    a = anchor(doc.get("game", ""))
    returns = e.get("returns") if isinstance(e, dict) else None
    if (a is None or not isinstance(returns, list) or not returns
            or any(not isinstance(r, list) or len(r) != e.get("episodes") or not r
                   or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                              and math.isfinite(x) for x in r) for r in returns)):
        return [f"{rel}: its anchor-protocol section has no anchor or not "
                f"{e.get('episodes') if isinstance(e, dict) else '?'} finite returns per agent"]
    want = transfer.anchor_summary(returns, a)
    if (e.get("meets") is not want["meets"] or not _close(e.get("mean"), want["mean"])
            or not _close(e.get("bar"), want["bar"]) or e.get("sticky") != a["sticky"]):
        return [f"{rel}: its anchor-protocol figures do not follow from its returns and the "
                f"published anchor (mean {want['mean']:.2f}, bar {want['bar']:.2f}, "
                f"{'meets' if want['meets'] else 'below'}, sticky {a['sticky']:g})"]
    return []


def _close(a, b) -> bool:
    return isinstance(a, (int, float)) and not isinstance(a, bool) and math.isclose(
        float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
