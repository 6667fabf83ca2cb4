"""Published returns of the same PPO on ALE, the outside anchor of the stage-4 report.

The figures are data (``stress/anchors/cleanrl-10m.json``: CleanRL's ``ppo_atari_envpool_xla_jax``
at 10M agent steps, 3 seeds, as its documentation's 57-game table publishes them; its
``_scan`` clone, whose hyperparameters ours follow, publishes three games only), read here by
game; a game they do not cover has no anchor. They move into the games' plug-ins with the next
change that re-makes every audit (docs/core-window/README.md), the home of a game's facts.
"""

from __future__ import annotations

import json
from pathlib import Path

from alignment.artefacts import REPO_ROOT
from jaxtari.protocol import V5

ANCHORS = REPO_ROOT / "stress" / "anchors" / "cleanrl-10m.json"

# EnvPool's Atari defaults (its API documentation, sail-sg/envpool docs/api/atari.rst): settings
# after gym's NoFrameskip-v4 with Baselines' wrappers, sticky actions off; CleanRL's script sets
# only episodic life and reward clipping on top.
# Sticky actions of the anchor's evaluation: EnvPool's default (the same page), which CleanRL keeps.
ANCHOR_STICKY = 0.0
ANCHOR_EPISODES = 20  # whole games per agent on ALE under the anchor's sticky setting
# Issue 43's bar for an agent population against the published one: its mean at or above the
# published mean less two of the published standard deviations.
ANCHOR_SDS = 2.0
# What CleanRL's agents trained and were scored under, and what of it ours share, by the
# observation our agents see (the published agents all see pixels: an object-centric agent is
# compared with them for competence only, with another observation and network).
_MAXPOOL = "frameskip 4 with the last two frames max-pooled"
_THEIR_SETTINGS = ("sticky actions off (EnvPool's default), fire reset, no-op starts up to 30, "
                   "episodic life and reward clipping in training")
_OUR_STICKY = f"sticky {V5.repeat_action_probability} in training and evaluation (ALE v5)"
_OUR_REST = "no no-op starts, the same PPO hyperparameters"
PROTOCOL = {
    "pixels": (f"EnvPool Atari v5 as CleanRL makes it: {_MAXPOOL}, 84x84 by INTER_AREA resize, "
               f"{_THEIR_SETTINGS}; ours: {_OUR_STICKY}, no max-pool, nearest-neighbour 84x84, "
               f"{_OUR_REST}"),
    "objects": (f"EnvPool Atari v5 as CleanRL makes it, its agents seeing 84x84 pixels ({_MAXPOOL}, "
                f"INTER_AREA resize, stack 4), {_THEIR_SETTINGS}; ours: the object-centric features "
                f"(another observation and network: a comparison of competence only), "
                f"{_OUR_STICKY}, {_OUR_REST}"),
}
# What the anchor-protocol evaluation (sticky as the anchor's) still leaves different, by observation
STILL_DIFFERS = {"pixels": "no max-pool, nearest-neighbour 84x84, no no-op starts, no fire reset",
                 "objects": "object-centric features instead of pixels, no no-op starts, "
                            "no fire reset"}


def anchor(game: str, path: Path = ANCHORS, obs: str = "pixels") -> dict | None:
    """``{mean, sd, source, protocol, sticky}`` of ``game``'s published return (None: not
    published); ``protocol`` says what differs for agents seeing ``obs``."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None
    row = (doc.get("returns") or {}).get(game)
    if not isinstance(row, dict):
        return None
    return {"mean": float(row["mean"]), "sd": float(row["sd"]), "source": doc.get("source", ""),
            "protocol": PROTOCOL[obs],
            "sticky": ANCHOR_STICKY}
