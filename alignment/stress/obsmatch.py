"""What the agent sees, on both backends of a matched replay.

A matched episode (:func:`alignment.stress.transfer.matched_episode`) compares the game's signals
frame by frame; an agent acts on its observation, which on ALE is made outside the game: object
agents see :class:`~alignment.reference.features.FeatureDecoder` of ALE's RAM, pixel agents
:func:`~alignment.stress.transfer.observe_screen` of its grey screen. Where those part from the JAX
game's ``observation(state)`` / ``render_gray84(state)`` on states that only trained agents reach,
agents play otherwise on ALE for a reason that is not the game. :func:`compare_observations`
replays the same emulator-frame actions on both, started as the lockstep backends start them
(sticky actions off), and compares the one observation frame (unstacked) after every frame.
"""

from __future__ import annotations

from typing import Callable

import numpy as np


def observe_screen(grey: np.ndarray) -> np.ndarray:
    """ALE's 210x160 grey screen as the agent's 84x84 frame: the screen pixels the JAX game's
    84x84 raster samples (nearest neighbour, ``jaxtari.render.SMALL_GRAY``)."""
    from jaxtari.render import SMALL_GRAY

    grey = np.asarray(grey)
    if grey.ndim == 3 and grey.shape[-1] == 1:
        grey = grey[..., 0]
    return grey[..., SMALL_GRAY.ys, SMALL_GRAY.xs]


CHUNK = 1024  # emulator frames per compiled JAX call (the last chunk is padded, one compile)
MAX_LISTED = 8  # differing fields or pixels named in a report row


def feature_names(game) -> list[str]:
    """The name of every entry of ``game.observation(state)``: ``group[slot].column``, in the
    order :meth:`jaxtari.env.ObjectGroup.features` lays them out (groups in name order; per slot
    x, y, w, h, active, then the attributes in name order)."""
    import jax

    _, state = game.reset(jax.random.key(0))
    names = []
    for g, group in sorted(game.objects(state).items()):
        cols = ["x", "y", "w", "h", "active"] + sorted(group.attrs)
        names += [f"{g}[{s}].{c}" for s in range(group.size) for c in cols]
    return names


def _jax_views(game, obs: str, seed: int) -> Callable:
    """``views(actions (CHUNK,), n) -> (observations (CHUNK, ...), terminal (CHUNK,))`` along one
    JAX game from reset with key ``seed``: the observation after each frame; the state stands
    still after game over and past ``n``, as the lockstep backend's."""
    import jax
    import jax.numpy as jnp

    from jaxtari.xla import select_tree

    view = game.observation if obs == "objects" else game.render_gray84
    _, first = game.reset(jax.random.key(seed))
    carry = [first]

    @jax.jit
    def scan(state, actions, n):
        def body(s, ta):
            t, a = ta
            new = game.step(s, a)[1]
            s = select_tree((t < n) & ~jnp.asarray(game.is_terminal(s)), new, s)
            return s, (view(s), game.is_terminal(s))

        return jax.lax.scan(body, state, (jnp.arange(actions.shape[0]), actions))

    def views(actions, n):
        carry[0], (seen, ended) = scan(carry[0], jnp.asarray(actions, jnp.int32), jnp.int32(n))
        return np.asarray(seen)[:n], np.asarray(ended)[:n]

    return views


def compare_observations(game: str, obs: str, frame_actions, *, seed: int,
                         decoder: Callable | None = None) -> dict:
    """The agent's observation after every frame of ``frame_actions`` (action indices, one a
    frame) on ALE and on the JAX game, compared until either game is over.

    ``obs``: ``"objects"`` (ALE's RAM through the game's
    :class:`~alignment.reference.features.FeatureDecoder`; the JAX game's ``observation``) or
    ``"pixels"`` (ALE's grey screen through ``observe_screen``; the JAX game's ``render_gray84``).
    ``decoder`` replaces what turns a batch of ALE's RAMs or grey screens into observations (a
    planted fault, in tests). Returns the frames compared and
    the first frame whose observations differ (None: none), with the differing feature names (and
    both values) or the differing pixel count and the first few pixels (row, column, ALE, JAX);
    the frames that differ at all (``frames_differing``) and, for objects, every feature that
    differs on any frame (``fields_ever``).
    """
    from alignment.backends import make_backend

    if obs not in ("objects", "pixels"):
        raise ValueError(f"obs must be 'objects' or 'pixels', got {obs!r}")
    actions = np.asarray(frame_actions, np.int32).reshape(-1)
    ale = make_backend("ale", game)
    ale.reset(seed)
    jgame = make_backend("jax", game).jax_game
    if decoder is None and obs == "objects":
        from alignment.reference.features import FeatureDecoder

        decoder = FeatureDecoder(game)
    elif decoder is None:
        decoder = observe_screen
    views = _jax_views(jgame, obs, seed)
    compared, first, differing = 0, None, 0
    ever = np.zeros(0, bool)  # per observation entry: did it ever differ
    for start in range(0, len(actions), CHUNK):
        part = actions[start:start + CHUNK]
        seen = []
        for a in part:
            ale.act(int(a))
            seen.append(ale.ram() if obs == "objects" else ale.gray())
            if ale.terminated:
                break
        padded = np.zeros(CHUNK, np.int32)
        padded[:len(part)] = part
        want, jax_over = views(padded, len(part))
        n = len(seen)
        got = np.asarray(decoder(np.stack(seen)))
        # both games run on whatever the observation shows, so every frame is still comparable
        # after the first difference: the rest say whether it was one frame or a lasting one
        off = (got != want[:n]).reshape(n, -1)
        ever = off.any(0) | (ever if ever.size else False)
        rows = np.flatnonzero(off.any(1))
        differing += rows.size
        if first is None and rows.size:
            k = int(rows[0])
            first = {"first_divergence": start + k, **_difference(jgame, obs, got[k], want[k])}
        compared += n
        if ale.terminated or jax_over[:n].any():
            break
    row = {"frames": compared, "first_divergence": None, "frames_differing": differing}
    if first is not None:
        row.update(first)
        if obs == "objects":
            names = feature_names(jgame)
            row["fields_ever"] = [names[i] for i in np.flatnonzero(ever)]
    return row


def _difference(jgame, obs: str, got: np.ndarray, want: np.ndarray) -> dict:
    if obs == "objects":
        names = feature_names(jgame)
        idx = np.flatnonzero(got != want)
        return {"fields": [{"field": names[i], "ale": float(got[i]), "jax": float(want[i])}
                           for i in idx[:MAX_LISTED]], "fields_differing": int(idx.size)}
    rows, cols = np.nonzero(got != want)
    return {"pixels_differing": int(rows.size),
            "pixels": [[int(r), int(c), int(got[r, c]), int(want[r, c])]
                       for r, c in zip(rows[:MAX_LISTED], cols[:MAX_LISTED])]}


def describe(row: dict) -> str:
    """One line for a report: where the agent's observation first parts, or that it does not."""
    if row.get("first_divergence") is None:
        return f"the agent's observation equal on all {row['frames']:,} frames"
    if "fields" in row:
        what = ", ".join(f"{f['field']} (ALE {f['ale']:g}, JAX {f['jax']:g})"
                         for f in row["fields"])
        return (f"the agent's observation first parts at frame {row['first_divergence']}: "
                f"{row['fields_differing']} feature(s), {what}; {_often(row)} (features that "
                f"ever differ: {', '.join(row.get('fields_ever', []))})")
    return (f"the agent's observation first parts at frame {row['first_divergence']}: "
            f"{row['pixels_differing']} pixel(s) of the 84x84 frame; {_often(row)}")


def _often(row: dict) -> str:
    return f"{row.get('frames_differing', '?')} of {row['frames']:,} frames differ"
