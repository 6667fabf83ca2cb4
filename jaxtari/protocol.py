"""The ALE v5 protocol's numbers, defined here once: the wrappers, the drop-in faces and the whole
pipeline (audit, stress, robustness, specs, command-line bounds) import :data:`V5` rather than
writing a 4 or a 0.25 of their own, so a grep finds one definition (``tests/test_protocol.py``).

Source: ale-py's registration of the ``ALE/<Game>-v5`` ids (Machado et al. 2018's recommended
settings): 4 frames per agent step, sticky actions with probability 0.25, the minimal action set,
episodes truncated at 108,000 emulator frames (30 minutes at 60 Hz), and no no-op starts.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Protocol:
    """How an agent step maps onto emulator frames, and when an episode is cut short."""

    frameskip: int  # emulator frames per agent step (rewards summed over them)
    repeat_action_probability: float  # each frame, the chance the previous frame's action repeats
    max_num_frames_per_episode: int  # emulator frames after which an episode is truncated
    full_action_space: bool  # all 18 actions, or the game's minimal set
    noop_max: int  # at most this many NOOP agent steps start an episode (0: none)

    @property
    def max_agent_steps(self) -> int:
        """Agent steps in a capped episode."""
        return self.max_num_frames_per_episode // self.frameskip


V5 = Protocol(
    frameskip=4,  # rule: timing.frameskip-v5
    repeat_action_probability=0.25,  # rule: action.sticky-v5
    max_num_frames_per_episode=108_000,
    full_action_space=False,
    noop_max=0,
)
