"""The original FrameStack (before the one-array stack and the ring, both measured since), kept as
the reference the current one must match bit for bit (tests/test_frame_stack.py). Frames as k separate arrays rotated through the state, a count of the
slots that belong to the current episode, and the stacked observation assembled from them on each
step."""

from typing import Any

import jax
import jax.numpy as jnp

from jaxtari import spaces
from jaxtari.env import pytree_dataclass
from jaxtari.wrappers import Wrapper
from jaxtari.xla import materialize


@pytree_dataclass
class OldStackState:
    inner: Any
    frames: tuple  # the last k observations, oldest first (slots older than `filled` are stale)
    filled: jax.Array  # how many of the newest slots belong to the current episode (1..k)


class OldFrameStack(Wrapper):
    """The last ``k`` observations stacked on a new leading axis (oldest first).

    At reset, and when the wrapped env restarts an episode, the stack is filled with the new one.
    """

    def __init__(self, env, k: int = 4):
        super().__init__(env)
        if k < 1:
            raise ValueError(f"frame stack size must be >= 1, got {k}")
        self.k = int(k)

    # How this is laid out is a measured choice (XLA CPU; the figures are in the commit history):
    # - the k frames are k separate arrays, so a step renames buffers instead of shifting one
    #   (k, ...) array, which was many times slower than rendering alone;
    # - XLA fuses the renderer into every consumer of the new frame, so writing it into older
    #   slots on a restart (`where(restart, obs, old)` per slot) rendered it k times. Instead the
    #   frames shift unconditionally and a count of the slots that belong to this episode decides,
    #   in the output only, which slots show the newest frame.
    def reset(self, key):
        obs, inner = self.env.reset(key)
        frames = (obs,) * self.k
        return jnp.stack(frames), OldStackState(inner, frames, jnp.int32(self.k))

    def step(self, state, action):
        obs, inner, r, d, info = self.env.step(state.inner, action)
        # Rendered once into memory (jaxtari.xla.materialize): on the XLA CPU backend the renderer
        # was being fused into, and recomputed by, every consumer of the new frame.
        obs = materialize(obs)
        restart = jnp.asarray(info.get("episode_restart", False))
        frames = state.frames[1:] + (obs,)
        filled = jnp.where(restart, 1, jnp.minimum(state.filled + 1, self.k))
        # Slot i (oldest first) holds frames[i] when that frame is from this episode, that is when
        # filled >= k - i; otherwise it repeats the episode's first frame, frames[k - filled].
        shown = []
        for i in range(self.k - 1):
            v = frames[i]
            for j in range(i + 1, self.k):
                v = jnp.where(self.k - filled == j, frames[j], v)
            shown.append(v)
        return jnp.stack(shown + [obs]), OldStackState(inner, frames, filled), r, d, info

    @property
    def observation_space(self):
        inner = self.env.observation_space
        return spaces.Box(low=inner.low, high=inner.high, shape=(self.k,) + tuple(inner.shape), dtype=inner.dtype)


def stack_writes(hlo: str, stack: str, frame: str):
    """What writes a stacked observation of shape ``stack`` (e.g. ``u8[8,4,84,84]``) in compiled
    HLO text: ({computation: its fusions that compute the stack}, whether each such fusion reads a
    ``frame``-shaped buffer among its parameters, the copies of the stack)."""
    lines = hlo.splitlines()
    fusions, reads_frame, copies, where = {}, [], [], None
    for ln in lines:
        if ln and not ln.startswith(" "):
            where = ln.split(" ")[0]
        elif f"= {stack}" in ln and " copy(" in ln:
            copies.append(ln)
        elif f"= {stack}" in ln and " fusion(" in ln:
            fusions.setdefault(where, []).append(ln)
            called = ln.split("calls=")[1].split(",")[0].strip()
            header = next(h for h in lines if h.startswith(f"{called} ("))
            reads_frame.append(f": {frame}" in header.split(") ->")[0])
    return fusions, reads_frame, copies
