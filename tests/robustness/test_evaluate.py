"""The ALE side of the robustness stage evaluates every variant on the same random numbers (the
emulators' seeds, so their sticky actions, and the policy's draws), as the JAX side does: two
variants that play the same game give the same returns, so PC measures the mod, not the draw."""

import numpy as np

from alignment import catalog
from alignment.robustness import evaluate as ev


def test_ale_variants_share_their_random_numbers():
    writes = catalog.entry("pong").ale_mods["no_enemy_points"].writes
    out = ev.ale_returns("pong", {"original": (), "again": (), "modified": writes}, None, None,
                         agents=1, episodes=3, seed=4, max_steps=300)
    a, b, mod = (out.returns[k] for k in ("original", "again", "modified"))
    assert a.shape == (1, 3)
    np.testing.assert_array_equal(a, b)  # the same game on the same draws: the same returns
    assert a.sum() < 0  # the computer scores in 1,200 frames: the returns are not trivially equal
    assert not np.array_equal(a, mod)  # its points not counted, the same draws score otherwise


def test_a_game_cut_by_the_emulators_frame_cap_counts_as_truncated(monkeypatch):
    # the cap lowered to 400 frames (a Pong game runs far longer); 150 agent steps would be 600
    # frames: every game is cut at step 100, plays no frame past it and is counted truncated
    import dataclasses

    from alignment.robustness import emulators

    monkeypatch.setattr(emulators, "V5", dataclasses.replace(emulators.V5,
                                                             max_num_frames_per_episode=400))
    out = ev.ale_returns("pong", {"original": ()}, None, None, agents=1, episodes=2, seed=0,
                         max_steps=150, workers=1)
    assert out.truncated == {"original": 2}
    capped = ev.ale_returns("pong", {"original": ()}, None, None, agents=1, episodes=2, seed=0,
                            max_steps=100, workers=1)
    np.testing.assert_array_equal(out.returns["original"], capped.returns["original"])
